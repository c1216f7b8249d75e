// The club area (#league=<club id>&view=…): the club's tables, seasons and standings, a player's
// page with two charts, and, with the admin token, running the club (league-admin.js). It reads
// with the admin token this phone keeps, or with the club's read-only token from a viewer link
// (#league=<id>&viewer=<token>, kept here and dropped from the address at once).

import { h, append, clear, signed, toast } from './dom.js';
import { call } from './api.js';
import { variantTitle } from './model.js';
import {
  download, enc, field, get, isRevoked, link, problemText, renderRevoked, twoStep,
} from './club-shared.js';
import { store } from './store.js';
import { t, tn, tx, num, day, lang } from './i18n.js';

const VIEWERS = 'solo-pad:viewers';
// A noticeboard reads again every 20 polls of a table (60 s by default).
const refreshMs = () => 20 * (Number(document.documentElement.dataset.pollMs) || 3000);
let refreshTimer = 0;
// Column heads a language may abbreviate carry the context |head ('Hands|head': "Sp."), and counts of
// hands won or lost |hands (Spanish "Ganadas"; one hand's result is "Ganada"): see i18n.js.
// [key, label (a phone's card, the sort button's name), short label in the table head]
const COLUMNS = [['rank', t('Rank'), '#'], ['name', t('Player')], ['net', t('Net')], ['hands', t('Hands'), t('Hands|head')],
  ['declared', t('Declared'), t('Decl.')], ['won', t('Won|hands'), t('Won|head')],
  ['lost', t('Lost|hands'), t('Lost|head')],
  ['solos_won', t('Solos')], ['touts_won', t('Touts')], ['betes_paid', t('Bêtes')], ['stamms_drawn', t('Stamms')],
  ['errors', t('Errors'), t('Err.')], ['rating', t('Rating'), t('Rating|head')]];
// What a game's standings and player pages leave out: bêtes and stamms are American Solo's
// only; Solo 66 has no tout.
const NOT_IN = { spanish: ['betes_paid', 'stamms_drawn'], german: ['betes_paid', 'stamms_drawn'],
  solo66: ['betes_paid', 'stamms_drawn', 'touts_won'] };
// The API's units, in words.
const UNITS = { chips: t('chips'), points: t('points') };
const units = (u) => UNITS[u] || u;
// A rating, two decimals, with a real minus sign.
const decimals = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const fixed2 = (v) => decimals.format(v).replace('-', '−');
// A calendar date of the API ("2026-03-01"), read in local time (not as UTC midnight).
const date = (iso) => (iso ? day(`${iso}T00:00`) : '');

function viewers() {
  try { return JSON.parse(localStorage.getItem(VIEWERS)) || {}; } catch { return {}; }
}

export function saveViewer(id, token) {
  const all = viewers();
  if (token) all[id] = token; else delete all[id];
  localStorage.setItem(VIEWERS, JSON.stringify(all));
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
    clear(root, h('div.screen', h('h1', t('No token for this club')),
      h('p', t('Open the club with its admin token on the start screen, or with its read-only link or QR code.')),
      h('a.button', { href: '#' }, t('Start'))));
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
    const tabs = [['tables', t('Tables')], ['standings', t('Standings')], ['players', t('Players')]];
    if (ctx.admin) tabs.push(['manage', t('Manage')]);
    screen.append(h('h1', ctx.club.name),
      h('nav.tabs', { 'aria-label': t('Club') }, tabs.map(([v, label]) => h('a.button.small', {
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
  const q = new URLSearchParams({ page: String(page), page_size: '20' });
  if (status) q.set('status', status);
  const { data, headers } = await call('GET', `/clubs/${enc(ctx.id)}/tables?${q}`, { token: ctx.token });
  const total = (JSON.parse(headers.get('X-Pagination') || 'null') || { total: data.length }).total;
  const filter = h('select', { onchange: () => ctx.app.go(link(ctx.id, { view: 'tables', status: filter.value })) },
    [['', t('Open and closed')], ['open', t('Open')], ['closed', t('Closed')]].map(([v, label]) => h('option', { value: v, selected: v === status }, label)));
  body.append(h('h2', t('Tables')), field(t('Show'), filter));
  if (!data.length) body.append(h('p', t('No tables yet.')));
  body.append(h('ul.sittings', data.map((table) => h('li.card', { 'data-table': table.id },
    h('h3', table.name), h('p.hint', tn(table.hands, '{date} · {variant} · {n} hand', '{date} · {variant} · {n} hands',
      { date: day(table.created_at), variant: variantTitle(table.variant) }), ' · ',
    h(`span.status.${table.status}`, table.status === 'open' ? t('open') : t('closed {date}', { date: day(table.closed_at) }))),
    result(table), ctx.admin ? tableActions(ctx, table) : null))));
  const pages = Math.max(1, Math.ceil(total / 20));
  const to = (n, label) => n >= 1 && n <= pages && h('a.button.small', { href: link(ctx.id, { view: 'tables', status, page: n }) }, label);
  if (pages > 1) body.append(h('p.buttons', to(page - 1, t('Newer')), h('span.hint', t('Page {page} of {pages}', { page, pages })), to(page + 1, t('Older'))));
}

function tableActions(ctx, table) {
  const path = `/tables/${enc(table.id)}`;
  const { id, name } = table;
  // The table screen finds the club's admin token through the table's club_id.
  const remember = () => store.saveTable({ id, name, club_id: ctx.id, variant: table.variant, status: table.status });
  // Its visible word is "Open"; the table's name, for screen readers, tells the cards' links apart.
  return h('div.buttons', h('a.button.small', { href: `#table=${enc(id)}`, onclick: remember },
    tx('Open {table}', { table: h('span.sr', name) })),
  table.status === 'open' ? twoStep(t('Close the sitting'), t('Close “{name}”? Tap again', { name }), async () => {
    await call('POST', `${path}/close`, { token: ctx.token });
    toast(t('{name} closed.', { name }));
    ctx.again();
  }) : null,
  twoStep(t('Revoke its link'), t('Revoke: the shared link stops working. Tap again'), async () => {
    await call('DELETE', `${path}/token`, { token: ctx.token });
    if (store.table(id)) store.saveTable({ id, token: null }); // this phone reads it as admin
    toast(t('The link to {name} no longer works.', { name }));
  }));
}

// standings

function cell(key, row) {
  const v = row[key];
  if (key === 'net') return signed(v);
  if (key === 'rating') return v === null ? '–' : fixed2(v);
  if (key === 'name') return v;
  return num(v);
}

/** A season's standings, sortable by each column; only the columns its game (`variant`) has. */
export function standingsTable(ctx, rows, sort, variant) {
  const left = NOT_IN[variant] || [];
  const columns = COLUMNS.filter(([key]) => !left.includes(key));
  const sorted = [...rows].sort((a, b) => {
    const x = a[sort.key] ?? -Infinity;
    const y = b[sort.key] ?? -Infinity;
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return (sort.up ? order : -order) || a.rank - b.rank;
  });
  const table = h('table.standings', h('caption', t('Standings')),
    h('thead', h('tr', columns.map(([key, label, short]) => h('th', {
      scope: 'col', 'aria-sort': key === sort.key ? (sort.up ? 'ascending' : 'descending') : null,
    }, h('button.sort', { type: 'button', title: t('Sort by {column}', { column: lang === 'de' ? label : label.toLowerCase() }), 'aria-label': label, onclick: () => {
      const up = key === sort.key ? !sort.up : key === 'rank' || key === 'name';
      table.replaceWith(standingsTable(ctx, rows, { key, up }, variant));
    } }, short || label))))),
    h('tbody', sorted.map((row) => h('tr', columns.map(([key, label]) => (key === 'name'
      ? h('th', { scope: 'row', 'data-label': label }, h('a', { href: link(ctx.id, { view: 'player', player: row.player_id }) }, row.name))
      : h(`td.c-${key}`, { 'data-label': label }, cell(key, row))))))));
  return table;
}

async function standingsView(ctx, body) {
  const seasons = await get(`/clubs/${enc(ctx.id)}/seasons`, ctx.token);
  body.append(h('h2', t('Standings')));
  if (!seasons.length) {
    append(body, [h('p', t('No season yet.')), ctx.admin && h('a.button', { href: link(ctx.id, { view: 'manage' }) }, t('Start a season'))]);
    return;
  }
  const p = ctx.p;
  const season = seasons.find((s) => s.id === p.get('season')) || seasons[0];
  const pick = h('select', seasons.map((s) => h('option', { value: s.id, selected: s === season }, s.starts_on || s.ends_on
    ? t('{season} ({variant}, {start} to {end})', { season: s.name, variant: variantTitle(s.variant), start: date(s.starts_on) || '…', end: date(s.ends_on) || '…' })
    : t('{season} ({variant})', { season: s.name, variant: variantTitle(s.variant) }))));
  const from = h('input', { type: 'date', value: p.get('from') || '' });
  const to = h('input', { type: 'date', value: p.get('to') || '' });
  const min = h('input', { type: 'number', min: 0, inputmode: 'numeric', value: p.get('min') || '' });
  const go = (event) => {
    if (event) event.preventDefault();
    ctx.app.go(link(ctx.id, { view: 'standings', season: pick.value, from: from.value, to: to.value, min: min.value }));
  };
  pick.addEventListener('change', go);
  body.append(h('form.filters', { onsubmit: go }, field(t('Season'), pick), h('div.row3', field(t('From'), from), field(t('To'), to), field(t('Min. hands'), min)),
    h('button.small', { type: 'submit' }, t('Show'))));
  const q = new URLSearchParams();
  if (from.value) q.set('from', from.value);
  if (to.value) q.set('to', to.value);
  if (min.value) q.set('min_hands', min.value);
  const path = `/seasons/${enc(season.id)}/standings?${q}`;
  const data = await get(path, ctx.token);
  const least = Number(min.value);
  const period = [from.value && t('from {date}', { date: date(from.value) }), to.value && t('to {date}', { date: date(to.value) }),
    min.value && tn(least, 'at least {n} hand', 'at least {n} hands')].filter(Boolean).join(', ');
  body.append(h('p.hint.period', [season.name, units(data.units), period].filter(Boolean).join(' · ')));
  if (!data.rows.length) body.append(h('p', t('No hands counted yet.')));
  else body.append(h('div.standings-box', standingsTable(ctx, data.rows, { key: 'rank', up: true }, season.variant)));
  body.append(h('div.buttons.noprint', h('button.small', { type: 'button', onclick: async () => {
    try {
      const csv = await call('GET', path.replace('/standings?', '/standings.csv?'), { token: ctx.token, headers: { Accept: 'text/csv' } });
      download(t('standings-{season}.csv', { season: season.name }), 'text/csv', csv.data);
    } catch (error) { toast(problemText(error), 'error'); }
  } }, t('Download CSV')), h('button.small', { type: 'button', onclick: () => window.print() }, t('Print'))));
}

// players

async function playersView(ctx, body) {
  const players = await get(`/clubs/${enc(ctx.id)}/players?include_retired=true`, ctx.token);
  body.append(h('h2', t('Players')));
  const list = h('ul.players');
  for (const p of players) {
    list.append(h('li', { 'data-player': p.id }, h('a', { href: link(ctx.id, { view: 'player', player: p.id }) }, p.name),
      p.retired ? h('span.hint', ' ', t('(retired)')) : null, ctx.admin ? ctx.adminTools.player(ctx, p) : null));
  }
  body.append(list);
  if (ctx.admin) body.append(ctx.adminTools.addPlayer(ctx));
}

const STATS = { sittings: t('Sittings'), hands: t('Hands'), net: t('Net'), net_per_100_hands: t('Net / 100 hands'),
  declared: t('Declared'), won: t('Won|hands'), lost: t('Lost|hands'), win_rate: t('Win rate'), solos_won: t('Solos won'),
  touts_won: t('Touts won'), betes_paid: t('Bêtes paid'), stamms_drawn: t('Stamms drawn'), errors: t('Errors') };

function statList(record) {
  const left = NOT_IN[record.variant] || [];
  return h('dl.stats', Object.entries(STATS).filter(([key]) => !left.includes(key)).map(([key, label]) => {
    let v = record[key];
    if (v === null) v = '–';
    else if (key === 'win_rate') v = `${num(Math.round(v * 100))} %`;
    else if (key === 'net' || key === 'net_per_100_hands') v = signed(v); // a real minus sign
    else v = num(v);
    return h('div', h('dt', label), h('dd', v));
  }));
}

async function playerView(ctx, body) {
  const id = ctx.p.get('player');
  const [stats, { sittings }] = await Promise.all([get(`/players/${enc(id)}/stats`, ctx.token),
    get(`/players/${enc(id)}/sittings`, ctx.token)]);
  const charts = h('div');
  body.append(h('h2', stats.name), charts);
  if (!stats.career.length) body.append(h('p', t('No hands played yet.')));
  for (const c of stats.career) body.append(h('section.card', h('h3', t('Career: {variant} ({units})', { variant: variantTitle(c.variant), units: units(c.units) })), statList(c)));
  for (const s of stats.seasons) {
    body.append(h('section.card', h('h3', t('{season}: rating {rating}', { season: s.name, rating: s.rating === null ? '–' : fixed2(s.rating) })), statList(s)));
  }
  if (!sittings.length) return;
  const seasons = stats.seasons.map((s) => [s.season_id, s.name]);
  const latest = [...sittings].reverse().find((s) => s.season_id);
  const chosen = ctx.p.get('season') ?? (latest ? latest.season_id : '');
  const pick = h('select', { onchange: () => ctx.app.go(link(ctx.id, { view: 'player', player: id, season: pick.value || 'all' })) },
    h('option', { value: '' }, t('All sittings')), seasons.map(([sid, name]) => h('option', { value: sid, selected: sid === chosen }, name)));
  const shown = sittings.filter((s) => !chosen || chosen === 'all' || s.season_id === chosen);
  const points = shown.map((s) => ({ label: `${day(s.created_at)} ${s.table_name}`, value: s.net }));
  const rated = shown.filter((s) => s.rating !== null)
    .map((s) => ({ label: t('after {date} {table}', { date: day(s.closed_at), table: s.table_name }), value: s.rating }));
  charts.append(h('section.charts', h('h3', t('Over time')), field(t('Sittings of'), pick),
    chart(t('Net at each sitting'), points, 'bars'),
    chosen && chosen !== 'all' ? chart(t('Rating after each closed sitting (mu − 3·sigma)'), rated, 'line')
      : h('p.hint', t('Choose a season to see the rating over time.'))));
}

// charts (SVG drawn here; each with its numbers as text)

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}

export function chart(title, points, kind) {
  const fmt = (v) => (kind === 'line' ? fixed2(v) : signed(v));
  const values = points.map((p) => p.value);
  const count = points.length;
  const summary = count
    ? tn(count, '{title}: {n} value, from {low} to {high}, last {last}.', '{title}: {n} values, from {low} to {high}, last {last}.',
      { title, low: fmt(Math.min(...values)), high: fmt(Math.max(...values)), last: fmt(values[count - 1]) })
    : t('{title}: nothing yet.', { title });
  const figure = h('figure.lchart', h('figcaption', title));
  if (!points.length) return append(figure, [h('p.hint', t('Nothing to draw yet.'))]);
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
  const label = (text, yy) => { const tick = svg('text', { x: 2, y: yy, class: 'tick' }); tick.textContent = text; pic.append(tick); };
  label(fmt(top), 12);
  label(fmt(bottom), H - 2);
  return append(figure, [pic, h('p.hint', summary),
    h('details', h('summary', t('The numbers')), h('ol.numbers', points.map((p) => h('li', `${p.label}: ${fmt(p.value)}`))))]);
}

const VIEWS = {
  tables: tablesView,
  standings: standingsView,
  players: async (ctx, body) => { await withAdmin(ctx); return playersView(ctx, body); },
  player: playerView,
  manage: async (ctx, body) => {
    if (!ctx.admin) { body.append(h('p', t('Running the club needs its admin token.'))); return; }
    await withAdmin(ctx);
    await ctx.adminTools.manage(ctx, body);
  },
};

async function withAdmin(ctx) {
  if (ctx.admin) ctx.adminTools = await import('./league-admin.js');
}
