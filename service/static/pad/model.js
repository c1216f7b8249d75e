// One open table as this phone knows it: the table, its hands, its variant; loading, polling
// with If-None-Match, and the words for a hand and a transfer.

import { api, NetworkError } from './api.js';
import { store } from './store.js';
import { SUITS, plain, shortNames, title } from './dom.js';
import { t, tn } from './i18n.js';

const PAGE_SIZE = 100;

let variantsPromise = null;

/** Every variant's description (GET /api/v1/variants), kept for offline use. */
export function loadVariants() {
  if (!variantsPromise) {
    variantsPromise = api.variants().then(({ data }) => {
      store.saveVariants(data);
      return data;
    }).catch((error) => {
      variantsPromise = null;
      const cached = store.variants();
      if (cached) return cached;
      throw error;
    });
  }
  return variantsPromise;
}

export async function variantNamed(name) {
  const variant = (await loadVariants()).find((v) => v.name === name);
  return variant || null;
}

/** A game's name as the API words it ("Deutsches Solo"), from the last answer kept. */
export function variantTitle(name) {
  const variant = (store.variants() || []).find((v) => v.name === name);
  return variant ? variant.title : name;
}

const contexts = new Map();

/** The context of table `id`: {id, token, adminToken, table, hands, etag, variant}. */
export function tableContext(id) {
  let ctx = contexts.get(id);
  if (!ctx) {
    const known = store.table(id) || { id };
    const cached = store.cache(id);
    ctx = {
      id,
      token: known.token,
      table: cached ? cached.table : null,
      hands: cached ? cached.hands : [],
      etag: null, // always fetch the hands once per page load
      variant: null,
      ui: { open: new Set() },
    };
    contexts.set(id, ctx);
  }
  const known = store.table(id);
  if (known && known.token) ctx.token = known.token;
  const clubId = (ctx.table && ctx.table.club_id) || (known && known.club_id);
  const club = clubId ? store.clubs()[clubId] : null;
  ctx.adminToken = club ? club.token : null;
  return ctx;
}

/** Fetch the table if it changed (If-None-Match); on a change fetch its hands. True if changed. */
export async function refresh(ctx, force = false) {
  const { status, data, headers } = await api.table(ctx.id, ctx.token || ctx.adminToken,
    force ? null : ctx.etag);
  if (status === 304) return false;
  await loadHands(ctx, data);
  ctx.etag = headers.get('ETag');
  return true;
}

/** Take a table answer (from GET or from a write) and fetch the hands that go with it. */
export async function loadHands(ctx, table) {
  const hands = [];
  for (let page = 1; ; page += 1) {
    const { data, headers } = await api.hands(ctx.id, ctx.token || ctx.adminToken, page, PAGE_SIZE);
    hands.push(...data);
    const paging = JSON.parse(headers.get('X-Pagination') || '{}');
    if (!data.length || !paging.total_pages || page >= paging.total_pages) break;
  }
  setTable(ctx, table, hands);
}

function setTable(ctx, table, hands = ctx.hands) {
  ctx.table = table;
  ctx.hands = hands;
  store.saveTable({ id: ctx.id, name: table.name, club_id: table.club_id, variant: table.variant,
    status: table.status });
  store.saveCache(ctx.id, { table, hands });
}

/** After a write answered with {number, …, table}: merge the hand, keep the new table. */
export function mergeHand(ctx, answer) {
  const { table, ...hand } = answer;
  const hands = ctx.hands.filter((h) => h.number !== hand.number);
  hands.push(hand);
  hands.sort((a, b) => a.number - b.number);
  setTable(ctx, table, hands);
  ctx.etag = `"${table.version}"`;
}

export function isNetwork(error) {
  return error instanceof NetworkError;
}

export function seatName(ctx, party) {
  if (party === 'pool') return t('pool');
  const seat = ctx.table && ctx.table.seats[party];
  return seat ? seat.name : t('seat {number}', { number: party + 1 }); // numbered from 1, as the setup shows them
}

/** The words for a hand's kind, a field's flag, an error and a result (the API's names). */
const KINDS = { played: t('Played'), forfeit: t('Forfeit'), misdeal: t('Misdeal') };
const ERRORS = {
  revoke: t('Revoke'), lead_out_of_turn: t('Lead out of turn'), play_out_of_turn: t('Play out of turn'),
  exposed_card: t('Exposed card'), unannounced_void: t('Unannounced void'),
};
const RESULTS = { won: t('Won'), lost: t('Lost'), drawn: t('Drawn') };
const FLAGS = {
  tout_after_five: t('tout after five'), stopped_after_five: t('stopped after five'),
  continued_after_five: t('continued after five'), tout_announced: t('tout announced'),
  matadors_together: t('matadors together'), forced: t('forced'),
};
const RANKS = { ace: t('Ace'), king: t('King') };
// The same words inside a running text ("called ace ♥", "revoke by Anna").
const CALLED_RANKS = { ace: t('ace'), king: t('king') };
const ERRORS_IN_TEXT = {
  revoke: t('revoke'), lead_out_of_turn: t('lead out of turn'), play_out_of_turn: t('play out of turn'),
  exposed_card: t('exposed card'), unannounced_void: t('unannounced void'),
};
const SIDES = { declarers: t('declarers'), defenders: t('defenders') };

export const kindWord = (kind) => KINDS[kind] || title(kind);
export const errorWord = (kind) => ERRORS[kind] || title(kind);
export const resultWord = (result) => RESULTS[result] || title(result);
/** A flag in a running text ("tout after five"). */
export const flagWord = (name) => FLAGS[name] || title(name).toLowerCase();
export const rankWord = (rank) => RANKS[rank] || title(rank);

/** The table's options as the variant knows them (without pool_at_close and starting_pool). */
export function variantOptions(table) {
  const { pool_at_close: _a, starting_pool: _b, ...rest } = table.options || {};
  return rest;
}

/** The state before hand `number` (the next hand when it is past the last), for a preview. */
export function stateBefore(ctx, number) {
  const { table, hands } = ctx;
  const state = {};
  let stakeDue = true;
  let firstWon = false;
  let pool = (table.options && table.options.starting_pool) || 0;
  let couleur = (table.options && table.options.couleur) || null;
  for (const hand of hands) {
    if (hand.number >= number) break;
    const s = hand.settlement;
    if (!s) continue;
    if (s.pool) pool = s.pool.after;
    if (s.couleur) couleur = s.couleur.after;
    stakeDue = (hand.hand.kind || 'played') === 'played';
    if (s.result === 'won') firstWon = true;
  }
  const current = hands.find((h) => h.number === number);
  const isNext = !current;
  state.dealer = isNext ? table.dealer : current.dealer;
  if (table.pool !== null && table.pool !== undefined) state.pool = isNext ? table.pool : pool;
  if (table.couleur) state.couleur = isNext ? table.couleur : couleur;
  if (table.stake_due !== null && table.stake_due !== undefined) {
    state.stake_due = isNext ? table.stake_due : stakeDue;
  }
  if (table.variant === 'american') state.first_game_won = firstWon;
  return state;
}

export function contractTitle(variant, name) {
  const c = variant && (variant.contracts || []).find((x) => x.name === name);
  return c && c.title ? c.title : name ? title(name) : t('Game');
}

/** "Solo ♥ · Anna · 6 tricks", or "Misdeal", "Forfeit by Bob". */
export function describeHand(ctx, record) {
  if (!record) return '';
  const kind = record.kind || 'played';
  if (kind === 'misdeal') return t('Misdeal');
  if (kind === 'forfeit') return t('Forfeit by {name}', { name: seatName(ctx, record.seat) });
  const parts = [];
  if (record.contract) {
    const game = contractTitle(ctx.variant, record.contract);
    parts.push(record.trump ? `${game} ${SUITS[record.trump]}` : game);
  } else parts.push(record.trump ? t('Game') + ' ' + SUITS[record.trump] : t('Game no trump'));
  const who = record.declarer ?? record.soloist;
  if (who !== undefined && who !== null) {
    const name = seatName(ctx, who);
    const partner = record.partner;
    if (partner === undefined || partner === null) parts.push(name);
    else if (partner === who) parts.push(t('{name} (own card)', { name }));
    else parts.push(t('{name} & {partner}', { name, partner: seatName(ctx, partner) }));
  }
  if (record.called) {
    const rank = CALLED_RANKS[record.called.rank] || record.called.rank;
    parts.push(t('called {rank} {suit}', { rank, suit: SUITS[record.called.suit] }));
  }
  if (record.tricks !== undefined && record.tricks !== null) {
    const tricks = record.tricks;
    parts.push(tn(tricks, '{n} trick', '{n} tricks'));
  }
  if (record.soloist_points !== undefined && record.soloist_points !== null) {
    const points = record.soloist_points;
    parts.push(tn(points, '{n} point', '{n} points')); // card points: never exactly 1
  }
  if (record.last_trick !== undefined && record.last_trick !== null) {
    parts.push(t('last trick {name}', { name: seatName(ctx, record.last_trick) }));
  }
  if (record.tout_after_five) parts.push(flagWord('tout_after_five'));
  if (record.matadores) {
    const { side, lower } = record.matadores;
    parts.push(t('matadores {side} +{lower}', { side: SIDES[side] || side, lower }));
  }
  for (const flag of ['stopped_after_five', 'continued_after_five', 'tout_announced',
    'matadors_together', 'forced']) {
    if (record[flag]) parts.push(flagWord(flag));
  }
  for (const e of record.errors || []) {
    const error = ERRORS_IN_TEXT[e.kind] || title(e.kind).toLowerCase();
    parts.push(t('{error} by {name}', { error, name: seatName(ctx, e.seat) }));
  }
  return parts.join(' · ');
}

const REASONS = { stake: t('stake'), game: t('game'), stamm: t('stamm'), bete: t('bête') };

export function describeTransfer(ctx, transfer) {
  return t('{from} → {to}: {chips} ({reason})', { from: seatName(ctx, transfer.from), to: seatName(ctx, transfer.to),
    chips: transfer.chips, reason: REASONS[transfer.reason] || plain(transfer.reason) });
}

/** The seats' short names (first names, longer where two look alike). */
export function shortName(ctx, party) {
  if (party === 'pool') return t('pool');
  const names = ctx.table.seats.map((s) => s.name);
  if (ctx.shortFor !== names.join('\n')) {
    ctx.shortFor = names.join('\n');
    ctx.shorts = shortNames(names);
  }
  return ctx.shorts[party] ?? seatName(ctx, party);
}

/** What a hand counted as, if not its contract: an American simple game alone is a solo. */
export function countedAs(ctx, hand) {
  const r = hand.hand || {};
  const alone = r.partner === undefined || r.partner === null || r.partner === r.declarer;
  return ctx.table.variant === 'american' && r.contract === 'simple' && alone ? 'solo' : null;
}

/** "Solo ♥ Bernd, won", "Forfeit Bob", "Misdeal": one line of the score sheet. */
export function shortHand(ctx, hand) {
  const r = hand.hand || {};
  const kind = r.kind || 'played';
  if (kind === 'misdeal') return t('Misdeal');
  if (kind === 'forfeit') return t('Forfeit {name}', { name: shortName(ctx, r.seat) });
  const game = r.contract ? contractTitle(ctx.variant, r.contract) : r.trump === null ? t('No trump') : t('Game');
  const trump = r.trump ? ` ${SUITS[r.trump]}` : '';
  const who = r.declarer ?? r.soloist ?? r.last_trick;
  let people = '';
  if (who !== undefined && who !== null) {
    const name = shortName(ctx, who);
    people = r.partner !== undefined && r.partner !== null && r.partner !== who
      ? ' ' + t('{name} & {partner}', { name, partner: shortName(ctx, r.partner) }) : ` ${name}`;
  }
  const counted = countedAs(ctx, hand);
  const as = counted ? ' (' + t('counted as {contract}', { contract: contractTitle(ctx.variant, counted) }) + ')' : '';
  const line = `${game}${trump}${people}${as}`;
  const result = hand.status === 'void' ? 'void' : hand.settlement && hand.settlement.result;
  if (result === 'won') return t('{hand}, won', { hand: line });
  if (result === 'lost') return t('{hand}, lost', { hand: line });
  if (result === 'drawn') return t('{hand}, drawn', { hand: line });
  if (result === 'void') return t('{hand}, void', { hand: line });
  return result ? `${line}, ${result}` : line;
}

/** The couleur: the service's, or Spanish Solo's fixed colour (an option). */
export function couleurOf(table) {
  return table.couleur || (table.variant === 'spanish' && table.options && table.options.couleur) || null;
}

/** Whether the couleur can no longer change (fixed, or set by the first game won). */
export function couleurSettled(ctx) {
  const tb = ctx.table;
  const o = tb.options || {};
  if (tb.variant === 'american' && o.couleur_policy === 'first_won') {
    return ctx.hands.some((x) => x.status !== 'void' && x.settlement && x.settlement.result === 'won');
  }
  if (tb.variant === 'german' && o.preferred_suit === 'first_won') return !!tb.couleur;
  return true;
}

/** The score sheet: per hand its deltas, the running balances and the pool after it. */
export function sheetRows(ctx) {
  const n = ctx.table.seats.length;
  const running = new Array(n).fill(0);
  let pool = (ctx.table.options && ctx.table.options.starting_pool) || 0;
  return ctx.hands.map((hand) => {
    const s = hand.status === 'void' ? null : hand.settlement;
    const deltas = s ? s.deltas : new Array(n).fill(0);
    deltas.forEach((d, i) => { running[i] += d; });
    if (s && s.pool) pool = s.pool.after;
    return { hand, deltas, balances: [...running], pool };
  });
}

/** The next hand as far as this phone knows it, the queued hands included: number, dealer,
 *  whether a stake is due, and whether pool and couleur are still known (not while hands wait). */
export function nextHand(ctx, queued) {
  const t = ctx.table;
  const n = t.seats.length;
  let dealer = t.dealer;
  let stakeDue = t.stake_due;
  for (const e of queued) {
    const played = (e.body.kind || 'played') === 'played';
    if (played || t.variant !== 'american') dealer = (dealer + 1) % n;
    if (stakeDue !== null && stakeDue !== undefined) stakeDue = played;
  }
  const number = Math.max(t.next_number, ...queued.map((e) => e.number + 1));
  return { number, dealer, stakeDue, known: queued.length === 0 };
}
