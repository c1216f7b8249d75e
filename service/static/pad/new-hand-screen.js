// Record a hand: the hand form for the next deal, who deals it, and the hands still waiting
// in the outbox before it.

import { backToTable, suitLabel } from './dom.js';
import { handForm } from './hand.js';
import { t, tn } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { couleurOf, couleurSettled, doubledWords, nextHand, seatName } from './model.js';
import { enqueue, entriesFor } from './outbox.js';
import { seriesOver } from './series.js';

/** No next hand: the table closed, its session over, or its night's series played out. */
function over(ctx) {
  const table = ctx.table;
  return table.status === 'closed' || !!(table.session && table.session.over) || seriesOver(ctx);
}

/** The screen's state: the hand form for the next deal and the words about that deal, both as
 *  they were when the screen opened (a hand recorded elsewhere meanwhile shows in the form). */
export function openNewHand(ctx, state, app) {
  if (over(ctx)) return;
  // Offline with hands waiting, the deal follows them; pool and couleur wait for the server.
  const queued = entriesFor(ctx.id);
  const next = nextHand(ctx, queued);
  const number = next.number;
  const tableLink = `#table=${encodeURIComponent(ctx.id)}`;
  const form = handForm({
    ctx,
    variant: ctx.variant,
    number,
    saveLabel: t('Save hand {number}', { number }),
    onSave: (record) => {
      enqueue(ctx.id, number, record);
      form.discard();
      app.go(tableLink);
      app.flush();
    },
  });
  const name = seatName(ctx, next.dealer);
  const deals = next.stakeDue
    ? t('{name} deals and stakes', { name })
    : t('{name} deals', { name });
  const word = doubledWords(ctx).of(suitLabel(couleurOf(ctx)));
  const couleur = !couleurOf(ctx) || !(next.known || couleurSettled(ctx)) ? '' : ` · ${word}`;
  const n = queued.length;
  const waiting = n
    ? tn(
        n,
        '{n} hand waits to be sent: {known} are known once it is recorded.',
        '{n} hands wait to be sent: {known} are known once they are recorded.',
        { known: stillUnknown(ctx) },
      )
    : null;
  Object.assign(state, { form, number, deal: deals + couleur, waiting });
}

export function newHandView(ctx, state, app) {
  if (!state.form) {
    return html`<div class="screen">
      ${backToTable(ctx.id)}
      <h1>${t('No more hands')}</h1>
      <p>${seriesOver(ctx)
        ? t('The series is over: the night’s director may lengthen it.')
        : t('This table is closed or its session is over.')}</p>
    </div>`;
  }
  const { form, number, deal, waiting } = state;
  const discard = () => {
    form.discard();
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
  };
  return html`<div class="screen record">
    <div class="titlebar">
      ${backToTable(ctx.id)}
      <h1>${t('Hand {number}', { number })}</h1>
      <button type="button" class="small link" @click=${discard}>${t('Discard')}</button>
    </div>
    <p class="hint" data-next="dealer">${deal}</p>
    ${waiting ? html`<p class="notice">${waiting}</p>` : nothing} ${form.element}
  </div>`;
}

/** What the hands waiting to be sent still decide, in words: the pool only for a game that has
 *  one, the couleur (German Solo's preferred suit) only while it can still change (the game's
 *  description names both among a table's state), and always the balances. */
function stillUnknown(ctx) {
  const state = new Set(((ctx.variant && ctx.variant.state_fields) || []).map((f) => f.name));
  const pool = state.has('pool');
  const couleur = state.has('couleur') && !couleurSettled(ctx);
  if (!couleur) return pool ? t('the pool and the balances') : t('the balances');
  const doubled = doubledWords(ctx);
  return pool ? doubled.unknownWithPool : doubled.unknown;
}
