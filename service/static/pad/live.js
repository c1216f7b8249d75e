// Following the open table through its stream of changes (server-sent events, docs/api.md
// "Live changes"). EventSource cannot send the token: each connection is opened with a stream
// ticket minted with it (a minute long, bound to this table's stream), never the token in a URL.
// While the stream is live, app.js stops polling the table; while it is being (re)opened the
// pad polls it paced as the stream's attempts (`Pacing`); where streams do not work (a proxy
// that buffers them, a browser without EventSource) it polls with If-None-Match as before.
// After a drop the stream resumes after the last event it had (`after`): nothing is lost.

import { api } from './api.js';

const READY_MS = 5000; // a stream that says nothing this long after opening is not held
// Reconnecting: a random wait up to a bound that doubles with each failure in a row (from 1 s
// to 30 s), and at least a quarter second. After a restart or a power cut every phone of a club
// night loses its stream at once; the same fixed pause would bring them all back in the same
// instant, each with its ticket and its stream to open. Spread, they come back a few at a time.
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30000;
const RETRY_MIN_MS = 250;
// Streams that failed in a row with their tickets minted (the server answered, the stream did
// not come through) before the pad takes it that streams do not work here and polls every tick.
const UNHELD_STREAMS = 3;

/** The wait before reconnection number `retries` (0 for the first): "full jitter". */
export function retryDelay(retries, random = Math.random) {
  const bound = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(retries, 16));
  return RETRY_MIN_MS + Math.floor(random() * bound);
}

/**
 * When a followed table's stream is tried again, and when app.js's tick may poll the table
 * meanwhile (times in ms, any clock). After a restart every phone of a crowded instance comes
 * back at once; polling each every tick while its stream reopens would be a request per phone
 * every 3 s on top of its ticket and its stream, and the server's queue would not drain. So:
 *
 * - after a loss (and on opening the table) no poll until the first attempt had its chance;
 * - after each failed attempt one poll, after a wait drawn as the attempt's (`retryDelay`, its
 *   own draw) and not before the server's Retry-After: polls no more often than attempts;
 * - once `UNHELD_STREAMS` streams in a row failed with their tickets minted (the server
 *   answers, its streams do not come through: a proxy that buffers them), every tick polls,
 *   and the stream is still tried (paced) until one is live.
 */
export class Pacing {
  constructor(random = Math.random) {
    this.random = random;
    this.retries = 0; // failed attempts in a row: the reconnections' backoff
    this.unheld = 0; // streams in a row that failed with their ticket minted
    this.pollAt = Infinity; // the next poll not before then (Infinity: after the next failure)
  }

  /** The stream is live: no polling; a loss starts over. */
  live() {
    this.retries = 0;
    this.unheld = 0;
    this.pollAt = Infinity;
  }

  /** The live stream was lost: ms until it is opened again (no poll before that attempt). */
  lost() {
    return this.#next(0);
  }

  /** The phone's network is back: the next attempt comes at once, as the first after a loss
   *  (the backoff grown while the phone was offline is not the server's doing). */
  back() {
    this.retries = 1;
    this.pollAt = Infinity;
  }

  /** An attempt failed at `now`: its ticket (`minted` false) or its stream; ms until the next.
   *  @param {number} now @param {{minted?: boolean, retryAfterMs?: number}} [how] */
  failed(now, { minted = false, retryAfterMs = 0 } = {}) {
    if (minted) this.unheld += 1;
    const poll = now + retryAfterMs + retryDelay(this.retries, this.random);
    this.pollAt = Math.min(this.pollAt, poll);
    return this.#next(retryAfterMs);
  }

  /** Whether the table is polled at `now` (a tick's question: a yes is the poll it takes). */
  pollDue(now) {
    if (this.unheld >= UNHELD_STREAMS) return true;
    if (now < this.pollAt) return false;
    this.pollAt = Infinity;
    return true;
  }

  #next(retryAfterMs) {
    const wait = retryAfterMs + retryDelay(this.retries, this.random);
    this.retries += 1;
    return wait;
  }
}

let follower = null; // { id, token, onChange, source, live, lastId, pacing, timer, waiting }

// How the table is followed, on <html data-following="stream|polling"> (tests and curious eyes).
function setLive(f, live) {
  f.live = live;
  document.documentElement.dataset.following = live ? 'stream' : 'polling';
}

/** Whether app.js's tick polls the table now: never while its stream is live, paced while the
 *  stream is (re)opened (`Pacing`), every tick for a table not followed here. */
export function pollDue(tableId) {
  if (!follower || follower.id !== tableId) return true;
  return !follower.live && follower.pacing.pollDue(Date.now());
}

/** Follow the table (stop following any other); onChange(version | null) on each change. */
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
    waiting: false, // for its next attempt (the timer's)
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
    // Not minted: no network, or the server said when to come back (a 429 or a 503).
    again(f, { retryAfterMs: error?.retryAfterMs || 0 });
    return;
  }
  if (follower !== f) return;
  const source = new EventSource(url);
  f.source = source;
  f.timer = setTimeout(() => {
    if (!f.live) again(f, { minted: true });
  }, READY_MS);
  const heard = (event, version) => {
    if (follower !== f) return;
    if (event.lastEventId) f.lastId = event.lastEventId;
    if (!f.live) {
      setLive(f, true);
      f.pacing.live();
      clearTimeout(f.timer);
    }
    f.onChange(version);
  };
  source.addEventListener('ready', (event) => heard(event, parse(event).version));
  source.addEventListener('reload', (event) => heard(event, null));
  source.addEventListener('message', (event) => heard(event, parse(event).version));
  source.addEventListener('error', () => {
    if (follower !== f) return;
    // The browser would reconnect by itself after the server's fixed `retry:` (every phone at
    // the same moment), with a ticket that may have run out: this pad reconnects instead, with
    // a new ticket after a jittered pause (`again`), resuming after its last event (`after`).
    again(f, { minted: true }); // polled meanwhile, paced
  });
}

/** The stream is not live (lost, or this attempt failed): opened again after a pause.
 *  @param {any} f @param {{minted?: boolean, retryAfterMs?: number}} [how] */
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

// The phone's network is back: a stream waiting for its next attempt is tried at once, and
// polled after that attempt as after a loss (app.js's tick on 'online' finds no poll due).
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
