// A hand's settlement as the service answers it (a preview, a recorded hand): its result, what
// each seat moved, the transfers and the explanation (the service names the players in it).

import { plain, signed } from './dom.js';
import { html, nothing } from './lit-html.js';
import { t, tn } from './i18n.js';
import { describeTransfer, doubledWords, resultWord, seatName } from './model.js';

function worth(ctx, s) {
  if (s.value === null || s.value === undefined) return '';
  if (!s.value) return t('nothing to pay');
  const value = s.value;
  return ctx.table.units === 'points'
    ? tn(value, 'each payment {n} point', 'each payment {n} points')
    : tn(value, 'each payment {n} chip', 'each payment {n} chips');
}

/** "Anna +24 · Bob −8 …" */
export function summaryLine(ctx, s) {
  const w = worth(ctx, s);
  const scores = s.deltas.map((d, i) => `${seatName(ctx, i)} ${signed(d)}`).join(', ');
  if (!s.result) return scores;
  const result = resultWord(s.result);
  return w
    ? t('{result}, {worth}: {scores}', { result, worth: w, scores })
    : t('{result}: {scores}', { result, scores });
}

const poolMove = (s) => ({ before: s.pool.before, after: s.pool.after });

/** A settlement: result, deltas per seat, transfers and the explanation lines.
 *  @param {any} ctx @param {any} s @param {{heading?: string}} [how] */
export function settlementView(ctx, s, { heading } = {}) {
  const w = worth(ctx, s);
  const doubled = s.in_couleur ? ` · ${doubledWords(ctx).in}` : '';
  const result = s.result
    ? html`<p class="result"
        ><strong>${resultWord(s.result)}</strong>${doubled}${w ? ` · ${w}` : ''}</p
      >`
    : nothing;
  const sign = (d) => (d > 0 ? 'plus' : d < 0 ? 'minus' : '');
  return html`<div class="settlement">
    ${heading ? html`<h2>${heading}</h2>` : nothing} ${result}
    <ul class="deltas">
      ${s.deltas.map(
        (d, i) =>
          html`<li class=${sign(d) || nothing}
            ><span class="name">${seatName(ctx, i)}</span><span class="num">${signed(d)}</span></li
          >`,
      )}
    </ul>
    ${s.transfers.length
      ? html`<ul class="transfers" aria-label=${t('Transfers')}>
          ${s.transfers.map((x) => html`<li>${describeTransfer(ctx, x)}</li>`)}
        </ul>`
      : nothing}
    ${s.pool ? html`<p class="hint">${t('Pool {before} → {after}', poolMove(s))}</p>` : nothing}
    ${s.explanation.length
      ? html`<ul class="explanation" aria-label=${t('Explanation')}>
          ${s.explanation.map((line) => html`<li>${plain(line)}</li>`)}
        </ul>`
      : nothing}
  </div>`;
}
