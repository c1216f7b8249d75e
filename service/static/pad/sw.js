// The score pad's service worker: keeps the page shell so that the pad opens without a network.
// It never touches /api/: hands go to the server (or to the page's outbox) and nowhere else.

const CACHE = 'solo-pad-v1';
const SHELL = [
  '/',
  '/manifest.webmanifest',
  '/pad/api.js',
  '/pad/app.js',
  '/pad/boot.js',
  '/pad/club-shared.js',
  '/pad/club.css',
  '/pad/dom.js',
  '/pad/edit-screen.js',
  '/pad/hand-fields.js',
  '/pad/hand-words.js',
  '/pad/hand.js',
  '/pad/i18n.js',
  '/pad/icon-maskable.svg',
  '/pad/icon.svg',
  '/pad/lang-de.js',
  '/pad/lang-es.js',
  '/pad/league-admin.js',
  '/pad/league.js',
  '/pad/lit-html.js',
  '/pad/live.js',
  '/pad/model.js',
  '/pad/money.js',
  '/pad/new-hand-screen.js',
  '/pad/outbox.js',
  '/pad/pad.css',
  '/pad/qr.js',
  '/pad/result-panel.js',
  '/pad/seating-screen.js',
  '/pad/series-view.js',
  '/pad/series.js',
  '/pad/settle-screen.js',
  '/pad/settle-up-view.js',
  '/pad/settlement.js',
  '/pad/share-screen.js',
  '/pad/start.js',
  '/pad/store.js',
  '/pad/table-settings.js',
  '/pad/table.js',
  '/pad/writes.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Network first (a table's phones want the newest page), the cached shell when offline.
self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (!SHELL.includes(url.pathname)) return; // the API, /docs and the rest go by untouched
  const key = url.pathname;
  event.respondWith(
    fetch(request)
      .then((response) => {
        // Not a table's link's page (`/?table=…`): it holds that table, not the shell.
        if (response.ok && !url.search) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key).then((cached) => cached || Response.error())),
  );
});
