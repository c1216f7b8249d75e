// A small integrator's program, type-checked by `tsc --strict` against the types that
// openapi-typescript generates from openapi.yaml (tests/contract/test_typescript_client.py):
// it records a hand of each variant, previews one, and reads a problem.
import type { components, paths } from "./api";

type Schemas = components["schemas"];
type RecordBody =
  paths["/api/v1/tables/{table_id}/hands"]["post"]["requestBody"]["content"]["application/json"];
type Recorded =
  paths["/api/v1/tables/{table_id}/hands"]["post"]["responses"]["201"]["content"]["application/json"];
type Problem = Schemas["Problem"];
type PreviewBody =
  paths["/api/v1/settlements/preview"]["post"]["requestBody"]["content"]["application/json"];

const american: Schemas["AmericanPlayedHandCreate"] = {
  variant: "american", kind: "played", contract: "simple", trump: "hearts", declarer: 1, tricks: 5,
  called: { rank: "ace", suit: "diamonds" }, partner: 3, tout_after_five: false,
  matadores: { side: "declarers", lower: 1 }, errors: [{ kind: "revoke", seat: 2 }],
  expected_number: 1,
};
const forfeit: Schemas["AmericanForfeitCreate"] = { variant: "american", kind: "forfeit", seat: 2 };
const misdeal: Schemas["AmericanMisdealCreate"] = { variant: "american", kind: "misdeal" };
const spanish: Schemas["SpanishHandCreate"] = {
  variant: "spanish", contract: "simple", trump: "clubs", declarer: 0, tricks: 6,
  called: { rank: "ace", suit: "hearts" }, partner: 2, forced: false,
};
const german: Schemas["GermanHandCreate"] = {
  variant: "german", contract: "frage", trump: "spades", declarer: 1, tricks: 5,
  called: { rank: "ace", suit: "hearts" }, partner: 3, stopped_after_five: true,
  matadors_together: false,
};
const mediateur: Schemas["GermanHandCreate"] = {
  variant: "german", contract: "mediateur", trump: "hearts", declarer: 2, tricks: 5,
  called: { rank: "ace", suit: "clubs" }, giver: 1,
};
const solo66: Schemas["Solo66HandCreate"] = {
  variant: "solo66", trump: "hearts", soloist: 2, soloist_points: 70, defender_points: 64,
};
const allPassed: Schemas["Solo66HandCreate"] = { variant: "solo66", trump: null, last_trick: 4 };

const preview: PreviewBody = {
  variant: "german", players: 4, hand: { variant: "german", contract: "solo", trump: "clubs", declarer: 0, tricks: 6 },
};

type Answer = { ok: true; hand: Recorded } | { ok: false; problem: Problem };

async function recordHand(base: string, token: string, tableId: string, hand: RecordBody,
                          version: number): Promise<Answer> {
  const answer = await fetch(`${base}/api/v1/tables/${encodeURIComponent(tableId)}/hands`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}`,
               "If-Match": `"${version}"` },
    body: JSON.stringify(hand),
  });
  if (answer.status === 201) return { ok: true, hand: (await answer.json()) as Recorded };
  const problem = (await answer.json()) as Problem;
  if (problem.type === "urn:solo:problem:hand-number-taken" && problem.next_number !== undefined) {
    console.log(`hand taken; the next is ${problem.next_number}: ${problem.detail ?? ""}`);
  }
  return { ok: false, problem };
}

export async function evening(base: string, token: string, tableId: string): Promise<number> {
  let version = 1;
  for (const hand of [american, forfeit, misdeal, spanish, german, mediateur, solo66,
                     allPassed]) {
    const answer = await recordHand(base, token, tableId, hand, version);
    if (answer.ok) {
      version = answer.hand.table.version;
      const balances: number[] = answer.hand.table.seats.map((seat) => seat.balance);
      const result: "won" | "lost" | "drawn" | null | undefined = answer.hand.settlement?.result;
      console.log(answer.hand.number, result ?? "no result", balances);
    } else {
      console.log(answer.problem.status, answer.problem.title, answer.problem.errors);
    }
  }
  console.log(JSON.stringify(preview));
  return version;
}
