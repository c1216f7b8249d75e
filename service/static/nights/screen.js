// The big screen of a club night: shows the board (the server's HTML, asked with If-None-Match)
// and follows the night through the club's stream of changes (server-sent events, as the score
// pad follows its table): each change of the club asks for the board again, and a 304 costs
// nearly nothing. EventSource cannot send the token: each connection is opened with a stream
// ticket minted with it (a minute long), never the token in a URL. While the stream is down
// (no network, a proxy that buffers it) the board is polled every few seconds, as before, and
// the stream is tried again after a jittered pause. The token is in the URL's fragment
// (#token=…), which never reaches a server.
//
// The board is then fitted to the screen: its type is made smaller, step by step, until every
// row is on screen without scrolling (`data-fitted` on the body says it is done).
const body = document.body;
const content = document.getElementById('content');
const every = Number(body.dataset.every || '5') * 1000;
const token = new URLSearchParams(location.hash.slice(1)).get('token');
const status = document.createElement('p');
status.className = 'status';
status.setAttribute('role', 'status');
document.body.append(status);
const SMALLEST = 0.4; // of the screen's own type: below it nothing is read across a room
const STEP = 0.04;
const GATHER_MS = 250; // the changes of one moment (a hand, a draw of three tables): one ask
const READY_MS = 5000; // a stream that says nothing this long after opening is not held
let etag = null;
const stream = { source: null, live: false, lastId: null, retries: 0, timer: 0, club: null };
let pollTimer = 0;
let gatherTimer = 0;

function say(text) {
  status.textContent = text || '';
  status.hidden = !text;
}

/** The board's type made smaller until nothing scrolls (a long name stays on one line). */
function fit() {
  const board = content.querySelector('.board');
  if (!board) return;
  const page = document.documentElement;
  const over = () => page.scrollHeight > innerHeight || page.scrollWidth > innerWidth;
  let scale = 1;
  board.style.fontSize = '';
  while (over() && scale - STEP >= SMALLEST) {
    scale -= STEP;
    board.style.fontSize = `${scale.toFixed(2)}em`;
  }
  body.dataset.fitted = 'yes';
}

async function refresh() {
  try {
    const headers = { Authorization: `Bearer ${token}` };
    if (etag) headers['If-None-Match'] = etag;
    const answer = await fetch(body.dataset.board, { headers, cache: 'no-store' });
    if (answer.status === 200) {
      etag = answer.headers.get('ETag');
      body.dataset.fitted = 'no';
      content.innerHTML = await answer.text(); // the server's own markup, every name escaped
      fit();
      say('');
      const board = content.querySelector('.board');
      if (board && board.dataset.club && !stream.club) {
        stream.club = board.dataset.club;
        openStream();
      }
    } else if (answer.status !== 304) {
      const problem = await answer.json().catch(() => null);
      say((problem && problem.detail) || answer.statusText);
    }
  } catch {
    say(body.dataset.offline);
  }
}

/** Polled while the stream is not live; once it is, its changes ask for the board. */
async function poll() {
  clearTimeout(pollTimer);
  if (!stream.live) await refresh();
  pollTimer = setTimeout(poll, every);
}

function gather() {
  clearTimeout(gatherTimer);
  gatherTimer = setTimeout(refresh, GATHER_MS);
}

function setLive(live) {
  stream.live = live;
  body.dataset.following = live ? 'stream' : 'polling';
}

async function openStream() {
  if (typeof EventSource === 'undefined') return;
  let url;
  try {
    const answer = await fetch(`/api/v1/clubs/${encodeURIComponent(stream.club)}/events/tickets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
      cache: 'no-store',
    });
    if (!answer.ok) throw new Error(String(answer.status));
    url = (await answer.json()).url;
  } catch {
    again();
    return;
  }
  if (stream.lastId) url += `&after=${encodeURIComponent(stream.lastId)}`;
  const source = new EventSource(url);
  stream.source = source;
  stream.timer = setTimeout(() => {
    if (!stream.live) again();
  }, READY_MS);
  const heard = (event) => {
    if (stream.source !== source) return;
    if (event.lastEventId) stream.lastId = event.lastEventId;
    if (!stream.live) {
      setLive(true);
      stream.retries = 0;
      clearTimeout(stream.timer);
    }
    gather();
  };
  source.addEventListener('ready', heard);
  source.addEventListener('reload', heard);
  source.addEventListener('message', heard);
  source.addEventListener('error', () => {
    if (stream.source === source) again();
  });
}

/** The stream dropped (or never opened): polled meanwhile, opened again after a random pause
 *  whose bound doubles with each failure in a row (1 s to 30 s), so that every screen and phone
 *  of a club does not come back in the same instant after a restart. */
function again() {
  if (stream.source) stream.source.close();
  stream.source = null;
  setLive(false);
  clearTimeout(stream.timer);
  const bound = Math.min(30000, 1000 * 2 ** Math.min(stream.retries, 16));
  stream.retries += 1;
  stream.timer = setTimeout(openStream, 250 + Math.floor(Math.random() * bound));
}

addEventListener('resize', fit);
if (!token) say(body.dataset.tokenMissing);
else {
  setLive(false);
  poll();
}
