// The table's other screens: record a hand, correct one (with a confirmation of what changes),
// share the table (link and QR code), settle up and close.

import { api, ProblemError } from './api.js';
import { h, clear, signed, suitLabel, title, toast } from './dom.js';
import { handForm, settlementView } from './hand.js';
import { contractTitle, describeHand, seatName } from './model.js';
import { enqueue } from './outbox.js';
import { qrSvg } from './qr.js';
import { nextNumber, write, writeToken } from './table.js';

function back(ctx) {
  return h('a.button.back', { href: `#table=${encodeURIComponent(ctx.id)}` }, '← Table');
}

export function renderNewHand(root, ctx, app) {
  const t = ctx.table;
  if (t.status === 'closed' || (t.session && t.session.over)) {
    clear(root, h('div.screen', back(ctx), h('h1', 'No more hands'), h('p', 'This table is closed or its session is over.')));
    return null;
  }
  const number = nextNumber(ctx);
  const form = handForm({
    ctx, variant: ctx.variant, number, saveLabel: `Save hand ${number}`,
    onSave: (record) => {
      enqueue(ctx.id, number, record);
      app.go(`#table=${encodeURIComponent(ctx.id)}`);
      app.flush();
    },
  });
  const stake = t.stake_due ? ' and stakes' : '';
  clear(root, h('div.screen.record',
    h('div.titlebar', back(ctx), h('h1', `Hand ${number}`)),
    h('p.hint', `${seatName(ctx, t.dealer)} deals${stake}${t.couleur ? ` · couleur ${suitLabel(t.couleur)}` : ''}`),
    form));
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

  function confirm(record, preview) {
    const changes = recordChanges(ctx, hand.hand, record);
    const later = ctx.hands.filter((x) => x.number > number && x.status === 'recorded').length;
    const old = hand.settlement;
    const rows = ctx.table.seats.map((s, i) => h('tr', h('th', { scope: 'row' }, s.name),
      h('td', old ? signed(old.deltas[i]) : '0'), h('td', preview ? signed(preview.deltas[i]) : '?')));
    const box = h('section.confirm', { role: 'alertdialog', 'aria-labelledby': 'confirm-h' },
      h('h2', { id: 'confirm-h' }, `Change hand ${number}?`),
      changes.length ? h('ul.changes', changes.map((c) => h('li', c))) : h('p', 'Nothing changes in the record.'),
      h('table.compare', h('caption', `What hand ${number} moves`),
        h('thead', h('tr', h('th', { scope: 'col' }, 'Seat'), h('th', { scope: 'col' }, 'Now'), h('th', { scope: 'col' }, 'After'))),
        h('tbody', rows)),
      hand.status === 'void' ? h('p', 'The hand is void now; saving restores it.') : null,
      later ? h('p', `The ${later} later hand${later > 1 ? 's are' : ' is'} settled again after it.`) : null,
      preview ? settlementView(ctx, preview, { heading: 'The corrected hand' }) : h('p.hint', 'Offline: no preview.'),
      h('div.buttons',
        h('button.primary', { type: 'button', onclick: async (event) => {
          event.target.disabled = true;
          const ok = await write(ctx, app, () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version),
            `Hand ${number} is corrected`);
          if (!ok) event.target.disabled = false;
        } }, `Save the correction`),
        h('button', { type: 'button', onclick: () => { box.remove(); form.hidden = false; } }, 'Back to the form')));
    form.hidden = true;
    screen.append(box);
    box.querySelector('h2').tabIndex = -1;
    box.querySelector('h2').focus();
  }

  clear(root, clear(screen, h('div.titlebar', back(ctx), h('h1', `Correct hand ${number}`)),
    h('p.hint', `Now: ${describeHand(ctx, hand.hand)}${hand.status === 'void' ? ' (void)' : ''}`), form));
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
  const field = h('input.sharelink', { type: 'text', readOnly: true, value: link, 'aria-label': 'Link to this table' });
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

// --- settle up --------------------------------------------------------------------------------
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
    const unit = data.units || 'chips';
    clear(body,
      h('p.notice', data.final ? 'Final: the table is closed.' : 'If the table closed now:'),
      h('h2', data.transfers.length ? 'Who pays whom' : 'Nobody pays anybody'),
      h('ul.payments', data.transfers.map((t) => h('li', h('strong', party(ctx, t.from)), ' pays ',
        h('strong', party(ctx, t.to)), ` ${t.amount} ${unit}`))),
      data.pool_shares.length ? h('p', `The pool (${data.pool}) is split: `,
        data.pool_shares.map((s) => `${seatName(ctx, s.to)} ${s.chips}`).join(', '), '.') : null,
      data.pool_at_close === 'carry' ? h('p', `The pool (${data.pool}) stays with the club.`) : null,
      h('h2', unit === 'points' ? 'Final score' : 'Net'),
      h('ul.deltas', data.net.map((n) => h('li', h('span.name', party(ctx, n.party)), h('span.num', signed(n.amount))))));
  }).catch((error) => {
    clear(body, h('p.notice.error', error instanceof ProblemError ? error.lines().join(' ') : 'No connection: the settle-up needs the network.'));
  });
  return null;
}
