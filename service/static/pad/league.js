// The club area (#league=<club id>&view=…): the club's tables, seasons and standings, a player's
// page with two charts, and, with the admin token, running the club (league-admin.js). It reads
// with the admin token this phone keeps, or with the club's read-only token from a viewer link
// (#league=<id>&viewer=<token>, kept here and dropped from the address at once).
//
// Drawn from its state with lit-html: a view loads what it shows into `screen.data`, and every
// change (a sort, a two-step button asking again, an answer) sets the state and draws again.
// (The texts are worded before each template: the catalogs' extractor reads none inside one.)

import { html, nothing, render, svg } from './lit-html.js';
import { signed, toast } from './dom.js';
import { call, isRevoked } from './api.js';
import { loadVariants, variantTitle } from './model.js';
import {
  download, enc, field, get, link, problemText, revokedView, twoStep,
} from './club-shared.js';
import { store } from './store.js';
import { t, tn, num, day, lang } from './i18n.js';

// The club screens' stylesheet comes with them (a table's phone never needs it), in place before
// their first screen is drawn, so that nothing shows unstyled.
const STYLES = new URL('./club.css', import.meta.url).href;
if (!document.querySelector(`link[href="${STYLES}"]`)) {
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: STYLES });
  const loaded = new Promise((resolve) => {
    link.onload = link.onerror = resolve;
  });
  document.head.append(link);
  await loaded;
}

const VIEWERS = 'solo-pad:viewers';
// A noticeboard reads again every 20 polls of a table (60 s by default).
const refreshMs = () => 20 * (Number(document.documentElement.dataset.pollMs) || 3000);
let refreshTimer = 0;
// Column heads a language may abbreviate carry the context |head ('Hands|head': "Sp."), and
// counts of hands won or lost |hands (Spanish "Ganadas"; one hand's result is "Ganada"): see
// i18n.js. [key, label (a phone's card, the sort button's name), short label in the table head]
const COLUMNS = [['rank', t('Rank'), '#'], ['name', t('Player')], ['net', t('Net')],
  ['hands', t('Hands'), t('Hands|head')], ['declared', t('Declared'), t('Decl.')],
  ['won', t('Won|hands'), t('Won|head')], ['lost', t('Lost|hands'), t('Lost|head')],
  ['solos_won', t('Solos')], ['touts_won', t('Touts')], ['betes_paid', t('Bêtes')],
  ['stamms_drawn', t('Stamms')], ['errors', t('Errors'), t('Err.')],
  ['rating', t('Rating'), t('Rating|head')]];
const STATS = { sittings: t('Sittings'), hands: t('Hands'), net: t('Net'),
  net_per_100_hands: t('Net / 100 hands'), declared: t('Declared'), won: t('Won|hands'),
  lost: t('Lost|hands'), win_rate: t('Win rate'), solos_won: t('Solos won'),
  touts_won: t('Touts won'), betes_paid: t('Bêtes paid'), stamms_drawn: t('Stamms drawn'),
  errors: t('Errors') };
// The statistics the league counts of each hand: shown only for a game whose description lists
// it (`statistics`: Solo 66 has no tout, only American Solo bêtes and stamms); the rest (rank,
// rating, sittings, and what follows from the counts) every game has.
const COUNTED = new Set(['hands', 'net', 'declared', 'won', 'lost', 'solos_won', 'touts_won',
  'betes_paid', 'stamms_drawn', 'errors']);
// The API's units, in words.
const UNITS = { chips: t('chips'), points: t('points') };
const units = (u) => UNITS[u] || u;
// A rating, two decimals, with a real minus sign.
const decimals = new Intl.NumberFormat(lang,
  { minimumFractionDigits: 2, maximumFractionDigits: 2 });
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

/** Whether a game (its description, among `variants`) has league statistic `key`; every one
 *  for a game this phone has no description of. */
function hasStatistic(variants, name, key) {
  const variant = variants.find((v) => v.name === name);
  return !COUNTED.has(key) || !variant || !variant.statistics || variant.statistics.includes(key);
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
  const host = document.createElement('div'); // this screen's own: lit-html draws into it
  root.replaceChildren(host);
  if (!token) {
    const words = [t('No token for this club'),
      t(
        'Open the club with its admin token on the start screen, or with its read-only link or QR code.',
      ),
      t('Start')];
    render(html`<div class="screen"><h1>${words[0]}</h1><p>${words[1]}</p>
      <a class="button" href="#">${words[2]}</a></div>`, host);
    return;
  }
  const view = VIEWS[p.get('view')] ? p.get('view') : 'tables';
  const screen = {
    id, token, admin: !!(admin && admin.token), p, app, view,
    club: null, data: null, variants: [], problem: null, armed: null, busy: null, revoked: null,
    sort: { key: 'rank', up: true },
    draw: () => { if (host.isConnected) render(leagueScreen(screen), host); },
    /** Read the view's data again (after a change) and draw it. */
    reload: () => load(screen),
  };
  clearTimeout(refreshTimer);
  if (!screen.admin) { // a noticeboard: what it shows stays current
    const here = location.hash;
    const again = () => {
      if (location.hash !== here || !host.isConnected || screen.revoked) return;
      load(screen).finally(() => { refreshTimer = setTimeout(again, refreshMs()); });
    };
    refreshTimer = setTimeout(again, refreshMs());
  }
  screen.draw();
  await load(screen);
}

async function load(screen) {
  try {
    const [club, variants] = await Promise.all([get(`/clubs/${enc(screen.id)}`, screen.token),
      loadVariants().catch(() => [])]);
    screen.club = club;
    screen.variants = variants;
    if (screen.admin && NEEDS_ADMIN.has(screen.view)) {
      screen.tools = await import('./league-admin.js');
    }
    screen.data = await VIEWS[screen.view].load(screen);
    screen.problem = null;
  } catch (error) {
    if (isRevoked(error) && !screen.admin) saveViewer(screen.id, null);
    if (isRevoked(error)) screen.revoked = error; // drawn in place of the club's screen
    screen.problem = problemText(error);
  }
  screen.draw();
}

function leagueScreen(screen) {
  if (screen.revoked) return revokedView(screen.revoked);
  const { id, view } = screen;
  const tabs = [['tables', t('Tables')], ['standings', t('Standings')], ['players', t('Players')]];
  if (screen.admin) tabs.push(['manage', t('Manage')]);
  const current = (v) => (v === view || (view === 'player' && v === 'players') ? 'page' : nothing);
  const clubWord = t('Club');
  const body = screen.data ? VIEWS[view].draw(screen, screen.data) : nothing;
  return html`<div class="screen league">
    ${screen.club ? html`<h1>${screen.club.name}</h1>
      <nav class="tabs" aria-label=${clubWord}>${tabs.map(([v, label]) => html`<a
        class="button small" href=${link(id, { view: v })}
        aria-current=${current(v)}>${label}</a>`)}</nav>` : nothing}
    <div>${body}</div>
    ${screen.problem ? html`<p class="notice error">${screen.problem}</p>` : nothing}
  </div>`;
}

// tables

const PAGE_SIZE = 20;

async function loadTables(screen) {
  const page = Math.max(1, Number(screen.p.get('page')) || 1);
  const status = screen.p.get('status') || '';
  const q = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  if (status) q.set('status', status);
  const path = `/clubs/${enc(screen.id)}/tables?${q}`;
  const { data, headers } = await call('GET', path, { token: screen.token });
  const total = (JSON.parse(headers.get('X-Pagination') || 'null') || { total: data.length }).total;
  return { tables: data, page, status, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
}

function tablesView(screen, { tables, page, status, pages }) {
  const filter = (event) => screen.app.go(link(screen.id,
    { view: 'tables', status: event.target.value }));
  const choices = [['', t('Open and closed')], ['open', t('Open')], ['closed', t('Closed')]];
  const words = { title: t('Tables'), show: t('Show'), none: t('No tables yet.'),
    newer: t('Newer'), older: t('Older'), page: t('Page {page} of {pages}', { page, pages }) };
  const to = (n, label) => (n >= 1 && n <= pages ? html`<a class="button small"
    href=${link(screen.id, { view: 'tables', status, page: n })}>${label}</a>` : nothing);
  const select = html`<select id="lg-status" @change=${filter}>${choices.map(([v, label]) => html`
    <option value=${v} ?selected=${v === status}>${label}</option>`)}</select>`;
  return html`<h2>${words.title}</h2>${field('lg-status', words.show, select)}
    ${tables.length ? nothing : html`<p>${words.none}</p>`}
    <ul class="sittings">${tables.map((table) => tableCard(screen, table))}</ul>
    ${pages > 1 ? html`<p class="buttons">${to(page - 1, words.newer)}<span
      class="hint">${words.page}</span>${to(page + 1, words.older)}</p>` : nothing}`;
}

function tableCard(screen, table) {
  const facts = tn(table.hands, '{date} · {variant} · {n} hand', '{date} · {variant} · {n} hands',
    { date: day(table.created_at), variant: variantTitle(table.variant) });
  const status = table.status === 'open'
    ? t('open') : t('closed {date}', { date: day(table.closed_at) });
  return html`<li class="card" data-table=${table.id}><h3>${table.name}</h3>
    <p class="hint">${facts} · <span class="status ${table.status}">${status}</span></p>
    <ol class="result">${table.players.map((p, i) => html`<li><span class="who">${p.name}</span>
      <span class="balance">${signed(table.balances[i])}</span></li>`)}</ol>
    ${screen.admin ? tableActions(screen, table) : nothing}</li>`;
}

function tableActions(screen, table) {
  const path = `/tables/${enc(table.id)}`;
  const { id, name } = table;
  // The table screen finds the club's admin token through the table's club_id.
  const remember = () => store.saveTable({ id, name, club_id: screen.id, variant: table.variant,
    status: table.status });
  // Its visible word is "Open"; the table's name, for screen readers, tells the cards' links apart.
  const [before, after] = t('Open {table}').split('{table}');
  const close = twoStep(screen, `close:${id}`, t('Close the sitting'),
    t('Close “{name}”? Tap again', { name }), async () => {
      await call('POST', `${path}/close`, { token: screen.token });
      toast(t('{name} closed.', { name }));
      await screen.reload();
    });
  const revoke = twoStep(screen, `revoke:${id}`, t('Revoke its link'),
    t('Revoke: the shared link stops working. Tap again'), async () => {
      await call('DELETE', `${path}/token`, { token: screen.token });
      if (store.table(id)) store.saveTable({ id, token: null }); // this phone reads it as admin
      toast(t('The link to {name} no longer works.', { name }));
    });
  return html`<div class="buttons"><a class="button small" href="#table=${enc(id)}"
    @click=${remember}>${before}<span class="sr">${name}</span>${after}</a>
    ${table.status === 'open' ? close : nothing}${revoke}</div>`;
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
function standingsTable(screen, rows, variant) {
  const { sort } = screen;
  const columns = COLUMNS.filter(([key]) => hasStatistic(screen.variants, variant, key));
  const sorted = [...rows].sort((a, b) => {
    const x = a[sort.key] ?? -Infinity;
    const y = b[sort.key] ?? -Infinity;
    const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
    return (sort.up ? order : -order) || a.rank - b.rank;
  });
  const sortBy = (key) => () => {
    screen.sort = { key, up: key === sort.key ? !sort.up : key === 'rank' || key === 'name' };
    screen.draw();
  };
  const order = (key) => (key === sort.key ? (sort.up ? 'ascending' : 'descending') : nothing);
  const caption = t('Standings');
  const heads = columns.map(([key, label, short]) => {
    const by = t('Sort by {column}', { column: lang === 'de' ? label : label.toLowerCase() });
    return html`<th scope="col" aria-sort=${order(key)}><button class="sort" type="button"
      title=${by} aria-label=${label} @click=${sortBy(key)}>${short || label}</button></th>`;
  });
  const line = (row) => columns.map(([key, label]) => (key === 'name'
    ? html`<th scope="row" data-label=${label}><a href=${link(screen.id,
      { view: 'player', player: row.player_id })}>${row.name}</a></th>`
    : html`<td class="c-${key}" data-label=${label}>${cell(key, row)}</td>`));
  return html`<table class="standings"><caption>${caption}</caption>
    <thead><tr>${heads}</tr></thead>
    <tbody>${sorted.map((row) => html`<tr>${line(row)}</tr>`)}</tbody></table>`;
}

async function loadStandings(screen) {
  const seasons = await get(`/clubs/${enc(screen.id)}/seasons`, screen.token);
  if (!seasons.length) return { seasons };
  const p = screen.p;
  const season = seasons.find((s) => s.id === p.get('season')) || seasons[0];
  const filters = { from: p.get('from') || '', to: p.get('to') || '', min: p.get('min') || '' };
  const q = new URLSearchParams();
  if (filters.from) q.set('from', filters.from);
  if (filters.to) q.set('to', filters.to);
  if (filters.min) q.set('min_hands', filters.min);
  const path = `/seasons/${enc(season.id)}/standings?${q}`;
  return { seasons, season, filters, path, standings: await get(path, screen.token) };
}

function seasonName(s) {
  const variant = variantTitle(s.variant);
  return s.starts_on || s.ends_on
    ? t('{season} ({variant}, {start} to {end})',
      { season: s.name, variant, start: date(s.starts_on) || '…', end: date(s.ends_on) || '…' })
    : t('{season} ({variant})', { season: s.name, variant });
}

function standingsView(screen, { seasons, season, filters, path, standings }) {
  const title = t('Standings');
  if (!seasons.length) {
    const words = [t('No season yet.'), t('Start a season')];
    return html`<h2>${title}</h2><p>${words[0]}</p>${screen.admin ? html`<a class="button"
      href=${link(screen.id, { view: 'manage' })}>${words[1]}</a>` : nothing}`;
  }
  const go = (event) => {
    event.preventDefault();
    const form = event.target.closest('form');
    const value = (name) => form.elements.namedItem(name).value;
    screen.app.go(link(screen.id, { view: 'standings', season: value('season'),
      from: value('from'), to: value('to'), min: value('min') }));
  };
  const least = Number(filters.min);
  const period = [filters.from && t('from {date}', { date: date(filters.from) }),
    filters.to && t('to {date}', { date: date(filters.to) }),
    filters.min && tn(least, 'at least {n} hand', 'at least {n} hands')].filter(Boolean).join(', ');
  const words = { season: t('Season'), from: t('From'), to: t('To'), min: t('Min. hands'),
    show: t('Show'), none: t('No hands counted yet.'), csv: t('Download CSV'), print: t('Print'),
    // The order the service gives (tie_breaks: net, won, fewer_lost), in words.
    ties: t(
      'Order: net, then more games won as declarer, then fewer lost; players equal on all three share a rank.',
    ) };
  const csv = async () => {
    try {
      const answer = await call('GET', path.replace('/standings?', '/standings.csv?'),
        { token: screen.token, headers: { Accept: 'text/csv' } });
      download(t('standings-{season}.csv', { season: season.name }), 'text/csv', answer.data);
    } catch (error) { toast(problemText(error), 'error'); }
  };
  const pick = html`<select id="lg-season" name="season" @change=${go}>${seasons.map((s) => html`
    <option value=${s.id} ?selected=${s === season}>${seasonName(s)}</option>`)}</select>`;
  const dateInput = (name) => html`<input id="lg-${name}" name=${name} type="date"
    .value=${filters[name]}>`;
  const min = html`<input id="lg-min" name="min" type="number" min="0" inputmode="numeric"
    .value=${filters.min}>`;
  return html`<h2>${title}</h2>
    <form class="filters" @submit=${go}>${field('lg-season', words.season, pick)}
      <div class="row3">${field('lg-from', words.from, dateInput('from'))}${field('lg-to', words.to,
        dateInput('to'))}${field('lg-min', words.min, min)}</div>
      <button class="small" type="submit">${words.show}</button></form>
    <p class="hint period">${[season.name, variantTitle(season.variant), units(standings.units),
      period].filter(Boolean).join(' · ')}</p>
    ${standings.rows.length ? html`<div class="standings-box">${standingsTable(screen,
      standings.rows, season.variant)}</div><p class="hint ties">${words.ties}</p>`
      : html`<p>${words.none}</p>`}
    <div class="buttons noprint"><button class="small" type="button" @click=${csv}>${words.csv}
      </button><button class="small" type="button" @click=${() => window.print()}>${words.print}
      </button></div>`;
}

// players

async function loadPlayers(screen) {
  const path = `/clubs/${enc(screen.id)}/players?include_retired=true`;
  return { players: await get(path, screen.token) };
}

function playersView(screen, { players }) {
  const words = { title: t('Players'), retired: t('(retired)') };
  const tools = screen.admin && screen.tools;
  return html`<h2>${words.title}</h2>
    <ul class="players">${players.map((p) => html`<li data-player=${p.id}><a
      href=${link(screen.id, { view: 'player', player: p.id })}>${p.name}</a>${p.retired
      ? html`<span class="hint"> ${words.retired}</span>` : nothing}${tools
      ? tools.playerTools(screen, p) : nothing}</li>`)}</ul>
    ${tools ? tools.addPlayer(screen) : nothing}`;
}

function statList(screen, record) {
  const shown = Object.entries(STATS)
    .filter(([key]) => hasStatistic(screen.variants, record.variant, key));
  return html`<dl class="stats">${shown.map(([key, label]) => {
    let v = record[key];
    if (v === null) v = '–';
    else if (key === 'win_rate') v = `${num(Math.round(v * 100))} %`;
    else if (key === 'net' || key === 'net_per_100_hands') v = signed(v); // a real minus sign
    else v = num(v);
    return html`<div><dt>${label}</dt><dd>${v}</dd></div>`;
  })}</dl>`;
}

async function loadPlayer(screen) {
  const id = screen.p.get('player');
  const [stats, { sittings }] = await Promise.all([get(`/players/${enc(id)}/stats`, screen.token),
    get(`/players/${enc(id)}/sittings`, screen.token)]);
  return { id, stats, sittings };
}

function playerView(screen, { id, stats, sittings }) {
  const none = t('No hands played yet.');
  const career = stats.career.map((c) => [t('Career: {variant} ({units})',
    { variant: variantTitle(c.variant), units: units(c.units) }), c]);
  const seasons = stats.seasons.map((s) => [t('{season}: rating {rating}',
    { season: s.name, rating: s.rating === null ? '–' : fixed2(s.rating) }), s]);
  return html`<h2>${stats.name}</h2>
    ${sittings.length ? charts(screen, id, stats, sittings) : nothing}
    ${stats.career.length ? nothing : html`<p>${none}</p>`}
    ${[...career, ...seasons].map(([heading, record]) => html`<section class="card">
      <h3>${heading}</h3>${statList(screen, record)}</section>`)}`;
}

function charts(screen, id, stats, sittings) {
  const latest = [...sittings].reverse().find((s) => s.season_id);
  const chosen = screen.p.get('season') ?? (latest ? latest.season_id : '');
  const pick = (event) => screen.app.go(link(screen.id,
    { view: 'player', player: id, season: event.target.value || 'all' }));
  const shown = sittings.filter((s) => !chosen || chosen === 'all' || s.season_id === chosen);
  const points = shown.map((s) => ({ label: `${day(s.created_at)} ${s.table_name}`,
    value: s.net }));
  const rated = shown.filter((s) => s.rating !== null).map((s) => ({
    label: t('after {date} {table}', { date: day(s.closed_at), table: s.table_name }),
    value: s.rating }));
  const words = { title: t('Over time'), of: t('Sittings of'), all: t('All sittings'),
    net: t('Net at each sitting'), rating: t('Rating after each closed sitting (mu − 3·sigma)'),
    choose: t('Choose a season to see the rating over time.') };
  const select = html`<select id="lg-sittings" @change=${pick}>
    <option value="">${words.all}</option>
    ${stats.seasons.map((s) => html`<option value=${s.season_id}
      ?selected=${s.season_id === chosen}>${s.name}</option>`)}</select>`;
  return html`<section class="charts"><h3>${words.title}</h3>
    ${field('lg-sittings', words.of, select)}
    ${chart(words.net, points, 'bars')}
    ${chosen && chosen !== 'all' ? chart(words.rating, rated, 'line')
      : html`<p class="hint">${words.choose}</p>`}</section>`;
}

// charts (SVG drawn here; each with its numbers as text)

export function chart(title, points, kind) {
  const fmt = (v) => (kind === 'line' ? fixed2(v) : signed(v));
  const values = points.map((p) => p.value);
  const count = points.length;
  if (!count) {
    const empty = t('Nothing to draw yet.');
    return html`<figure class="lchart"><figcaption>${title}</figcaption>
      <p class="hint">${empty}</p></figure>`;
  }
  const summary = tn(count, '{title}: {n} value, from {low} to {high}, last {last}.',
    '{title}: {n} values, from {low} to {high}, last {last}.', { title,
      low: fmt(Math.min(...values)), high: fmt(Math.max(...values)),
      last: fmt(values[count - 1]) });
  const W = 320;
  const H = 140;
  const top = Math.max(...values, kind === 'bars' ? 0 : -Infinity);
  const bottom = Math.min(...values, kind === 'bars' ? 0 : Infinity);
  const span = top - bottom || 1;
  const y = (v) => 8 + ((top - v) / span) * (H - 16);
  const step = W / count;
  const base = y(kind === 'bars' ? 0 : bottom);
  const marks = kind === 'bars'
    ? points.map((p, i) => svg`<rect x=${i * step + step * 0.15} width=${Math.max(1, step * 0.7)}
        y=${Math.min(y(p.value), y(0))} height=${Math.max(1, Math.abs(y(p.value) - y(0)))}
        class=${p.value < 0 ? 'neg' : 'pos'}></rect>`)
    : [svg`<polyline class="trend"
        points=${points.map((p, i) => `${(i + 0.5) * step},${y(p.value)}`).join(' ')}></polyline>`,
      ...points.map((p, i) => svg`<circle cx=${(i + 0.5) * step} cy=${y(p.value)} r="3"
        class="dot"></circle>`)];
  const numbers = t('The numbers');
  return html`<figure class="lchart"><figcaption>${title}</figcaption>
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${summary} class="plot ${kind}">
      <line x1="0" x2=${W} y1=${base} y2=${base} class="axis"></line>${marks}
      <text x="2" y="12" class="tick">${fmt(top)}</text>
      <text x="2" y=${H - 2} class="tick">${fmt(bottom)}</text></svg>
    <p class="hint">${summary}</p>
    <details><summary>${numbers}</summary><ol class="numbers">${points.map((p) => html`
      <li>${p.label}: ${fmt(p.value)}</li>`)}</ol></details></figure>`;
}

// The views: what each loads, and how it is drawn from that.
const VIEWS = {
  tables: { load: loadTables, draw: tablesView },
  standings: { load: loadStandings, draw: standingsView },
  players: { load: loadPlayers, draw: playersView },
  player: { load: loadPlayer, draw: playerView },
  manage: {
    load: (screen) => (screen.admin ? screen.tools.loadManage(screen) : {}),
    draw: (screen, data) => {
      if (!screen.admin) {
        const words = t('Running the club needs its admin token.');
        return html`<p>${words}</p>`;
      }
      return screen.tools.manage(screen, data);
    },
  },
};
// The views that bring the admin's tools (league-admin.js, loaded on such a phone only).
const NEEDS_ADMIN = new Set(['players', 'manage']);
