// Following the open table through its stream of changes (server-sent events, docs/api.md
// "Live changes"). EventSource cannot send the token: each connection is opened with a stream
// ticket minted with it (a minute long, bound to this table's stream), never the token in a URL.
// While the stream is live, app.js stops polling the table; when it is not, the pad polls as
// `Pacing` says. After a drop the stream resumes after the last event it had (`after`).

import { api } from './api.js';

const READY_MS = 5000; // a stream that says nothing this long after opening is not held
// Reconnecting: a random wait up to a bound that doubles with each failure in a row (from 1 s
// to 30 s), and at least a quarter second. After a restart or a power cut every phone of a club
// night loses its stream at once; the same fixed pause would bring them all back in the same
// instant, each with its ticket and its stream to open. Spread, they come back a few at a time.
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30000;
const RETRY_MIN_MS = 250;
const UNHELD = 3; // streams failed in a row, their tickets minted: streams do not work here

/** The wait before reconnection number `retries` (0 for the first): "full jitter". */
export function retryDelay(retries, random = Math.random) {
  const bound = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(retries, 16));
  return RETRY_MIN_MS + Math.floor(random() * bound);
}

/** The stream's attempts and the polls meanwhile (ms; why: docs/scaling.md, "The pad's polls
 *  while its stream reopens"): no poll until an attempt failed, then one per failed attempt
 *  after a wait drawn as its own; every tick after UNHELD unheld streams in a row. */
export class Pacing {
  constructor(random = Math.random) {
    this.random = random;
    this.retries = 0;
    this.unheld = 0;
    this.pollAt = Infinity;
  }

  live() {
    this.retries = this.unheld = 0;
    this.pollAt = Infinity;
  }

  /** The live stream dropped: ms until the next attempt. */
  lost() {
    return this.failed(Infinity);
  }

  /** The phone's network is back: the next attempt at once (the backoff grew offline). */
  back() {
    this.retries = 1;
    this.pollAt = Infinity;
  }

  /** An attempt (its ticket, or its stream: `minted`) failed: ms until the next. */
  failed(now, { minted = false, retryAfterMs = 0 } = {}) {
    if (minted) this.unheld += 1;
    const wait = () => retryAfterMs + retryDelay(this.retries, this.random);
    this.pollAt = Math.min(this.pollAt, now + wait());
    const next = wait();
    this.retries += 1;
    return next;
  }

  /** Whether a tick polls at `now` (a yes takes the poll). */
  pollDue(now) {
    if (this.unheld >= UNHELD) return true;
    if (now < this.pollAt) return false;
    this.pollAt = Infinity;
    return true;
  }
}

let follower = null; // { id, token, onChange, source, live, lastId, pacing, timer, waiting }

// How the table is followed, on <html data-following="stream|polling"> (tests and curious eyes).
function setLive(f, live) {
  f.live = live;
  document.documentElement.dataset.following = live ? 'stream' : 'polling';
}

/** Whether app.js's tick polls the table now (every tick for a table not followed). */
export function pollDue(tableId) {
  if (!follower || follower.id !== tableId) return true;
  return !follower.live && follower.pacing.pollDue(Date.now());
}

/** Follow the table (stop following any other); onChange(version | null, event) on each change
 *  (the event's JSON: its `type` says what changed, as `tournament.confirmed`, which leaves the
 *  table's version as it was). */
export function follow(tableId, token, onChange) {
  if (follower && follower.id === tableId) return;
  stop();
  if (!tableId || !token || typeof EventSource === 'undefined') return;
  follower = {
    id: tableId,
    token,
    onChange,
    source: null,
    live: false,
    lastId: null,
    pacing: new Pacing(),
    timer: 0,
    waiting: false, // for its next attempt
  };
  setLive(follower, false);
  open(follower);
}

export function stop() {
  if (!follower) return;
  clearTimeout(follower.timer);
  if (follower.source) follower.source.close();
  follower = null;
  delete document.documentElement.dataset.following;
}

async function open(f) {
  let url;
  try {
    const { data } = await api.streamTicket(f.id, f.token);
    url = data.url + (f.lastId ? `&after=${encodeURIComponent(f.lastId)}` : '');
  } catch (error) {
    again(f, { retryAfterMs: error?.retryAfterMs || 0 });
    return;
  }
  if (follower !== f) return;
  const source = new EventSource(url);
  f.source = source;
  f.timer = setTimeout(() => {
    if (!f.live) again(f, { minted: true });
  }, READY_MS);
  const heard = (event, version, data = null) => {
    if (follower !== f) return;
    if (event.lastEventId) f.lastId = event.lastEventId;
    if (!f.live) {
      setLive(f, true);
      f.pacing.live();
      clearTimeout(f.timer);
    }
    f.onChange(version, data);
  };
  source.addEventListener('ready', (event) => heard(event, parse(event).version));
  source.addEventListener('reload', (event) => heard(event, null));
  source.addEventListener('message', (event) => {
    const data = parse(event);
    heard(event, data.version, data);
  });
  source.addEventListener('error', () => {
    if (follower !== f) return;
    // The browser would reconnect by itself after the server's fixed `retry:` (every phone at
    // the same moment), with a ticket that may have run out: this pad reconnects instead, with
    // a new ticket after a jittered pause (`again`), resuming after its last event (`after`).
    again(f, { minted: true });
  });
}

/** @param {any} f @param {{minted?: boolean, retryAfterMs?: number}} [how] */
function again(f, how = {}) {
  if (follower !== f) return;
  if (f.source) {
    f.source.close();
    f.source = null;
  }
  const wait = f.live ? f.pacing.lost() : f.pacing.failed(Date.now(), how);
  setLive(f, false);
  clearTimeout(f.timer);
  f.waiting = true;
  f.timer = setTimeout(() => {
    f.waiting = false;
    open(f);
  }, wait);
}

window.addEventListener('online', () => {
  const f = follower;
  if (!f || !f.waiting) return;
  clearTimeout(f.timer);
  f.waiting = false;
  f.pacing.back();
  open(f);
});

function parse(event) {
  try {
    return JSON.parse(event.data) || {};
  } catch {
    return {};
  }
}
