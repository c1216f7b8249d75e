// The table screen: seats with balances, pool, couleur, next dealer, stake; the hands waiting
// in the outbox (and any conflict, with both versions); the history with transfers and
// explanations, each hand with Correct and Void.

import { api, ProblemError } from './api.js';
import { h, append, clear, signed, sr, suitLabel, toast } from './dom.js';
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
  const moved = lines.length ? lines.join(', ') : 'no balance changed';
  if (after.pool === null || after.pool === undefined) return moved;
  return `${moved}; ${after.pool === before.pool ? `the pool stays at ${after.pool}` : `pool ${before.pool} → ${after.pool}`}`;
}

function facts(ctx) {
  const t = ctx.table;
  const next = nextHand(ctx, entriesFor(ctx.id));
  const dealer = seatName(ctx, next.dealer);
  const unknown = 'not known yet';
  const items = [];
  if (t.pool !== null && t.pool !== undefined) items.push(['Pool', next.known ? String(t.pool) : unknown]);
  if (t.couleur) items.push([suitWord(t), next.known ? suitLabel(t.couleur) : unknown]);
  items.push(['Deals next', dealer]);
  if (next.stakeDue !== null && next.stakeDue !== undefined) {
    const stake = t.options && t.options.stake;
    items.push(['Stake', next.stakeDue ? `${stake ?? ''} due` : 'paid (redeal)']);
  }
  items.push(['Hands', String(t.hands_played)]);
  return h('dl.facts', items.map(([k, val]) => h('div', h('dt', k), h('dd', { 'data-fact': k.toLowerCase() }, val))));
}

/** German Solo calls its doubled suit the preferred suit; the others, the couleur. */
export function suitWord(table) {
  return table.variant === 'german' ? 'Preferred suit' : 'Couleur';
}

function seats(ctx) {
  const t = ctx.table;
  const waiting = entriesFor(ctx.id).length;
  return [h('ol.seats', { 'aria-label': 'Seats in playing order, with balances' }, t.seats.map((s) => h(
    `li.seat${s.seat === t.dealer ? '.dealer' : ''}`, { 'data-seat': s.seat },
    h('span.name', s.name),
    s.seat === t.dealer ? h('span.tag', 'deals') : null,
    h(`span.balance${s.balance < 0 ? '.minus' : s.balance > 0 ? '.plus' : ''}`, signed(s.balance), sr(` ${t.units || 'chips'}`)),
  ))), waiting ? h('p.hint', `Balances before the ${waiting} hand${waiting > 1 ? 's' : ''} waiting to be sent.`) : null];
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
  const t = ctx.table;
  const rows = sheetRows(ctx);
  if (!rows.length) return h('p.hint', 'No hand yet.');
  const heads = headers(ctx);
  const hasPool = t.pool !== null && t.pool !== undefined;
  const cols = t.seats.length + (hasPool ? 1 : 0);
  const head = h('thead', h('tr', t.seats.map((s, i) => h('th', { scope: 'col' },
    h('button.link.head', { type: 'button', 'aria-label': heads[i] === s.name ? null : `${heads[i]}: ${s.name}`,
      onclick: () => toast(s.name) }, heads[i]))),
  hasPool ? h('th', { scope: 'col' }, 'Pool') : null));
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
    } }, h('span.no', String(hand.number)), ' ', h('span.line', shortHand(ctx, hand)),
    hand.revision > 1 ? h('span.tag.fixed', 'corrected') : null,
    h('span.dealt', ` · ${shortName(ctx, hand.dealer)} dealt`));
    return h(`tbody.hand${isVoid ? '.void' : ''}`, { 'data-number': hand.number },
      h('tr.about', h('th', { colSpan: cols, scope: 'rowgroup' }, toggle)),
      h('tr.nums', balances.map((b, i) => h('td', h('span.run', signed(b)),
        h(`span.d${deltas[i] > 0 ? '.plus' : deltas[i] < 0 ? '.minus' : ''}`, isVoid ? '0' : signed(deltas[i])))),
      hasPool ? h('td.pool', String(pool)) : null), more);
  });
  return h('table.sheet', { 'data-seats': t.seats.length },
    h('caption', 'Each hand: balances after it, and what it moved'), head, bodies);
}

function handDetails(ctx, app, hand) {
  const isVoid = hand.status === 'void';
  const s = hand.settlement;
  const box = h('div.body',
    h('p', describeHand(ctx, hand.hand)),
    h('p.hint', `Dealt by ${seatName(ctx, hand.dealer)}${hand.revision > 1 ? ` · corrected (revision ${hand.revision})` : ''}`),
    s && !isVoid ? settlementView(ctx, s) : h('p', 'Void: this hand moves nothing.'),
    h('div.buttons',
      h('button.small', { type: 'button', onclick: () => app.go(`#table=${encodeURIComponent(ctx.id)}&go=edit&n=${hand.number}`) },
        `Correct hand ${hand.number}`),
      isVoid
        ? h('button.small', { type: 'button', onclick: () => restore(ctx, app, hand) }, `Restore hand ${hand.number}`)
        : h('button.small.danger', { type: 'button', onclick: () => confirmVoid(ctx, app, hand, box) }, `Void hand ${hand.number}`)));
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
  const summary = `Balances after hand ${last.hand.number}: ${ctx.table.seats.map((s, i) => `${s.name} ${signed(last.balances[i])}`).join(', ')}.`;
  const id = `chart-${ctx.id}`;
  const picture = svg('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'balchart', role: 'img', 'aria-labelledby': `${id}-t` },
    svg('title', { id: `${id}-t` }, `Chart of the balances over ${rows.length} hands. ${summary}`),
    svg('line', { x1: 0, x2: W, y1: y(0), y2: y(0), class: 'zero' }),
    ...series.map((points, i) => svg('polyline', { class: `l l${i}`, points: points.map((b, k) => `${x(k).toFixed(1)},${y(b).toFixed(1)}`).join(' ') })));
  return h('figure.chartbox', picture,
    h('figcaption', h('ul.legend', ctx.table.seats.map((s, i) => h('li', h(`span.key.k${i}`, { 'aria-hidden': 'true' }), s.name)))));
}

function outboxPanel(ctx, app) {
  const entries = entriesFor(ctx.id);
  if (!entries.length) return null;
  return h('section.outbox', { 'aria-label': 'Hands not yet recorded', 'aria-live': 'polite' },
    entries.map((e) => {
      const what = describeHand(ctx, e.body);
      if (e.state === 'conflict') return conflictCard(ctx, app, e, what);
      if (e.state === 'failed') {
        return h('div.card.error', { 'data-outbox': e.number }, h('h3', `Hand ${e.number} was not recorded`),
          h('p', what), h('ul', (e.problem || []).map((line) => h('li', line))),
          h('button', { type: 'button', onclick: () => { discard(e.key); app.update(); } }, 'Drop this hand'));
      }
      const state = e.state === 'sending' ? 'sending…' : 'waiting to send (kept on this phone)';
      return h('div.card.pending', { 'data-outbox': e.number }, h('strong', `Hand ${e.number}`), ` · ${what} — `, h('em', state));
    }));
}

function conflictCard(ctx, app, e, mine) {
  const theirs = e.theirs || {};
  const next = Math.max(ctx.table.next_number, e.next || 0);
  return h('div.card.conflict', { role: 'alert', 'data-outbox': e.number },
    h('h3', `Hand ${e.number} was recorded on another phone`),
    h('div.versions',
      h('div', h('h4', 'Recorded (theirs)'), h('p.theirs', describeHand(ctx, theirs.hand)),
        theirs.settlement ? h('p.hint', summaryLine(ctx, theirs.settlement)) : null),
      h('div', h('h4', 'Yours (not recorded)'), h('p.mine', mine))),
    h('p', 'If both describe the same deal, keep theirs. If yours is another deal, add it after.'),
    h('div.buttons',
      h('button', { type: 'button', onclick: () => { discard(e.key); app.update(); toast(`Your hand ${e.number} was dropped.`); } },
        'Keep theirs, drop mine'),
      h('button', { type: 'button', onclick: () => { renumber(e.key, next); app.flush(); } },
        `Add mine as hand ${next}`)));
}

function confirmVoid(ctx, app, hand, body) {
  const old = body.querySelector('.confirm');
  if (old) old.remove();
  const after = h('div', h('p.hint', 'Asking the service what the table becomes…'));
  const yes = h('button.danger', { type: 'button', disabled: true, onclick: async () => {
    yes.disabled = true;
    if (!await write(ctx, app, () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version),
      `Hand ${hand.number} is void`)) yes.disabled = false;
  } }, `Yes, void hand ${hand.number}`);
  const box = h('div.confirm', { role: 'region', 'aria-label': `Void hand ${hand.number}?` },
    h('h4', `Void hand ${hand.number}?`), h('p', describeHand(ctx, hand.hand)), after,
    h('div.buttons', yes, h('button', { type: 'button', onclick: () => box.remove() }, 'Keep it')));
  body.append(box);
  box.querySelector('button:not([disabled])').focus();
  tableAfter(ctx, after, () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version, true))
    .then((ok) => { yes.disabled = !ok; });
}

async function restore(ctx, app, hand) {
  await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), hand.number, hand.hand, ctx.table.version),
    `Hand ${hand.number} is restored`);
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
    ctx.ui.notice = `${done}. Balances: ${balanceChanges(before, table)}.`;
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
    app.update();
    return true;
  } catch (error) {
    if (error instanceof ProblemError && error.status === 412) {
      await refresh(ctx, true).catch(() => {});
      toast('The table changed on another phone meanwhile. Check and try again.', 'error');
      app.update();
    } else {
      toast(error instanceof ProblemError ? error.lines().join(' ') : 'No connection: corrections need the network.', 'error');
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
      const t = ctx.table;
      const state = t.status === 'closed' ? 'closed' : `next: hand ${nextNumber(ctx)}`;
      return [h('h1', t.name), h('p.hint', `${ctx.variant ? ctx.variant.title : t.variant} · ${state}`)];
    },
    notice: () => (notice ? h('p.notice.ok', { role: 'status' }, notice) : null),
    top: () => {
      const t = ctx.table;
      const over = t.session && t.session.over;
      return [seats(ctx), facts(ctx),
        t.status === 'closed' ? h('p.notice', 'This table is closed.')
          : over ? h('p.notice', `The session is over: ${t.session.reason}`)
            : h('a.button.primary.big', { href: `${base}&go=new`, id: 'new-hand' }, `New hand ${nextNumber(ctx)}`),
        h('nav.actions', { 'aria-label': 'Table' },
          h('a.button', { href: `${base}&go=share` }, 'Share'),
          h('a.button', { href: `${base}&go=settle` }, t.status === 'closed' ? 'Settle-up' : 'Settle up / close'),
          h('a.button', { href: `${base}&go=seating` }, 'Seating'),
          h('button', { type: 'button', onclick: () => window.print() }, 'Print'),
          h('a.button', { href: '#' }, 'All tables'))];
    },
    outbox: () => outboxPanel(ctx, app),
    history: () => [sheet(ctx, app), chart(ctx)],
    print: () => {
      const box = h('section.printonly');
      api.settleUp(ctx.id, ctx.token || ctx.adminToken).then(({ data }) => append(box, [h('h2', 'Settle-up'),
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
    h('div.cols', boxes.top, h('div.col', boxes.outbox, h('h2', 'Score sheet'), boxes.history, boxes.print))));
  update();
  return { update };
}
