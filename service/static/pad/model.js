// One open table as this phone knows it: the table, its hands, its variant; loading, polling
// with If-None-Match, and the words for a hand and a transfer. A table's context is changed
// here only (the screens read it; what they show besides is their own state, app.js).

import { api, NetworkError } from './api.js';
import { HANDS_PAGE_SIZE } from './boot.js';
import { store } from './store.js';
import { plain, shortNames, title } from './dom.js';
import { dealPasses } from './hand-fields.js';
import { t } from './i18n.js';

let variantsPromise = null;

/** Every variant's description (GET /api/v1/variants), kept for offline use. */
export function loadVariants() {
  if (!variantsPromise) {
    variantsPromise = api
      .variants()
      .then(({ data }) => {
        store.saveVariants(data);
        return data;
      })
      .catch((error) => {
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
  const { status, data, headers } = await api.table(
    ctx.id,
    ctx.token || ctx.adminToken,
    force ? null : ctx.etag,
  );
  if (status === 304) return false;
  await loadHands(ctx, data);
  ctx.etag = headers.get('ETag');
  return true;
}

/** Take a table answer (from GET or from a write) and fetch the hands that go with it. */
export async function loadHands(ctx, table) {
  const hands = [];
  for (let page = 1; ; page += 1) {
    const token = ctx.token || ctx.adminToken;
    const { data, headers } = await api.hands(ctx.id, token, page, HANDS_PAGE_SIZE);
    hands.push(...data);
    const paging = JSON.parse(headers.get('X-Pagination') || '{}');
    if (!data.length || !paging.total_pages || page >= paging.total_pages) break;
  }
  setTable(ctx, table, hands);
}

function setTable(ctx, table, hands = ctx.hands) {
  ctx.table = table;
  ctx.hands = hands;
  store.saveTable({
    id: ctx.id,
    name: table.name,
    club_id: table.club_id,
    variant: table.variant,
    status: table.status,
  });
  store.saveCache(ctx.id, { table, hands });
}

/** The table as a change of its settings (or closing it) answered: kept, its hands and its
 *  version read again on the next poll. */
export function tookTable(ctx, table) {
  setTable(ctx, table);
  ctx.etag = null;
}

/** After a correction, a void or a re-seating answered with the table: its hands fetched. */
export async function tookWrite(ctx, table) {
  await loadHands(ctx, table);
  ctx.etag = `"${table.version}"`;
}

/** Others wrote too: the table is fetched again, not asked for with If-None-Match. */
export function forgetVersion(ctx) {
  ctx.etag = null;
}

/** The table's game description, once (GET /variants; a bare one when it cannot be had). */
export async function loadVariant(ctx) {
  if (ctx.variant) return;
  const name = ctx.table.variant;
  ctx.variant = (await variantNamed(name).catch(() => null)) || {
    name,
    title: name,
    contracts: [],
    options: [],
  };
}

/** After a write answered with {number, …, table}: merge the hand, keep the new table. */
export function mergeHand(ctx, answer) {
  const { table, ...hand } = answer;
  const hands = ctx.hands.filter((x) => x.number !== hand.number);
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
  // Numbered from 1, as the setup shows them.
  return seat ? seat.name : t('seat {number}', { number: party + 1 });
}

const RESULTS = { won: t('Won'), lost: t('Lost'), drawn: t('Drawn') };
export const resultWord = (result) => RESULTS[result] || title(result);

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
  let couleur = null;
  for (const hand of hands) {
    if (hand.number >= number) break;
    const s = hand.settlement;
    if (!s) continue;
    if (s.pool) pool = s.pool.after;
    if (s.couleur) couleur = s.couleur.after;
    stakeDue = dealPasses(ctx.variant, hand.hand); // a new dealer stakes; a redeal does not
    if (s.result === 'won') firstWon = true;
  }
  const current = hands.find((x) => x.number === number);
  const isNext = !current;
  state.dealer = isNext ? table.dealer : current.dealer;
  if (table.pool !== null && table.pool !== undefined) state.pool = isNext ? table.pool : pool;
  if (table.couleur && (isNext || couleur)) state.couleur = isNext ? table.couleur : couleur;
  if (table.stake_due !== null && table.stake_due !== undefined) {
    state.stake_due = isNext ? table.stake_due : stakeDue;
  }
  const takes = new Set(((ctx.variant && ctx.variant.state_fields) || []).map((f) => f.name));
  if (takes.has('first_game_won')) state.first_game_won = firstWon;
  return state;
}

const REASONS = { stake: t('stake'), game: t('game'), stamm: t('stamm'), bete: t('bête') };

export function describeTransfer(ctx, transfer) {
  return t('{from} → {to}: {chips} ({reason})', {
    from: seatName(ctx, transfer.from),
    to: seatName(ctx, transfer.to),
    chips: transfer.chips,
    reason: REASONS[transfer.reason] || plain(transfer.reason),
  });
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

// The words of a game's doubled suit, by the message id its description names
// (`doubled_suit.word`): American and Spanish Solo's couleur, German Solo's preferred suit.
const DOUBLED_WORDS = {
  Couleur: {
    title: t('Couleur'),
    of: (suit) => t('couleur {suit}', { suit }),
    in: t('in couleur'),
    unknown: t('the couleur and the balances'),
    unknownWithPool: t('the pool, the couleur and the balances'),
  },
  'Preferred suit': {
    title: t('Preferred suit'),
    of: (suit) => t('preferred suit {suit}', { suit }),
    in: t('in the preferred suit'),
    unknown: t('the preferred suit and the balances'),
    unknownWithPool: t('the pool, the preferred suit and the balances'),
  },
};

/** The doubled suit's words for the table's game (`key`: its English name, for tests and
 *  styles); the couleur's for a game whose description names none the pad knows. */
export function doubledWords(ctx) {
  const doubled = ctx.variant && ctx.variant.doubled_suit;
  const word = doubled && doubled.word in DOUBLED_WORDS ? doubled.word : 'Couleur';
  return { key: word.toLowerCase(), ...DOUBLED_WORDS[word] };
}

/** The doubled suit in force: the table's, or the option naming one that never changes
 *  (the game's description says which: Spanish Solo's colour). */
export function couleurOf(ctx) {
  const { table, variant } = ctx;
  const option = variant && variant.doubled_suit && variant.doubled_suit.fixed_option;
  return table.couleur || (option && table.options && table.options[option]) || null;
}

/** Whether the doubled suit can no longer change: fixed from the start, or, with the options
 *  that make it the trump of the first game won (the description's `first_won_when`), once a
 *  game is won. */
export function couleurSettled(ctx) {
  const options = ctx.table.options || {};
  const when = (ctx.variant && ctx.variant.doubled_suit && ctx.variant.doubled_suit.first_won_when)
    || {};
  const changes = Object.entries(when).some(([name, values]) => values.includes(options[name]));
  if (!changes) return true;
  return ctx.hands.some(
    (x) => x.status !== 'void' && x.settlement && x.settlement.result === 'won',
  );
}

/** The score sheet: per hand its deltas, the running balances and the pool after it. */
export function sheetRows(ctx) {
  const n = ctx.table.seats.length;
  const running = new Array(n).fill(0);
  let pool = (ctx.table.options && ctx.table.options.starting_pool) || 0;
  return ctx.hands.map((hand) => {
    const s = hand.status === 'void' ? null : hand.settlement;
    const deltas = s ? s.deltas : new Array(n).fill(0);
    deltas.forEach((d, i) => {
      running[i] += d;
    });
    if (s && s.pool) pool = s.pool.after;
    return { hand, deltas, balances: [...running], pool };
  });
}

/** The next hand as far as this phone knows it, the queued hands included: number, dealer,
 *  whether a stake is due, and whether pool and couleur are still known (not while hands wait).
 *  Whether the deal passes after a hand is its kind's (the game's description). */
export function nextHand(ctx, queued) {
  const tb = ctx.table;
  const n = tb.seats.length;
  let dealer = tb.dealer;
  let stakeDue = tb.stake_due;
  for (const e of queued) {
    const passes = dealPasses(ctx.variant, e.body);
    if (passes) dealer = (dealer + 1) % n;
    if (stakeDue !== null && stakeDue !== undefined) stakeDue = passes;
  }
  const number = Math.max(tb.next_number, ...queued.map((e) => e.number + 1));
  return { number, dealer, stakeDue, known: queued.length === 0 };
}
