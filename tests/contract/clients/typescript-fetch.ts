// A program on openapi-generator's typescript-fetch client (tests/contract/test_generated_clients.py):
// records a hand of every variant and kind, each through its typed member of HandRecordCreate,
// reads each back, parses it as its variant's record, and prints what it read as JSON.
import {
  Configuration, HandsApi, type HandRecordCreate, AmericanPlayedHandFromJSON,
  AmericanPlayedHandToJSON, AmericanForfeitFromJSON, AmericanForfeitToJSON,
  AmericanMisdealFromJSON, AmericanMisdealToJSON, SpanishHandFromJSON, SpanishHandToJSON,
  GermanHandFromJSON, GermanHandToJSON, Solo66HandFromJSON, Solo66HandToJSON,
} from "./generated";

// Each record's own parser and, to print what was read in the document's field names, its
// serializer (the generated models name fields in camelCase).
function as<T>(from: (json: unknown) => T, to: (value: T) => object) {
  return (json: unknown): object => to(from(json));
}

// Node's own globals, without @types/node.
declare const process: { argv: string[]; exit(code: number): never };

type Tables = Record<string, [string, string]>;
const hands: Array<[string, HandRecordCreate, (json: unknown) => object]> = [
  ["american", {
    variant: "american", kind: "played", contract: "simple", trump: "hearts", declarer: 1,
    tricks: 5, called: { rank: "ace", suit: "diamonds" }, partner: 3,
    matadores: { side: "declarers", lower: 1 },
  }, as(AmericanPlayedHandFromJSON, AmericanPlayedHandToJSON)],
  ["american", { variant: "american", kind: "forfeit", seat: 2 }, as(AmericanForfeitFromJSON, AmericanForfeitToJSON)],
  ["american", { variant: "american", kind: "misdeal" }, as(AmericanMisdealFromJSON, AmericanMisdealToJSON)],
  ["spanish", {
    variant: "spanish", contract: "simple", trump: "clubs", declarer: 0, tricks: 6,
    called: { rank: "ace", suit: "hearts" }, partner: 2, forced: true,
  }, as(SpanishHandFromJSON, SpanishHandToJSON)],
  ["german", {
    variant: "german", contract: "solo", trump: "clubs", declarer: 0, tricks: 8,
    toutAnnounced: true,
  }, as(GermanHandFromJSON, GermanHandToJSON)],
  ["solo66", { variant: "solo66", trump: "hearts", soloist: 2, soloistPoints: 70 },
   as(Solo66HandFromJSON, Solo66HandToJSON)],
  ["solo66", { variant: "solo66", trump: null, lastTrick: 3 },
   as(Solo66HandFromJSON, Solo66HandToJSON)],
];

async function main(base: string, tables: Tables): Promise<void> {
  const read: object[] = [];
  for (const [variant, hand, parse] of hands) {
    const [tableId, token] = tables[variant] ?? ["", ""];
    const api = new HandsApi(new Configuration({ basePath: base, accessToken: token }));
    const recorded = await api.recordHand({ tableId, handRecordCreate: hand });
    const again = await api.getHand({ tableId, number: recorded.number });
    read.push(parse(again.hand));
  }
  console.log(JSON.stringify(read));
}

main(process.argv[2] ?? "", JSON.parse(process.argv[3] ?? "{}") as Tables).catch((error) => {
  console.error(error);
  process.exit(1);
});
