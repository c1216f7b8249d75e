// The table's other screens: record a hand, correct one (with a confirmation of what changes),
// share the table (link and QR code), settle up and close.

import { api, NetworkError, ProblemError } from './api.js';
import { h, clear, signed, suitLabel, toast } from './dom.js';
import { handForm } from './hand.js';
import { describeHand, fieldWords, recordChanges } from './hand-words.js';
import { couleurOf, couleurSettled, nextHand, seatName } from './model.js';
import { settlementView } from './settlement.js';
import { money, rateWords, settingsPanel } from './table-settings.js';
import { enqueue, entriesFor } from './outbox.js';
import { qrSvg } from './qr.js';
import { t, tn, tx, num } from './i18n.js';
import { write, writeToken } from './table.js';

function back(ctx) {
  return h('a.button.back', { href: `#table=${encodeURIComponent(ctx.id)}` }, t('← Table'));
}

export function renderNewHand(root, ctx, app) {
  const tb = ctx.table;
  if (tb.status === 'closed' || (tb.session && tb.session.over)) {
    clear(root, h('div.screen', back(ctx), h('h1', t('No more hands')), h('p', t('This table is closed or its session is over.'))));
    return null;
  }
  // Offline with hands waiting, the deal follows them; pool and couleur wait for the server.
  const queued = entriesFor(ctx.id);
  const next = nextHand(ctx, queued);
  const number = next.number;
  const tableLink = `#table=${encodeURIComponent(ctx.id)}`;
  const form = handForm({
    ctx, variant: ctx.variant, number, saveLabel: t('Save hand {number}', { number }),
    onSave: (record) => {
      enqueue(ctx.id, number, record);
      form.discard();
      app.go(tableLink);
      app.flush();
    },
  });
  const name = seatName(ctx, next.dealer);
  const deals = next.stakeDue ? t('{name} deals and stakes', { name }) : t('{name} deals', { name });
  const suit = suitLabel(couleurOf(tb));
  const word = tb.variant === 'german' ? t('preferred suit {suit}', { suit }) : t('couleur {suit}', { suit });
  const couleur = !couleurOf(tb) || !(next.known || couleurSettled(ctx)) ? '' : ` · ${word}`;
  const n = queued.length;
  const known = { known: !tb.couleur ? t('the pool and the balances')
    : tb.variant === 'german' ? t('the pool, the preferred suit and the balances') : t('the pool, the couleur and the balances') };
  const waiting = !n ? null : h('p.notice', tn(n, '{n} hand waits to be sent: {known} are known once it is recorded.',
    '{n} hands wait to be sent: {known} are known once they are recorded.', known));
  const discard = h('button.small.link', { type: 'button', onclick: () => { form.discard(); app.go(tableLink); } }, t('Discard'));
  clear(root, h('div.screen.record',
    h('div.titlebar', back(ctx), h('h1', t('Hand {number}', { number })), discard),
    h('p.hint', { 'data-next': 'dealer' }, deals + couleur),
    waiting, form));
  return { update: () => form.refreshTaken() };
}

// --- corrections ------------------------------------------------------------------------------
export function renderEdit(root, ctx, app, number) {
  const hand = ctx.hands.find((x) => x.number === number);
  if (!hand) {
    clear(root, h('div.screen', back(ctx), h('h1', t('No hand {number}', { number }))));
    return null;
  }
  const screen = h('div.screen.edit');
  const form = handForm({
    ctx, variant: ctx.variant, number, record: hand.hand, saveLabel: t('Review the change'),
    onSave: (record, preview) => confirm(record, preview),
  });

  async function confirm(record, preview) {
    const changes = recordChanges(ctx, hand.hand, record);
    const box = h('section.confirm', { role: 'region', 'aria-labelledby': 'confirm-h' },
      h('h2', { id: 'confirm-h' }, t('Change hand {number}?', { number })),
      changes.length ? h('ul.changes', changes.map((c) => h('li', c))) : h('p', t('Nothing changes in the record.')),
      hand.status === 'void' ? h('p', t('The hand is void now; saving restores it.')) : null);
    const after = h('div', h('p.hint', t('Asking the service what the table becomes…')));
    const save = h('button.primary', { type: 'button', disabled: true, onclick: async () => {
      save.disabled = true;
      const ok = await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version),
        t('Hand {number} is corrected', { number }));
      if (ok) form.discard(); else save.disabled = false;
    } }, t('Save the correction'));
    box.append(after, preview ? settlementView(ctx, preview, { heading: t('The corrected hand') }) : null,
      h('div.buttons', save, h('button', { type: 'button', onclick: () => { box.remove(); form.hidden = false; } }, t('Back to the form'))));
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
  } }, t('Discard the changes')) : null;
  const now = describeHand(ctx, hand.hand);
  clear(root, clear(screen, h('div.titlebar', back(ctx), h('h1', t('Correct hand {number}', { number })), discard),
    h('p.hint', hand.status === 'void' ? t('Now: {hand} (void)', { hand: now }) : t('Now: {hand}', { hand: now })), form));
  return null;
}

/** Fill `box` with what the whole table becomes (a dry run): every balance and the pool, now and
 *  after, later hands settled again. The table after, or false when the service refused or
 *  cannot be reached. */
export async function tableAfter(ctx, box, dryRun) {
  try {
    const { data } = await dryRun(); // a hand's answer carries the table; re-seating's is the table
    clear(box, compareTable(ctx, ctx.table, data.table || data, t('What the table becomes')),
      data.resettled ? h('p.hint', t('Hands settled again: {hands}.', { hands: data.resettled })) : null);
    return data.table || data;
  } catch (error) {
    clear(box, h('p.notice.error', { role: 'alert' }, error instanceof NetworkError ? t('No connection: a correction needs the network.')
      : error instanceof ProblemError ? error.lines((name) => fieldWords(ctx.variant, name)).join(' ') : String(error)));
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
    rows.push(h('tr.pool', h('th', { scope: 'row' }, t('Pool')), h('td', num(before.pool)), h('td', num(after.pool)),
      h('td', signed(after.pool - before.pool))));
  }
  return h('table.compare', h('caption', caption),
    h('thead', h('tr', ['', t('Now'), t('After'), t('Change')].map((x) => h('th', { scope: 'col' }, x)))), h('tbody', rows));
}

// --- seating ----------------------------------------------------------------------------------
/** Put a wrong seating right: the players in the order they really sat and who dealt first; every
 *  hand is settled again. */
export function renderSeating(root, ctx, app) {
  const tb = ctx.table;
  const order = tb.seats.map((s) => s.player_id);
  const firstHand = ctx.hands[0];
  let first = tb.seats[firstHand ? firstHand.dealer : tb.dealer].player_id;
  const name = (id) => tb.seats.find((s) => s.player_id === id).name;
  const list = h('ol.reseat');
  const dealers = h('div');
  const after = h('div');
  let seq = 0;
  const save = h('button.primary', { type: 'button', onclick: async () => {
    save.disabled = true;
    if (!await write(ctx, app, request(false), t('The seating is changed'))) save.disabled = false;
  } }, t('Save the seating'));
  const request = (dry) => () => api.reseat(ctx.id, writeToken(ctx), { seats: order, first_dealer: order.indexOf(first) }, tb.version, dry);
  const move = (i, d) => { [order[i], order[i + d]] = [order[i + d], order[i]]; draw(); };
  async function draw() {
    clear(list, order.map((id, i) => h('li', h('span.name.fit', name(id)),
      h('button.small', { type: 'button', disabled: i === 0, 'aria-label': t('Move {name} up', { name: name(id) }), onclick: () => move(i, -1) }, '↑'),
      h('button.small', { type: 'button', disabled: i === order.length - 1, 'aria-label': t('Move {name} down', { name: name(id) }), onclick: () => move(i, 1) }, '↓'))));
    clear(dealers, h('fieldset.group', h('legend', t('Dealt the first hand')), h('div.row.wrap', order.map((id) => h('button.choice.small',
      { type: 'button', 'aria-pressed': String(id === first), onclick: () => { first = id; draw(); } }, name(id))))));
    const same = order.every((id, i) => id === tb.seats[i].player_id) && first === tb.seats[firstHand ? firstHand.dealer : tb.dealer].player_id;
    save.disabled = true;
    if (same) { clear(after, h('p.hint', t('This is the seating as recorded.'))); return; }
    const mine = ++seq;
    const box = h('div');
    const ok = await tableAfter(ctx, box, request(true));
    if (mine !== seq) return;
    clear(after, box);
    save.disabled = !ok;
  }
  clear(root, h('div.screen.seating',
    h('div.titlebar', back(ctx), h('h1', t('Seating'))),
    tb.status === 'closed' ? h('p.notice', t('The table is closed: its seating stays as it is.')) : [
      h('p', t('Wrong seats noticed late? Put the players in the order they sat (the deal passes down the list) and tap who dealt the first hand. Every hand is settled again.')),
      list, dealers, after, h('div.buttons', save)]));
  if (tb.status !== 'closed') draw();
  return null;
}

// --- share ------------------------------------------------------------------------------------
function shareLink(id, token) {
  return `${location.origin}/#table=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

export function renderShare(root, ctx) {
  const token = ctx.token;
  if (!token) {
    clear(root, h('div.screen', back(ctx), h('h1', t('Share')), h('p', t('This phone has no table token to share.'))));
    return null;
  }
  const link = shareLink(ctx.id, token);
  // A text area, not a one-line field: the whole link wraps into view.
  const field = h('textarea.sharelink', { readOnly: true, rows: 3, value: link, 'aria-label': t('Link to this table') });
  const copy = h('button', { type: 'button', onclick: async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t('Link copied.'));
    } catch {
      field.select();
      toast(t('Select the link and copy it.'));
    }
  } }, t('Copy link'));
  const share = navigator.share ? h('button', { type: 'button', onclick: () => navigator.share({ title: ctx.table.name, url: link }).catch(() => {}) }, t('Share…')) : null;
  clear(root, h('div.screen.share',
    h('div.titlebar', back(ctx), h('h1', t('Share “{name}”', { name: ctx.table.name }))),
    h('p', t('Scan this on another phone to keep score together. The code carries the table token: anyone who has it can record and correct hands at this table.')),
    h('div.qrbox', qrSvg(link, t('QR code of the link to {name}', { name: ctx.table.name }))),
    field, h('div.buttons', copy, share)));
  return null;
}

// --- settle up ---
/** "12 chips", "1 point" (of the score: a hand's card points are model.js's '{n} point'). */
function amount(units, n) {
  return units === 'points' ? tn(n, '{n} point|score', '{n} points|score') : tn(n, '{n} chip', '{n} chips');
}

/** The values of "{payer} pays {payee} {amount}". */
function payment(ctx, unit, x) {
  return { payer: h('strong', party(ctx, x.from)), payee: h('strong', party(ctx, x.to)), amount: amount(unit, x.amount),
    club: h('strong', party(ctx, 'pool')) };
}

/** "Anna pays Bob 3 chips"; the club's pool in its own sentences (German and Spanish decline it). */
function pays(values, x) {
  if (x.to === 'pool') return tx('{payer} pays {club} {amount}', values);
  if (x.from === 'pool') return tx('{club} pays {payee} {amount}', values);
  return tx('{payer} pays {payee} {amount}', values);
}

/** The settle-up in money, with its rate and rounding. */
function moneyView(ctx, data) {
  const m = data.money;
  const c = m.currency;
  const values = (x) => ({ payer: h('strong', party(ctx, x.from)), payee: h('strong', party(ctx, x.to)),
    amount: money(x.cents, c), club: h('strong', party(ctx, 'pool')) });
  const fee = m.fees.length ? m.fees[0].cents : 0;
  return [
    h('h2', m.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')),
    h('ul.payments.money', m.transfers.map((x) => h('li', pays(values(x), x)))),
    fee ? h('p', t('Each player also pays the club {amount} for the table.', { amount: money(fee, c) })) : null,
    h('ul.deltas.money', m.net.map((n) => h('li', h('span.name', party(ctx, n.party)), h('span.num', (n.cents > 0 ? '+' : '') + money(n.cents, c))))),
    h('p.hint', [t('Plays for {rate}.', { rate: rateWords(m.rate, data.units) }),
      data.units === 'points' ? t('Settling the scores') + ': ' + (m.rate.point_settlement === 'average'
        ? t('Against the average') : t('Pairwise difference')) + '.' : '',
      t('Rounded down to the cent; the cents left over go to the largest remainders.')].join(' ')),
  ];
}

export function settleUpView(ctx, data) {
  const unit = data.units || 'chips';
  const shares = { pool: data.pool, shares: data.pool_shares.map((s) => `${seatName(ctx, s.to)} ${num(s.chips)}`).join(', ') };
  const inMoney = !!data.money;
  return h('div.settleup',
    inMoney ? moneyView(ctx, data) : [h('h2', data.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')),
      h('ul.payments', data.transfers.map((x) => h('li', pays(payment(ctx, unit, x), x))))],
    data.pool_shares.length ? h('p', t('The pool ({pool}) is shared out: {shares}.', shares)) : null,
    data.pool_at_close === 'carry' ? h('p', t('The pool ({pool}) stays with the club for its next table.', { pool: data.pool })) : null,
    h(inMoney ? 'h3' : 'h2', unit === 'points' ? t('Final score') : t('Net')),
    h('ul.deltas', data.net.map((n) => h('li', h('span.name.fit', party(ctx, n.party)), h('span.num', signed(n.amount))))));
}
function party(ctx, p) {
  return p === 'pool' ? t('the club (pool)') : seatName(ctx, p);
}

export function renderSettle(root, ctx, app) {
  const body = h('div', h('p.hint', t('Loading…')));
  const closed = ctx.table.status === 'closed';
  const closeBox = h('div');
  const closeButton = closed ? null : h('button.danger', { type: 'button', onclick: () => {
    clear(closeBox, h('div.confirm', { role: 'alertdialog', 'aria-label': t('Close the table?') },
      h('p', t('Close the table? No more hands can be recorded; corrections then need the club’s admin token.')),
      h('div.buttons',
        h('button.danger', { type: 'button', onclick: async () => {
          try {
            const { data } = await api.close(ctx.id, ctx.token || ctx.adminToken);
            ctx.table = data;
            ctx.etag = null;
            toast(t('The table is closed.'));
            app.update();
          } catch (error) {
            toast(error instanceof ProblemError ? error.lines().join(' ') : t('No connection.'), 'error');
          }
        } }, t('Yes, close the table')),
        h('button', { type: 'button', onclick: () => clear(closeBox) }, t('Not yet')))));
  } }, t('Close the table'));
  const settings = h('div');
  const load = () => api.settleUp(ctx.id, ctx.token || ctx.adminToken).then(({ data }) => {
    clear(body, h('p.notice', data.final ? t('Final: the table is closed.') : t('If the table closed now:')), settleUpView(ctx, data));
  }).catch((error) => {
    clear(body, h('p.notice.error', error instanceof ProblemError ? error.lines().join(' ') : t('No connection: the settle-up needs the network.')));
  });
  // A changed rate changes the money: the settle-up is read again, and the settings redrawn.
  const drawSettings = () => clear(settings, settingsPanel(ctx, () => { drawSettings(); load(); }));
  clear(root, h('div.screen.settle',
    h('div.titlebar', back(ctx), h('h1', closed ? t('Settle-up') : t('Settle up'))),
    body, settings, closeButton, closeBox));
  drawSettings();
  load();
  return null;
}
