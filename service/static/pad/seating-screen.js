// Put a wrong seating right: the players in the order they sat and who dealt first; every
// hand is settled again.

import { api } from './api.js';
import { backToTable } from './dom.js';
import { t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { tableAfter, tableAfterView, write, writeToken } from './writes.js';

/** The seating as recorded: the players in order and who dealt the first hand. */
function recorded(ctx) {
  const { seats, dealer } = ctx.table;
  const firstHand = ctx.hands[0];
  return {
    order: seats.map((s) => s.player_id),
    first: seats[firstHand ? firstHand.dealer : dealer].player_id,
  };
}

/** The screen's state: the order and the first dealer chosen, the dry run's answer for them. */
export function openSeating(ctx, state) {
  Object.assign(state, recorded(ctx), { answer: null, asking: 0 });
}

/** The body of a re-seating (what the dry run and the write send). */
const reseat = (ctx, state, dry) => () =>
  api.reseat(
    ctx.id,
    writeToken(ctx),
    { seats: state.order, first_dealer: state.order.indexOf(state.first) },
    ctx.table.version,
    dry,
  );

/** A new order or first dealer: shown at once, then what the table becomes (a dry run). */
async function choose(ctx, app, change) {
  const state = { ...app.state(), ...change };
  const was = recorded(ctx);
  const same = state.order.every((id, i) => id === was.order[i]) && state.first === was.first;
  const asking = app.state().asking + 1;
  app.setState({ ...change, asking, answer: same ? null : app.state().answer });
  if (same) return;
  const answer = await tableAfter(ctx, reseat(ctx, state, true));
  if (app.state().asking === asking) app.setState({ answer });
}

export function seatingView(ctx, state, app) {
  const table = ctx.table;
  const heading = html`<div class="titlebar">${backToTable(ctx.id)}<h1>${t('Seating')}</h1></div>`;
  if (table.status === 'closed') {
    const stays = t('The table is closed: its seating stays as it is.');
    return html`<div class="screen seating">${heading}<p class="notice">${stays}</p></div>`;
  }
  const { order, first, answer } = state;
  const name = (id) => table.seats.find((s) => s.player_id === id).name;
  const move = (i, d) => {
    const next = order.slice();
    [next[i], next[i + d]] = [next[i + d], next[i]];
    choose(ctx, app, { order: next });
  };
  const was = recorded(ctx);
  const same = order.every((id, i) => id === was.order[i]) && first === was.first;
  const ready = !same && !!(answer && answer.table) && !state.sending;
  const save = async () => {
    app.setState({ sending: true });
    if (!(await write(ctx, app, reseat(ctx, state, false), t('The seating is changed'))))
      app.setState({ sending: false });
  };
  const rows = order.map(
    (id, i) => html`<li
      ><span class="name fit">${name(id)}</span
      ><button
        type="button"
        class="small"
        ?disabled=${i === 0}
        aria-label=${t('Move {name} up', { name: name(id) })}
        @click=${() => move(i, -1)}
      >↑</button
      ><button
        type="button"
        class="small"
        ?disabled=${i === order.length - 1}
        aria-label=${t('Move {name} down', { name: name(id) })}
        @click=${() => move(i, 1)}
      >↓</button></li
    >`,
  );
  const dealers = order.map(
    (id) => html`<button
      type="button"
      class="choice small"
      aria-pressed=${String(id === first)}
      @click=${() => choose(ctx, app, { first: id })}
    >${name(id)}</button>`,
  );
  const howTo = t(
    'Wrong seats noticed late? Put the players in the order they sat (the deal passes down the list) and tap who dealt the first hand. Every hand is settled again.',
  );
  const asRecorded = html`<p class="hint">${t('This is the seating as recorded.')}</p>`;
  return html`<div class="screen seating">
    ${heading}
    <p>${howTo}</p>
    <ol class="reseat">
      ${rows}
    </ol>
    <div>
      <fieldset class="group">
        <legend>${t('Dealt the first hand')}</legend>
        <div class="row wrap">${dealers}</div>
      </fieldset>
    </div>
    <div>${same ? asRecorded : answer ? tableAfterView(ctx, answer) : nothing}</div>
    <div class="buttons">
      <button type="button" class="primary" ?disabled=${!ready} @click=${save}
        >${t('Save the seating')}</button
      >
    </div>
  </div>`;
}
