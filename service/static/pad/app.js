// The score pad: routes (the URL fragment), following the open table (its stream, live.js, or
// polling with If-None-Match where it cannot be held), the outbox, the service worker. A shared
// link is `/#table=<id>&token=<token>`: the fragment never reaches a server.
//
// A table's screens are drawn from state: the table as this phone knows it (model.js's context,
// changed only by model.js) and the screen's own state (what is open, a dry run's answer), which
// a screen changes only through `app.setState(patch)`; each change draws the screen again
// (lit-html `render`, which changes only what differs).

import { isRevoked, NetworkError } from './api.js';
import { dropEarlyReads } from './boot.js';
import { t, tn } from './i18n.js';
import { afterPaint, fitNames, focusHeading, toast } from './dom.js';
import { html, render } from './lit-html.js';
import {
  forgetVersion,
  isNetwork,
  loadVariant,
  loadVariants,
  mergeHand,
  refresh,
  tableContext,
} from './model.js';
import { flush, onOutboxChange } from './outbox.js';
import { store } from './store.js';
import { loadTable, tableView } from './table.js';

/** A table's screens, each a promise of `{view, open, load}`: `view(ctx, state, app)` draws it;
 *  `open` sets up its state once, `load` reads what it shows besides the table, when it opens and
 *  after every change of the table. Only the table's own screen comes with the pad; the others'
 *  modules are imported when first opened, so a table's first screen does not load them. */
const SCREENS = {
  table: async () => ({ view: tableView, load: loadTable }),
  new: async () => {
    const { newHandView, openNewHand } = await import('./new-hand-screen.js');
    return { view: newHandView, open: openNewHand, load: (_ctx, state) => state.form?.redraw() };
  },
  edit: async () => {
    const { editView, openEdit } = await import('./edit-screen.js');
    return { view: editView, open: openEdit };
  },
  share: async () => ({ view: (await import('./share-screen.js')).shareView }),
  settle: async () => {
    const { loadSettle, settleView } = await import('./settle-screen.js');
    return { view: settleView, load: loadSettle };
  },
  seating: async () => {
    const { openSeating, seatingView } = await import('./seating-screen.js');
    return { view: seatingView, open: openSeating };
  },
};

/** The other screens of a table, and the start, loaded once a table is shown: a phone that goes
 *  offline before the service worker has kept the pad's files still opens them. `data-warmed`
 *  on the page says they are all here. */
let warmed = false;
function warm() {
  if (warmed) return;
  warmed = true;
  const loads = [...Object.values(SCREENS), () => import('./start.js')];
  Promise.allSettled(loads.map((load) => load())).then((results) => {
    const all = results.every((r) => r.status === 'fulfilled');
    if (all) document.documentElement.dataset.warmed = '';
  });
}

const POLL_MS = Number(document.documentElement.dataset.pollMs) || 3000;
let root = document.getElementById('app');
const line = document.getElementById('line');
/** The open table's screen: {ctx, name, screen, state, app (the screen's own)}, or null. */
let current = null;
const openRows = new Map(); // each table's open rows of the sheet, kept while the page lives
let online = navigator.onLine;
let routeSeq = 0;
let arriving = null; // the state `app.go` gives the next screen (a correction's notice)
/** live.js (a table's stream), imported once the first table is painted: `following()`. */
let live = null;
const following = () => import('./live.js').then((module) => (live = module));

function params() {
  return new URLSearchParams(location.hash.slice(1));
}

/** Each route starts on a new, empty <main>: lit-html keeps what it drew in the element it draws
 *  into, and the screens of their own (start, the club's) clear it their way. */
function freshRoot() {
  const next = /** @type {HTMLElement} */ (root.cloneNode(false));
  root.replaceWith(next);
  root = next;
  return next;
}

function draw() {
  if (current) render(current.screen.view(current.ctx, current.state, current.app), root);
}

/** The open screen's app: `state()` and `setState(patch)` act on this screen only (an answer
 *  that arrives after the screen was left changes nothing). */
function screenApp(state) {
  return {
    ...app,
    state: () => state,
    setState(patch) {
      if (!current || current.state !== state) return;
      Object.assign(state, patch);
      if (patch.open) openRows.set(current.ctx.id, patch.open);
      draw();
    },
  };
}

const app = {
  /** To `hash`; `state`: what the next screen starts with (the notice of a correction). */
  go(hash, state = null) {
    arriving = state;
    if (location.hash === hash || (hash === '#' && !location.hash)) route();
    else location.hash = hash;
  },
  /** The table changed (or the outbox): the open screen is drawn again. */
  update() {
    if (!current) {
      route();
      return;
    }
    if (current.screen.load) current.screen.load(current.ctx, current.state, current.app);
    draw();
  },
  flush: () =>
    flushOutbox().then(
      () => setOnline(true),
      (error) => {
        if (isNetwork(error)) setOnline(false);
      },
    ),
};

function setOnline(value) {
  online = value && navigator.onLine;
  value = online;
  document.body.classList.toggle('offline', !value);
  const entries = store.outbox();
  const stuck = entries.filter((e) => e.state === 'conflict' || e.state === 'failed').length;
  const waiting = entries.length - stuck;
  const parts = [value ? t('Online') : t('Offline')];
  if (waiting) {
    parts.push(
      value
        ? tn(waiting, 'sending {n} hand', 'sending {n} hands')
        : tn(waiting, '{n} hand kept on this phone', '{n} hands kept on this phone'),
    );
  }
  if (stuck) parts.push(tn(stuck, '{n} hand to check', '{n} hands to check'));
  line.textContent = parts.join(' · ');
}

function tokenFor(tableId) {
  const ctx = tableContext(tableId);
  return ctx.token || ctx.adminToken;
}

async function flushOutbox() {
  if (!store.outbox().length) return;
  const outcome = await flush(tokenFor, (entry, answer) => {
    const ctx = tableContext(entry.table);
    const known = ctx.hands.length;
    mergeHand(ctx, answer);
    if (known + 1 !== answer.table.hands_recorded) forgetVersion(ctx); // others wrote too
    toast(t('Hand {number} recorded.', { number: answer.number }));
  });
  if (outcome === 'offline') throw new NetworkError(t('The hands wait for the network'));
}

/** A screen of the pad without a table: a heading, a line, the way back to the start. */
function plainScreen(heading, text) {
  return html`<div class="screen">
    <h1>${heading}</h1>
    <p>${text}</p>
    <a class="button" href="#">${t('Start')}</a>
  </div>`;
}

/** The screen of a link that no longer works, in place of the table (club-shared.js's, imported
 *  then: a table's first screen does not need it); not if the page went elsewhere meanwhile. */
async function showRevoked(error, tableId) {
  current = null;
  const seq = routeSeq;
  const { revokedView } = await import('./club-shared.js');
  if (seq === routeSeq) render(revokedView(error, tableId), freshRoot());
}

async function route(focus = true) {
  const seq = ++routeSeq;
  const stale = () => seq !== routeSeq;
  const given = arriving;
  arriving = null;
  const p = params();
  if (p.get('table') && p.get('token')) {
    store.saveTable({ id: p.get('table'), token: p.get('token') });
    history.replaceState(null, '', `#table=${encodeURIComponent(p.get('table'))}`);
  }
  if (p.get('club') && p.get('key')) {
    history.replaceState(null, '', '#');
    try {
      const { openClub } = await import('./start.js');
      const club = await openClub(p.get('club'), p.get('key'));
      toast(t('Club {name} opened on this phone.', { name: club.name }));
    } catch (error) {
      toast(
        error instanceof NetworkError
          ? t('No connection: open the link again when online.')
          : t('That club link did not work.'),
        'error',
      );
    }
  }
  const id = p.get('table');
  if (!id) live?.stop(); // a stream counts against the token's bound: none left open
  if (stale()) return;
  if (p.get('league')) {
    current = null;
    const { renderLeague } = await import('./league.js'); // the club's screens: not a table's
    const into = freshRoot();
    await renderLeague(into, p, app);
    if (focus) focusHeading(into);
    return;
  }
  if (!id) {
    current = null;
    const { renderStart } = await import('./start.js'); // the start screen: not a table's
    if (stale()) return;
    const into = freshRoot();
    await renderStart(into, app);
    if (focus) focusHeading(into);
    return;
  }
  const ctx = tableContext(id);
  if (!ctx.token && !ctx.adminToken) {
    current = null;
    const text = t('Open the table with the link or QR code from a phone that has it.');
    render(plainScreen(t('No token for this table'), text), freshRoot());
    return;
  }
  if (!ctx.table || ctx.etag === null) {
    try {
      await refresh(ctx, true);
    } catch (error) {
      if (isRevoked(error)) {
        showRevoked(error, id);
        return;
      }
      if (!ctx.table) {
        const text = isNetwork(error)
          ? t('No connection, and this phone has no copy of the table yet.')
          : error.message;
        render(plainScreen(t('Table not available'), text), freshRoot());
        return;
      }
      if (isNetwork(error)) setOnline(false);
    }
  }
  // Only the screens' own names (not `toString` or any other name an object inherits).
  const asked = p.get('go') || '';
  const name = Object.hasOwn(SCREENS, asked) ? asked : 'table';
  const [screen] = await Promise.all([SCREENS[name](), loadVariant(ctx)]);
  if (stale()) return;
  /** @type {Record<string, any>} */
  const state = { ...given };
  if (name === 'table') state.open = openRows.get(id) || new Set();
  if (name === 'edit') state.number = Number(p.get('n'));
  current = { ctx, name, screen, state, app: screenApp(state) };
  freshRoot();
  if (screen.open) screen.open(ctx, state, current.app);
  if (screen.load) screen.load(ctx, state, current.app);
  draw();
  if (focus) focusHeading(root);
  // The table's stream and the other screens wait until the table is painted: on a phone's
  // narrow network every request before it delays it (docs/pad.md, "A table's first screen").
  const token = ctx.token || ctx.adminToken;
  const onChange = (version, event) => followed(ctx, version, event);
  afterPaint(() => {
    following().then(
      (stream) => {
        if (!stale()) stream.follow(ctx.id, token, onChange);
      },
      () => {}, // not loaded (offline before the service worker kept it): the table is polled
    );
    warm();
  });
}

/** A change heard on the table's stream: fetch the table unless this phone has that version. A
 *  tournament's news of the table (a confirmation, a dispute, the director's resolution) leave
 *  its version: the table screen reads its result again (`resultHeard`, result-panel.js). */
function followed(ctx, version, event) {
  const type = (event && event.type) || '';
  if (type.startsWith('tournament.') && current && current.ctx === ctx) {
    current.state.resultHeard = (current.state.resultHeard || 0) + 1;
    app.update();
  }
  if (version !== null && ctx.table && ctx.table.version >= version) return;
  // A newer version is known to exist: asked for without If-None-Match (that is what polls send).
  refresh(ctx, true).then(
    (changed) => {
      if (changed && current && current.ctx === ctx) app.update();
    },
    (error) => {
      if (isRevoked(error) && current && current.ctx === ctx) {
        live?.stop();
        showRevoked(error, ctx.id);
      }
    },
  );
}

let ticking = false;
let pollsResumeAt = 0; // a poll's 429 or 503 said when to ask again (its Retry-After)

/** Every POLL_MS: the outbox sent, and the open table polled when it is due (live.js's
 *  `pollDue`: not while its stream is live, paced while the stream is being opened). */
async function tick() {
  if (document.hidden || ticking) return;
  ticking = true;
  let reachable = true;
  const note = (error) => {
    if (isNetwork(error)) reachable = false;
  };
  await flushOutbox().catch(note);
  const polled = current?.ctx?.id;
  if (polled && Date.now() >= pollsResumeAt && (!live || live.pollDue(polled))) {
    const { ctx } = current;
    await refresh(ctx).then(
      (changed) => {
        if (changed) app.update();
      },
      (error) => {
        note(error);
        pollsResumeAt = Date.now() + (error?.retryAfterMs || 0);
        if (isRevoked(error) && current && current.ctx === ctx) showRevoked(error, ctx.id);
      },
    );
  }
  ticking = false;
  setOnline(reachable);
}

onOutboxChange(() => {
  setOnline(online);
  if (current && current.name === 'table') app.update();
});
window.addEventListener('hashchange', () => route());
window.addEventListener('online', () => {
  setOnline(true);
  tick();
});
window.addEventListener('offline', () => setOnline(false));
document.addEventListener('visibilitychange', () => {
  if (!document.hidden) tick();
});

/** The service worker keeps the pad's files for offline use; it fetches all of them, so it is
 *  registered once the first screen is painted, not before. */
function keepOffline() {
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
  }
}

/** The page's icon and manifest (`data-later`), named after the first paint: not taking the
 *  phone's connections from the first screen. */
function namesItsIconAndManifest() {
  /** @type {NodeListOf<HTMLLinkElement>} */
  const links = document.querySelectorAll('link[data-later]');
  for (const link of links) {
    const later = link.dataset.later || '';
    if (later.startsWith('/pad/')) link.href = later;
    else link.rel = later;
    delete link.dataset.later;
  }
}

fitNames();
setOnline(navigator.onLine);
loadVariants().catch(() => {});
route().finally(() => {
  dropEarlyReads();
  afterPaint(() => {
    namesItsIconAndManifest();
    keepOffline();
    tick();
  });
});
setInterval(tick, POLL_MS);
