// The settle-up as the service answers it: who pays whom (in chips, points or money), the
// pool's share-out and each seat's net.

import { h, signed } from './dom.js';
import { num, t, tn, tx } from './i18n.js';
import { seatName } from './model.js';
import { money, rateWords } from './table-settings.js';

/** "12 chips", "1 point" (of the score: a hand's card points are model.js's '{n} point'). */
function amount(units, n) {
  return units === 'points'
    ? tn(n, '{n} point|score', '{n} points|score')
    : tn(n, '{n} chip', '{n} chips');
}

/** The values of "{payer} pays {payee} {amount}". */
function payment(ctx, unit, x) {
  return {
    payer: h('strong', party(ctx, x.from)),
    payee: h('strong', party(ctx, x.to)),
    amount: amount(unit, x.amount),
    club: h('strong', party(ctx, 'pool')),
  };
}

/** "Anna pays Bob 3 chips"; the club's pool in its own sentences (German and Spanish decline
 *  it). */
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
    payer: h('strong', party(ctx, x.from)),
    payee: h('strong', party(ctx, x.to)),
    amount: money(x.cents, c),
    club: h('strong', party(ctx, 'pool')),
  });
  const fee = m.fees.length ? m.fees[0].cents : 0;
  return [
    h('h2', m.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')),
    h(
      'ul.payments.money',
      m.transfers.map((x) => h('li', pays(values(x), x))),
    ),
    fee
      ? h(
          'p',
          t('Each player also pays the club {amount} for the table.', { amount: money(fee, c) }),
        )
      : null,
    h(
      'ul.deltas.money',
      m.net.map((n) =>
        h(
          'li',
          h('span.name', party(ctx, n.party)),
          h('span.num', (n.cents > 0 ? '+' : '') + money(n.cents, c)),
        ),
      ),
    ),
    h(
      'p.hint',
      [
        t('Plays for {rate}.', { rate: rateWords(m.rate, data.units) }),
        data.units === 'points'
          ? t('Settling the scores') +
            ': ' +
            (m.rate.point_settlement === 'average'
              ? t('Against the average')
              : t('Pairwise difference')) +
            '.'
          : '',
        t('Rounded down to the cent; the cents left over go to the largest remainders.'),
      ].join(' '),
    ),
  ];
}

export function settleUpView(ctx, data) {
  const unit = data.units || 'chips';
  const shares = {
    pool: data.pool,
    shares: data.pool_shares.map((s) => `${seatName(ctx, s.to)} ${num(s.chips)}`).join(', '),
  };
  const inMoney = !!data.money;
  return h(
    'div.settleup',
    inMoney
      ? moneyView(ctx, data)
      : [
          h('h2', data.transfers.length ? t('Who pays whom') : t('Nobody pays anybody')),
          h(
            'ul.payments',
            data.transfers.map((x) => h('li', pays(payment(ctx, unit, x), x))),
          ),
        ],
    data.pool_shares.length
      ? h('p', t('The pool ({pool}) is shared out: {shares}.', shares))
      : null,
    data.pool_at_close === 'carry'
      ? h('p', t('The pool ({pool}) stays with the club for its next table.', { pool: data.pool }))
      : null,
    h(inMoney ? 'h3' : 'h2', unit === 'points' ? t('Final score') : t('Net')),
    h(
      'ul.deltas',
      data.net.map((n) =>
        h('li', h('span.name.fit', party(ctx, n.party)), h('span.num', signed(n.amount))),
      ),
    ),
  );
}
function party(ctx, p) {
  return p === 'pool' ? t('the club (pool)') : seatName(ctx, p);
}
