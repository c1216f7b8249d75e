// A program on openapi-generator's typescript-fetch client (tests/contract/test_generated_clients.py):
// records a hand of every variant and kind, each through its typed member of HandRecordCreate,
// reads each back typed as HandRecord, and prints what it read in the document's field names.
import { Configuration, HandsApi, type HandRecordCreate, HandRecordToJSON } from "./generated";

// Node's own globals, without @types/node.
declare const process: { argv: string[]; exit(code: number): never };

type Tables = Record<string, [string, string]>;
const hands: Array<[string, HandRecordCreate]> = [
  ["american", {
    variant: "american", kind: "played", contract: "simple", trump: "hearts", declarer: 1,
    tricks: 5, called: { rank: "ace", suit: "diamonds" }, partner: 3,
    matadores: { side: "declarers", lower: 1 },
  }],
  ["american", { variant: "american", kind: "forfeit", seat: 2 }],
  ["american", { variant: "american", kind: "misdeal" }],
  ["spanish", {
    variant: "spanish", contract: "simple", trump: "clubs", declarer: 0, tricks: 6,
    called: { rank: "ace", suit: "hearts" }, partner: 2, forced: true,
  }],
  ["german", {
    variant: "german", contract: "solo", trump: "clubs", declarer: 0, tricks: 8,
    toutAnnounced: true,
  }],
  ["solo66", { variant: "solo66", trump: "hearts", soloist: 2, soloistPoints: 70 }],
  ["solo66", { variant: "solo66", trump: null, lastTrick: 3 }],
];

async function main(base: string, tables: Tables): Promise<void> {
  const read: object[] = [];
  for (const [variant, hand] of hands) {
    const [tableId, token] = tables[variant] ?? ["", ""];
    const api = new HandsApi(new Configuration({ basePath: base, accessToken: token }));
    const recorded = await api.recordHand({ tableId, handRecordCreate: hand });
    const again = await api.getHand({ tableId, number: recorded.number });
    // The answer's record comes typed as HandRecord, its member picked by the tag.
    const record = again.hand;
    if (record.variant !== variant) throw new Error(`read ${record.variant}, not ${variant}`);
    if (record.variant === "spanish" && typeof record.forced !== "boolean") {
      throw new Error("forced");
    }
    read.push(HandRecordToJSON(record) as object);
  }
  console.log(JSON.stringify(read));
}

main(process.argv[2] ?? "", JSON.parse(process.argv[3] ?? "{}") as Tables).catch((error) => {
  console.error(error);
  process.exit(1);
});
