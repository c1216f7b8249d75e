// A hand's settlement as the service answers it (a preview, a recorded hand): its result, what
// each seat moved, the transfers and the explanation, with the players' names.

import { h, plain, signed } from './dom.js';
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

/** A settlement: result, deltas per seat, transfers and the explanation lines.
 *  @param {any} ctx @param {any} s @param {{heading?: string}} [how] */
export function settlementView(ctx, s, { heading } = {}) {
  const items = [];
  if (heading) items.push(h('h2', heading));
  if (s.result) {
    const w = worth(ctx, s);
    items.push(
      h(
        'p.result',
        h('strong', resultWord(s.result)),
        s.in_couleur ? ` · ${doubledWords(ctx).in}` : '',
        w ? ` · ${w}` : '',
      ),
    );
  }
  items.push(
    h(
      'ul.deltas',
      s.deltas.map((d, i) =>
        h(
          `li${d > 0 ? '.plus' : d < 0 ? '.minus' : ''}`,
          h('span.name', seatName(ctx, i)),
          h('span.num', signed(d)),
        ),
      ),
    ),
  );
  if (s.transfers.length) {
    items.push(
      h(
        'ul.transfers',
        { 'aria-label': t('Transfers') },
        s.transfers.map((x) => h('li', describeTransfer(ctx, x))),
      ),
    );
  }
  if (s.pool)
    items.push(
      h('p.hint', t('Pool {before} → {after}', { before: s.pool.before, after: s.pool.after })),
    );
  if (s.explanation.length) {
    items.push(
      h(
        'ul.explanation',
        { 'aria-label': t('Explanation') },
        s.explanation.map((line) => h('li', withNames(ctx, line))),
      ),
    );
  }
  return h('div.settlement', items);
}

/** The rules say "seat 2" or "Seats 1, 3 and 4" (numbered from 1); the table knows their names.
 *  Every line the service words (a hand's explanation, a session's reason) goes through it. */
export function withNames(ctx, line) {
  return plain(line).replace(
    /\b(?:[Ss]eats?|Platz|[Aa]sientos?) (\d(?:(?:, | and | und | y )\d)*)\b/g,
    (_, list) => list.replace(/\d/g, (n) => seatName(ctx, Number(n) - 1)),
  );
}
