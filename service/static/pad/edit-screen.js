// Correct a hand: the hand form with its record, then a confirmation of what changes in the
// record and in the whole table before the correction is saved.

import { api } from './api.js';
import { backToTable } from './dom.js';
import { handForm } from './hand.js';
import { describeHand, recordChanges } from './hand-words.js';
import { t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { settlementView } from './settlement.js';
import { tableAfter, tableAfterView, write, writeToken } from './writes.js';

/** The screen's state: the hand (`state.number`), its form, and once the form is sent the
 *  correction being confirmed (`confirming`: the record, the settlement, the dry run's answer). */
export function openEdit(ctx, state, app) {
  const hand = ctx.hands.find((x) => x.number === state.number);
  if (!hand) return;
  state.hand = hand;
  state.form = handForm({
    ctx,
    variant: ctx.variant,
    number: state.number,
    record: hand.hand,
    saveLabel: t('Review the change'),
    onSave: (record, preview) => confirm(ctx, app, record, preview),
  });
}

async function confirm(ctx, app, record, preview) {
  const { number } = app.state();
  const confirming = { record, settlement: preview, answer: null };
  app.setState({ confirming });
  document.getElementById('confirm-h')?.focus();
  const dryRun = () =>
    api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version, true);
  const answer = await tableAfter(ctx, dryRun);
  if (app.state().confirming !== confirming) return; // back to the form meanwhile
  const settlement = (answer.data && answer.data.settlement) || confirming.settlement;
  app.setState({ confirming: { ...confirming, answer, settlement } });
}

function confirmation(ctx, state, app) {
  const { hand, number, confirming, form } = state;
  const { record, answer, settlement } = confirming;
  const changes = recordChanges(ctx, hand.hand, record);
  const ready = !!(answer && answer.table) && !confirming.sending;
  const save = async () => {
    app.setState({ confirming: { ...confirming, sending: true } });
    const request = () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version);
    if (await write(ctx, app, request, t('Hand {number} is corrected', { number }))) form.discard();
    else app.setState({ confirming: { ...app.state().confirming, sending: false } });
  };
  const corrected = t('The corrected hand');
  return html`<section class="confirm" role="region" aria-labelledby="confirm-h">
    <h2 id="confirm-h" tabindex="-1">${t('Change hand {number}?', { number })}</h2>
    ${changes.length
      ? html`<ul class="changes">
          ${changes.map((c) => html`<li>${c}</li>`)}
        </ul>`
      : html`<p>${t('Nothing changes in the record.')}</p>`}
    ${hand.status === 'void'
      ? html`<p>${t('The hand is void now; saving restores it.')}</p>`
      : nothing}
    <div>${tableAfterView(ctx, answer)}</div>
    <div>${settlement ? settlementView(ctx, settlement, { heading: corrected }) : nothing}</div>
    <div class="buttons">
      <button type="button" class="primary" ?disabled=${!ready} @click=${save}
        >${t('Save the correction')}</button
      ><button type="button" @click=${() => app.setState({ confirming: null })}
        >${t('Back to the form')}</button
      >
    </div>
  </section>`;
}

export function editView(ctx, state, app) {
  const { hand, number, form, confirming } = state;
  if (!hand) {
    return html`<div class="screen">
      ${backToTable(ctx.id)}
      <h1>${t('No hand {number}', { number })}</h1>
    </div>`;
  }
  const leave = () => {
    form.discard();
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
  };
  const discard = form.hasDraft
    ? html`<button type="button" class="small link" @click=${leave}
        >${t('Discard the changes')}</button
      >`
    : nothing;
  const now = describeHand(ctx, hand.hand);
  return html`<div class="screen edit">
    <div class="titlebar">
      ${backToTable(ctx.id)}
      <h1>${t('Correct hand {number}', { number })}</h1>
      ${discard}
    </div>
    <p class="hint">${hand.status === 'void'
        ? t('Now: {hand} (void)', { hand: now })
        : t('Now: {hand}', { hand: now })}</p>
    <div ?hidden=${!!confirming}>${form.element}</div>
    ${confirming ? confirmation(ctx, state, app) : nothing}
  </div>`;
}
