// Settle up and close the table: the settle-up if it closed now, the table's settings (season
// and rate), and closing it.

import { api, ProblemError } from './api.js';
import { backToTable, toast } from './dom.js';
import { t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { tookTable } from './model.js';
import { directorCloses } from './series.js';
import { settleUpView } from './settle-up-view.js';
import { loadSettings, settingsView } from './table-settings.js';

/** The settle-up (`state.settleUp`: the service's answer, or `{problem}`) and the settings,
 *  read when the screen opens and again when the table changed (a changed rate changes the
 *  money). */
export function loadSettle(ctx, state, app) {
  loadSettings(ctx, app);
  const table = ctx.table;
  if (state.settledFor === table) return;
  state.settledFor = table;
  api.settleUp(ctx.id, ctx.token || ctx.adminToken).then(
    ({ data }) => app.setState({ settleUp: data }),
    (error) =>
      app.setState({
        settleUp: {
          problem:
            error instanceof ProblemError
              ? error.lines().join(' ')
              : t('No connection: the settle-up needs the network.'),
        },
      }),
  );
}

async function close(ctx, app) {
  try {
    const { data } = await api.close(ctx.id, ctx.token || ctx.adminToken);
    tookTable(ctx, data);
    toast(t('The table is closed.'));
    app.update();
  } catch (error) {
    toast(error instanceof ProblemError ? error.lines().join(' ') : t('No connection.'), 'error');
  }
}

function closing(ctx, app) {
  const question = t(
    'Close the table? No more hands can be recorded; corrections then need the club’s admin token.',
  );
  return html`<div class="confirm" role="alertdialog" aria-label=${t('Close the table?')}>
    <p>${question}</p>
    <div class="buttons">
      <button type="button" class="danger" @click=${() => close(ctx, app)}
        >${t('Yes, close the table')}</button
      ><button type="button" @click=${() => app.setState({ closing: false })}
        >${t('Not yet')}</button
      >
    </div>
  </div>`;
}

export function settleView(ctx, state, app) {
  const closed = ctx.table.status === 'closed';
  const { settleUp } = state;
  const body = !settleUp
    ? html`<p class="hint">${t('Loading…')}</p>`
    : settleUp.problem
      ? html`<p class="notice error">${settleUp.problem}</p>`
      : html`<p class="notice">${settleUp.final
            ? t('Final: the table is closed.')
            : t('If the table closed now:')}</p>
          ${settleUpView(ctx, settleUp)}`;
  const closeButton = closed
    ? nothing
    : directorCloses(ctx)
      ? html`<p class="notice" data-closes="director">${t(
          'This table belongs to a club night: its director closes it, with the next draw or when closing the night.',
        )}</p>`
      : html`<button type="button" class="danger" @click=${() => app.setState({ closing: true })}
          >${t('Close the table')}</button
        >`;
  return html`<div class="screen settle">
    <div class="titlebar">
      ${backToTable(ctx.id)}
      <h1>${closed ? t('Settle-up') : t('Settle up')}</h1>
    </div>
    <div>${body}</div>
    <div>${settingsView(ctx, state, app)}</div>
    ${closeButton}
    <div>${state.closing && !closed ? closing(ctx, app) : nothing}</div>
  </div>`;
}
