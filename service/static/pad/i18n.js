// The pad's languages, English, German and Spanish (docs/i18n.md): the one picked with the
// switch (kept on this phone), else the browser's first that the pad speaks, else English
// (boot.js picks it: the table's first reads go out in it before this module arrives); a
// page the service words (the club night's admin screen) gives its language and texts. The code
// writes the English, `t('Hand {number} recorded.', {number})`; the language's catalog
// (lang-de.js, lang-es.js) maps it to the translation, loaded by a top-level await (a module may
// word texts from its first line on).

import { LANGUAGES, LANGUAGE_KEY, pickedLanguage } from './boot.js';

const served = document.body?.dataset.words;
export const lang = served ? document.documentElement.lang : pickedLanguage;
const catalog = served
  ? JSON.parse(served)
  : lang === 'en' ? {} : (await import(`./lang-${lang}.js`)).default;
const plurals = new Intl.PluralRules(lang);
// The page's formats of numbers and dates, each made when first needed: a page's first
// Intl.NumberFormat costs Chromium 0.1-0.2 s on the development machine (its number data),
// which a table's first screen, whose numbers are small, need not wait for (docs/pad.md).
let numbers = null;
let dayFormat = null;
document.documentElement.lang = lang;

/** Remember `code` as this phone's language and start the page again in it. */
export function setLanguage(code) {
  try {
    localStorage.setItem(LANGUAGE_KEY, code);
  } catch {
    /* not remembered; still switched below */
  }
  location.reload();
}

/** An integer in the page's language (1.234 in German, 1234 in Spanish). Below 1,000 every
 *  language of the pad writes an integer alike, as its digits with a hyphen-minus: no format
 *  is needed for it. */
export function num(n) {
  if (Number.isInteger(n) && Math.abs(n) < 1000) return String(n);
  numbers ||= new Intl.NumberFormat(lang);
  return numbers.format(n);
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    if (!values || !(name in values)) return m;
    const value = values[name];
    return typeof value === 'number' ? num(value) : String(value);
  });
}

// A text may carry a context after a bar, as gettext's msgctxt: 'Game|variant' (the kind of game)
// and 'Game' (one game played) read the same in English and differently in German.
const english = (text) => text.replace(/\|\w+$/, '');

/** `text` (the English, a string literal) in the page's language, its `{name}`s filled. */
export function t(text, values) {
  const entry = catalog[text];
  return fill(typeof entry === 'string' ? entry : english(text), values);
}

/** A count: `tn(3, '{n} hand', '{n} hands')`, the form chosen by Intl.PluralRules; `{n}` is
 *  the count. A catalog entry gives a text per plural category of its language. */
export function tn(n, one, other, values) {
  const entry = catalog[one];
  const category = plurals.select(n);
  const text =
    entry && typeof entry === 'object'
      ? entry[category] || entry.other
      : english(category === 'one' ? one : other);
  return fill(text, { ...values, n });
}

/** Like `t`, for a text with elements in it: the pieces (strings, and the values that are
 *  templates or Nodes, kept as they are) to put in a template. */
export function tx(text, values) {
  const entry = catalog[text];
  const parts = (typeof entry === 'string' ? entry : english(text)).split(/(\{\w+\})/);
  return parts.filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!name || !values || !(name in values)) return part;
    const value = values[name];
    if (typeof value === 'object' && value !== null) return value; // a template or a Node
    return typeof value === 'number' ? num(value) : String(value);
  });
}

/** A date ("2. Dez. 2026"), '' for none. */
export function day(iso) {
  if (!iso) return '';
  dayFormat ||= new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric' });
  return dayFormat.format(new Date(iso));
}

/** The static texts of index.html (marked data-t) in the page's language. */
for (const el of document.querySelectorAll('[data-t]')) el.textContent = t(el.textContent);

/** The header's switch: each language named in itself. */
const picker = document.getElementById('lang');
if (picker) {
  picker.setAttribute('aria-label', t('Language'));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, code === lang, code === lang);
    option.lang = code;
    picker.append(option);
  }
  picker.addEventListener('change', () => setLanguage(picker.value));
}
