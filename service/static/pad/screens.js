// The table's other screens: record a hand, correct one (with a confirmation of what changes),
// share the table (link and QR code), settle up and close.

import { api, NetworkError, ProblemError } from './api.js';
import { h, clear, signed, suitLabel, title, toast } from './dom.js';
import { handForm, settlementView } from './hand.js';
import { contractTitle, describeHand, nextHand, seatName } from './model.js';
import { enqueue, entriesFor } from './outbox.js';
import { qrSvg } from './qr.js';
import { suitWord, write, writeToken } from './table.js';

function back(ctx) {
  return h('a.button.back', { href: `#table=${encodeURIComponent(ctx.id)}` }, '← Table');
}

export function renderNewHand(root, ctx, app) {
  const t = ctx.table;
  if (t.status === 'closed' || (t.session && t.session.over)) {
    clear(root, h('div.screen', back(ctx), h('h1', 'No more hands'), h('p', 'This table is closed or its session is over.')));
    return null;
  }
  // Offline with hands waiting, the deal follows them; pool and couleur wait for the server.
  const queued = entriesFor(ctx.id);
  const next = nextHand(ctx, queued);
  const number = next.number;
  const tableLink = `#table=${encodeURIComponent(ctx.id)}`;
  const form = handForm({
    ctx, variant: ctx.variant, number, saveLabel: `Save hand ${number}`,
    onSave: (record) => {
      enqueue(ctx.id, number, record);
      form.discard();
      app.go(tableLink);
      app.flush();
    },
  });
  const stake = next.stakeDue ? ' and stakes' : '';
  const couleur = t.couleur && next.known ? ` · ${suitWord(t).toLowerCase()} ${suitLabel(t.couleur)}` : '';
  const waiting = queued.length ? h('p.notice', `${queued.length} hand${queued.length > 1 ? 's wait' : ' waits'} to be sent: `
    + `the pool${t.couleur ? `, the ${suitWord(t).toLowerCase()}` : ''} and the balances are known once ${queued.length > 1 ? 'they are' : 'it is'} recorded.`) : null;
  const discard = h('button.small.link', { type: 'button', onclick: () => { form.discard(); app.go(tableLink); } }, 'Discard');
  clear(root, h('div.screen.record',
    h('div.titlebar', back(ctx), h('h1', `Hand ${number}`), discard),
    h('p.hint', { 'data-next': 'dealer' }, `${seatName(ctx, next.dealer)} deals${stake}${couleur}`),
    waiting, form));
  return { update: () => form.refreshTaken() };
}

// --- corrections ------------------------------------------------------------------------------
function words(ctx, record) {
  const out = {};
  const r = record || {};
  const seat = (x) => (x === null || x === undefined ? '—' : seatName(ctx, x));
  out.kind = title(r.kind || 'played');
  for (const [key, value] of Object.entries(r)) {
    if (key === 'kind' || value === null || value === false) continue;
    if (key === 'contract') out[key] = contractTitle(ctx.variant, value);
    else if (key === 'called') out[key] = `${value.rank} of ${value.suit}`;
    else if (key === 'matadores') out[key] = `${value.side}, ${value.lower} lower`;
    else if (key === 'errors') { if (value.length) out[key] = value.map((e) => `${title(e.kind)} by ${seat(e.seat)}`).join('; '); }
    else if (['declarer', 'partner', 'seat', 'soloist', 'last_trick'].includes(key)) out[key] = seat(value);
    else if (key === 'trump') out[key] = suitLabel(value);
    else out[key] = value === true ? 'yes' : String(value);
  }
  return out;
}

/** The lines "Tricks: 6 → 5" between two hand records. */
function recordChanges(ctx, before, after) {
  const a = words(ctx, before);
  const b = words(ctx, after);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((k) => a[k] !== b[k]).map((k) => `${title(k)}: ${a[k] ?? '—'} → ${b[k] ?? '—'}`);
}

export function renderEdit(root, ctx, app, number) {
  const hand = ctx.hands.find((x) => x.number === number);
  if (!hand) {
    clear(root, h('div.screen', back(ctx), h('h1', `No hand ${number}`)));
    return null;
  }
  const screen = h('div.screen.edit');
  const form = handForm({
    ctx, variant: ctx.variant, number, record: hand.hand, saveLabel: 'Review the change',
    onSave: (record, preview) => confirm(record, preview),
  });

  async function confirm(record, preview) {
    const changes = recordChanges(ctx, hand.hand, record);
    const box = h('section.confirm', { role: 'region', 'aria-labelledby': 'confirm-h' },
      h('h2', { id: 'confirm-h' }, `Change hand ${number}?`),
      changes.length ? h('ul.changes', changes.map((c) => h('li', c))) : h('p', 'Nothing changes in the record.'),
      hand.status === 'void' ? h('p', 'The hand is void now; saving restores it.') : null);
    const after = h('div', h('p.hint', 'Asking the service what the table becomes…'));
    const save = h('button.primary', { type: 'button', disabled: true, onclick: async () => {
      save.disabled = true;
      const ok = await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version),
        `Hand ${number} is corrected`);
      if (ok) form.discard(); else save.disabled = false;
    } }, 'Save the correction');
    box.append(after, preview ? settlementView(ctx, preview, { heading: 'The corrected hand' }) : null,
      h('div.buttons', save, h('button', { type: 'button', onclick: () => { box.remove(); form.hidden = false; } }, 'Back to the form')));
    form.hidden = true;
    screen.append(box);
    box.querySelector('h2').tabIndex = -1;
    box.querySelector('h2').focus();
    const ok = await tableAfter(ctx, after, () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version, true));
    save.disabled = !ok;
  }

  const discard = form.hasDraft ? h('button.small.link', { type: 'button', onclick: () => {
    form.discard();
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
  } }, 'Discard the changes') : null;
  clear(root, clear(screen, h('div.titlebar', back(ctx), h('h1', `Correct hand ${number}`), discard),
    h('p.hint', `Now: ${describeHand(ctx, hand.hand)}${hand.status === 'void' ? ' (void)' : ''}`), form));
  return null;
}

/** Fill `box` with what the whole table becomes (a dry run): every balance and the pool, now and
 *  after, later hands settled again. False when the service refused or cannot be reached. */
export async function tableAfter(ctx, box, dryRun) {
  try {
    const { data } = await dryRun(); // a hand's answer carries the table; re-seating's is the table
    clear(box, compareTable(ctx, ctx.table, data.table || data, 'What the table becomes'),
      data.resettled ? h('p.hint', `Hands settled again: ${data.resettled}.`) : null);
    return true;
  } catch (error) {
    clear(box, h('p.notice.error', { role: 'alert' }, error instanceof NetworkError ? 'No connection: a correction needs the network.'
      : error instanceof ProblemError ? error.lines().join(' ') : String(error)));
    return false;
  }
}

function compareTable(ctx, before, after, caption) {
  const rows = after.seats.map((s, i) => {
    const old = before.seats.find((x) => x.player_id === s.player_id) || before.seats[i];
    return h('tr', h('th', { scope: 'row' }, s.name), h('td', signed(old.balance)), h('td', signed(s.balance)),
      h('td', signed(s.balance - old.balance)));
  });
  if (after.pool !== null && after.pool !== undefined) {
    rows.push(h('tr.pool', h('th', { scope: 'row' }, 'Pool'), h('td', String(before.pool)), h('td', String(after.pool)),
      h('td', signed(after.pool - before.pool))));
  }
  return h('table.compare', h('caption', caption),
    h('thead', h('tr', ['', 'Now', 'After', 'Change'].map((x) => h('th', { scope: 'col' }, x)))), h('tbody', rows));
}

// --- seating ----------------------------------------------------------------------------------
/** Put a wrong seating right: the players in the order they really sat and who dealt first; every
 *  hand is settled again. */
export function renderSeating(root, ctx, app) {
  const t = ctx.table;
  const order = t.seats.map((s) => s.player_id);
  const firstHand = ctx.hands[0];
  let first = t.seats[firstHand ? firstHand.dealer : t.dealer].player_id;
  const name = (id) => t.seats.find((s) => s.player_id === id).name;
  const list = h('ol.reseat');
  const dealers = h('div');
  const after = h('div');
  let seq = 0;
  const save = h('button.primary', { type: 'button', onclick: async () => {
    save.disabled = true;
    if (!await write(ctx, app, request(false), 'The seating is changed')) save.disabled = false;
  } }, 'Save the seating');
  const request = (dry) => () => api.reseat(ctx.id, writeToken(ctx), { seats: order, first_dealer: order.indexOf(first) }, t.version, dry);
  const move = (i, d) => { [order[i], order[i + d]] = [order[i + d], order[i]]; draw(); };
  async function draw() {
    clear(list, order.map((id, i) => h('li', h('span.name', name(id)),
      h('button.small', { type: 'button', disabled: i === 0, 'aria-label': `Move ${name(id)} up`, onclick: () => move(i, -1) }, '↑'),
      h('button.small', { type: 'button', disabled: i === order.length - 1, 'aria-label': `Move ${name(id)} down`, onclick: () => move(i, 1) }, '↓'))));
    clear(dealers, h('fieldset.group', h('legend', 'Dealt the first hand'), h('div.row.wrap', order.map((id) => h('button.choice.small',
      { type: 'button', 'aria-pressed': String(id === first), onclick: () => { first = id; draw(); } }, name(id))))));
    const same = order.every((id, i) => id === t.seats[i].player_id) && first === t.seats[firstHand ? firstHand.dealer : t.dealer].player_id;
    save.disabled = true;
    if (same) { clear(after, h('p.hint', 'This is the seating as recorded.')); return; }
    const mine = ++seq;
    const box = h('div');
    const ok = await tableAfter(ctx, box, request(true));
    if (mine !== seq) return;
    clear(after, box);
    save.disabled = !ok;
  }
  clear(root, h('div.screen.seating',
    h('div.titlebar', back(ctx), h('h1', 'Seating')),
    t.status === 'closed' ? h('p.notice', 'The table is closed: its seating stays as it is.') : [
      h('p', 'Wrong seats noticed late? Put the players in the order they sat (the deal passes down the list) and tap who dealt the first hand. Every hand is settled again.'),
      list, dealers, after, h('div.buttons', save)]));
  if (t.status !== 'closed') draw();
  return null;
}

// --- share ------------------------------------------------------------------------------------
function shareLink(id, token) {
  return `${location.origin}/#table=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

export function renderShare(root, ctx) {
  const token = ctx.token;
  if (!token) {
    clear(root, h('div.screen', back(ctx), h('h1', 'Share'), h('p', 'This phone has no table token to share.')));
    return null;
  }
  const link = shareLink(ctx.id, token);
  // A text area, not a one-line field: the whole link wraps into view.
  const field = h('textarea.sharelink', { readOnly: true, rows: 3, value: link, 'aria-label': 'Link to this table' });
  const copy = h('button', { type: 'button', onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast('Link copied.');
    } catch {
      field.select();
      toast('Select the link and copy it.');
    }
  } }, 'Copy link');
  const share = navigator.share ? h('button', { type: 'button', onclick: () => navigator.share({ title: ctx.table.name, url: link }).catch(() => {}) }, 'Share…') : null;
  clear(root, h('div.screen.share',
    h('div.titlebar', back(ctx), h('h1', `Share “${ctx.table.name}”`)),
    h('p', 'Scan this on another phone to keep score together. The code carries the table token: anyone who has it can record and correct hands at this table.'),
    h('div.qrbox', qrSvg(link, `QR code of the link to ${ctx.table.name}`)),
    field, h('div.buttons', copy, share)));
  return null;
}

// --- settle up ---
export function settleUpView(ctx, data) {
  const unit = data.units || 'chips';
  return h('div.settleup',
    h('h2', data.transfers.length ? 'Who pays whom' : 'Nobody pays anybody'),
    h('ul.payments', data.transfers.map((t) => h('li', h('strong', party(ctx, t.from)), ' pays ',
      h('strong', party(ctx, t.to)), ` ${t.amount} ${unit}`))),
    data.pool_shares.length ? h('p', `The pool (${data.pool}) is shared out: `,
      data.pool_shares.map((s) => `${seatName(ctx, s.to)} ${s.chips}`).join(', '), '.') : null,
    data.pool_at_close === 'carry' ? h('p', `The pool (${data.pool}) stays with the club for its next table.`) : null,
    h('h2', unit === 'points' ? 'Final score' : 'Net'),
    h('ul.deltas', data.net.map((n) => h('li', h('span.name', party(ctx, n.party)), h('span.num', signed(n.amount))))));
}
function party(ctx, p) {
  return p === 'pool' ? 'the club (pool)' : seatName(ctx, p);
}

export function renderSettle(root, ctx, app) {
  const body = h('div', h('p.hint', 'Loading…'));
  const closed = ctx.table.status === 'closed';
  const closeBox = h('div');
  const closeButton = closed ? null : h('button.danger', { type: 'button', onclick: () => {
    clear(closeBox, h('div.confirm', { role: 'alertdialog', 'aria-label': 'Close the table?' },
      h('p', 'Close the table? No more hands can be recorded; corrections then need the club’s admin token.'),
      h('div.buttons',
        h('button.danger', { type: 'button', onclick: async () => {
          try {
            const { data } = await api.close(ctx.id, ctx.token || ctx.adminToken);
            ctx.table = data;
            ctx.etag = null;
            toast('The table is closed.');
            app.update();
          } catch (error) {
            toast(error instanceof ProblemError ? error.lines().join(' ') : 'No connection.', 'error');
          }
        } }, 'Yes, close the table'),
        h('button', { type: 'button', onclick: () => clear(closeBox) }, 'Not yet'))));
  } }, 'Close the table');
  clear(root, h('div.screen.settle',
    h('div.titlebar', back(ctx), h('h1', closed ? 'Settle-up' : 'Settle up')),
    body, closeButton, closeBox));
  api.settleUp(ctx.id, ctx.token || ctx.adminToken).then(({ data }) => {
    clear(body, h('p.notice', data.final ? 'Final: the table is closed.' : 'If the table closed now:'), settleUpView(ctx, data));
  }).catch((error) => {
    clear(body, h('p.notice.error', error instanceof ProblemError ? error.lines().join(' ') : 'No connection: the settle-up needs the network.'));
  });
  return null;
}
