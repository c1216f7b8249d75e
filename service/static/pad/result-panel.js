// A tournament table's result at the end of its series (docs/tournaments.md): two players other
// than the scorer (the first seat, who entered the hands) each confirm it by tapping their own
// name, and it counts; or a player disputes a hand, which waits for the director. table.js
// imports this only for a tournament's table whose series is over, and draws `panel` under the
// series' end. Its read (`getTableResult`) is made again when the table changes and when the
// table's stream tells of a confirmation, a dispute or a resolution (app.js: `view.resultHeard`).

import { call, ProblemError } from './api.js';
import { num, t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { signed, sr } from './dom.js';

const enc = encodeURIComponent;
const path = (ctx, tournament) =>
  `/tournaments/${enc(tournament)}/tables/${enc(ctx.id)}/confirmations`;

/** Read the table's result unless read at this version and this news from the stream. */
export function load(ctx, view, app) {
  const tournament = view.night.tournament_id;
  const key = `${ctx.table.version}:${view.resultHeard || 0}`;
  if (view.resultFor === key) return;
  view.resultFor = key;
  call('GET', path(ctx, tournament), { token: ctx.token || ctx.adminToken }).then(
    ({ data }) => app.setState({ result: data, resultPanel: { panel } }),
    () => {},
  );
}

/** What the service refused, in its words (or that the phone is offline). */
function refusal(error) {
  return error instanceof ProblemError
    ? error.lines().join(' ')
    : t('No connection: try again when online.');
}

/** A write of the panel (a confirmation, a dispute): the answer read again, or the refusal. */
async function send(ctx, view, app, suffix, body) {
  app.setState({ resultBusy: true, resultError: null });
  const at = path(ctx, view.night.tournament_id).replace(/confirmations$/, suffix);
  try {
    await call('POST', at, { token: ctx.token, body });
    view.resultFor = null;
    app.setState({ resultBusy: false, disputing: false });
    load(ctx, view, app);
  } catch (error) {
    app.setState({ resultBusy: false, resultError: refusal(error) });
  }
}

/** The director's outcome of a resolved dispute, as a sentence. */
function outcome(dispute) {
  const values = { hand: num(dispute.hand) };
  if (dispute.status === 'corrected') {
    return t('The director corrected hand {hand}.', values);
  }
  if (dispute.status === 'voided') return t('The director voided hand {hand}.', values);
  return t('The director kept hand {hand} as it was.', values);
}

function seatRow(ctx, view, app, result, seat) {
  const name = seat.name;
  const balance = html`<span class="balance">${signed(seat.balance)}</span>`;
  const inner = html`<span class="name">${name}</span>${balance}`;
  if (seat.seat === result.scorer) {
    const tag = html`<span class="tag">${t('entered the hands')}</span>`;
    return html`<li class="scorer">${inner}<span class="said">${tag}</span></li>`;
  }
  if (result.confirmations.includes(seat.seat)) {
    const tag = html`<span class="tag ok">✓ ${t('confirmed')}</span>`;
    return html`<li class="done">${inner}<span class="said">${tag}</span></li>`;
  }
  const can = ctx.token && !result.confirmed && result.state !== 'disputed' && !view.resultBusy;
  const confirm = () => send(ctx, view, app, 'confirmations', { seat: seat.seat });
  // Its name read out is what it shows, then what a tap does (axe: the label holds the text).
  return html`<li>
    <button type="button" class="confirm-seat" ?disabled=${!can} @click=${confirm}
      >${inner}${sr(` · ${t('Confirm the result')}`)}</button>
  </li>`;
}

function disputeForm(ctx, view, app) {
  const table = ctx.table;
  const submit = (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const value = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
    const body = {
      seat: Number(value('seat')),
      hand: Number(value('hand')),
      reason: value('reason').trim(),
    };
    send(ctx, view, app, 'disputes', body);
  };
  const hands = Array.from({ length: table.hands_played }, (_, i) => table.hands_played - i);
  return html`<form class="dispute" @submit=${submit}>
    <label for="dispute-hand">${t('Which hand?')}</label>
    <select id="dispute-hand" name="hand">
      ${hands.map(
        (n) => html`<option value=${n}>${t('Hand {number}', { number: num(n) })}</option>`,
      )}
    </select>
    <label for="dispute-seat">${t('Who disputes it?')}</label>
    <select id="dispute-seat" name="seat">
      ${table.seats.map((s) => html`<option value=${s.seat}>${s.name}</option>`)}
    </select>
    <label for="dispute-reason">${t('What is wrong? (a few words)')}</label>
    <input id="dispute-reason" name="reason" type="text" required maxlength="200" />
    <div class="buttons">
      <button type="submit" class="primary" ?disabled=${view.resultBusy}>
        ${t('Send to the director')}</button
      ><button type="button" @click=${() => app.setState({ disputing: false })}>
        ${t('Cancel')}</button>
    </div>
  </form>`;
}

/** The panel: each seat with its result and whether it confirmed, what the result's state is
 *  (counts; waiting for the director; how many confirmations), and the dispute's form. */
export function panel(ctx, view, app) {
  const result = view.result;
  if (!result || result.table_id !== ctx.id) return nothing;
  const open = result.disputes.filter((d) => d.status === 'open');
  const resolved = result.disputes.filter((d) => d.status !== 'open');
  const scorer = ctx.table.seats.find((s) => s.seat === result.scorer);
  const given = result.confirmations.filter((s) => s !== null).length;
  const needed = num(result.confirmations_needed);
  const count = t('{n} of {needed} confirmed', { n: num(given), needed });
  const state = result.confirmed
    ? html`<p class="notice ok" data-result="confirmed">
        <strong>${t('Confirmed: the result counts.')}</strong></p>`
    : open.length
      ? html`<div class="notice warn" data-result="disputed">
          ${open.map(
            (d) => html`<p><strong>${t('Hand {hand} is disputed: waiting for the director.', {
              hand: num(d.hand),
            })}</strong> <q>${d.reason}</q></p>`,
          )}
        </div>`
      : html`<p data-result="unconfirmed">
          ${t(
            'Two players other than {name}, who entered the hands, confirm: tap your own name.',
            { name: scorer ? scorer.name : '' },
          )}
        </p>
        <p><strong>${count}</strong></p>`;
  const canDispute = ctx.token && !result.confirmed && ctx.table.hands_played > 0;
  return html`<section class="card result" aria-labelledby="result-heading">
    <h2 id="result-heading">${t('Confirm the result')}</h2>
    ${resolved.map((d) => html`<p class="hint" data-outcome=${d.status}>${outcome(d)}</p>`)}
    ${state}
    <ul class="result-seats">
      ${ctx.table.seats.map((seat) => seatRow(ctx, view, app, result, seat))}
    </ul>
    ${view.resultError
      ? html`<p class="notice error" role="alert">${view.resultError}</p>`
      : nothing}
    ${!canDispute
      ? nothing
      : view.disputing
        ? disputeForm(ctx, view, app)
        : html`<button type="button" class="dispute-open"
            @click=${() => app.setState({ disputing: true, resultError: null })}>
            ${t('Dispute a hand')}</button>`}
  </section>`;
}
