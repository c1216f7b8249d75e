// Money as the language writes it ("12,50 €", "−3,00 €"): integers of cents with
// Intl.NumberFormat. Apart from table-settings.js, which a table's first screen does not load.

import { lang, t } from './i18n.js';

const formats = {};
export const format = (c, digits) => {
  const key = `${c}:${digits ?? ''}`;
  formats[key] ||= new Intl.NumberFormat(lang, {
    style: 'currency',
    currency: c,
    maximumFractionDigits: digits,
  });
  return formats[key];
};
export const minor = (c) => format(c).resolvedOptions().maximumFractionDigits;

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
