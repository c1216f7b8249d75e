// The settle-up: who pays whom (chips, points or money), the pool's share-out, each net.

import { signed } from './dom.js';
import { html, nothing } from './lit-html.js';
import { num, t, tn, tx } from './i18n.js';
import { seatName } from './model.js';
import { money, rateWords } from './money.js';

/** "12 chips", "1 point" (of the score: a hand's card points are model.js's '{n} point'). */
function amount(units, n) {
  return units === 'points'
    ? tn(n, '{n} point|score', '{n} points|score')
    : tn(n, '{n} chip', '{n} chips');
}

const strong = (text) => html`<strong>${text}</strong>`;

/** The values of "{payer} pays {payee} {amount}". */
function payment(ctx, unit, x) {
  return {
    payer: strong(party(ctx, x.from)),
    payee: strong(party(ctx, x.to)),
    amount: amount(unit, x.amount),
    club: strong(party(ctx, 'pool')),
  };
}

/** "Anna pays Bob 3 chips"; the pool in its own sentences (German and Spanish decline it). */
function pays(values, x) {
  if (x.to === 'pool') return tx('{payer} pays {club} {amount}', values);
  if (x.from === 'pool') return tx('{club} pays {payee} {amount}', values);
  return tx('{payer} pays {payee} {amount}', values);
}

/** The settle-up in money, with its rate and rounding. */
function moneyView(ctx, data) {
  const m = data.money;
  const c = m.currency;
  const values = (x) => ({
    payer: strong(party(ctx, x.from)),
    payee: strong(party(ctx, x.to)),
    amount: money(x.cents, c),
    club: strong(party(ctx, 'pool')),
  });
  const fee = m.fees.length ? m.fees[0].cents : 0;
  const settling =
    m.rate.point_settlement === 'average'
      ? t("Each settles the difference from the table's average.")
      : t('Each pair settles the difference of their scores.');
  const how = [
    t('Plays for {rate}.', { rate: rateWords(m.rate, data.units) }),
    data.units === 'points' ? settling : '',
    t('Rounded down to the cent; the cents left over go to the largest remainders.'),
  ];
  return html`<h2>${m.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')}</h2>
    <ul class="payments money">
      ${m.transfers.map((x) => html`<li>${pays(values(x), x)}</li>`)}
    </ul>
    ${fee
      ? html`<p>${t('Each player also pays the club {amount} for the table.', {
          amount: money(fee, c),
        })}</p>`
      : nothing}
    <ul class="deltas money">
      ${m.net.map(
        (n) =>
          html`<li
            ><span class="name">${party(ctx, n.party)}</span
            ><span class="num">${(n.cents > 0 ? '+' : '') + money(n.cents, c)}</span></li
          >`,
      )}
    </ul>
    <p class="hint">${how.join(' ')}</p>`;
}

export function settleUpView(ctx, data) {
  const unit = data.units || 'chips';
  const shares = {
    pool: data.pool,
    shares: data.pool_shares.map((s) => `${seatName(ctx, s.to)} ${num(s.chips)}`).join(', '),
  };
  const inMoney = !!data.money;
  const inChips = () =>
    html`<h2>${data.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')}</h2>
      <ul class="payments">
        ${data.transfers.map((x) => html`<li>${pays(payment(ctx, unit, x), x)}</li>`)}
      </ul>`;
  const netWord = unit === 'points' ? t('Final score') : t('Net');
  const stays = t('The pool ({pool}) stays with the club for its next table.', {
    pool: data.pool,
  });
  return html`<div class="settleup">
    ${inMoney ? moneyView(ctx, data) : unit === 'points' && !data.transfers.length
      ? html`<h2>${t('Not for money: the final score is the result')}</h2>` : inChips()}
    ${data.pool_shares.length
      ? html`<p>${t('The pool ({pool}) is shared out: {shares}.', shares)}</p>`
      : nothing}
    ${data.pool_at_close === 'carry' ? html`<p>${stays}</p>` : nothing}
    ${inMoney ? html`<h3>${netWord}</h3>` : html`<h2>${netWord}</h2>`}
    <ul class="deltas">
      ${data.net.map(
        (n) =>
          html`<li
            ><span class="name fit">${party(ctx, n.party)}</span
            ><span class="num">${signed(n.amount)}</span></li
          >`,
      )}
    </ul>
  </div>`;
}
function party(ctx, p) {
  return p === 'pool' ? t('the club (pool)') : seatName(ctx, p);
}
