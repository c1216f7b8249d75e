// The table screen: seats with balances, pool, couleur, next dealer, stake; the hands waiting
// in the outbox (and any conflict, with both versions); the history with transfers and
// explanations, each hand with Correct and Void.

import { api, ProblemError } from './api.js';
import { h, clear, signed, suitLabel, toast } from './dom.js';
import { settlementView, summaryLine } from './hand.js';
import { describeHand, loadHands, refresh, seatName } from './model.js';
import { discard, entriesFor, renumber } from './outbox.js';

export function nextNumber(ctx) {
  const pending = entriesFor(ctx.id).map((e) => e.number);
  return Math.max(ctx.table.next_number, ...pending.map((n) => n + 1));
}

/** "Anna +24 → +16, Bob …": what a correction or a void changed in the balances. */
function balanceChanges(before, after) {
  const lines = after.seats.map((s, i) => {
    const old = before.seats[i] ? before.seats[i].balance : 0;
    return old === s.balance ? null : `${s.name} ${signed(old)} → ${signed(s.balance)}`;
  }).filter(Boolean);
  return lines.length ? lines.join(', ') : 'no balance changed';
}

function facts(ctx) {
  const t = ctx.table;
  const dealer = seatName(ctx, t.dealer);
  const items = [];
  if (t.pool !== null && t.pool !== undefined) items.push(['Pool', String(t.pool)]);
  if (t.couleur) items.push(['Couleur', suitLabel(t.couleur)]);
  items.push(['Deals next', dealer]);
  if (t.stake_due !== null && t.stake_due !== undefined) {
    const stake = t.options && t.options.stake;
    items.push(['Stake', t.stake_due ? `${dealer} stakes ${stake ?? ''}` : 'paid (redeal)']);
  }
  items.push(['Hands', String(t.hands_played)]);
  return h('dl.facts', items.map(([k, val]) => h('div', h('dt', k), h('dd', { 'data-fact': k.toLowerCase() }, val))));
}

function seats(ctx) {
  const t = ctx.table;
  return h('ol.seats', { 'aria-label': 'Seats in playing order, with balances' }, t.seats.map((s) => h(
    `li.seat${s.seat === t.dealer ? '.dealer' : ''}`, { 'data-seat': s.seat },
    h('span.name', s.name),
    s.seat === t.dealer ? h('span.tag', 'deals') : null,
    h(`span.balance${s.balance < 0 ? '.minus' : s.balance > 0 ? '.plus' : ''}`,
      { 'aria-label': `${s.name}: ${s.balance} ${t.units || 'chips'}` }, signed(s.balance)),
  )));
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

function handItem(ctx, app, hand) {
  const open = ctx.ui.open.has(hand.number);
  const isVoid = hand.status === 'void';
  const s = hand.settlement;
  const result = isVoid ? 'void' : s && s.result ? s.result : '';
  const details = h('details', { open, ontoggle: () => {
    if (details.open) ctx.ui.open.add(hand.number); else ctx.ui.open.delete(hand.number);
  } },
  h('summary', h('span.no', String(hand.number)), h('span.what', describeHand(ctx, hand.hand)),
    result ? h(`span.res.${result}`, result) : null),
  h('div.body',
    h('p.hint', `Dealt by ${seatName(ctx, hand.dealer)}${hand.revision > 1 ? ` · corrected (revision ${hand.revision})` : ''}`),
    s ? settlementView(ctx, s) : h('p', 'Void: this hand moves nothing.'),
    h('div.buttons',
      h('button.small', { type: 'button', onclick: () => app.go(`#table=${encodeURIComponent(ctx.id)}&go=edit&n=${hand.number}`) },
        `Correct hand ${hand.number}`),
      isVoid
        ? h('button.small', { type: 'button', onclick: () => restore(ctx, app, hand) }, `Restore hand ${hand.number}`)
        : h('button.small.danger', { type: 'button', onclick: () => confirmVoid(ctx, app, hand, details) }, `Void hand ${hand.number}`))));
  return h(`li.hand${isVoid ? '.void' : ''}`, { 'data-number': hand.number }, details);
}

function confirmVoid(ctx, app, hand, details) {
  const old = details.querySelector('.confirm');
  if (old) old.remove();
  const s = hand.settlement;
  const later = ctx.hands.filter((x) => x.number > hand.number && x.status === 'recorded').length;
  const box = h('div.confirm', { role: 'alertdialog', 'aria-label': `Void hand ${hand.number}?` },
    h('h4', `Void hand ${hand.number}?`),
    h('p', describeHand(ctx, hand.hand)),
    s ? h('p', 'Its chips go back: ', s.deltas.map((d, i) => `${seatName(ctx, i)} ${signed(-d)}`).join(', '), '.') : null,
    later ? h('p', `The ${later} later hand${later > 1 ? 's are' : ' is'} settled again after it (pool, couleur and dealer follow).`) : null,
    h('div.buttons',
      h('button.danger', { type: 'button', onclick: async (event) => {
        event.target.disabled = true;
        await write(ctx, app, () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version),
          `Hand ${hand.number} is void`);
      } }, `Yes, void hand ${hand.number}`),
      h('button', { type: 'button', onclick: () => box.remove() }, 'Keep it')));
  details.querySelector('.body').append(box);
  box.querySelector('button').focus();
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
    await loadHands(ctx, data.table);
    ctx.etag = `"${data.table.version}"`;
    ctx.ui.notice = `${done}. Balances: ${balanceChanges(before, data.table)}.`;
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
  const parts = {
    title: () => {
      const t = ctx.table;
      const state = t.status === 'closed' ? 'closed' : `next: hand ${nextNumber(ctx)}`;
      return [h('h1', t.name), h('p.hint', `${ctx.variant ? ctx.variant.title : t.variant} · ${state}`)];
    },
    notice: () => {
      const notice = ctx.ui.notice;
      ctx.ui.notice = null;
      return notice ? h('p.notice.ok', { role: 'status' }, notice) : null;
    },
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
          h('a.button', { href: '#' }, 'All tables'))];
    },
    outbox: () => outboxPanel(ctx, app),
    history: () => {
      const history = [...ctx.hands].reverse();
      if (history.length && history[0].number > (ctx.ui.latest || 0)) {
        ctx.ui.open.delete(ctx.ui.latest); // the newest hand shows its settlement, the one before folds
        ctx.ui.open.add(history[0].number);
        ctx.ui.latest = history[0].number;
      }
      return history.length ? h('ol.history', { reversed: true }, history.map((hand) => handItem(ctx, app, hand)))
        : h('p.hint', 'No hand yet.');
    },
  };
  const keys = {
    title: () => JSON.stringify([ctx.table.name, ctx.table.status, nextNumber(ctx)]),
    notice: () => (ctx.ui.notice ? `${Math.random()}` : ''),
    top: () => JSON.stringify([ctx.table, nextNumber(ctx)]),
    outbox: () => JSON.stringify([entriesFor(ctx.id), ctx.table.next_number]),
    history: () => JSON.stringify([ctx.table.version, ctx.hands.length, ctx.hands.map((x) => x.revision)]),
  };
  const boxes = {
    title: h('div.titlebar'), notice: h('div'), top: h('div.col'), outbox: h('div'), history: h('div'),
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
    h('div.cols', boxes.top, h('div.col', boxes.outbox, h('h2', 'Hands'), boxes.history))));
  update();
  return { update };
}
