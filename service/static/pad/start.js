// The start screen: create a club (first use) or open one with its admin token; open a table
// (players picked in the order they sit, game, options with their defaults, first dealer);
// the tables this phone knows.
//
// Drawn from its state with lit-html: the new table's setup (`setup`) holds what was picked so
// far, each tap sets it and draws again, and it is kept as a draft until the table is opened.
// (The texts are worded before each template: the catalogs' extractor reads none inside one.)

import { html, nothing, render } from './lit-html.js';
import { api, ProblemError } from './api.js';
import { plain, title, toast } from './dom.js';
import { lang, num, t } from './i18n.js';
import { loadVariants } from './model.js';
import { qrSvg } from './qr.js';
import { store } from './store.js';
import { defaultSeason, rateFields } from './table-settings.js';

function problemText(error) {
  return error instanceof ProblemError
    ? error.lines().join(' ')
    : t('No connection: try again when online.');
}

/** A labelled control; `id` names the control (unique on the page). */
function field(id, label, control, hint = null) {
  return html`<div class="field"><label for=${id}>${label}</label>${control}${
    hint ? html`<p class="hint">${hint}</p>` : nothing}</div>`;
}

// Options in a player's words: their titles, their values' and a nullable one's empty choice
// come with the game's description (`title`, `choices`, `none_title`, in the page's language),
// and its help names the values by their titles. The pad names no game's option or value.
const QUOTES = { de: ['„', '“'], es: ['«', '»'] }[lang] || ['“', '”'];
/** The title of `option`'s value `a` (its bare name, titled, where the option gives none). */
function valueWords(option, a) {
  const choice = (option.choices || []).find((c) => c.value === a);
  return choice ? choice.title : plain(title(a));
}

/** "fixed: never changes; first_won: …" → "“Fixed”: never changes; “Trump of …”: …"; the
 *  "(null: no limit)" goes: it names the empty choice instead. */
function help(option) {
  const text = plain(option.description || '').replace(/\s*\(null: [^)]*\)/, '');
  return text.replace(/(^|; )([a-z0-9_]+): /g, (m, sep, value) => (
    (option.allowed || []).includes(value)
      ? `${sep}${QUOTES[0]}${valueWords(option, value)}${QUOTES[1]}: ` : m));
}

const emptyWords = (option) => option.none_title || t('None');

// A table of a game that keeps a pool (its description's state has one) says what becomes of it
// at the end, and may start with a pool the club kept: the table's own options, not the game's.
const POOL_OPTIONS = [
  { name: 'pool_at_close', title: t('The pool at the end'), type: 'string', default: 'split',
    allowed: ['split', 'carry'],
    choices: [{ value: 'split', title: t('Shared among the players') },
      { value: 'carry', title: t('Kept by the club') }],
    help: t(
      'Default: shared among the players when the table closes; or kept by the club for its next table.',
    ) },
  { name: 'starting_pool', title: t('Starting pool'), type: 'integer', default: 0, min: 0,
    help: t(
      'Default: 0. A pool the club kept from an earlier table (only when the club keeps the pool).',
    ) },
];
const keepsPool = (variant) => (variant.state_fields || []).some((f) => f.name === 'pool');
/** The options a table of `variant` is opened with: the game's, and the pool's where it has one. */
const optionsOf = (variant) => [...variant.options, ...(keepsPool(variant) ? POOL_OPTIONS : [])];

/** "3 or 4 or 5" (as it always read in English), "3, 4 oder 5", "3, 4 o 5". */
function eitherCount(counts) {
  return lang === 'en' ? counts.join(' or ')
    : new Intl.ListFormat(lang, { type: 'disjunction' }).format(counts.map(num));
}

/** Today for a table's default name: 2026-12-02 in English; the date as the language writes it
 *  by hand otherwise (2.12.2026, 2/12/2026). */
function today() {
  return lang === 'en'
    ? new Date().toISOString().slice(0, 10) : new Date().toLocaleDateString(lang);
}

function clubLink(club) {
  const enc = encodeURIComponent;
  return `${location.origin}/#club=${enc(club.id)}&key=${enc(club.token)}`;
}

/** Store a club opened from a link or a form, after checking its token. */
export async function openClub(id, token) {
  const { data } = await api.club(id, token);
  store.saveClub({ id: data.id, name: data.name, token });
  return data;
}

// the clubs

function clubForms(app) {
  const create = async (event) => {
    event.preventDefault();
    const input = event.target.elements.namedItem('club-name');
    if (!input.value.trim()) { input.focus(); return; }
    try {
      const { data } = await api.createClub(input.value.trim());
      store.saveClub({ id: data.id, name: data.name, token: data.admin_token, fresh: true });
      app.update();
    } catch (error) { toast(problemText(error), 'error'); }
  };
  const open = async (event) => {
    event.preventDefault();
    const value = (name) => event.target.elements.namedItem(name).value.trim();
    try {
      await openClub(value('club-id'), value('admin-token'));
      app.update();
    } catch (error) { toast(problemText(error), 'error'); }
  };
  const words = { create: t('Create a club'), name: t('Club name'), make: t('Create the club'),
    open: t('Open a club with its admin token'), id: t('Club id'), token: t('Admin token'),
    openIt: t('Open the club') };
  return html`<form class="card" @submit=${create}><h2>${words.create}</h2>${field('club-name',
    words.name, html`<input id="club-name" name="club-name" type="text" required maxlength="100"
      autocomplete="off">`)}<button class="primary" type="submit">${words.make}</button></form>
    <details class="card"><summary>${words.open}</summary><form @submit=${open}>
      ${field('club-id', words.id, html`<input id="club-id" name="club-id" type="text"
        autocomplete="off">`)}
      ${field('admin-token', words.token, html`<input id="admin-token" name="admin-token"
        type="password" autocomplete="off">`)}
      <button type="submit">${words.openIt}</button></form></details>`;
}

function clubCard(club, fresh, app) {
  const clubs = Object.values(store.clubs());
  const use = (event) => { store.useClub(event.target.value); app.update(); };
  const words = { club: t('Club'), name: t('Club: {name}', { name: club.name }),
    tables: t('Tables, standings and players'), token: t('The club’s admin token'),
    keep: t(
      'This phone keeps the admin token. It is shown here only: keep it somewhere safe too. With it, another phone can open the club:',
    ),
    qr: t('QR code of the link that opens the club') };
  return html`<section class="card"><h2>${words.name}</h2>
    ${clubs.length > 1 ? html`<select aria-label=${words.club} @change=${use}>${clubs.map(
      (c) => html`<option value=${c.id} ?selected=${c.id === club.id}>${c.name}</option>`,
    )}</select>` : nothing}
    <a class="button" href="#league=${encodeURIComponent(club.id)}">${words.tables}</a>
    <details class="card" ?open=${fresh}><summary>${words.token}</summary><p>${words.keep}</p>
      <p><code class="token">${club.token}</code></p>
      <div class="qrbox small">${qrSvg(clubLink(club), words.qr)}</div></details></section>`;
}

// a new table

/** What a new table's setup starts from: the draft kept on this phone, else the first game the
 *  service lists, today's name, no players. */
async function loadSetup(club) {
  const [variants, { data: players }, { data: seasons }, { data: clubData }] = await Promise.all([
    loadVariants(), api.players(club.id, club.token), api.seasons(club.id, club.token),
    api.club(club.id, club.token)]);
  const draftKey = `setup:${club.id}`;
  const draft = store.draft(draftKey) || {};
  const chosen = (draft.chosen || []).filter((id) => players.some((p) => p.id === id));
  const setup = {
    club, draftKey, variants, players, seasons, currency: clubData.currency || 'EUR',
    variant: variants.find((v) => v.name === draft.variant) || variants[0],
    chosen,
    firstDealer: Math.min(draft.firstDealer || 0, Math.max(0, chosen.length - 1)),
    values: draft.options || {}, // each option's value as its control holds it (text)
    // The season: as picked (an id, or '' for none), else the game's one open season.
    season: draft.season,
    name: draft.name || t('Table {date}', { date: today() }),
    newName: '',
    rate: null,
    sending: false,
  };
  fitSetup(setup);
  return setup;
}

/** After a change of game: its season, and money fields in its units (what was typed stays
 *  while the units do). */
function fitSetup(setup) {
  const { variant } = setup;
  const ofGame = setup.seasons.filter((x) => x.variant === variant.name);
  if (setup.season === undefined || (setup.season && !ofGame.some((x) => x.id === setup.season))) {
    setup.season = defaultSeason(ofGame) || '';
  }
  if (!setup.rate || setup.rate.units !== variant.units) {
    setup.rate = { ...rateFields(variant.units, setup.currency, null), units: variant.units };
  }
}

/** Keep what was set up so far: it survives a reload, until the table is opened. */
function keep(setup) {
  const { draftKey, name, variant, chosen, firstDealer, values, season } = setup;
  store.saveDraft(draftKey,
    { name, variant: variant.name, chosen, firstDealer, options: values, season });
}

/** The value an option's control holds: as set up, else its default. */
function controlValue(setup, o) {
  if (o.name in setup.values) return String(setup.values[o.name]);
  return o.default === null || o.default === undefined ? '' : String(o.default);
}

/** The options that differ from their defaults, as the API takes them. */
function chosenOptions(setup) {
  const out = {};
  for (const o of optionsOf(setup.variant)) {
    if (!(o.name in setup.values)) continue;
    let value = setup.values[o.name];
    if (o.type === 'integer') value = value === '' ? null : Number(value);
    else if (o.type === 'boolean') value = value === 'true' || value === true;
    else if (value === '') value = null;
    if (value !== (o.default ?? null)) out[o.name] = value;
  }
  return out;
}

function optionControl(screen, o) {
  const setup = screen.setup;
  const id = `option-${o.name}`;
  const value = controlValue(setup, o);
  const set = (event) => { setup.values[o.name] = event.target.value; keep(setup); };
  if (o.type === 'integer' && !o.allowed) {
    const none = o.nullable ? emptyWords(o) : nothing;
    return html`<input id=${id} type="number" inputmode="numeric" min=${o.min ?? nothing}
      max=${o.max ?? nothing} placeholder=${none} .value=${value} @change=${set}>`;
  }
  const words = { yes: t('yes'), no: t('no') };
  const choices = o.type === 'boolean'
    ? [['false', words.no], ['true', words.yes]]
    : [...(o.nullable ? [''] : []), ...(o.allowed || [])].map(String)
      .map((a) => [a, a === '' ? emptyWords(o) : valueWords(o, a)]);
  return html`<select id=${id} @change=${set}>${choices.map(([v, label]) => html`
    <option value=${v} ?selected=${v === value}>${label}</option>`)}</select>`;
}

function optionRow(screen, o) {
  const words = { yes: t('yes'), no: t('no') };
  let shown;
  if (o.default === null || o.default === undefined) shown = emptyWords(o);
  else if (o.type === 'boolean') shown = o.default ? words.yes : words.no;
  else shown = o.allowed ? valueWords(o, o.default) : num(o.default);
  const hint = o.help || t('Default: {value}. {help}', { value: shown, help: help(o) });
  return field(`option-${o.name}`, o.title || plain(title(o.name)), optionControl(screen, o), hint);
}

function seatsPart(screen) {
  const setup = screen.setup;
  const { variant, chosen, players } = setup;
  const played = { game: variant.title, counts: eitherCount(variant.players) };
  const toggle = (id) => () => {
    const at = chosen.indexOf(id);
    if (at >= 0) chosen.splice(at, 1); else chosen.push(id);
    setup.firstDealer = Math.min(setup.firstDealer, Math.max(0, chosen.length - 1));
    keep(setup);
    screen.draw();
  };
  const add = async () => {
    const name = setup.newName.trim();
    if (!name) { document.getElementById('new-player')?.focus(); return; }
    try {
      const { data } = await api.addPlayer(setup.club.id, setup.club.token, name);
      players.push(data);
      chosen.push(data.id);
      setup.newName = '';
      keep(setup);
      screen.draw();
    } catch (error) { toast(problemText(error), 'error'); }
  };
  // Drawn as typed: so that emptying it after an add is a change the drawing makes.
  const typed = (event) => { setup.newName = event.target.value; screen.draw(); };
  const words = {
    how: t(
      '{game} is played by {counts}. Tap the players in the order they sit (the deal passes to the left).',
      played,
    ),
    players: t('Players'), name: t('Name'), label: t('New player’s name'), add: t('Add'),
    dealer: t('First dealer'),
  };
  const seatWords = chosen.map((_, at) => t('seat {number}', { number: at + 1 }));
  const names = chosen.map((id) => players.find((p) => p.id === id).name);
  const dealer = (i) => () => { setup.firstDealer = i; keep(setup); screen.draw(); };
  return html`<div><p class="hint">${words.how}</p>
    <div class="row wrap" role="group" aria-label=${words.players}>${players.map((p) => {
      const at = chosen.indexOf(p.id);
      return html`<button type="button" class="choice player" aria-pressed=${String(at >= 0)}
        @click=${toggle(p.id)}>${at >= 0 ? html`<span class="badge"
        aria-label=${seatWords[at]}>${num(at + 1)}</span>` : nothing} ${p.name}</button>`;
    })}</div>
    <div class="row addplayer"><input id="new-player" type="text" maxlength="100" autocomplete="off"
      placeholder=${words.name} aria-label=${words.label} .value=${setup.newName} @input=${typed}>
      <button type="button" @click=${add}>${words.add}</button></div></div>
    <div>${names.length ? html`<fieldset class="group"><legend>${words.dealer}</legend>
      <div class="row wrap">${names.map((n, i) => html`<button type="button" class="choice small"
        aria-pressed=${String(i === setup.firstDealer)} @click=${dealer(i)}>${n}</button>`)}</div>
      </fieldset>` : nothing}</div>`;
}

function newTable(screen) {
  const setup = screen.setup;
  const words = { title: t('New table'), loading: t('Loading players…'), name: t('Table name'),
    game: t('Game|variant'), options: t('Options (defaults shown)'), money: t('Playing for money'),
    season: t('Counts for the season'), noSeason: t('No season'), open: t('Open the table') };
  if (!setup || setup.problem) {
    return html`<section class="card newtable"><h2>${words.title}</h2>${setup
      ? html`<p class="notice error">${setup.problem}</p>`
      : html`<p class="hint">${words.loading}</p>`}</section>`;
  }
  const { variant } = setup;
  const pickGame = (event) => {
    setup.variant = setup.variants.find((v) => v.name === event.target.value);
    setup.values = {};
    setup.season = undefined;
    fitSetup(setup);
    keep(setup);
    screen.draw();
  };
  const named = (event) => { setup.name = event.target.value; keep(setup); };
  const pickSeason = (event) => { setup.season = event.target.value; keep(setup); };
  const ofGame = setup.seasons.filter((x) => x.variant === variant.name);
  const games = html`<select id="table-game" @change=${pickGame}>${setup.variants.map((v) => html`
    <option value=${v.name} ?selected=${v === variant}>${v.title}</option>`)}</select>`;
  const seasons = html`<select id="table-season" @change=${pickSeason}>
    <option value="">${words.noSeason}</option>${ofGame.map((s) => html`<option value=${s.id}
      ?selected=${s.id === setup.season}>${s.name}</option>`)}</select>`;
  const name = html`<input id="table-name" type="text" maxlength="100" .value=${setup.name}
    @input=${named}>`;
  return html`<section class="card newtable"><h2>${words.title}</h2>
    <form @submit=${(event) => openTable(screen, event)}>${field('table-name', words.name, name)}
      ${field('table-game', words.game, games)}
      <div>${ofGame.length ? field('table-season', words.season, seasons) : nothing}</div>
      ${seatsPart(screen)}
      <div><details class="options"><summary>${words.options}</summary>${optionsOf(variant)
        .map((o) => optionRow(screen, o))}</details></div>
      <div><details class="money"><summary>${words.money}</summary>${
        setup.rate.rows(false, screen.draw)}</details></div>
      <button class="primary big" type="submit" ?disabled=${setup.sending}>${words.open}</button>
    </form></section>`;
}

async function openTable(screen, event) {
  event.preventDefault();
  const setup = screen.setup;
  const { variant, chosen, club, rate } = setup;
  if (!variant.players.includes(chosen.length)) {
    const counts = eitherCount(variant.players);
    toast(t('Pick {counts} players.', { counts }), 'error');
    return;
  }
  const problem = rate.problem();
  screen.draw(); // the amount refused, or none, marked
  if (problem) {
    toast(problem, 'error');
    return;
  }
  setup.sending = true;
  screen.draw();
  try {
    const { data } = await api.createTable(club.token, { club_id: club.id,
      name: setup.name.trim() || t('Table'), variant: variant.name, seats: chosen,
      first_dealer: setup.firstDealer, options: chosenOptions(setup),
      season_id: setup.season || null, rate: rate.value() });
    store.saveTable({ id: data.id, token: data.table_token, name: data.name, club_id: club.id,
      variant: data.variant, status: data.status });
    store.dropDraft(setup.draftKey);
    screen.app.go(`#table=${encodeURIComponent(data.id)}`);
  } catch (error) {
    setup.sending = false;
    screen.draw();
    toast(problemText(error), 'error');
  }
}

// the screen

function knownTables() {
  const tables = Object.values(store.tables()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  if (!tables.length) return nothing;
  const words = { title: t('Tables on this phone') };
  const named = (entry) => (entry.status === 'closed'
    ? t('{name} (closed)', { name: entry.name || entry.id }) : entry.name || entry.id);
  return html`<section class="card"><h2>${words.title}</h2><ul class="tables">${tables.map(
    (entry) => html`<li><a class="button"
      href="#table=${encodeURIComponent(entry.id)}">${named(entry)}</a></li>`,
  )}</ul></section>`;
}

function startScreen(screen) {
  const { club, app } = screen;
  const words = { title: t('Solo score pad'),
    about: t(
      'Keep the score of a Solo table: record each hand in a few taps, every phone at the table sees it.',
    ),
    another: t('Another club') };
  return html`<div class="screen start"><h1>${words.title}</h1><p class="hint">${words.about}</p>
    ${knownTables()}
    ${club ? html`${newTable(screen)}${clubCard(club, screen.fresh, app)}
      <details class="card"><summary>${words.another}</summary>${clubForms(app)}</details>`
      : clubForms(app)}</div>`;
}

export async function renderStart(root, app) {
  const club = store.currentClub();
  const host = document.createElement('div'); // this screen's own: lit-html draws into it
  root.replaceChildren(host);
  const screen = {
    club, app, setup: null,
    fresh: !!(club && club.fresh), // its admin token shown open, this once
    draw: () => { if (host.isConnected) render(startScreen(screen), host); },
  };
  if (club && club.fresh) store.saveClub({ ...club, fresh: false });
  screen.draw();
  if (!club) return;
  try {
    screen.setup = await loadSetup(club);
  } catch (error) {
    screen.setup = { problem: problemText(error) };
  }
  screen.draw();
}
