// The API as the service's own pages ask it (the club night's and the tournament's screens):
// one request with the page's token and language, an Idempotency-Key for every write, and a
// refusal thrown as a Problem that words itself.

import { lang } from '../pad/i18n.js';
import { randomKey } from '../pad/dom.js';

export class Problem extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }

  /** What was done before the refusal (`saved`), the detail, then each field it names with
   * its message. */
  lines() {
    const errors = Object.entries(this.problem.errors || {});
    const named = errors.map(([name, messages]) => `${name}: ${[].concat(messages).join(' ')}`);
    return [...(this.problem.saved || []), ...(named.length ? named : [this.message])];
  }
}

/** The requests of a page that holds `token`: `call(method, path, request)` to the API
 * (`/api/v1` + path), or with `page` to a page's own path (the cards, which need no
 * Idempotency-Key), resolving {status, data, etag} (a refusal throws a Problem); and
 * `fetchFile(path)`, a file of the API as the server names it.
 * @param {string|null} token */
export function requester(token) {
  /** @param {string} method @param {string} path
   * @param {{body?: any, etag?: string|null, page?: boolean}} [request] */
  async function call(method, path, { body: sent, etag, page } = {}) {
    const headers = { Accept: page ? 'text/html' : 'application/json', 'Accept-Language': lang,
      Authorization: `Bearer ${token}` };
    if (sent !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && !page) headers['Idempotency-Key'] = randomKey();
    if (etag) headers['If-None-Match'] = etag;
    const answer = await fetch(page ? path : `/api/v1${path}`, {
      method, headers, body: sent === undefined ? undefined : JSON.stringify(sent),
      cache: 'no-store',
    });
    if (answer.status === 304) return { status: 304, data: null, etag };
    const type = answer.headers.get('Content-Type') || '';
    const data = type.includes('json') ? await answer.json().catch(() => null)
      : await answer.text();
    if (!answer.ok) {
      throw new Problem(answer.status, typeof data === 'object' ? data : { detail: data });
    }
    return { status: answer.status, data, etag: answer.headers.get('ETag') };
  }

  /** A file of the API (`path`) with the token, named as the server names it. */
  async function fetchFile(path, fallback = 'file.csv') {
    const answer = await fetch(`/api/v1${path}`, { cache: 'no-store', headers: {
      Accept: 'text/csv', 'Accept-Language': lang, Authorization: `Bearer ${token}` } });
    if (!answer.ok) throw new Problem(answer.status, await answer.json().catch(() => null));
    const named = /filename="([^"]+)"/.exec(answer.headers.get('Content-Disposition') || '');
    return { name: named ? named[1] : fallback, blob: await answer.blob() };
  }

  return { call, fetchFile };
}
