// Money on the night's admin screen: amounts typed as the language writes them ("0,05" in
// German and Spanish, "0.05" in English) read exactly (no floats) into the API's rate (whole
// cents per `per` chips or points), and whole cents shown with the language's separators.

/** The currency's minor digits (2 for EUR, 0 for JPY). */
export function minorDigits(currency) {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
}

/**
 * An amount typed in `lang`: null when empty, undefined when it is no amount, else
 * {digits: BigInt, scale} (the value is digits / 10^scale). German and Spanish write a decimal
 * comma and may group thousands with points; a lone point is read as the decimal sign too (a
 * phone's number pad may offer only that). English writes a decimal point, commas grouping.
 */
export function parseAmount(text, lang) {
  let s = String(text || '').replace(/[\s\u00a0\u202f]/g, '');
  if (!s) return null;
  if (lang === 'en') s = s.replace(/,/g, '');
  else if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  else if ((s.match(/\./g) || []).length > 1) return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(s);
  if (!match) return undefined;
  const fraction = match[2] || '';
  return { digits: BigInt(match[1] + fraction), scale: fraction.length };
}

function gcd(a, b) {
  return b === 0n ? a : gcd(b, a % b);
}

/** {cents, per} for an amount per chip or point (null: finer than a thousandth of a cent, or
 * more than the API takes). */
export function rateFromAmount(amount, currency) {
  const d = BigInt(minorDigits(currency));
  const scale = BigInt(amount.scale);
  let cents = amount.digits;
  let per = 1n;
  if (scale <= d) cents *= 10n ** (d - scale);
  else per = 10n ** (scale - d);
  const common = cents === 0n ? per : gcd(cents, per);
  cents /= common;
  per /= common;
  if (per > 1000n || cents > 1000000n) return null;
  return { cents: Number(cents), per: Number(per) };
}

/** A rate's amount per chip or point ("0,05 €", "0,005 €"); without the currency for a field. */
export function rateAmount(rate, lang, withCurrency = true) {
  const d = minorDigits(rate.currency);
  const value = rate.cents / rate.per / 10 ** d; // for showing only: the API keeps whole cents
  /** @type {Intl.NumberFormatOptions} */
  const options = withCurrency ? { style: 'currency', currency: rate.currency } : {};
  return new Intl.NumberFormat(lang, { ...options, minimumFractionDigits: d,
    maximumFractionDigits: d + 3, useGrouping: withCurrency }).format(value);
}

/** Whole cents as the language writes the amount; `signed`: + for a gain, a real minus sign. */
export function formatCents(cents, currency, lang, signed = false) {
  const d = minorDigits(currency);
  const text = new Intl.NumberFormat(lang, { style: 'currency', currency })
    .format(Math.abs(cents) / 10 ** d);
  if (!signed || !cents) return text;
  return `${cents > 0 ? '+' : '\u2212'}${text}`;
}
