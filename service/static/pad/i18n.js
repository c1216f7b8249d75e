// The pad's languages: English (the words written in the code are the keys), German and Spanish
// (lang-de.js, lang-es.js: loaded only when chosen). The language comes from the switch the
// phone remembers, else the browser's languages; numbers, dates and plurals go through Intl;
// the API is asked in the same language (Accept-Language), so explanations and refusals match.

export const LANGUAGES = { en: 'English', de: 'Deutsch', es: 'Español' };
const KEY = 'solo-pad-language';
let current = 'en';
let words = {};

/** The language to use: the one chosen on this phone, else the browser's first we speak. */
export function preferred() {
  let saved = null;
  try { saved = localStorage.getItem(KEY); } catch { /* private mode: not remembered */ }
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const lang = String(tag).toLowerCase().split('-')[0];
    if (lang in LANGUAGES) return lang;
  }
  return 'en';
}

/** Load `lang`'s words (before the first screen, and on a switch); remembers a switch. */
export async function useLanguage(lang = preferred(), remember = false) {
  const chosen = lang in LANGUAGES ? lang : 'en';
  words = chosen === 'en' ? {} : (await import(`./lang-${chosen}.js`)).default;
  current = chosen;
  document.documentElement.lang = chosen;
  if (remember) {
    try { localStorage.setItem(KEY, chosen); } catch { /* not remembered */ }
  }
  return chosen;
}

export const language = () => current;

/** What the API is asked in. */
export const acceptLanguage = () => (current === 'en' ? 'en' : `${current}, en;q=0.5`);

function fill(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? fmt(values[name]) : all)) : text;
}

function fmt(value) {
  return typeof value === 'number' ? num(value) : String(value);
}

/** `text` (English, with {name} places) in the reader's language. */
export function t(text, values) {
  const said = words[text];
  return fill(typeof said === 'string' ? said : text, values);
}

/** A count's words: `one` and `other` are the English forms ("{n} hand", "{n} hands"); a
 * catalog gives each of its language's plural categories (Intl.PluralRules). */
export function tn(n, one, other, values) {
  const forms = words[one];
  const category = new Intl.PluralRules(current).select(n);
  let text;
  if (forms && typeof forms === 'object') text = forms[category] || forms.other;
  else text = category === 'one' ? one : other;
  return fill(text, { n, ...values });
}

/** An integer as the reader writes it (1.234 in German, 1234 in Spanish, 1,234 in English). */
export function num(n) {
  return new Intl.NumberFormat(current).format(n);
}

/** A date and time (an ISO string or a Date) as the reader writes it. */
export function when(value, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : new Intl.DateTimeFormat(current, options).format(date);
}

/** A day (YYYY-MM-DD or ISO) as the reader writes it. */
export function day(value) {
  return when(value, { dateStyle: 'medium' });
}
