// Following the open table through its stream of changes (server-sent events, docs/api.md
// "Live changes"). EventSource cannot send the token: each connection is opened with a stream
// ticket minted with it (a minute long, bound to this table's stream), never the token in a URL.
// While the stream is live, app.js stops polling the table; when it is not (no network, a proxy
// that buffers the stream, a browser without EventSource), the pad polls with If-None-Match as
// before. After a drop the stream resumes after the last event it had (`after`): nothing is lost.

import { api } from './api.js';

const READY_MS = 5000; // a stream that says nothing this long after opening is not held
// Reconnecting: a random wait up to a bound that doubles with each failure in a row (from 1 s
// to 30 s), and at least a quarter second. After a restart or a power cut every phone of a club
// night loses its stream at once; the same fixed pause would bring them all back in the same
// instant, each with its ticket and its stream to open. Spread, they come back a few at a time.
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 30000;
const RETRY_MIN_MS = 250;

/** The wait before reconnection number `retries` (0 for the first): "full jitter". */
export function retryDelay(retries, random = Math.random) {
  const bound = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(retries, 16));
  return RETRY_MIN_MS + Math.floor(random() * bound);
}

let follower = null; // { id, token, onChange, source, live, lastId, retries, timer }

// How the table is followed, on <html data-following="stream|polling"> (tests and curious eyes).
function setLive(f, live) {
  f.live = live;
  document.documentElement.dataset.following = live ? 'stream' : 'polling';
}

/** Whether the table's changes arrive through its stream right now. */
export function isLive(tableId) {
  return Boolean(follower && follower.id === tableId && follower.live);
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
    retries: 0,
    timer: 0,
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
  } catch {
    again(f);
    return;
  }
  if (follower !== f) return;
  const source = new EventSource(url);
  f.source = source;
  f.timer = setTimeout(() => {
    if (!f.live) again(f);
  }, READY_MS);
  const heard = (event, version, data = null) => {
    if (follower !== f) return;
    if (event.lastEventId) f.lastId = event.lastEventId;
    if (!f.live) {
      setLive(f, true);
      f.retries = 0;
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
    again(f); // polled meanwhile
  });
}

function again(f) {
  if (follower !== f) return;
  if (f.source) {
    f.source.close();
    f.source = null;
  }
  setLive(f, false);
  clearTimeout(f.timer);
  const wait = retryDelay(f.retries);
  f.retries += 1;
  f.timer = setTimeout(() => open(f), wait);
}

function parse(event) {
  try {
    return JSON.parse(event.data) || {};
  } catch {
    return {};
  }
}
