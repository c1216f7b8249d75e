// The table screen: seats with balances, pool, couleur, next dealer, stake; the hands waiting
// in the outbox (and any conflict, with both versions); the history with transfers and
// explanations, each hand with Correct and Void.

import { api, ProblemError } from './api.js';
import { h, append, clear, signed, sr, suitLabel, toast } from './dom.js';
import { t, tn, tx, num } from './i18n.js';
import { settlementView, summaryLine } from './hand.js';
import { describeHand, loadHands, nextHand, refresh, seatName, sheetRows, shortHand, shortName } from './model.js';
import { discard, entriesFor, renumber } from './outbox.js';
import { settleUpView, tableAfter } from './screens.js';

export function nextNumber(ctx) {
  return nextHand(ctx, entriesFor(ctx.id)).number;
}

/** "Anna +24 → +16, Bob …": what a correction or a void changed in the balances. */
function balanceChanges(before, after) {
  const lines = after.seats.map((s, i) => {
    const was = before.seats.find((x) => x.player_id === s.player_id) || before.seats[i];
    const old = was ? was.balance : 0;
    return old === s.balance ? null : `${s.name} ${signed(old)} → ${signed(s.balance)}`;
  }).filter(Boolean);
  const moved = lines.length ? lines.join(', ') : t('no balance changed');
  if (after.pool === null || after.pool === undefined) return moved;
  return after.pool === before.pool ? t('{changes}; the pool stays at {pool}', { changes: moved, pool: after.pool })
    : t('{changes}; pool {before} → {after}', { changes: moved, before: before.pool, after: after.pool });
}

function facts(ctx) {
  const tb = ctx.table;
  const next = nextHand(ctx, entriesFor(ctx.id));
  const dealer = seatName(ctx, next.dealer);
  const unknown = t('not known yet');
  const items = []; // [the fact's English name (data-fact, for tests and styles), its label, its value]
  if (tb.pool !== null && tb.pool !== undefined) items.push(['pool', t('Pool'), next.known ? num(tb.pool) : unknown]);
  if (tb.couleur) {
    items.push([tb.variant === 'german' ? 'preferred suit' : 'couleur', suitWord(tb), next.known ? suitLabel(tb.couleur) : unknown]);
  }
  items.push(['deals next', t('Deals next'), dealer]);
  if (next.stakeDue !== null && next.stakeDue !== undefined) {
    const stake = tb.options && tb.options.stake;
    const due = { stake: stake ?? '' };
    items.push(['stake', t('Stake'), next.stakeDue ? t('{stake} due', due) : t('paid (redeal)')]);
  }
  items.push(['hands', t('Hands'), num(tb.hands_played)]);
  return h('dl.facts', items.map(([k, label, val]) => h('div', h('dt', label), h('dd', { 'data-fact': k }, val))));
}

/** German Solo calls its doubled suit the preferred suit; the others, the couleur. */
export function suitWord(table) {
  return table.variant === 'german' ? t('Preferred suit') : t('Couleur');
}

/** The unit of a table's balances, as a word ("chips", "points"). */
function unitWord(units) {
  return units === 'points' ? t('points') : t('chips');
}

function seats(ctx) {
  const tb = ctx.table;
  const waiting = entriesFor(ctx.id).length;
  return [h('ol.seats', { 'aria-label': t('Seats in playing order, with balances') }, tb.seats.map((s) => h(
    `li.seat${s.seat === tb.dealer ? '.dealer' : ''}`, { 'data-seat': s.seat },
    h('span.name', s.name),
    s.seat === tb.dealer ? h('span.tag', t('deals')) : null,
    h(`span.balance${s.balance < 0 ? '.minus' : s.balance > 0 ? '.plus' : ''}`, signed(s.balance), sr(` ${unitWord(tb.units)}`)),
  ))), waiting ? h('p.hint', tn(waiting, 'Balances before the {n} hand waiting to be sent.',
    'Balances before the {n} hands waiting to be sent.')) : null];
}

// --- the score sheet --------------------------------------------------------------------------
/** Column headers short enough for five seats on a phone: the first name, or initials. */
function headers(ctx) {
  const names = ctx.table.seats.map((s) => s.name);
  const shorts = names.map((n, i) => shortName(ctx, i));
  const initials = names.map((n) => {
    const w = n.split(/[\s-]+/).filter(Boolean).map((x) => x.charAt(0).toUpperCase());
    return w.length > 3 ? `${w[0]}${w[1]}${w[w.length - 1]}` : w.join('');
  });
  return shorts.map((s, i) => (s.length <= 5 ? s
    : initials.filter((x) => x === initials[i]).length > 1 ? `${initials[i]}${i + 1}` : initials[i]));
}

function sheet(ctx, app) {
  const tb = ctx.table;
  const rows = sheetRows(ctx);
  if (!rows.length) return h('p.hint', t('No hand yet.'));
  const heads = headers(ctx);
  const hasPool = tb.pool !== null && tb.pool !== undefined;
  const cols = tb.seats.length + (hasPool ? 1 : 0);
  const head = h('thead', h('tr', tb.seats.map((s, i) => h('th', { scope: 'col' },
    h('button.link.head', { type: 'button', 'aria-label': heads[i] === s.name ? null : `${heads[i]}: ${s.name}`,
      onclick: () => toast(s.name) }, heads[i]))),
  hasPool ? h('th', { scope: 'col' }, t('Pool')) : null));
  const bodies = rows.slice().reverse().map(({ hand, deltas, balances, pool }) => {
    const isVoid = hand.status === 'void';
    const open = ctx.ui.open.has(hand.number);
    const more = h('tr.more', { hidden: !open }, h('td', { colSpan: cols }));
    const fill = () => { if (!more.firstChild.firstChild) more.firstChild.append(handDetails(ctx, app, hand)); };
    if (open) fill();
    const toggle = h('button.what', { type: 'button', 'aria-expanded': String(open), onclick: () => {
      const now = more.hidden;
      more.hidden = !now;
      toggle.setAttribute('aria-expanded', String(now));
      if (now) { ctx.ui.open.add(hand.number); fill(); } else ctx.ui.open.delete(hand.number);
    } }, h('span.no', num(hand.number)), ' ', h('span.line', shortHand(ctx, hand)),
    hand.revision > 1 ? h('span.tag.fixed', t('corrected')) : null,
    h('span.dealt', ' · ', t('{name} dealt', { name: shortName(ctx, hand.dealer) })));
    return h(`tbody.hand${isVoid ? '.void' : ''}`, { 'data-number': hand.number },
      h('tr.about', h('th', { colSpan: cols, scope: 'rowgroup' }, toggle)),
      h('tr.nums', balances.map((b, i) => h('td', h('span.run', signed(b)),
        h(`span.d${deltas[i] > 0 ? '.plus' : deltas[i] < 0 ? '.minus' : ''}`, isVoid ? '0' : signed(deltas[i])))),
      hasPool ? h('td.pool', num(pool)) : null), more);
  });
  return h('table.sheet', { 'data-seats': tb.seats.length },
    h('caption', t('Each hand: balances after it, and what it moved')), head, bodies);
}

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
const H = 150;

function svg(tag, attrs, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, val] of Object.entries(attrs || {})) el.setAttribute(k, String(val));
  el.append(...children);
  return el;
}

/** The balances over the evening, one line per player (drawn here, nothing fetched). */
function chart(ctx) {
  const rows = sheetRows(ctx);
  if (rows.length < 2) return null;
  const series = ctx.table.seats.map((_, i) => [0, ...rows.map((r) => r.balances[i])]);
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const x = (k) => 6 + (k * (W - 12)) / rows.length;
  const y = (b) => 6 + ((hi - b) * (H - 12)) / (hi - lo || 1);
  const last = rows[rows.length - 1];
  const count = rows.length;
  const balances = ctx.table.seats.map((s, i) => `${s.name} ${signed(last.balances[i])}`).join(', ');
  const after = { number: last.hand.number, balances };
  const summary = t('Balances after hand {number}: {balances}.', after);
  const id = `chart-${ctx.id}`;
  const picture = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'balchart', role: 'img', 'aria-labelledby': `${id}-t` },
    svg('title', { id: `${id}-t` }, tn(count, 'Chart of the balances over {n} hand. {summary}',
      'Chart of the balances over {n} hands. {summary}', { summary })),
    svg('line', { x1: 0, x2: W, y1: y(0), y2: y(0), class: 'zero' }),
    ...series.map((points, i) => svg('polyline', { class: `l l${i}`, points: points.map((b, k) => `${x(k).toFixed(1)},${y(b).toFixed(1)}`).join(' ') })));
  return h('figure.chartbox', picture,
    h('figcaption', h('ul.legend', ctx.table.seats.map((s, i) => h('li', h(`span.key.k${i}`, { 'aria-hidden': 'true' }), s.name)))));
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
    .then((ok) => { yes.disabled = !ok; });
}

async function restore(ctx, app, hand) {
  await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), hand.number, hand.hand, ctx.table.version),
    t('Hand {number} is restored', { number: hand.number }));
}

/** The token for corrections: the table token, or the club's admin token once it is closed. */
export function writeToken(ctx) {
  return ctx.table.status === 'closed' && ctx.adminToken ? ctx.adminToken : ctx.token || ctx.adminToken;
}

/** Run a correction (PUT/DELETE), reload the hands, say what changed in the balances. */
export async function write(ctx, app, request, done) {
  const before = ctx.table;
  try {
    const { data } = await request();
    const table = data.table || data; // re-seating answers with the table itself
    await loadHands(ctx, table);
    ctx.etag = `"${table.version}"`;
    const said = { done, changes: balanceChanges(before, table) };
    ctx.ui.notice = t('{done}. Balances: {changes}.', said);
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
    app.update();
    return true;
  } catch (error) {
    if (error instanceof ProblemError && error.status === 412) {
      await refresh(ctx, true).catch(() => {});
      toast(t('The table changed on another phone meanwhile. Check and try again.'), 'error');
      app.update();
    } else {
      toast(error instanceof ProblemError ? error.lines().join(' ') : t('No connection: corrections need the network.'), 'error');
    }
    return false;
  }
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
        : t('{game} · next: hand {number}', about))];
    },
    notice: () => (notice ? h('p.notice.ok', { role: 'status' }, notice) : null),
    top: () => {
      const tb = ctx.table;
      const over = tb.session && tb.session.over;
      return [seats(ctx), facts(ctx),
        tb.status === 'closed' ? h('p.notice', t('This table is closed.'))
          : over ? h('p.notice', t('The session is over: {reason}', { reason: tb.session.reason }))
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
    history: () => JSON.stringify([ctx.table.version, ctx.hands.map((x) => [x.revision, x.status])]),
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
