// The score pad: routes (the URL fragment), following the open table (its stream, live.js, or
// polling with If-None-Match where it cannot be held), the outbox, the service worker. A shared
// link is `/#table=<id>&token=<token>`: the fragment never reaches a server.

import { NetworkError } from './api.js';
import { t, tn } from './i18n.js';
import { h, clear, fitNames, focusHeading, toast } from './dom.js';
import {
  isNetwork,
  loadVariants,
  mergeHand,
  refresh,
  tableContext,
  variantNamed,
} from './model.js';
import { isRevoked, renderRevoked } from './club-shared.js';
import { follow, isLive, stop as stopFollowing } from './live.js';
import { flush, onOutboxChange } from './outbox.js';
import { renderEdit } from './edit-screen.js';
import { renderNewHand } from './new-hand-screen.js';
import { renderSeating } from './seating-screen.js';
import { renderSettle } from './settle-screen.js';
import { renderShare } from './share-screen.js';
import { openClub, renderStart } from './start.js';
import { store } from './store.js';
import { renderTable } from './table.js';

const POLL_MS = Number(document.documentElement.dataset.pollMs) || 3000;
const root = document.getElementById('app');
const line = document.getElementById('line');
let current = null; // {ctx, screen, view}
let online = navigator.onLine;
let routeSeq = 0;

function params() {
  return new URLSearchParams(location.hash.slice(1));
}

const app = {
  go(hash) {
    if (location.hash === hash || (hash === '#' && !location.hash)) route();
    else location.hash = hash;
  },
  update() {
    if (!current) {
      route();
      return;
    }
    if (current.view && current.view.update) current.view.update();
    else if (current.screen === 'settle' || current.screen === 'share') route(false);
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
    if (known + 1 !== answer.table.hands_recorded) ctx.etag = null; // others wrote too: reload
    toast(t('Hand {number} recorded.', { number: answer.number }));
  });
  if (outcome === 'offline') throw new NetworkError(t('The hands wait for the network'));
}

async function route(focus = true) {
  const seq = ++routeSeq;
  const stale = () => seq !== routeSeq;
  const p = params();
  if (p.get('table') && p.get('token')) {
    store.saveTable({ id: p.get('table'), token: p.get('token') });
    history.replaceState(null, '', `#table=${encodeURIComponent(p.get('table'))}`);
  }
  if (p.get('club') && p.get('key')) {
    history.replaceState(null, '', '#');
    try {
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
  if (!id) stopFollowing(); // a stream counts against the token's bound: none left open
  if (stale()) return;
  if (p.get('league')) {
    current = null;
    const { renderLeague } = await import('./league.js'); // the club's screens: not a table's
    await renderLeague(root, p, app);
    if (focus) focusHeading(root);
    return;
  }
  if (!id) {
    current = null;
    await renderStart(root, app);
    if (focus) focusHeading(root);
    return;
  }
  const ctx = tableContext(id);
  if (!ctx.token && !ctx.adminToken) {
    clear(
      root,
      h(
        'div.screen',
        h('h1', t('No token for this table')),
        h('p', t('Open the table with the link or QR code from a phone that has it.')),
        h('a.button', { href: '#' }, t('Start')),
      ),
    );
    current = null;
    return;
  }
  if (!ctx.table || ctx.etag === null) {
    try {
      await refresh(ctx, true);
    } catch (error) {
      if (isRevoked(error)) {
        current = null;
        renderRevoked(root, error, id);
        return;
      }
      if (!ctx.table) {
        clear(
          root,
          h(
            'div.screen',
            h('h1', t('Table not available')),
            h(
              'p',
              isNetwork(error)
                ? t('No connection, and this phone has no copy of the table yet.')
                : error.message,
            ),
            h('a.button', { href: '#' }, t('Start')),
          ),
        );
        return;
      }
      if (isNetwork(error)) setOnline(false);
    }
  }
  if (!ctx.variant) {
    ctx.variant = (await variantNamed(ctx.table.variant).catch(() => null)) || {
      name: ctx.table.variant,
      title: ctx.table.variant,
      contracts: [],
      options: [],
    };
  }
  if (stale()) return;
  const screen = p.get('go') || 'table';
  let view = null;
  if (screen === 'new') view = renderNewHand(root, ctx, app);
  else if (screen === 'edit') view = renderEdit(root, ctx, app, Number(p.get('n')));
  else if (screen === 'share') view = renderShare(root, ctx);
  else if (screen === 'settle') view = renderSettle(root, ctx, app);
  else if (screen === 'seating') view = renderSeating(root, ctx, app);
  else view = renderTable(root, ctx, app);
  current = { ctx, screen, view };
  follow(ctx.id, ctx.token || ctx.adminToken, (version) => followed(ctx, version));
  if (focus) focusHeading(root);
}

/** A change heard on the table's stream: fetch the table unless this phone has that version. */
function followed(ctx, version) {
  if (version !== null && ctx.table && ctx.table.version >= version) return;
  // A newer version is known to exist: asked for without If-None-Match (that is what polls send).
  refresh(ctx, true).then(
    (changed) => {
      if (changed && current && current.ctx === ctx) app.update();
    },
    (error) => {
      if (isRevoked(error) && current && current.ctx === ctx) {
        current = null;
        stopFollowing();
        renderRevoked(root, error, ctx.id);
      }
    },
  );
}

let ticking = false;

async function tick() {
  if (document.hidden || ticking) return;
  ticking = true;
  let reachable = true;
  const note = (error) => {
    if (isNetwork(error)) reachable = false;
  };
  await flushOutbox().catch(note);
  if (current && current.ctx && !isLive(current.ctx.id)) {
    const { ctx } = current;
    await refresh(ctx).then(
      (changed) => {
        if (changed) app.update();
      },
      (error) => {
        note(error);
        if (isRevoked(error) && current && current.ctx === ctx) {
          current = null;
          renderRevoked(root, error, ctx.id);
        }
      },
    );
  }
  ticking = false;
  setOnline(reachable);
}

onOutboxChange(() => {
  setOnline(online);
  if (current && current.screen === 'table') app.update();
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

if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
}

fitNames();
setOnline(navigator.onLine);
loadVariants().catch(() => {});
route().then(() => tick());
setInterval(tick, POLL_MS);
