// The club area (#league=<club id>&view=…): the club's tables, seasons and standings, a player's
// page with two charts, and, with the admin token, running the club (league-admin.js). It reads
// with the admin token this phone keeps, or with the club's read-only token from a viewer link
// (#league=<id>&viewer=<token>, kept here and dropped from the address at once).

import { call, ProblemError } from './api.js';
import { h, append, clear, signed, title, toast } from './dom.js';
import { store } from './store.js';

export const enc = encodeURIComponent;
const VIEWERS = 'solo-pad:viewers';
const REVOKED = 'urn:solo:problem:token-revoked';
// A noticeboard reads again every 20 polls of a table (60 s by default).
const refreshMs = () => 20 * (Number(document.documentElement.dataset.pollMs) || 3000);
let refreshTimer = 0;
// [key, label (a phone's card, the sort button's name), short label in the table head]
const COLUMNS = [['rank', 'Rank', '#'], ['name', 'Player'], ['net', 'Net'], ['hands', 'Hands'],
  ['declared', 'Declared', 'Decl.'], ['won', 'Won'], ['lost', 'Lost'], ['solos_won', 'Solos'],
  ['touts_won', 'Touts'], ['betes_paid', 'Bêtes'], ['stamms_drawn', 'Stamms'], ['errors', 'Errors', 'Err.'],
  ['rating', 'Rating']];

function viewers() {
  try { return JSON.parse(localStorage.getItem(VIEWERS)) || {}; } catch { return {}; }
}

export function saveViewer(id, token) {
  const all = viewers();
  if (token) all[id] = token; else delete all[id];
  localStorage.setItem(VIEWERS, JSON.stringify(all));
}

/** The address of a club-area screen. */
export function link(id, params = {}) {
  const q = new URLSearchParams({ league: id });
  for (const [k, v] of Object.entries(params)) if (v !== '' && v !== null && v !== undefined) q.set(k, v);
  return `#${q}`;
}

export const get = (path, token) => call('GET', path, { token }).then((r) => r.data);
export const day = (iso) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '');

export function problemText(error) {
  return error instanceof ProblemError ? error.lines().join(' ') : 'No connection: try again when online.';
}

export function isRevoked(error) {
  return error instanceof ProblemError && error.problem.type === REVOKED;
}

/** A button that asks once more before it acts (no confirm(): a dialog hides the table). */
export function twoStep(label, again, action, cls = '.small') {
  let armed = false;
  const button = h(`button${cls}`, { type: 'button', onclick: async () => {
    if (!armed) { armed = true; button.textContent = again; button.classList.add('danger'); return; }
    button.disabled = true;
    try { await action(); } catch (error) { toast(problemText(error), 'error'); }
    armed = false;
    button.disabled = false;
    button.textContent = label;
    button.classList.remove('danger');
  } }, label);
  return button;
}

export function download(name, type, text) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

export function field(label, input) {
  input.id = `l-${Math.random().toString(36).slice(2, 9)}`;
  return h('div.field', h('label', { htmlFor: input.id }, label), input);
}

/** What a phone shows when the link it holds was revoked (or for any other refusal). */
export function renderRevoked(root, error, tableId) {
  clear(root, h('div.screen.revoked', h('h1', 'This link no longer works'),
    h('p.notice.error', error.message),
    h('div.buttons', tableId ? h('button', { type: 'button', onclick: () => { store.forgetTable(tableId); location.hash = '#'; } },
      'Forget this table on this phone') : null, h('a.button', { href: '#' }, 'Start'))));
}

// the screen

export async function renderLeague(root, p, app) {
  const id = p.get('league');
  if (p.get('viewer')) {
    saveViewer(id, p.get('viewer'));
    history.replaceState(null, '', link(id));
  }
  const admin = store.clubs()[id];
  const token = (admin && admin.token) || viewers()[id];
  if (!token) {
    clear(root, h('div.screen', h('h1', 'No token for this club'),
      h('p', 'Open the club with its admin token on the start screen, or with its read-only link or QR code.'),
      h('a.button', { href: '#' }, 'Start')));
    return;
  }
  const view = VIEWS[p.get('view')] ? p.get('view') : 'tables';
  clearTimeout(refreshTimer);
  if (!(admin && admin.token)) { // a noticeboard: what it shows stays current
    const here = location.hash;
    refreshTimer = setTimeout(() => {
      if (location.hash === here) renderLeague(root, new URLSearchParams(here.slice(1)), app);
    }, refreshMs());
  }
  const ctx = { id, token, admin: !!(admin && admin.token), p, app, again: () => renderLeague(root, new URLSearchParams(location.hash.slice(1)), app) };
  const screen = h('div.screen.league');
  clear(root, screen);
  try {
    ctx.club = await get(`/clubs/${enc(id)}`, token);
    const tabs = [['tables', 'Tables'], ['standings', 'Standings'], ['players', 'Players']];
    if (ctx.admin) tabs.push(['manage', 'Manage']);
    screen.append(h('h1', ctx.club.name),
      h('nav.tabs', { 'aria-label': 'Club' }, tabs.map(([v, label]) => h('a.button.small', {
        href: link(id, { view: v }), 'aria-current': v === view || (view === 'player' && v === 'players') ? 'page' : null,
      }, label))));
    const body = h('div');
    screen.append(body);
    await VIEWS[view](ctx, body);
  } catch (error) {
    if (isRevoked(error) && !ctx.admin) saveViewer(id, null);
    if (isRevoked(error)) { renderRevoked(root, error); return; }
    screen.append(h('p.notice.error', problemText(error)));
  }
}

// tables

function result(table) {
  return h('ol.result', table.players.map((p, i) => h('li', h('span.who', p.name),
    h('span.balance', signed(table.balances[i])))));
}

async function tablesView(ctx, body) {
  const page = Math.max(1, Number(ctx.p.get('page')) || 1);
  const status = ctx.p.get('status') || '';
  const q = new URLSearchParams({ page, page_size: 20 });
  if (status) q.set('status', status);
  const { data, headers } = await call('GET', `/clubs/${enc(ctx.id)}/tables?${q}`, { token: ctx.token });
  const total = (JSON.parse(headers.get('X-Pagination') || 'null') || { total: data.length }).total;
  const filter = h('select', { onchange: () => ctx.app.go(link(ctx.id, { view: 'tables', status: filter.value })) },
    [['', 'Open and closed'], ['open', 'Open'], ['closed', 'Closed']].map(([v, label]) => h('option', { value: v, selected: v === status }, label)));
  body.append(h('h2', 'Tables'), field('Show', filter));
  if (!data.length) body.append(h('p', 'No tables yet.'));
  body.append(h('ul.sittings', data.map((t) => h('li.card', { 'data-table': t.id },
    h('h3', t.name), h('p.hint', `${day(t.created_at)} · ${t.variant} · ${t.hands} hand${t.hands === 1 ? '' : 's'} · `,
      h(`span.status.${t.status}`, t.status === 'open' ? 'open' : `closed ${day(t.closed_at)}`)),
    result(t), ctx.admin ? tableActions(ctx, t) : null))));
  const pages = Math.max(1, Math.ceil(total / 20));
  const to = (n, label) => n >= 1 && n <= pages && h('a.button.small', { href: link(ctx.id, { view: 'tables', status, page: n }) }, label);
  if (pages > 1) body.append(h('p.buttons', to(page - 1, 'Newer'), h('span.hint', `Page ${page} of ${pages}`), to(page + 1, 'Older')));
}

function tableActions(ctx, t) {
  const path = `/tables/${enc(t.id)}`;
  // The table screen finds the club's admin token through the table's club_id.
  const remember = () => store.saveTable({ id: t.id, name: t.name, club_id: ctx.id, variant: t.variant, status: t.status });
  return h('div.buttons', h('a.button.small', { href: `#table=${enc(t.id)}`, onclick: remember }, 'Open'),
    t.status === 'open' ? twoStep('Close the sitting', `Close “${t.name}”? Tap again`, async () => {
      await call('POST', `${path}/close`, { token: ctx.token });
      toast(`${t.name} closed.`);
      ctx.again();
    }) : null,
    twoStep('Revoke its link', 'Revoke: the shared link stops working. Tap again', async () => {
      await call('DELETE', `${path}/token`, { token: ctx.token });
      if (store.table(t.id)) store.saveTable({ id: t.id, token: null }); // this phone reads it as admin
      toast(`The link to ${t.name} no longer works.`);
    }));
}

// standings

function cell(key, row) {
  const v = row[key];
  if (key === 'net') return signed(v);
  if (key === 'rating') return v === null ? '–' : v.toFixed(2).replace('-', '−');
  return String(v);
}

export function standingsTable(ctx, rows, sort) {
  const sorted = [...rows].sort((a, b) => {
    const x = a[sort.key] ?? -Infinity;
    const y = b[sort.key] ?? -Infinity;
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return (sort.up ? order : -order) || a.rank - b.rank;
  });
  const table = h('table.standings', h('caption', 'Standings'),
    h('thead', h('tr', COLUMNS.map(([key, label, short]) => h('th', {
      scope: 'col', 'aria-sort': key === sort.key ? (sort.up ? 'ascending' : 'descending') : null,
    }, h('button.sort', { type: 'button', title: `Sort by ${label.toLowerCase()}`, 'aria-label': label, onclick: () => {
      const up = key === sort.key ? !sort.up : key === 'rank' || key === 'name';
      table.replaceWith(standingsTable(ctx, rows, { key, up }));
    } }, short || label))))),
    h('tbody', sorted.map((row) => h('tr', COLUMNS.map(([key, label]) => (key === 'name'
      ? h('th', { scope: 'row', 'data-label': label }, h('a', { href: link(ctx.id, { view: 'player', player: row.player_id }) }, row.name))
      : h(`td.c-${key}`, { 'data-label': label }, cell(key, row))))))));
  return table;
}

async function standingsView(ctx, body) {
  const seasons = await get(`/clubs/${enc(ctx.id)}/seasons`, ctx.token);
  body.append(h('h2', 'Standings'));
  if (!seasons.length) {
    append(body, [h('p', 'No season yet.'), ctx.admin && h('a.button', { href: link(ctx.id, { view: 'manage' }) }, 'Start a season')]);
    return;
  }
  const p = ctx.p;
  const season = seasons.find((s) => s.id === p.get('season')) || seasons[0];
  const dates = (s) => (s.starts_on || s.ends_on ? `, ${s.starts_on || '…'} to ${s.ends_on || '…'}` : '');
  const pick = h('select', seasons.map((s) => h('option', { value: s.id, selected: s === season }, `${s.name} (${s.variant}${dates(s)})`)));
  const from = h('input', { type: 'date', value: p.get('from') || '' });
  const to = h('input', { type: 'date', value: p.get('to') || '' });
  const min = h('input', { type: 'number', min: 0, inputmode: 'numeric', value: p.get('min') || '' });
  const go = (event) => {
    if (event) event.preventDefault();
    ctx.app.go(link(ctx.id, { view: 'standings', season: pick.value, from: from.value, to: to.value, min: min.value }));
  };
  pick.addEventListener('change', go);
  body.append(h('form.filters', { onsubmit: go }, field('Season', pick), h('div.row3', field('From', from), field('To', to), field('Min. hands', min)),
    h('button.small', { type: 'submit' }, 'Show')));
  const q = new URLSearchParams();
  if (from.value) q.set('from', from.value);
  if (to.value) q.set('to', to.value);
  if (min.value) q.set('min_hands', min.value);
  const path = `/seasons/${enc(season.id)}/standings?${q}`;
  const data = await get(path, ctx.token);
  const period = [from.value && `from ${from.value}`, to.value && `to ${to.value}`, min.value && `at least ${min.value} hands`].filter(Boolean).join(', ');
  body.append(h('p.hint.period', `${season.name} · ${data.units}${period ? ` · ${period}` : ''}`));
  if (!data.rows.length) body.append(h('p', 'No hands counted yet.'));
  else body.append(h('div.standings-box', standingsTable(ctx, data.rows, { key: 'rank', up: true })));
  body.append(h('div.buttons.noprint', h('button.small', { type: 'button', onclick: async () => {
    try {
      const csv = await call('GET', path.replace('/standings?', '/standings.csv?'), { token: ctx.token, headers: { Accept: 'text/csv' } });
      download(`standings-${season.name}.csv`, 'text/csv', csv.data);
    } catch (error) { toast(problemText(error), 'error'); }
  } }, 'Download CSV'), h('button.small', { type: 'button', onclick: () => window.print() }, 'Print')));
}

// players

async function playersView(ctx, body) {
  const players = await get(`/clubs/${enc(ctx.id)}/players?include_retired=true`, ctx.token);
  body.append(h('h2', 'Players'));
  const list = h('ul.players');
  for (const p of players) {
    list.append(h('li', { 'data-player': p.id }, h('a', { href: link(ctx.id, { view: 'player', player: p.id }) }, p.name),
      p.retired ? h('span.hint', ' (retired)') : null, ctx.admin ? ctx.adminTools.player(ctx, p) : null));
  }
  body.append(list);
  if (ctx.admin) body.append(ctx.adminTools.addPlayer(ctx));
}

const STATS = ['sittings', 'hands', 'net', 'net_per_100_hands', 'declared', 'won', 'lost', 'win_rate', 'solos_won',
  'touts_won', 'betes_paid', 'stamms_drawn', 'errors'];
const statLabel = (key) => title(key).replace('per 100', '/ 100').replace('Betes', 'Bêtes');

function statList(record) {
  return h('dl.stats', STATS.map((key) => {
    const label = statLabel(key);
    let v = record[key];
    if (key === 'win_rate') v = v === null ? '–' : `${Math.round(v * 100)} %`;
    else if (key === 'net') v = signed(v);
    else if (v === null) v = '–';
    return h('div', h('dt', label), h('dd', String(v)));
  }));
}

async function playerView(ctx, body) {
  const id = ctx.p.get('player');
  const [stats, { sittings }] = await Promise.all([get(`/players/${enc(id)}/stats`, ctx.token),
    get(`/players/${enc(id)}/sittings`, ctx.token)]);
  const charts = h('div');
  body.append(h('h2', stats.name), charts);
  if (!stats.career.length) body.append(h('p', 'No hands played yet.'));
  for (const c of stats.career) body.append(h('section.card', h('h3', `Career: ${c.variant} (${c.units})`), statList(c)));
  for (const s of stats.seasons) {
    body.append(h('section.card', h('h3', `${s.name}: rating ${s.rating === null ? '–' : s.rating.toFixed(2)}`), statList(s)));
  }
  if (!sittings.length) return;
  const seasons = stats.seasons.map((s) => [s.season_id, s.name]);
  const latest = [...sittings].reverse().find((s) => s.season_id);
  const chosen = ctx.p.get('season') ?? (latest ? latest.season_id : '');
  const pick = h('select', { onchange: () => ctx.app.go(link(ctx.id, { view: 'player', player: id, season: pick.value || 'all' })) },
    h('option', { value: '' }, 'All sittings'), seasons.map(([sid, name]) => h('option', { value: sid, selected: sid === chosen }, name)));
  const shown = sittings.filter((s) => !chosen || chosen === 'all' || s.season_id === chosen);
  const points = shown.map((s) => ({ label: `${day(s.created_at)} ${s.table_name}`, value: s.net }));
  const rated = shown.filter((s) => s.rating !== null).map((s) => ({ label: `after ${day(s.closed_at)} ${s.table_name}`, value: s.rating }));
  charts.append(h('section.charts', h('h3', 'Over time'), field('Sittings of', pick),
    chart('Net at each sitting', points, 'bars'),
    chosen && chosen !== 'all' ? chart('Rating after each closed sitting (mu − 3·sigma)', rated, 'line')
      : h('p.hint', 'Choose a season to see the rating over time.')));
}

// charts (SVG drawn here; each with its numbers as text)

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

export function chart(title, points, kind) {
  const fmt = (v) => (kind === 'line' ? v.toFixed(2) : signed(v));
  const values = points.map((p) => p.value);
  const summary = points.length
    ? `${title}: ${points.length} value${points.length > 1 ? 's' : ''}, from ${fmt(Math.min(...values))} to ${fmt(Math.max(...values))}, last ${fmt(values[values.length - 1])}.`
    : `${title}: nothing yet.`;
  const figure = h('figure.lchart', h('figcaption', title));
  if (!points.length) return append(figure, [h('p.hint', 'Nothing to draw yet.')]);
  const W = 320;
  const H = 140;
  const top = Math.max(...values, kind === 'bars' ? 0 : -Infinity);
  const bottom = Math.min(...values, kind === 'bars' ? 0 : Infinity);
  const span = top - bottom || 1;
  const y = (v) => 8 + ((top - v) / span) * (H - 16);
  const step = W / points.length;
  const pic = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': summary, class: `plot ${kind}` });
  pic.append(svg('line', { x1: 0, x2: W, y1: y(kind === 'bars' ? 0 : bottom), y2: y(kind === 'bars' ? 0 : bottom), class: 'axis' }));
  if (kind === 'bars') {
    points.forEach((p, i) => pic.append(svg('rect', {
      x: i * step + step * 0.15, width: Math.max(1, step * 0.7), y: Math.min(y(p.value), y(0)),
      height: Math.max(1, Math.abs(y(p.value) - y(0))), class: p.value < 0 ? 'neg' : 'pos',
    })));
  } else {
    const xy = points.map((p, i) => `${(i + 0.5) * step},${y(p.value)}`);
    pic.append(svg('polyline', { points: xy.join(' '), class: 'trend' }));
    xy.forEach((c) => { const [cx, cy] = c.split(','); pic.append(svg('circle', { cx, cy, r: 3, class: 'dot' })); });
  }
  const label = (text, yy) => { const t = svg('text', { x: 2, y: yy, class: 'tick' }); t.textContent = text; pic.append(t); };
  label(fmt(top), 12);
  label(fmt(bottom), H - 2);
  return append(figure, [pic, h('p.hint', summary),
    h('details', h('summary', 'The numbers'), h('ol.numbers', points.map((p) => h('li', `${p.label}: ${fmt(p.value)}`))))]);
}

const VIEWS = {
  tables: tablesView,
  standings: standingsView,
  players: async (ctx, body) => { await withAdmin(ctx); return playersView(ctx, body); },
  player: playerView,
  manage: async (ctx, body) => {
    if (!ctx.admin) { body.append(h('p', 'Running the club needs its admin token.')); return; }
    await withAdmin(ctx);
    await ctx.adminTools.manage(ctx, body);
  },
};

async function withAdmin(ctx) {
  if (ctx.admin) ctx.adminTools = await import('./league-admin.js');
}
