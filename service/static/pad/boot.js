// The page's first moments, importing nothing (index.html loads it before app.js): the language,
// what the phone keeps (`read`), the one way to the API (`send`), and on opening a table its
// first reads and the language's catalog, asked for while the modules load (docs/pad.md, "A
// table's first screen"); `send` gives such an answer to the same request, once.

export const LANGUAGES = { en: 'English', de: 'Deutsch', es: 'Español' };
export const LANGUAGE_KEY = 'solo-pad:lang';
export const STORE_PREFIX = 'solo-pad:';
/** The hands a table's page asks for at a time (model.js reads every page of them). */
export const HANDS_PAGE_SIZE = 100;

/** What this phone keeps under `key` (JSON in localStorage), or `fallback`. */
export function read(key, fallback) {
  try {
    const raw = localStorage.getItem(STORE_PREFIX + key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** The language picked with the switch (kept), else the browser's first the pad speaks, else
 *  English. */
function choose() {
  let picked = null;
  try {
    picked = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    /* storage off: the browser decides */
  }
  if (picked in LANGUAGES) return picked;
  for (const tag of navigator.languages || [navigator.language || '']) {
    const base = String(tag).split('-')[0].toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return 'en';
}

export const pickedLanguage = choose();

/** The API's paths that a table's first screen reads (api.js builds the rest). */
export const paths = {
  variants: '/variants',
  table: (id) => `/tables/${encodeURIComponent(id)}`,
  hands: (id, page, size) =>
    `/tables/${encodeURIComponent(id)}/hands?page=${page}&page_size=${size}`,
};

/** Each early read's answer (a fetch's promise) by its request, until the pad asks for it. */
const early = new Map();

/** @typedef {{token?: string|null, body?: any, headers?: Record<string, string>,
 *             language: string}} SendOptions */

/** The request as the pad sends it, and its key among the early reads ('' for one with a body).
 *  @param {string} method @param {string} path @param {SendOptions} options */
function request(method, path, { token, body, headers, language }) {
  // The API words its answers in the page's language (the browser would send its own).
  /** @type {Record<string, string>} */
  const sent = { Accept: 'application/json', 'Accept-Language': language, ...(headers || {}) };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  const url = `/api/v1${path}`;
  /** @type {RequestInit} */
  const init = {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
  };
  return { url, init, key: body === undefined ? `${method} ${url} ${JSON.stringify(sent)}` : '' };
}

/** One request to the API (`/api/v1` + `path`), as the pad sends every one: its fetch's
 *  promise, or the early read's when that same request was started early (taken once).
 *  @param {string} method @param {string} path @param {SendOptions} options
 *  @returns {Promise<Response>} */
export function send(method, path, options) {
  const { url, init, key } = request(method, path, options);
  const started = key && early.get(key);
  if (started) {
    early.delete(key);
    return started;
  }
  return fetch(url, init);
}

/** Let go of the early reads not taken (after the first route: never an old answer later). */
export function dropEarlyReads() {
  early.clear();
}

/** @param {string} method @param {string} path @param {SendOptions} options */
function startEarly(method, path, options) {
  const { url, init, key } = request(method, path, options);
  const answer = fetch(url, init);
  answer.catch(() => {}); // a failure is the taker's to see, not an unhandled rejection
  early.set(key, answer);
}

/** The answers a table's link's page came with (`#first-reads`, service/api/first_screen.py),
 *  each keyed as the pad's request for it; none for another table or language. */
function readsInThePage(id, token, language) {
  const script = document.getElementById('first-reads');
  let given = null;
  try {
    given = script && JSON.parse(script.textContent || '');
  } catch {
    /* none */
  }
  if (!given || given.table !== id || given.language !== language) return [];
  return given.reads.map((/** @type {any} */ read) => {
    const sent = { token: read.path === paths.variants ? null : token, language };
    const answer = new Response(read.body, { status: 200, headers: read.headers });
    return { key: request('GET', read.path, sent).key, answer };
  });
}

/** A table's link (`/?table=<id>&token=<token>`) as the fragment's, which the route takes. */
function linkFromTheQuery() {
  const query = new URLSearchParams(location.search);
  const [table, token] = [query.get('table'), query.get('token')];
  if (table && token) history.replaceState(null, '', `/#${new URLSearchParams({ table, token })}`);
}

/** The first reads of the table a link or a reload opens (`#table=<id>`, with the link's token
 *  or the one kept), as app.js's route asks for them: the page's own answers when it came with
 *  them, else asked for now; not on other pages (no `#app`). */
function startTheTablesReads() {
  if (!document.getElementById('app')) return; // not the pad's page
  linkFromTheQuery();
  const fragment = new URLSearchParams(location.hash.slice(1));
  const id = fragment.get('table');
  if (!id) return;
  const kept = read('tables', {})[id];
  const token = fragment.get('token') || (kept && kept.token);
  if (!token) return;
  const language = pickedLanguage;
  if (language !== 'en') import(`./lang-${language}.js`).catch(() => {}); // i18n.js's, at once
  const given = readsInThePage(id, token, language);
  if (given.length) {
    for (const { key, answer } of given) early.set(key, Promise.resolve(answer));
    return;
  }
  startEarly('GET', paths.variants, { language });
  startEarly('GET', paths.table(id), { token, language });
  startEarly('GET', paths.hands(id, 1, HANDS_PAGE_SIZE), { token, language });
}

startTheTablesReads();
