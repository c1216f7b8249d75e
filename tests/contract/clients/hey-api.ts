// A program on @hey-api/openapi-ts's client (tests/contract/test_generated_clients.py):
// records a hand of every variant and kind, typed as HandRecordCreate's members, reads each
// back typed as HandRecord, narrows it by its tag, and prints what it read as JSON.
import { createClient } from "./generated/client";
import { getHand, recordHand } from "./generated/sdk.gen";
import type { HandRecord, HandRecordCreate } from "./generated/types.gen";

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
    tout_announced: true,
  }],
  ["solo66", { variant: "solo66", trump: "hearts", soloist: 2, soloist_points: 70 }],
  ["solo66", { variant: "solo66", trump: null, last_trick: 3 }],
];

// The answer's record comes typed as HandRecord: its tag narrows it to the variant's record.
function typed(variant: string, hand: HandRecord): HandRecord {
  if (hand.variant !== variant) throw new Error(`read ${hand.variant ?? "none"}, not ${variant}`);
  if (hand.variant === "spanish" && typeof hand.forced !== "boolean") throw new Error("forced");
  if (hand.variant === "german" && typeof hand.tout_announced !== "boolean") {
    throw new Error("tout_announced");
  }
  return hand;
}

async function main(base: string, tables: Tables): Promise<void> {
  const read: object[] = [];
  for (const [variant, hand] of hands) {
    const [tableId, token] = tables[variant] ?? ["", ""];
    const client = createClient({ baseUrl: base, auth: token });
    const recorded = await recordHand({
      client, path: { table_id: tableId }, body: hand, throwOnError: true,
    });
    const again = await getHand({
      client, path: { table_id: tableId, number: recorded.data.number }, throwOnError: true,
    });
    read.push(typed(variant, again.data.hand));
  }
  console.log(JSON.stringify(read));
}

main(process.argv[2] ?? "", JSON.parse(process.argv[3] ?? "{}") as Tables).catch((error) => {
  console.error(error);
  process.exit(1);
});
