// The start screen: create a club (first use) or open one with its admin token; open a table
// (players picked in the order they sit, variant, options with their defaults, first dealer);
// the tables this phone knows.

import { api, ProblemError } from './api.js';
import { h, clear, plain, title, toast } from './dom.js';
import { lang, num, t } from './i18n.js';
import { loadVariants } from './model.js';
import { qrSvg } from './qr.js';
import { store } from './store.js';
import { defaultSeason, rateFields, seasonSelect } from './table-settings.js';

function problemText(error) {
  return error instanceof ProblemError ? error.lines().join(' ') : t('No connection: try again when online.');
}

function field(label, input, hint) {
  const id = `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return h('div.field', h('label', { htmlFor: id }, label), input, hint ? h('p.hint', hint) : null);
}

// Options in a player's words: labels, values and help (the service's help names its values).
const LABELS = {
  couleur_policy: t('How the couleur changes'), bete_on_lost_solo: t('Bête on a lost solo'), matadores: t('Matadores count for'),
  incidental_tout: t('Tout after five is worth'), target_hands: t('End after this many hands'), target_score: t('End at this score'),
  pool_at_close: t('The pool at the end'), starting_pool: t('Starting pool'),
  stake: t('Stake'), stamm: t('Stamm'), couleur: t('Couleur'), preferred_suit: t('Preferred suit'), mediateur: t('Mediateur'),
  deck: t('Deck'),
};
const VALUES = {
  fixed: t('Fixed'), first_won: t('Trump of the first game won'), any: t('Every lost solo'), couleur_only: t('Only in couleur'),
  either_side: t('Either side'), declaring_side: t('The declaring side only'), double: t('Double'),
  literal: t('Twice in suit, four in couleur'), split: t('Shared among the players'), carry: t('Kept by the club'),
  clubs: t('Clubs'), spades: t('Spades'), hearts: t('Hearts'), diamonds: t('Diamonds'),
};
const QUOTES = { de: ['„', '“'], es: ['«', '»'] }[lang] || ['“', '”'];
const valueWords = (a) => VALUES[a] || plain(title(a));

/** "fixed: never changes; first_won: …" → "“Fixed”: never changes; “Trump of …”: …"; the
 *  "(null: no limit)" goes: it names the empty choice instead. */
function help(option) {
  const text = plain(option.description || '').replace(/\s*\(null: [^)]*\)/, '');
  return text.replace(/(^|; )([a-z0-9_]+): /g, (m, sep, value) => ((option.allowed || []).includes(value)
    ? `${sep}${QUOTES[0]}${valueWords(value)}${QUOTES[1]}: ` : m));
}

// The empty choice of a nullable option, in the pad's words (the service's help says it too:
// "(null: no limit)").
const EMPTY = { target_hands: t('No limit'), target_score: t('No limit'), preferred_suit: t('None') };

function emptyWords(option) {
  if (option.name in EMPTY) return EMPTY[option.name];
  const m = /\(null: ([^)]*)\)/.exec(option.description || '');
  return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : t('None');
}

/** "3 or 4 or 5" (as it always read in English), "3, 4 oder 5", "3, 4 o 5". */
function eitherCount(counts) {
  return lang === 'en' ? counts.join(' or ') : new Intl.ListFormat(lang, { type: 'disjunction' }).format(counts.map(num));
}

/** Today for a table's default name: 2026-12-02 in English; the date as the language writes it
 *  by hand otherwise (2.12.2026, 2/12/2026). */
function today() {
  return lang === 'en' ? new Date().toISOString().slice(0, 10) : new Date().toLocaleDateString(lang);
}

function clubLink(club) {
  return `${location.origin}/#club=${encodeURIComponent(club.id)}&key=${encodeURIComponent(club.token)}`;
}

/** Store a club opened from a link or a form, after checking its token. */
export async function openClub(id, token) {
  const { data } = await api.club(id, token);
  store.saveClub({ id: data.id, name: data.name, token });
  return data;
}

function clubForms(app) {
  const name = h('input', { type: 'text', required: true, maxLength: 100, autocomplete: 'off' });
  const create = h('form.card', { onsubmit: async (event) => {
    event.preventDefault();
    if (!name.value.trim()) { name.focus(); return; }
    try {
      const { data } = await api.createClub(name.value.trim());
      store.saveClub({ id: data.id, name: data.name, token: data.admin_token, fresh: true });
      app.update();
    } catch (error) { toast(problemText(error), 'error'); }
  } }, h('h2', t('Create a club')), field(t('Club name'), name), h('button.primary', { type: 'submit' }, t('Create the club')));

  const id = h('input', { type: 'text', autocomplete: 'off' });
  const token = h('input', { type: 'password', autocomplete: 'off' });
  const open = h('details.card', h('summary', t('Open a club with its admin token')),
    h('form', { onsubmit: async (event) => {
      event.preventDefault();
      try {
        await openClub(id.value.trim(), token.value.trim());
        app.update();
      } catch (error) { toast(problemText(error), 'error'); }
    } }, field(t('Club id'), id), field(t('Admin token'), token), h('button', { type: 'submit' }, t('Open the club'))));
  return [create, open];
}

function clubCard(club, app) {
  const clubs = Object.values(store.clubs());
  const switcher = clubs.length > 1 ? h('select', { 'aria-label': t('Club'), onchange: (event) => { store.useClub(event.target.value); app.update(); } },
    clubs.map((c) => h('option', { value: c.id, selected: c.id === club.id }, c.name))) : null;
  const key = h('details.card', { open: !!club.fresh },
    h('summary', t('The club’s admin token')),
    h('p', t('This phone keeps the admin token. It is shown here only: keep it somewhere safe too. With it, another phone can open the club:')),
    h('p', h('code.token', club.token)),
    h('div.qrbox.small', qrSvg(clubLink(club), t('QR code of the link that opens the club'))));
  if (club.fresh) store.saveClub({ ...club, fresh: false });
  return h('section.card', h('h2', t('Club: {name}', { name: club.name })), switcher,
    h('a.button', { href: `#league=${encodeURIComponent(club.id)}` }, t('Tables, standings and players')), key);
}

async function newTableForm(club, app) {
  const box = h('section.card.newtable', h('h2', t('New table')), h('p.hint', t('Loading players…')));
  let variants;
  let players;
  let seasons;
  let currency;
  try {
    let clubData;
    [variants, { data: players }, { data: seasons }, { data: clubData }] = await Promise.all([loadVariants(),
      api.players(club.id, club.token), api.seasons(club.id, club.token), api.club(club.id, club.token)]);
    currency = clubData.currency || 'EUR';
  } catch (error) {
    clear(box, h('h2', t('New table')), h('p.notice.error', problemText(error)));
    return box;
  }
  // What was set up so far survives a reload, until the table is opened.
  const draftKey = `setup:${club.id}`;
  const draft = store.draft(draftKey) || {};
  const chosen = (draft.chosen || []).filter((id) => players.some((p) => p.id === id));
  let variant = variants.find((v) => v.name === (draft.variant || 'american')) || variants[0];
  let firstDealer = Math.min(draft.firstDealer || 0, Math.max(0, chosen.length - 1));
  let kept = draft.options || {};
  // The season: as picked (an id, or '' for none), else the game's one open season.
  let season = draft.season;
  let rate = null;
  const name = h('input', { type: 'text', value: draft.name || t('Table {date}', { date: today() }), maxLength: 100 });
  const keep = () => {
    if (optionInputs.size) kept = Object.fromEntries([...optionInputs].map(([k, { input }]) => [k, input.value]));
    store.saveDraft(draftKey, { name: name.value, variant: variant.name, chosen, firstDealer, options: kept, season });
  };
  name.addEventListener('input', keep);
  const variantSelect = h('select', { onchange: () => {
    variant = variants.find((v) => v.name === variantSelect.value);
    kept = {};
    season = undefined;
    draw();
  } },
    variants.map((v) => h('option', { value: v.name, selected: v === variant }, v.title)));
  const seatsBox = h('div');
  const dealerBox = h('div');
  const optionsBox = h('div');
  const seasonBox = h('div');
  const moneyBox = h('div');
  const newPlayer = h('input', { type: 'text', maxLength: 100, autocomplete: 'off', placeholder: t('Name') });
  const add = h('button', { type: 'button', onclick: async () => {
    const n = newPlayer.value.trim();
    if (!n) { newPlayer.focus(); return; }
    try {
      const { data } = await api.addPlayer(club.id, club.token, n);
      players.push(data);
      chosen.push(data.id);
      newPlayer.value = '';
      draw();
    } catch (error) { toast(problemText(error), 'error'); }
  } }, t('Add'));
  const optionInputs = new Map();

  function draw() {
    const played = { game: variant.title, counts: eitherCount(variant.players) };
    clear(seatsBox,
      h('p.hint', t('{game} is played by {counts}. Tap the players in the order they sit (the deal passes to the left).', played)),
      h('div.row.wrap', { role: 'group', 'aria-label': t('Players') }, players.map((p) => {
        const at = chosen.indexOf(p.id);
        return h('button.choice.player', { type: 'button', 'aria-pressed': String(at >= 0), onclick: () => {
          if (at >= 0) chosen.splice(at, 1); else chosen.push(p.id);
          firstDealer = Math.min(firstDealer, Math.max(0, chosen.length - 1));
          draw();
        } }, at >= 0 ? h('span.badge', { 'aria-label': t('seat {number}', { number: at + 1 }) }, num(at + 1)) : null, ` ${p.name}`);
      })),
      h('div.row.addplayer', newPlayer, add));
    newPlayer.setAttribute('aria-label', t('New player’s name'));
    const names = chosen.map((id) => players.find((p) => p.id === id).name);
    clear(dealerBox, names.length ? h('fieldset.group', h('legend', t('First dealer')),
      h('div.row.wrap', names.map((n, i) => h('button.choice.small', { type: 'button', 'aria-pressed': String(i === firstDealer),
        onclick: () => { firstDealer = i; draw(); } }, n)))) : null);
    const open = optionsBox.querySelector('details[open]') !== null;
    optionInputs.clear();
    const rows = variant.options.map((o) => {
      let input;
      const words = o.default === null || o.default === undefined ? emptyWords(o)
        : o.type === 'boolean' ? (o.default ? t('yes') : t('no')) : o.allowed ? valueWords(o.default) : num(o.default);
      if (o.type === 'integer' && !o.allowed) {
        input = h('input', { type: 'number', inputmode: 'numeric', min: o.min, max: o.max,
          value: o.default === null || o.default === undefined ? '' : o.default, placeholder: o.nullable ? emptyWords(o) : null });
      } else if (o.type === 'boolean') {
        input = h('select', [false, true].map((b) => h('option', { value: String(b), selected: b === o.default }, b ? t('yes') : t('no'))));
      } else {
        const allowed = [...(o.nullable ? [''] : []), ...(o.allowed || [])].map(String);
        input = h('select', allowed.map((a) => h('option', { value: a, selected: a === String(o.default ?? '') },
          a === '' ? emptyWords(o) : valueWords(a))));
      }
      if (o.name in kept) input.value = kept[o.name];
      input.addEventListener('change', keep);
      optionInputs.set(o.name, { input, option: o });
      const shown = { value: words, help: help(o) };
      return field(LABELS[o.name] || plain(title(o.name)), input, t('Default: {value}. {help}', shown));
    });
    if (variant.name === 'american') {
      const pool = h('select', ['split', 'carry'].map((a) => h('option', { value: a }, valueWords(a))));
      optionInputs.set('pool_at_close', { input: pool, option: { name: 'pool_at_close', default: 'split', allowed: ['split'] } });
      rows.push(field(LABELS.pool_at_close, pool, t('Default: shared among the players when the table closes; or kept by the club for its next table.')));
      const start = h('input', { type: 'number', inputmode: 'numeric', min: 0, value: 0 });
      optionInputs.set('starting_pool', { input: start, option: { name: 'starting_pool', type: 'integer', default: 0 } });
      rows.push(field(LABELS.starting_pool, start, t('Default: 0. A pool the club kept from an earlier table (only when the club keeps the pool).')));
      for (const key of ['pool_at_close', 'starting_pool']) if (key in kept) optionInputs.get(key).input.value = kept[key];
      pool.addEventListener('change', keep);
      start.addEventListener('change', keep);
    }
    clear(optionsBox, h('details.options', { open }, h('summary', t('Options (defaults shown)')), rows));
    const ofGame = seasons.filter((x) => x.variant === variant.name);
    if (season === undefined || (season && !ofGame.some((x) => x.id === season))) season = defaultSeason(ofGame) || '';
    const pick = seasonSelect(ofGame, season || null, () => { season = pick.value; keep(); });
    clear(seasonBox, ofGame.length ? field(t('Counts for the season'), pick) : null);
    if (!rate || rate.units !== variant.units) { // what was typed stays while the units do
      const moneyOpen = moneyBox.querySelector('details[open]') !== null;
      rate = { ...rateFields(variant.units, currency, null), units: variant.units };
      clear(moneyBox, h('details.money', { open: moneyOpen }, h('summary', t('Playing for money')), rate.rows));
    }
    keep();
  }

  function options() {
    const out = {};
    for (const [key, { input, option }] of optionInputs) {
      let value = input.value;
      if (option.type === 'integer') value = value === '' ? null : Number(value);
      else if (option.type === 'boolean') value = value === 'true';
      else if (value === '') value = null;
      if (value !== (option.default ?? null)) out[key] = value;
    }
    return out;
  }

  const submit = h('button.primary.big', { type: 'submit' }, t('Open the table'));
  const form = h('form', { onsubmit: async (event) => {
    event.preventDefault();
    if (!variant.players.includes(chosen.length)) {
      const counts = eitherCount(variant.players);
      toast(t('Pick {counts} players.', { counts }), 'error');
      return;
    }
    const problem = rate && rate.problem();
    if (problem) {
      toast(problem, 'error');
      return;
    }
    submit.disabled = true;
    try {
      const { data } = await api.createTable(club.token, { club_id: club.id, name: name.value.trim() || t('Table'),
        variant: variant.name, seats: chosen, first_dealer: firstDealer, options: options(),
        season_id: season || null, rate: rate.value() });
      store.saveTable({ id: data.id, token: data.table_token, name: data.name, club_id: club.id,
        variant: data.variant, status: data.status });
      store.dropDraft(draftKey);
      app.go(`#table=${encodeURIComponent(data.id)}`);
    } catch (error) {
      submit.disabled = false;
      toast(problemText(error), 'error');
    }
  } }, field(t('Table name'), name), field(t('Game|variant'), variantSelect), seasonBox, seatsBox, dealerBox, optionsBox, moneyBox, submit);
  clear(box, h('h2', t('New table')), form);
  draw();
  return box;
}

function knownTables() {
  const tables = Object.values(store.tables()).sort((a, b) => (b.seen || 0) - (a.seen || 0));
  if (!tables.length) return null;
  return h('section.card', h('h2', t('Tables on this phone')),
    h('ul.tables', tables.map((entry) => h('li', h('a.button', { href: `#table=${encodeURIComponent(entry.id)}` },
      entry.status === 'closed' ? t('{name} (closed)', { name: entry.name || entry.id }) : entry.name || entry.id)))));
}

export async function renderStart(root, app) {
  const club = store.currentClub();
  const screen = h('div.screen.start', h('h1', t('Solo score pad')),
    h('p.hint', t('Keep the score of a Solo table: record each hand in a few taps, every phone at the table sees it.')));
  clear(root, screen);
  screen.append(...[knownTables()].filter(Boolean));
  if (club) {
    const form = newTableForm(club, app);
    screen.append(clubCard(club, app)); // drawn now: it stores that the club is no longer fresh
    screen.insertBefore(await form, screen.lastChild);
    screen.append(h('details.card', h('summary', t('Another club')), ...clubForms(app)));
  } else {
    screen.append(...clubForms(app));
  }
}
