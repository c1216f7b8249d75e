// A table's season and rate (docs/league.md), and money as the language writes it ("−3,00 €").

import { api, ProblemError } from './api.js';
import { h, clear, toast } from './dom.js';
import { lang, t } from './i18n.js';

const formats = {};
const format = (c, digits) => {
  const key = `${c}:${digits ?? ''}`;
  formats[key] ||= new Intl.NumberFormat(lang, {
    style: 'currency',
    currency: c,
    maximumFractionDigits: digits,
  });
  return formats[key];
};
const minor = (c) => format(c).resolvedOptions().maximumFractionDigits;

export function money(cents, c) {
  return format(c)
    .formatToParts(cents / 10 ** minor(c))
    .map((p) => (p.type === 'minusSign' ? '−' : p.value))
    .join('');
}

export function rateWords(rate, units) {
  const amount = format(rate.currency, minor(rate.currency) + 3).format(
    rate.cents / rate.per / 10 ** minor(rate.currency),
  );
  return units === 'points'
    ? t('{amount} per point', { amount })
    : t('{amount} per chip', { amount });
}

function field(label, input) {
  input.id = `s-${Math.random().toString(36).slice(2, 9)}`;
  return h('div.field', h('label', { htmlFor: input.id }, label), input);
}

export function seasonSelect(seasons, chosen, onchange) {
  return h(
    'select',
    { onchange },
    h('option', { value: '' }, t('No season')),
    seasons.map((s) => h('option', { value: s.id, selected: s.id === chosen }, s.name)),
  );
}

/** The one season open today, if only one is. */
export function defaultSeason(seasons) {
  const today = new Date().toLocaleDateString('sv'); // YYYY-MM-DD, the phone's day
  const open = seasons.filter(
    (s) => (!s.starts_on || s.starts_on <= today) && (!s.ends_on || today <= s.ends_on),
  );
  return open.length === 1 ? open[0].id : null;
}

// Amounts as the language writes them: "0,05" in German and Spanish, "0.05" in English; either
// separator is read (a phone's keyboard may offer only one), no grouping.
const decimal = new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 6 });

/** An amount typed in a field: a number (either separator), null for none, NaN for neither. */
export function readAmount(text) {
  const typed = String(text).trim();
  if (!typed) return null;
  return /^(\d+([.,]\d*)?|[.,]\d+)$/.test(typed) ? Number(typed.replace(',', '.')) : NaN;
}

/** `value()`: the API's `rate` (null: none); without `sendCurrency`, the club's currency.
 *  `problem()`: the words for an amount that is not one (naming its field), else null. */
export function rateFields(units, c, rate, sendCurrency = true) {
  const d = minor(c);
  const symbol = format(c)
    .formatToParts(0)
    .find((p) => p.type === 'currency').value;
  const number = (value) =>
    h('input', {
      type: 'text',
      inputmode: 'decimal',
      autocomplete: 'off',
      value: value === '' ? '' : decimal.format(value),
    });
  const amount = number(rate ? rate.cents / rate.per / 10 ** d : '');
  amount.placeholder = t('Not for money');
  const fee = number(rate && rate.table_fee_cents ? rate.table_fee_cents / 10 ** d : '');
  const settlement =
    units === 'points'
      ? h(
          'select',
          h('option', { value: 'pairs' }, t('Pairwise difference')),
          h(
            'option',
            { value: 'average', selected: rate?.point_settlement === 'average' },
            t('Against the average'),
          ),
        )
      : null;
  const amountLabel =
    units === 'points'
      ? t('Money per point ({currency})', { currency: symbol })
      : t('Money per chip ({currency})', { currency: symbol });
  const feeLabel = t('Table fee per player ({currency})', { currency: symbol });
  return {
    inputs: [amount, fee, settlement].filter(Boolean),
    rows: [
      field(amountLabel, amount),
      field(feeLabel, fee),
      settlement && field(t('Settling the scores'), settlement),
    ],
    problem() {
      for (const [input, label] of [
        [amount, amountLabel],
        [fee, feeLabel],
      ]) {
        const bad = Number.isNaN(readAmount(input.value));
        input.setAttribute('aria-invalid', String(bad));
        if (bad)
          return t('{field}: write an amount such as {example}.', {
            field: label,
            example: decimal.format(0.05),
          });
      }
      return null;
    },
    value() {
      const feeCents = Math.round((readAmount(fee.value) || 0) * 10 ** d);
      const perUnit = readAmount(amount.value);
      if (perUnit === null && !feeCents) return null;
      // per: the smallest power of ten that makes the cents whole
      const cents = (perUnit || 0) * 10 ** d;
      const per =
        [1, 10, 100, 1000].find((p) => Math.abs(Math.round(cents * p) - cents * p) < 1e-6) || 1000;
      const out = { cents: Math.round(cents * per), per, table_fee_cents: feeCents };
      if (sendCurrency) out.currency = c;
      if (settlement) out.point_settlement = settlement.value;
      return out;
    },
  };
}

/** The season (admin token only) and the rate (a table's phones too, while it is open). */
export function settingsPanel(ctx, changed) {
  const tb = ctx.table;
  const seasonRow = h('div');
  const rateBox = h('div');
  const token = ctx.adminToken || ctx.token;
  // A setting is absolute, not based on the hands: guarded by the version just read.
  const save = (body) =>
    api
      .table(ctx.id, token)
      .then(({ data }) => api.updateTable(ctx.id, token, body, data.version))
      .then(
        ({ data }) => {
          ctx.table = data;
          ctx.etag = null;
          changed();
        },
        (error) =>
          toast(
            error instanceof ProblemError ? error.lines().join(' ') : t('No connection.'),
            'error',
          ),
      );
  if (ctx.adminToken) {
    api.seasons(tb.club_id, ctx.adminToken).then(
      ({ data }) => {
        const select = seasonSelect(
          data.filter((s) => s.variant === tb.variant),
          tb.season_id,
          () => save({ season_id: select.value || null }),
        );
        clear(seasonRow, field(t('Counts for the season'), select));
      },
      () => {},
    );
  }
  const currency = tb.rate
    ? Promise.resolve(tb.rate.currency)
    : ctx.adminToken
      ? api.club(tb.club_id, ctx.adminToken).then(
          ({ data }) => data.currency,
          () => null,
        )
      : Promise.resolve(null);
  currency.then((code) => {
    const rate = rateFields(tb.units, code || 'EUR', tb.rate, !!code);
    const may = tb.status === 'open' || !!ctx.adminToken;
    for (const input of rate.inputs) input.disabled = !may;
    const submit = (event) => {
      event.preventDefault();
      const problem = rate.problem();
      if (problem) toast(problem, 'error');
      else save({ rate: rate.value() });
    };
    clear(
      rateBox,
      h(
        'form',
        { onsubmit: submit },
        h(
          'p',
          tb.rate
            ? t('Plays for {rate}.', { rate: rateWords(tb.rate, tb.units) })
            : t('Not for money'),
        ),
        rate.rows,
        may && h('button', { type: 'submit' }, t('Save the rate')),
      ),
    );
  });
  // Open stays open when the screen is drawn again (a hand recorded on another phone).
  const panel = h(
    'details.card.settings',
    {
      open: !!ctx.ui.settingsOpen,
      ontoggle: () => {
        ctx.ui.settingsOpen = panel.open;
      },
    },
    h('summary', t('Season and money')),
    seasonRow,
    rateBox,
  );
  return panel;
}
