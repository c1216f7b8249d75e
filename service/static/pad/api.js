// The public HTTP API (/api/v1) and its problem details. Nothing else is called.

import { paths, send } from './boot.js';
import { lang, num, t } from './i18n.js';

export class NetworkError extends Error {
  constructor(message) {
    super(message || t('No connection'));
    this.name = 'NetworkError';
    this.retryAfterMs = 0;
  }
}

const REVOKED = 'urn:solo:problem:token-revoked';

/** Whether `error` is the refusal of a token that was revoked (its link no longer works). */
export function isRevoked(error) {
  return error instanceof ProblemError && error.problem.type === REVOKED;
}

export class ProblemError extends Error {
  constructor(status, problem) {
    const p = problem && typeof problem === 'object' ? problem : { detail: String(problem || '') };
    super(p.detail || p.title || `HTTP ${status}`);
    this.name = 'ProblemError';
    this.status = status;
    this.problem = p;
    this.retryAfterMs = 0; // a 429's or 503's Retry-After
  }

  /** The detail and each bad field in words ("Tout after five: …", not "hand.tout_after_five");
   *  `handField(name)` words a hand's field (its game's description), null for one it lacks. */
  lines(handField = () => null) {
    const fields = Object.entries(this.problem.errors || {});
    const out = fields.length ? [] : [words(this.problem.detail || this.message)];
    for (const [field, messages] of fields) {
      out.push(`${fieldWords(field, handField)}${words([].concat(messages).join(' '))}`);
    }
    return [...new Set(out)];
  }
}

// A table's setup and the parts of a hand's fields (a card's rank, an error's seat) as a player
// reads them in a refusal; a hand's fields are worded by their game's description (the caller's
// `handField`); a field named nowhere is read as the API spells it, its underscores as spaces.
const FIELDS = {
  rank: t('rank'),
  suit: t('suit'),
  side: t('side'),
  lower: t('lower'),
  seat: t('seat'),
  name: t('name'),
  variant: t('variant'),
  seats: t('seats'),
  first_dealer: t('first dealer'),
  options: t('options'),
};

/** "hand.errors.1.seat" → "Error 2, seat: " (nothing for the whole hand). */
function fieldWords(path, handField) {
  const parts = String(path)
    .split(/[.[\]]+/)
    .filter((p) => p && !['hand', 'json', 'body', '_schema'].includes(p));
  if (!parts.length) return '';
  const word = (p, i) => (i === 0 && handField(p)) || FIELDS[p] || p.replaceAll('_', ' ');
  const named = parts.map((p, i) => (/^\d+$/.test(p) ? num(Number(p) + 1) : word(p, i)));
  if (parts[0] === 'errors' && /^\d+$/.test(parts[1] || '')) {
    named.splice(
      0,
      2,
      t('error {number}', { number: Number(parts[1]) + 1 }) + (parts.length > 2 ? ',' : ''),
    );
  } else if (parts[0] === 'matadores' && parts.length > 1) named[0] += ',';
  const text = named.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}: `;
}

function words(text) {
  return String(text)
    .replace(/\bbete\b/g, 'bête')
    .replace(/\b([a-z]+)_([a-z_]+)\b/g, (m) => m.replaceAll('_', ' '));
}

/** One request. Resolves {status, data, headers}; a 304 has data null.
 *  @param {string} method @param {string} path
 *  @param {{token?: string|null, body?: any, headers?: Record<string, string>}} [request] */
export async function call(method, path, { token, body, headers } = {}) {
  let response;
  let text;
  try {
    response = await send(method, path, { token, body, headers, language: lang });
    text = await response.text();
  } catch (error) {
    throw new NetworkError(); // the browser's words ("Failed to fetch") tell a player nothing
  }
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (response.status === 304) return { status: 304, data: null, headers: response.headers };
  if (!response.ok) {
    const error =
      response.status >= 500 && (!data || typeof data !== 'object')
        ? new NetworkError(t('The server answered {status}', { status: String(response.status) }))
        : new ProblemError(response.status, data);
    error.retryAfterMs = 1000 * Number(response.headers.get('Retry-After')) || 0; // (seconds)
    throw error;
  }
  return { status: response.status, data, headers: response.headers };
}

export const api = {
  variants: () => call('GET', paths.variants),
  preview: (body) => call('POST', '/settlements/preview', { body }),
  createClub: (name) => call('POST', '/clubs', { body: { name } }),
  club: (id, token) => call('GET', `/clubs/${enc(id)}`, { token }),
  players: (id, token) => call('GET', `/clubs/${enc(id)}/players`, { token }),
  addPlayer: (id, token, name) =>
    call('POST', `/clubs/${enc(id)}/players`, { token, body: { name } }),
  createTable: (token, body) => call('POST', '/tables', { token, body }),
  table: (id, token, etag) =>
    call('GET', paths.table(id), {
      token,
      headers: etag ? { 'If-None-Match': etag } : {},
    }),
  hands: (id, token, page, size) => call('GET', paths.hands(id, page, size), { token }),
  hand: (id, token, n) => call('GET', `/tables/${enc(id)}/hands/${n}`, { token }),
  streamTicket: (id, token) => call('POST', `/tables/${enc(id)}/events/tickets`, { token }),
  record: (id, token, body, key) =>
    call('POST', `/tables/${enc(id)}/hands`, {
      token,
      body,
      headers: { 'Idempotency-Key': key },
    }),
  // dry: the same request answered with what the table would become, nothing stored.
  correct: (id, token, n, body, version, dry) =>
    call('PUT', `/tables/${enc(id)}/hands/${n}${dry ? DRY : ''}`, {
      token,
      body,
      headers: { 'If-Match': `"${version}"` },
    }),
  voidHand: (id, token, n, version, dry) =>
    call('DELETE', `/tables/${enc(id)}/hands/${n}${dry ? DRY : ''}`, {
      token,
      headers: { 'If-Match': `"${version}"` },
    }),
  reseat: (id, token, body, version, dry) =>
    call('PUT', `/tables/${enc(id)}/seating${dry ? DRY : ''}`, {
      token,
      body,
      headers: { 'If-Match': `"${version}"` },
    }),
  close: (id, token) => call('POST', `/tables/${enc(id)}/close`, { token }),
  settleUp: (id, token) => call('GET', `/tables/${enc(id)}/settle-up`, { token }),
  // A club night, read with the token of one of its tables (the table's series, the next draw).
  night: (id, token) => call('GET', `/nights/${enc(id)}`, { token }),
  seasons: (clubId, token) => call('GET', `/clubs/${enc(clubId)}/seasons`, { token }),
  // The table's settings ({season_id}, {rate}), guarded by the version the phone showed.
  updateTable: (id, token, body, version) =>
    call('PATCH', `/tables/${enc(id)}`, {
      token,
      body,
      headers: { 'If-Match': `"${version}"` },
    }),
};

const DRY = '?dry_run=true';

function enc(s) {
  return encodeURIComponent(s);
}
