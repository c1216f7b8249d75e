// A program on openapi-generator's typescript-axios client (tests/contract/test_generated_clients.py):
// records a hand of every variant and kind, each through its typed member of HandRecordCreate,
// and reads each back typed as HandRecord; then a season's table and its standings, and a club
// night: its first series drawn, a hand at its table, the night's standings. It prints what it
// read as JSON in the document's field names.
import {
  Configuration, HandsApi, NightsApi, SeasonsApi, StandingsApi, TablesApi,
  type HandRecord, type HandRecordCreate,
} from "./generated";

// Node's own globals, without @types/node.
declare const process: { argv: string[]; exit(code: number): never };

type Tables = Record<string, [string, string]>;
interface Club { id: string; admin_token: string; players: string[] }

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
const solo: HandRecordCreate = {
  variant: "american", kind: "played", contract: "solo", trump: "clubs", declarer: 1, tricks: 6,
};

function config(base: string, token: string): Configuration {
  return new Configuration({ basePath: base, accessToken: token });
}

// The record's own fields, narrowed by its tag: a Spanish record has `forced`, typed.
function checked(record: HandRecord, variant: string): HandRecord {
  if (record.variant !== variant) throw new Error(`read ${record.variant}, not ${variant}`);
  if (record.variant === "spanish" && typeof record.forced !== "boolean") {
    throw new Error("forced");
  }
  return record;
}

async function main(base: string, tables: Tables, club: Club): Promise<void> {
  const read: HandRecord[] = [];
  for (const [variant, hand] of hands) {
    const [tableId, token] = tables[variant] ?? ["", ""];
    const api = new HandsApi(config(base, token));
    const recorded = await api.recordHand({ tableId, handRecordCreate: hand });
    const again = await api.getHand({ tableId, number: recorded.data.number });
    read.push(checked(again.data.hand, variant));
  }

  const admin = config(base, club.admin_token);
  const season = (await new SeasonsApi(admin).createSeason({
    clubId: club.id, seasonCreate: { name: "Winter", variant: "american" },
  })).data;
  const table = (await new TablesApi(admin).openTable({
    tableCreate: {
      club_id: club.id, name: "Season table", variant: "american",
      seats: club.players.slice(0, 4), season_id: season.id,
    },
  })).data;
  await new HandsApi(admin).recordHand({ tableId: table.id, handRecordCreate: solo });
  const standings = (await new StandingsApi(admin).getStandings({ seasonId: season.id })).data;

  const nights = new NightsApi(admin);
  const night = (await nights.startNight({
    clubId: club.id,
    nightCreate: { name: "Thursday", variant: "american", players: club.players.slice(0, 4) },
  })).data;
  const series = (await nights.drawSeries({ nightId: night.id, draw: { seed: 7 } })).data;
  const nightTable = series.tables[0];
  if (nightTable === undefined) throw new Error("no table drawn");
  await new HandsApi(admin).recordHand({ tableId: nightTable.table_id, handRecordCreate: solo });
  const board = (await nights.getNightStandings({ nightId: night.id })).data;

  console.log(JSON.stringify({
    hands: read,
    standings: standings.rows.map((row) => [row.name, row.hands, row.net]),
    night: board.standings.map((row) => [row.name, row.total]),
    night_units: board.units,
  }));
}

main(
  process.argv[2] ?? "",
  JSON.parse(process.argv[3] ?? "{}") as Tables,
  JSON.parse(process.argv[4] ?? "{}") as Club,
).catch((error) => {
  console.error(error);
  process.exit(1);
});
