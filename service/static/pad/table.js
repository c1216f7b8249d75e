// The table screen: seats with balances, pool, couleur, next dealer, stake; the hands waiting
// in the outbox (and any conflict, with both versions); the history with transfers and
// explanations, each hand with Correct and Void.

import { api } from './api.js';
import { h, append, clear, signed, sr, suitLabel, toast } from './dom.js';
import { lang, t, tn, tx, num } from './i18n.js';
import { playersOf } from './hand-fields.js';
import {
  contractTitle, countedContract, describeHand, kindTitle, shortHand, trumpOf,
} from './hand-words.js';
import {
  couleurOf, couleurSettled, doubledWords, nextHand, seatName, sheetRows, shortName,
} from './model.js';
import { settlementView, summaryLine, withNames } from './settlement.js';
import { store } from './store.js';
import { discard, entriesFor, renumber } from './outbox.js';
import { settleUpView } from './settle-up-view.js';
import { tableAfter, write, writeToken } from './writes.js';

export function nextNumber(ctx) {
  return nextHand(ctx, entriesFor(ctx.id)).number;
}

/** Closed, or its session over: no next deal. */
const finished = (tb) => tb.status === 'closed' || !!(tb.session && tb.session.over);

function facts(ctx) {
  const tb = ctx.table;
  const done = finished(tb);
  const next = nextHand(ctx, entriesFor(ctx.id));
  const dealer = seatName(ctx, next.dealer);
  const unknown = t('not known yet');
  const items = []; // [the fact's English name (data-fact, for tests and styles), its label, its value]
  if (tb.pool !== null && tb.pool !== undefined) items.push(['pool', t('Pool'), next.known ? num(tb.pool) : unknown]);
  const couleur = couleurOf(ctx);
  if (couleur) {
    const known = next.known || couleurSettled(ctx);
    const doubled = doubledWords(ctx); // the couleur, or what the game calls it
    items.push([doubled.key, doubled.title, known ? suitLabel(couleur) : unknown]);
  }
  if (!done) items.push(['deals next', t('Deals next'), dealer]);
  if (!done && next.stakeDue !== null && next.stakeDue !== undefined) {
    const stake = tb.options && tb.options.stake;
    const due = { stake: stake ?? '' };
    items.push(['stake', t('Stake'), next.stakeDue ? t('{stake} due', due) : t('paid (redeal)')]);
  }
  items.push(['hands', t('Hands'), num(tb.hands_played)]);
  return h('dl.facts', items.map(([k, label, val]) => h('div', h('dt', label), h('dd.fit', { 'data-fact': k }, val))));
}

/** A session at its end: who won ("Gewonnen hat …" fits anyone) and why (the service's reason
 *  names seats, "asiento 1 y asiento 3"; the players read their names). */
function ended(ctx) {
  const tb = ctx.table;
  const names = tb.session.winners.map((i) => seatName(ctx, i));
  const all = new Intl.ListFormat(lang, { type: 'conjunction' }).format(names);
  return h('p.notice.ok', { 'data-session': 'over' },
    names.length ? [h('strong', names.length > 1 ? t('Winners: {names}', { names: all }) : t('Winner: {names}', { names: all })), ' · '] : null,
    t('The session is over: {reason}', { reason: withNames(ctx, tb.session.reason) }),
    tb.status === 'closed' ? [' ', t('This table is closed: these are its final balances.')] : null);
}

/** The unit of a table's balances, as a word ("chips", "points"). */
function unitWord(units) {
  return units === 'points' ? t('points') : t('chips');
}

function seats(ctx) {
  const tb = ctx.table;
  const waiting = entriesFor(ctx.id).length;
  const dealer = finished(tb) ? null : tb.dealer;
  return [h('ol.seats', { 'aria-label': finished(tb) ? t('Final balances') : t('Seats in playing order, with balances') }, tb.seats.map((s) => h(
    `li.seat${s.seat === dealer ? '.dealer' : ''}`, { 'data-seat': s.seat },
    h('span.name.fit', s.name),
    s.seat === dealer ? h('span.tag', t('deals')) : null,
    h(`span.balance${s.balance < 0 ? '.minus' : s.balance > 0 ? '.plus' : ''}`, signed(s.balance), sr(` ${unitWord(tb.units)}`)),
  ))), waiting ? h('p.hint', tn(waiting, 'Balances before the {n} hand waiting to be sent.',
    'Balances before the {n} hands waiting to be sent.')) : null];
}

// --- the score sheet --------------------------------------------------------------------------
/** Initials ("AKB"), numbered where two are alike ("AKB1"). */
function initialsOf(ctx) {
  const initials = ctx.table.seats.map((s) => {
    const w = s.name.split(/[\s-]+/).filter(Boolean).map((x) => x.charAt(0).toUpperCase());
    return w.length > 3 ? `${w[0]}${w[1]}${w[w.length - 1]}` : w.join('');
  });
  return initials.map((x, i) => (initials.filter((y) => y === x).length > 1 ? `${x}${i + 1}` : x));
}

/** Column headers short enough for five seats on a phone: the first name, or initials. */
function headers(ctx) {
  const initials = initialsOf(ctx);
  return ctx.table.seats.map((s, i) => {
    const short = shortName(ctx, i);
    return short.length <= (ctx.table.seats.length > 4 ? 4 : 5) ? short : initials[i];
  });
}

/** Kept on the phone: newest or oldest first, balances shown. */
const sheetPrefs = () => store.pref('sheet', { oldestFirst: false, balances: false });

function sheet(ctx, app) {
  const tb = ctx.table;
  const rows = sheetRows(ctx);
  if (!rows.length) return h('p.hint', t('No hand yet.'));
  const prefs = sheetPrefs();
  const heads = headers(ctx);
  const marks = initialsOf(ctx);
  const hasPool = tb.pool !== null && tb.pool !== undefined;
  const cols = tb.seats.length + 1 + (hasPool ? 1 : 0);
  const choose = (change, k) => { // the focus stays on the button
    store.savePref('sheet', { ...prefs, ...change });
    app.update();
    document.querySelectorAll('.sheettools button')[k]?.focus();
  };
  const tools = h('div.sheettools',
    h('button.small', { type: 'button', 'aria-pressed': String(!prefs.oldestFirst), onclick: () => choose({ oldestFirst: !prefs.oldestFirst }, 0) },
      t('Newest first')),
    h('button.small', { type: 'button', 'aria-pressed': String(prefs.balances), onclick: () => choose({ balances: !prefs.balances }, 1) },
      t('Balances')));
  const head = h('thead', h('tr', h('th.hd', { scope: 'col' }, t('Hand')), tb.seats.map((s, i) => h('th', { scope: 'col' },
    h('button.link.head.fit', { type: 'button', 'aria-label': heads[i] === s.name ? null : `${heads[i]}: ${s.name}`,
      onclick: () => toast(s.name) }, heads[i]))),
  hasPool ? h('th.pool', { scope: 'col' }, t('Pool')) : null));
  const ordered = prefs.oldestFirst ? rows : rows.slice().reverse();
  const bodies = ordered.map(({ hand, deltas, balances, pool }) => {
    const isVoid = hand.status === 'void';
    const open = ctx.ui.open.has(hand.number);
    const more = h('tr.more', { hidden: !open }, h('td', { colSpan: cols }));
    const fill = () => { if (!more.firstChild.firstChild) more.firstChild.append(handDetails(ctx, app, hand)); };
    if (open) fill();
    const { who } = playersOf(ctx.variant, hand.hand || {});
    const toggle = h('button.what', { type: 'button', 'aria-expanded': String(open), onclick: () => {
      const now = more.hidden;
      more.hidden = !now;
      toggle.setAttribute('aria-expanded', String(now));
      if (now) { ctx.ui.open.add(hand.number); fill(); } else ctx.ui.open.delete(hand.number);
    } }, h('span.no', num(hand.number)), ' ', h('span.glyph', { 'aria-hidden': 'true' }, handGlyph(ctx, hand)),
    hand.revision > 1 ? h('span.fixed', { 'aria-hidden': 'true' }, '*') : null,
    h('span.mark', { 'aria-hidden': 'true' }, marks[hand.dealer]),
    sr(' ', h('span.line', shortHand(ctx, hand)),
      hand.revision > 1 ? [' (', t('corrected'), ')'] : '', ' · ', t('{name} dealt', { name: shortName(ctx, hand.dealer) })));
    return h(`tbody.hand${isVoid ? '.void' : ''}`, { 'data-number': hand.number },
      h('tr.nums', h('th', { scope: 'row' }, toggle), balances.map((b, i) => h(`td${i === who ? '.decl' : ''}`,
        h(`span.d${deltas[i] > 0 ? '.plus' : deltas[i] < 0 ? '.minus' : ''}`, isVoid ? '0' : signed(deltas[i])),
        h('span.run', { hidden: !prefs.balances }, signed(b)))),
      hasPool ? h('td.pool', num(pool)) : null), more);
  });
  return [tools, h(`table.sheet${prefs.balances ? '.withruns' : ''}`, { 'data-seats': tb.seats.length },
    h('caption', t('Each hand: what it moved')),
    head, bodies)];
}

/** "S♥", "ES♠": the initials of what the hand counted as (more letters where two are alike), the trump. */
function handGlyph(ctx, hand) {
  const r = hand.hand || {};
  const kind = ctx.variant && ctx.variant.hand_kinds ? r.kind || ctx.variant.hand_kinds[0].name : null;
  if (kind && kind !== ctx.variant.hand_kinds[0].name) return `${kindTitle(ctx.variant, kind).slice(0, 3)}.`;
  const contract = countedContract(ctx, hand);
  const { field, symbol: trump } = trumpOf(ctx.variant, r);
  if (!contract) return trump || initials((field && field.none_title) || t('No trump'));
  const titles = ((ctx.variant && ctx.variant.contracts) || []).map((c) => contractTitle(ctx.variant, c.name));
  const mine = contractTitle(ctx.variant, contract);
  const tries = (x) => [initials(x), x.slice(0, 2), x.slice(0, 3)];
  const pick = tries(mine).find((a) => titles.filter((x) => x !== mine && tries(x).includes(a)).length === 0) || mine;
  return `${pick}${trump}`;
}

const initials = (text) => text.replace(/\(.*\)/, '').split(/\s+/).filter(Boolean).map((w) => w.charAt(0).toUpperCase()).join('');

function handDetails(ctx, app, hand) {
  const isVoid = hand.status === 'void';
  const s = hand.settlement;
  const dealt = { name: seatName(ctx, hand.dealer), revision: hand.revision };
  const box = h('div.body',
    h('p', describeHand(ctx, hand.hand)),
    h('p.hint', hand.revision > 1 ? t('Dealt by {name} · corrected (revision {revision})', dealt) : t('Dealt by {name}', dealt)),
    s && !isVoid ? settlementView(ctx, s) : h('p', t('Void: this hand moves nothing.')),
    h('div.buttons',
      h('button.small', { type: 'button', onclick: () => app.go(`#table=${encodeURIComponent(ctx.id)}&go=edit&n=${hand.number}`) },
        t('Correct hand {number}', { number: hand.number })),
      isVoid
        ? h('button.small', { type: 'button', onclick: () => restore(ctx, app, hand) }, t('Restore hand {number}', { number: hand.number }))
        : h('button.small.danger', { type: 'button', onclick: () => confirmVoid(ctx, app, hand, box) },
          t('Void hand {number}', { number: hand.number }))));
  return box;
}

// --- the chart --------------------------------------------------------------------------------
const W = 320;
const H = 160;
const PAD = { left: 30, right: 6, top: 8, bottom: 18 }; // room for the axes' values
const MARKS = '●■▲◆✕'; // each player's marker, also in the legend

function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, val] of Object.entries(attrs || {})) el.setAttribute(k, String(val));
  el.append(...children);
  return el;
}

function marker(i, x, y) {
  return svg('text', { x, y, class: 'm' }, MARKS[i % 5]);
}

/** The balances over the evening, one line per player (drawn here): axis values, a colour, dash
 *  and marker per player as in the legend; lines on the same values drawn apart. */
function chart(ctx) {
  const rows = sheetRows(ctx);
  if (rows.length < 2) return null;
  const seatsCount = ctx.table.seats.length;
  const series = ctx.table.seats.map((_, i) => [0, ...rows.map((r) => r.balances[i])]);
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const x = (k) => PAD.left + (k * (W - PAD.left - PAD.right)) / rows.length;
  const y = (b) => PAD.top + ((hi - b) * (H - PAD.top - PAD.bottom)) / (hi - lo || 1);
  const shift = (i) => (i - (seatsCount - 1) / 2) * 1.5;
  const last = rows[rows.length - 1];
  const count = rows.length;
  const balances = ctx.table.seats.map((s, i) => `${s.name} ${signed(last.balances[i])}`).join(', ');
  const after = { number: last.hand.number, balances };
  const summary = t('Balances after hand {number}: {balances}.', after);
  const id = `chart-${ctx.id}`;
  const every = Math.ceil(rows.length / 24); // a marker on every point, or every few on a long evening
  const xs = [...new Set([0, Math.round(rows.length / 2), rows.length])];
  const picture = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'balchart', role: 'img', 'aria-labelledby': `${id}-t` },
    svg('title', { id: `${id}-t` }, tn(count, 'Chart of the balances over {n} hand. {summary}',
      'Chart of the balances over {n} hands. {summary}', { summary })),
    ...[...new Set([lo, 0, hi])].map((v) => svg('g', { class: v === 0 ? 'tick zero' : 'tick' },
      svg('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
      svg('text', { x: PAD.left - 3, y: y(v) + 3.5, 'text-anchor': 'end' }, signed(v)))),
    ...xs.map((k) => svg('text', { class: 'tick', x: x(k), y: H - 4, 'text-anchor': k ? 'middle' : 'start' },
      k ? num(rows[k - 1].hand.number) : t('start'))),
    ...series.map((points, i) => svg('g', { class: `l${i}` },
      svg('polyline', { class: 'l', points: points.map((b, k) => `${x(k).toFixed(1)},${(y(b) + shift(i)).toFixed(1)}`).join(' ') }),
      ...points.map((b, k) => (k % every ? null : marker(i, x(k), y(b) + shift(i)))).filter(Boolean))));
  const key = (i) => svg('svg', { class: `key l${i}`, viewBox: '0 0 28 10', 'aria-hidden': 'true' },
    svg('line', { class: 'l', x1: 0, x2: 28, y1: 5, y2: 5 }), marker(i, 14, 5));
  return h('figure.chartbox', picture,
    h('figcaption', h('ul.legend', ctx.table.seats.map((s, i) => h('li', key(i), s.name)))));
}

function outboxPanel(ctx, app) {
  const entries = entriesFor(ctx.id);
  if (!entries.length) return null;
  return h('section.outbox', { 'aria-label': t('Hands not yet recorded'), 'aria-live': 'polite' },
    entries.map((e) => {
      const what = describeHand(ctx, e.body);
      if (e.state === 'conflict') return conflictCard(ctx, app, e, what);
      if (e.state === 'failed') {
        return h('div.card.error', { 'data-outbox': e.number }, h('h3', t('Hand {number} was not recorded', { number: e.number })),
          h('p', what), h('ul', (e.problem || []).map((line) => h('li', line))),
          h('button', { type: 'button', onclick: () => { discard(e.key); app.update(); } }, t('Drop this hand')));
      }
      const state = e.state === 'sending' ? t('sending…') : t('waiting to send (kept on this phone)');
      const parts = { hand: h('strong', t('Hand {number}', { number: e.number })), what, state: h('em', state) };
      return h('div.card.pending', { 'data-outbox': e.number }, tx('{hand} · {what} — {state}', parts));
    }));
}

function conflictCard(ctx, app, e, mine) {
  const theirs = e.theirs || {};
  const next = Math.max(ctx.table.next_number, e.next || 0);
  return h('div.card.conflict', { role: 'alert', 'data-outbox': e.number },
    h('h3', t('Hand {number} was recorded on another phone', { number: e.number })),
    h('div.versions',
      h('div', h('h4', t('Recorded (theirs)')), h('p.theirs', describeHand(ctx, theirs.hand)),
        theirs.settlement ? h('p.hint', summaryLine(ctx, theirs.settlement)) : null),
      h('div', h('h4', t('Yours (not recorded)')), h('p.mine', mine))),
    h('p', t('If both describe the same deal, keep theirs. If yours is another deal, add it after.')),
    h('div.buttons',
      h('button', { type: 'button', onclick: () => {
        discard(e.key); app.update(); toast(t('Your hand {number} was dropped.', { number: e.number }));
      } }, t('Keep theirs, drop mine')),
      h('button', { type: 'button', onclick: () => { renumber(e.key, next); app.flush(); } },
        t('Add mine as hand {number}', { number: next }))));
}

function confirmVoid(ctx, app, hand, body) {
  const old = body.querySelector('.confirm');
  if (old) old.remove();
  const after = h('div', h('p.hint', t('Asking the service what the table becomes…')));
  const yes = h('button.danger', { type: 'button', disabled: true, onclick: async () => {
    yes.disabled = true;
    if (!await write(ctx, app, () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version),
      t('Hand {number} is void', { number: hand.number }))) yes.disabled = false;
  } }, t('Yes, void hand {number}', { number: hand.number }));
  const question = t('Void hand {number}?', { number: hand.number });
  const box = h('div.confirm', { role: 'region', 'aria-label': question },
    h('h4', question), h('p', describeHand(ctx, hand.hand)), after,
    h('div.buttons', yes, h('button', { type: 'button', onclick: () => box.remove() }, t('Keep it'))));
  body.append(box);
  box.querySelector('button:not([disabled])').focus();
  tableAfter(ctx, after, () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version, true))
    .then((table) => { yes.disabled = !table; if (table) append(after, [dealerMoves(ctx, hand, table)]); });
}

/** The later hands whose dealer a void moves (a void hand passes no deal: each later one moves
 *  back as far as this one passed it), and the next dealer (the service's answer). */
function dealerMoves(ctx, hand, after) {
  const n = ctx.table.seats.length;
  const passed = hand.settlement ? (hand.settlement.next_dealer - hand.dealer + n) % n : 0;
  const moved = (seat) => (seat - passed + n) % n;
  const lines = ctx.hands.filter((x) => x.number > hand.number && passed).map((x) => t('Hand {number}: {before} → {after}',
    { number: x.number, before: seatName(ctx, x.dealer), after: seatName(ctx, moved(x.dealer)) }));
  if (after.dealer !== ctx.table.dealer) {
    lines.push(t('Next hand: {before} → {after}', { before: seatName(ctx, ctx.table.dealer), after: seatName(ctx, after.dealer) }));
  }
  return lines.length ? [h('p', h('strong', t('Dealt by another player then:'))), h('ul.moves', lines.map((x) => h('li', x)))] : null;
}

async function restore(ctx, app, hand) {
  await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), hand.number, hand.hand, ctx.table.version),
    t('Hand {number} is restored', { number: hand.number }));
}

/** The table screen. Its parts are redrawn only when what they show has changed, so that a poll
 *  or the outbox never pulls a button from under a thumb for nothing. */
export function renderTable(root, ctx, app) {
  const base = `#table=${encodeURIComponent(ctx.id)}`;
  const notice = ctx.ui.notice; // what the last correction did: shown until the screen changes
  ctx.ui.notice = null;
  const parts = {
    title: () => {
      const tb = ctx.table;
      const about = { game: ctx.variant ? ctx.variant.title : tb.variant, number: nextNumber(ctx) };
      return [h('h1', tb.name), h('p.hint', tb.status === 'closed' ? t('{game} · closed', about)
        : finished(tb) ? t('{game} · over', about) : t('{game} · next: hand {number}', about))];
    },
    notice: () => (notice ? h('p.notice.ok', { role: 'status' }, notice) : null),
    top: () => {
      const tb = ctx.table;
      const over = tb.session && tb.session.over;
      return [seats(ctx), facts(ctx),
        over ? ended(ctx) : tb.status === 'closed' ? h('p.notice', t('This table is closed: these are its final balances.'))
            : h('a.button.primary.big', { href: `${base}&go=new`, id: 'new-hand' }, t('New hand {number}', { number: nextNumber(ctx) })),
        h('nav.actions', { 'aria-label': t('Table') },
          h('a.button', { href: `${base}&go=share` }, t('Share')),
          h('a.button', { href: `${base}&go=settle` }, tb.status === 'closed' ? t('Settle-up') : t('Settle up / close')),
          h('a.button', { href: `${base}&go=seating` }, t('Seating')),
          h('button', { type: 'button', onclick: () => window.print() }, t('Print')),
          h('a.button', { href: '#' }, t('All tables')))];
    },
    outbox: () => outboxPanel(ctx, app),
    history: () => [sheet(ctx, app), chart(ctx)],
    print: () => {
      const box = h('section.printonly');
      api.settleUp(ctx.id, ctx.token || ctx.adminToken).then(({ data }) => append(box, [h('h2', t('Settle-up')),
        settleUpView(ctx, data)])).catch(() => {}); // offline: printed without it
      return box;
    },
  };
  const keys = {
    title: () => JSON.stringify([ctx.table.name, ctx.table.status, nextNumber(ctx)]),
    notice: () => '',
    top: () => JSON.stringify([ctx.table, entriesFor(ctx.id).map((e) => e.body)]),
    outbox: () => JSON.stringify([entriesFor(ctx.id), ctx.table.next_number]),
    history: () => JSON.stringify([ctx.table.version, ctx.hands.map((x) => [x.revision, x.status]), sheetPrefs()]),
    print: () => String(ctx.table.version),
  };
  const boxes = {
    title: h('div.titlebar'), notice: h('div'), top: h('div.col'), outbox: h('div'), history: h('div'), print: h('div'),
  };
  const drawn = {};
  const update = () => {
    for (const name of Object.keys(parts)) {
      const key = keys[name]();
      if (drawn[name] === key) continue;
      drawn[name] = key;
      clear(boxes[name], parts[name]());
    }
  };
  clear(root, h('div.screen.table', boxes.title, boxes.notice,
    h('div.cols', boxes.top, h('div.col', boxes.outbox, h('h2', t('Score sheet')), boxes.history, boxes.print))));
  update();
  return { update };
}
