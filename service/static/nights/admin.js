// The club night's admin screen: start a night, draw each series (its seed, each table's link
// and QR code, the cards to print, the big screen), who is here between series, the standings,
// the money and closing. Works with the club's admin token the score pad keeps on this device
// (localStorage, same origin), or one given in the address's fragment (#token=…), which never
// reaches a server.
//
// Drawn as the pad's screens are, with lit-html from its state (`state`; `draw()` after each
// change), and worded with the pad's i18n: the server gives this page its language (<html
// lang>) and its words from the service's catalogs (data-words, keyed by their English), which
// the pad's `t` and `tn` read as they read the pad's catalogs. A night shown anew (`redraw()`)
// gets fresh forms, as the server has the night; the standings' poll and the notices draw over
// what is there. A notice (an answer, a refusal, a question asked again) is drawn beside the
// button that asked for it and takes the focus, so that a phone's screen shows it.

import { html, nothing } from '../pad/lit-html.js';
import { lang, t, tn } from '../pad/i18n.js';
import { download, enc, field } from '../pad/club-shared.js';
import { signed } from '../pad/dom.js';
import { store } from '../pad/store.js';
import { parseAmount, rateFromAmount, rateAmount, formatCents } from './money.js';
import { QUIET, TABLES_PENDING, closingCard, screenOf } from './notices.js';
import { Problem, requester } from './requests.js';

const content = document.getElementById('content');
const clubId = document.body.dataset.club;
const POLL_MS = 10000;
const STATUS = { open: t('open'), closed: t('closed') };

const fragment = new URLSearchParams(location.hash.slice(1));
const kept = store.clubs()[clubId] || {}; // the pad's clubs on this device
const token = fragment.get('token') || kept.token || null;
const viewer = kept.viewer || null;

// --- the API -------------------------------------------------------------------------------

const { call, fetchFile } = requester(token);
const api = (path, options) => call('GET', path, options);

// --- the state and its drawing ---------------------------------------------------------------

const state = {
  club: null, players: [], seasons: [], variants: [],
  nights: null, // the club's nights (the start screen)
  night: null, board: null, etag: null, // the night shown, its standings and their ETag
  game: null, // the game chosen on the start form
  untilClosed: false, // the start form's "Until closed"
  feeBasis: 'series', // the start form's choice: what the table fee is charged for (FEE_BASES)
  fee: '', // the start form's table fee as typed: its line says what a person pays
  // What the latest action said: {lines, kind ('info', 'error', 'ask'), offers: [{key, label,
  // run, kind?}], at: the action's key (drawn beside its button), id: counts the notices}
  notice: QUIET,
  cards: new Map(), // series number → the server's markup of its tables' cards (their links)
  busy: new Set(), // the actions waiting for their answer: their buttons are disabled
  failed: null, // what stopped the screen: a text
};

const { draw, redraw, busy, notifier, attempt, askFirst, noticeAt } = screenOf(state, content,
  () => screen());

// --- what the page shows ---------------------------------------------------------------------

function variantTitle(name) {
  const found = state.variants.find((v) => v.name === name);
  return found ? found.title : name;
}

function unitsOf(name) {
  const found = state.variants.find((v) => v.name === name);
  return found ? found.units : 'chips';
}

const lines = (text) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** The table fee in the words the big screen and the cards use, per the night's `basis`. */
function feeText(amount, basis) {
  if (basis === 'night') return t('table fee {amount} per player for the night', { amount });
  if (basis === 'table') {
    return t('table fee {amount} per table, shared by its players', { amount });
  }
  return t('table fee {amount} per player and series', { amount });
}

function rateText(rate, units, basis) {
  if (!rate) return t('Not played for money.');
  const amount = rateAmount(rate, lang);
  let line = units === 'points' ? t('{amount} per point', { amount })
    : t('{amount} per chip', { amount });
  if (rate.table_fee_cents) {
    line += `; ${feeText(formatCents(rate.table_fee_cents, rate.currency, lang), basis)}`;
  }
  return t('Plays for {rate}.', { rate: line });
}

/** What one person pays for the table fee `fee` (as typed) charged per `basis`, in a line;
 * null: the fee is not an amount (the start says which field). */
function feeLine(fee, basis, currency) {
  const parsed = parseAmount(fee, lang);
  if (parsed === null) return t('No table fee.');
  const made = parsed === undefined ? null : rateFromAmount(parsed, currency);
  if (!made || made.per !== 1) return null;
  if (!made.cents) return t('No table fee.');
  const amount = formatCents(made.cents, currency, lang);
  if (basis === 'night') {
    return t('Each person pays {amount} once for the evening, however many series they play.',
      { amount });
  }
  if (basis === 'table') {
    return t('Each table pays {amount}, shared evenly by the people playing at it.', { amount });
  }
  return t('Each person pays {amount} for every series they play.', { amount });
}

/** The labels of a rate's fields in `currency` (the fee's per the fee's `basis`), and an
 * amount as the language writes it. */
function rateWords(units, currency, basis = 'series') {
  const symbol = new Intl.NumberFormat(lang, { style: 'currency', currency }).formatToParts(0)
    .find((part) => part.type === 'currency').value;
  return {
    amount: units === 'points' ? t('Money per point ({currency})', { currency: symbol })
      : t('Money per chip ({currency})', { currency: symbol }),
    fee: basis === 'table' ? t('Table fee per table ({currency})', { currency: symbol })
      : t('Table fee per player ({currency})', { currency: symbol }),
    example: new Intl.NumberFormat(lang, { minimumFractionDigits: 2 }).format(0.05),
    none: t('Not for money'),
    settling: t('Settling the scores'),
    pairs: t('Pairwise difference'),
    average: t('Against the average'),
  };
}

/** The rate's fields (their ids start with `id`), filled with `rate` (null: none). */
function rateFields(id, units, currency, rate, basis = 'series') {
  const words = rateWords(units, currency, basis);
  const typed = rate ? rateAmount(rate, lang, false) : '';
  const amount = html`<input id="${id}-amount" name="amount" type="text" inputmode="decimal"
    autocomplete="off" placeholder=${words.none} .value=${typed}>`;
  const fee = rate && rate.table_fee_cents
    ? rateAmount({ cents: rate.table_fee_cents, per: 1, currency }, lang, false) : '';
  const feeInput = html`<input id="${id}-fee" name="fee" type="text" inputmode="decimal"
    autocomplete="off" placeholder="0" .value=${fee}>`;
  const average = !!rate && rate.point_settlement === 'average';
  const settlement = html`<select id="${id}-settlement" name="settlement">
    <option value="pairs">${words.pairs}</option>
    <option value="average" ?selected=${average}>${words.average}</option></select>`;
  return [field(`${id}-amount`, words.amount, amount), field(`${id}-fee`, words.fee, feeInput),
    units === 'points' ? field(`${id}-settlement`, words.settling, settlement) : nothing];
}

/** The API's rate from a form's rate fields (null: none), or throws a line naming the field. */
function readRate(form, units, currency, basis = 'series') {
  const words = rateWords(units, currency, basis);
  const value = (name) => form.elements.namedItem(name).value;
  const bad = (label) => new Error(t('{field}: write an amount such as {example}.',
    { field: label, example: words.example }));
  const per = parseAmount(value('amount'), lang);
  const feeAmount = parseAmount(value('fee'), lang);
  if (per === undefined) throw bad(words.amount);
  if (feeAmount === undefined) throw bad(words.fee);
  if (per === null && feeAmount === null) return null;
  const made = rateFromAmount(per || { digits: 0n, scale: 0 }, currency);
  const fee = feeAmount ? rateFromAmount(feeAmount, currency) : { cents: 0, per: 1 };
  if (!made) throw bad(words.amount);
  if (!fee || fee.per !== 1) throw bad(words.fee);
  const settling = units === 'points' ? { point_settlement: value('settlement') } : {};
  return { ...made, currency, table_fee_cents: fee.cents, ...settling };
}

// --- starting a night ------------------------------------------------------------------------

function openSeasons(variant) {
  const today = new Date().toLocaleDateString('sv'); // YYYY-MM-DD, this device's day
  return state.seasons.filter((s) => s.variant === variant
    && (!s.starts_on || s.starts_on <= today) && (!s.ends_on || today <= s.ends_on));
}

/** The season a new night of `variant` counts for unless chosen: the one open today, if one. */
function seasonOf(variant) {
  const seasons = openSeasons(variant);
  return seasons.length === 1 ? seasons[0].id : '';
}

function startForm() {
  const game = state.game || (state.variants[0] || {}).name;
  const units = unitsOf(game);
  const currency = state.club.currency;
  const today = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'numeric',
    year: 'numeric' }).format(new Date());
  const words = { title: t('Start a club night'), name: t('Name'), game: t('Game'),
    present: t('Players present'), newPlayers: t('New players, one name per line'),
    hands: t('Hands per series'), untilClosed: t('Until closed'),
    series: t('Number of series'), season: t('Season'), noSeason: t('No season'),
    start: t('Start the night'), night: `${t('Club night')} ${today}`,
    basis: t('The table fee is charged'), series_: t('per person and series'),
    night_: t('per person, once for the evening'), table_: t('per table, shared by its players'),
  };
  const basis = state.feeBasis;
  const choose = (event) => {
    state.game = event.currentTarget.value;
    draw();
    /** @type {HTMLSelectElement} */ (document.getElementById('start-season')).value =
      seasonOf(state.game);
  };
  const untilClosed = (event) => {
    state.untilClosed = event.currentTarget.checked;
    draw();
  };
  const start = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = (name) => form.elements.namedItem(name).value;
    let rate;
    try {
      rate = readRate(form, units, currency, basis);
    } catch (error) {
      notifier('start')(error.message, 'error');
      return;
    }
    const players = [...form.querySelectorAll('input[name=present]:checked')].map((b) => b.value);
    const body = {
      name: value('name').trim(), variant: value('variant'), players,
      new_players: lines(value('new_players')),
      hands_per_series: state.untilClosed ? null : Number(value('hands')),
      series: Number(value('series')), season_id: value('season') || null, rate,
      fee_basis: basis,
    };
    attempt('start', async (tell) => {
      const { data } = await call('POST', `/clubs/${enc(clubId)}/nights`, { body });
      tell('');
      location.hash = hashOf(data.id); // the hashchange shows the night
    });
  };
  const games = state.variants.map((v) => html`<option value=${v.name}
    ?selected=${v.name === game}>${v.title}</option>`);
  const chosen = seasonOf(game);
  const seasons = state.seasons.filter((s) => s.variant === game).map((s) => html`<option
    value=${s.id} ?selected=${s.id === chosen}>${s.name}</option>`);
  const people = state.players.filter((p) => !p.retired).map((p) => html`<label
    class="player"><input type="checkbox" name="present" value=${p.id}><span
    class="name">${p.name}</span></label>`);
  const last = lastPlayers();
  const same = (event) => {
    const form = event.currentTarget.form;
    for (const box of form.querySelectorAll('input[name=present]')) {
      box.checked = last.has(box.value);
    }
  };
  const sameButton = last.size ? html`<button type="button" class="same"
    @click=${same}>${t('Same players as last night')}</button>` : nothing;
  // What the fee is charged for, and what that makes one person pay, as the fee is typed.
  const typed = (event) => {
    const fee = /** @type {HTMLInputElement} */ (event.currentTarget.elements.namedItem('fee'));
    if (fee.value !== state.fee) {
      state.fee = fee.value;
      draw();
    }
  };
  const chooseBasis = (event) => {
    state.feeBasis = event.currentTarget.value;
    draw();
  };
  const bases = ['series', 'night', 'table'].map((name) => html`<option value=${name}
    ?selected=${name === basis}>${words[`${name}_`]}</option>`);
  const pays = feeLine(state.fee, basis, currency);
  return html`<form class="card start" @submit=${start} @input=${typed}><h2>${words.title}</h2>
    ${field('start-name', words.name, html`<input id="start-name" name="name" type="text"
      required maxlength="80" value=${words.night}>`)}
    ${field('start-game', words.game, html`<select id="start-game" name="variant"
      @change=${choose}>${games}</select>`)}
    <fieldset class="players"><legend>${words.present}</legend>${sameButton}${people}</fieldset>
    ${field('start-new', words.newPlayers, html`<textarea id="start-new" name="new_players"
      rows="2"></textarea>`)}
    <div class="row">${field('start-hands', words.hands, html`<input id="start-hands"
      name="hands" type="number" min="1" max="200" value="8" inputmode="numeric"
      ?disabled=${state.untilClosed}>`)}<label class="check"><input type="checkbox"
      .checked=${state.untilClosed} @change=${untilClosed}>${words.untilClosed}</label></div>
    ${field('start-series', words.series, html`<input id="start-series" name="series"
      type="number" min="1" max="20" value="2" inputmode="numeric">`)}
    ${field('start-season', words.season, html`<select id="start-season" name="season"><option
      value="">${words.noSeason}</option>${seasons}</select>`)}
    <div class="money">${rateFields('start', units, currency, null, basis)}
    ${field('start-fee-basis', words.basis, html`<select id="start-fee-basis" name="fee_basis"
      @change=${chooseBasis}>${bases}</select>`)}
    ${pays ? html`<p class="hint fee-line" role="status">${pays}</p>` : nothing}</div>
    <button class="primary" type="submit" ?disabled=${busy('start')}>${words.start}</button>
    ${noticeAt('start')}</form>`;
}

/** Who played the club's last night (the newest): everyone seated at one of its tables, or
 * those present if it drew nothing; empty without one. */
function lastPlayers() {
  const night = (state.nights || [])[0];
  if (!night) return new Set();
  const seated = night.series.flatMap((s) => s.tables.flatMap((x) => x.seats))
    .map((seat) => seat.player_id);
  return new Set(seated.length ? seated
    : night.players.filter((p) => p.present).map((p) => p.player_id));
}

/** The nights still open, first and large: a returning director goes on with one. */
function openNights() {
  const open = (state.nights || []).filter((n) => n.status === 'open');
  if (!open.length) return nothing;
  return html`<section class="card open-nights"><h2>${t('Open nights')}</h2>${open.map((n) => html`
    <p><a class="button primary" href="#${hashOf(n.id)}">${t('Go on with {night}',
      { night: n.name })}</a></p>`)}</section>`;
}

function nightList() {
  const closed = (state.nights || []).filter((n) => n.status !== 'open');
  if (!closed.length) return nothing;
  const title = t("The club's nights");
  return html`<section class="card"><h2>${title}</h2><ul class="nights">${closed.map(
    (n) => html`<li><a href="#${hashOf(n.id)}">${n.name}</a> · ${variantTitle(n.variant)} · ${
      STATUS[n.status]}</li>`)}</ul></section>`;
}

// --- a night ---------------------------------------------------------------------------------

function linkOf(path) {
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}lang=${lang}`;
}

function summary(night) {
  const units = unitsOf(night.variant);
  const currency = night.rate ? night.rate.currency : state.club.currency;
  const season = state.seasons.find((s) => s.id === night.season_id);
  const drawn = night.series.length;
  const parts = [variantTitle(night.variant), STATUS[night.status],
    drawn ? t('Series {number} of {planned}', { number: drawn, planned: night.series_planned })
      : t('No series drawn yet.'),
    night.hands_per_series ? tn(night.hands_per_series, '{hands} hand per series',
      '{hands} hands per series', { hands: night.hands_per_series }) : t('Until closed'),
    season ? season.name : t('No season')];
  const words = { change: t('Change the rate'), save: t('Save the rate') };
  const save = (event) => {
    event.preventDefault();
    let rate;
    try {
      rate = readRate(event.currentTarget, units, currency, night.fee_basis);
    } catch (error) {
      notifier('rate')(error.message, 'error');
      return;
    }
    attempt('rate', async (tell) => {
      await call('PATCH', `/nights/${night.id}`, { body: { rate } });
      tell(t("Rate saved: the night's tables on the old rate play for the new one."));
      await showNight(night.id, true);
    });
  };
  return html`<section class="card summary"><h2>${night.name}</h2>
    <p class="meta">${parts.join(' · ')}</p><p class="rate">${
      rateText(night.rate, units, night.fee_basis)}</p>
    <details><summary>${words.change}</summary><form class="rate-form" @submit=${save}>${
      rateFields('rate', units, currency, night.rate, night.fee_basis)}<button type="submit"
      ?disabled=${busy('rate')}>${words.save}</button></form></details>${noticeAt('rate')}
    </section>`;
}

/** Who may be present at the night: its players, then the club's others (not present). */
function presenceRows(night) {
  const known = new Set(night.players.map((p) => p.player_id));
  return [
    ...night.players.map((p) => ({ id: p.player_id, name: p.name, present: p.present,
      ofNight: true })),
    ...state.players.filter((p) => !p.retired && !known.has(p.id))
      .map((p) => ({ id: p.id, name: p.name, present: false, ofNight: false }))];
}

/** What the presence form says has changed since the night was loaded ({arrived, left,
 * new_players}), or null when nothing has: ticked, unticked or typed but not saved yet. */
function presenceChanges(night) {
  const form = /** @type {HTMLFormElement|null} */ (content.querySelector('form.presence'));
  if (!form) return null;
  const rows = presenceRows(night);
  const ticked = new Set([...form.querySelectorAll('input[type=checkbox]:checked')]
    .map((box) => /** @type {HTMLInputElement} */ (box).value));
  const arrived = rows.filter((r) => ticked.has(r.id) && !r.present).map((r) => r.id);
  const left = rows.filter((r) => !ticked.has(r.id) && r.present && r.ofNight).map((r) => r.id);
  const names = lines(/** @type {HTMLTextAreaElement} */ (
    form.elements.namedItem('new_players')).value);
  return arrived.length || left.length || names.length
    ? { arrived, left, new_players: names } : null;
}

function presence(night) {
  if (night.status !== 'open') return nothing;
  const words = { title: t('Who is here'), hint: t(
    'Between series: tick a late arrival, untick an early leaver. The next draw seats those '
    + 'ticked here, and saves them first.',
  ), newPlayers: t('New players, one name per line'), save: t('Save who is here') };
  const save = (event) => {
    event.preventDefault();
    const body = presenceChanges(night) || { arrived: [], left: [], new_players: [] };
    attempt('presence', async (tell) => {
      await call('PATCH', `/nights/${night.id}/presence`, { body });
      tell(t('Saved: the next draw seats those present.'));
      await showNight(night.id, true);
    });
  };
  const people = presenceRows(night).map((r) => html`<label class="player"><input
    type="checkbox" value=${r.id} ?checked=${r.present}><span class="name">${r.name}</span>
    </label>`);
  return html`<form class="card presence" @submit=${save}><h2>${words.title}</h2>
    <p class="hint">${words.hint}</p><div class="players">${people}</div>
    ${field('presence-new', words.newPlayers, html`<textarea id="presence-new"
      name="new_players" rows="2"></textarea>`)}
    <button type="submit" ?disabled=${busy('presence')}>${words.save}</button>${
      noticeAt('presence')}</form>`;
}

function drawCard(night) {
  if (night.status !== 'open') return nothing;
  if (!night.next_series) {
    const done = t('All series are drawn: close the night when the tables are done.');
    return html`<section class="card draw"><p>${done}</p>${noticeAt('draw')}</section>`;
  }
  const words = { draw: t('Draw series {number}', { number: night.next_series }),
    seed: t('Seed (to repeat a draw; empty: random)'), anyway: t('End the series now anyway') };
  // The draw seats those ticked in "Who is here": a tick not saved yet is saved first (and
  // said so), never left out.
  const drawSeries = (early) => attempt('draw', async (tell) => {
    const seed = /** @type {HTMLInputElement|null} */ (document.getElementById('seed'));
    const body = { early, ...(seed && seed.value !== '' ? { seed: Number(seed.value) } : {}) };
    const changes = presenceChanges(state.night);
    if (changes) {
      const saved = await call('PATCH', `/nights/${night.id}/presence`, { body: changes });
      state.night = saved.data;
      redraw(); // the presence form as saved: a refusal below keeps the ticks
    }
    const first = changes ? [t('Saved who is here first: the draw seats those ticked.')] : [];
    try {
      const { data } = await call('POST', `/nights/${night.id}/series`, { body });
      tell([...first, t('Series {number} drawn with seed {seed}.', { number: data.number,
        seed: String(data.seed) })]); // a seed as it is typed again: not grouped
    } catch (error) {
      if (error instanceof Problem && first.length) {
        error.problem = { ...error.problem, saved: first };
      }
      throw error;
    }
    await showNight(night.id, true);
  }, (refusal) => (refusal.problem.type === TABLES_PENDING
    ? { key: 'draw', label: words.anyway, run: () => drawSeries(true) } : null));
  return html`<section class="card draw"><button class="primary" type="button"
    ?disabled=${busy('draw')} @click=${() => drawSeries(false)}>${words.draw}</button>
    ${noticeAt('draw')}
    <details><summary>${words.seed}</summary><input id="seed" type="number" min="0"
    inputmode="numeric" aria-label=${words.seed}></details></section>`;
}

/** The cards of series `number` as the server makes them (each table's link and QR code, the
 * same ones the printed cards carry), kept in `state.cards`; `renew`: new links for them all. */
async function loadCards(nightId, number, renew = false) {
  const url = `/nights/${nightId}/cards/${number}?lang=${lang}${renew ? '&renew=1' : ''}`;
  const { data } = await call('POST', url, { page: true });
  state.cards.set(number, data);
}

const cardsShown = new Map(); // series number → {markup, node}: the cards as last put on the page

/** The series' cards (null: not loaded), one element for the same markup, which lit-html then
 * leaves as it is. */
function shownCards(number) {
  const markup = state.cards.get(number);
  if (!markup) return null;
  const shown = cardsShown.get(number);
  if (shown && shown.markup === markup) return shown.node;
  const node = document.createElement('div');
  node.className = 'cards-here';
  node.innerHTML = markup; // the server's own markup, every name escaped
  cardsShown.set(number, { markup, node });
  return node;
}

function seriesCard(night, series) {
  const open = series.tables.some((table) => table.status === 'open');
  const stored = open ? shownCards(series.number) : null;
  const words = { title: t('Series {number}', { number: series.number }),
    seed: t('Seed {seed}', { seed: String(series.seed) }), print: t('Print the table cards'),
    screen: t('Big screen'),
    again: t('Make new links (the phones at these tables must scan again)'),
    ask: t('New links for every table of series {number}? The links shown and printed so far '
      + 'stop working, and the phones at these tables must scan the new cards.',
    { number: series.number }),
    yes: t('Yes, make new links'),
    hint: t(
      "The big screen opens with the club's read-only link when this device has one (Manage), "
      + 'else with the admin token: keep that screen to yourself.',
    ) };
  const tables = series.tables.map((table) => {
    const first = t('deals first');
    const names = table.seats.map((s) => (s.seat === table.first_dealer ? `${s.name} (${first})`
      : s.name)).join(', ');
    const played = tn(table.hands_played, '{played} hand', '{played} hands',
      { played: table.hands_played });
    return html`<li><strong>${t('Table {number}', { number: table.number })}</strong> <span
      class="names">${names}</span> · ${played}</li>`;
  });
  const cards = stored || html`<div class="cards-here"><ol class="tables">${tables}</ol></div>`;
  const cardsLink = `${linkOf(`/nights/${night.id}/cards?series=${series.number}`)}#token=${token}`;
  const screenLink = `${linkOf(`/nights/${night.id}/screen`)}#token=${viewer || token}`;
  const key = `links:${series.number}`;
  const renew = () => attempt(key, async (tell) => {
    await loadCards(night.id, series.number, true);
    tell('');
    await showNight(night.id, true);
  });
  const again = open ? html`<button type="button" ?disabled=${busy(key)}
    @click=${() => askFirst(key, words.ask, words.yes, renew)}>${words.again}</button>` : nothing;
  return html`<section class="card series" data-series=${series.number}><h2>${words.title}</h2>
    <p class="seed">${words.seed}</p><p class="links"><a href=${cardsLink} target="_blank"
    rel="noopener">${words.print}</a> · <a href=${screenLink} target="_blank"
    rel="noopener">${words.screen}</a></p>${lengthControl(night, series)}${
      clockControl(night, series)}${cards}${again}${
      noticeAt(key)}${
      viewer ? nothing : html`<p class="hint">${words.hint}</p>`}</section>`;
}

const LONGER = 2; // the hands one tap on "+2 hands for this series" adds
const ONE_MORE = 1; // the hands one tap on a table's "+1 hand at table 2" adds (a last round)

/** The series' length and "+2 hands for this series" (while its tables are open and it has a
 * length: an "until closed" night's series ends at the next draw), and each open table's hands
 * with "+1 hand at table N" (the API lengthens one table too: a last round at one table). The
 * tables may differ: the longest is the series' length, and the series' tap sets every open
 * table to two more than it. Each answer or refusal is said beside its button. */
function lengthControl(night, series) {
  const open = series.tables.filter((table) => table.status === 'open');
  const limits = open.map((table) => table.hands_limit);
  if (!limits.length || limits.some((limit) => limit === null)) return nothing;
  const length = Math.max(...limits);
  const key = `length:${series.number}`;
  const words = { now: tn(length, 'This series: {hands} hand per table',
    'This series: {hands} hands per table', { hands: length }),
  longer: t('+{hands} hands for this series', { hands: LONGER }) };
  const path = `/nights/${night.id}/series/${series.number}`;
  const lengthen = () => attempt(key, async (tell) => {
    const hands = length + LONGER;
    await call('PATCH', path, { body: { hands } });
    await showNight(night.id, true);
    tell(tn(hands, 'Series {number} now has {hands} hand per table.',
      'Series {number} now has {hands} hands per table.', { number: series.number, hands }));
  });
  const each = open.map((table) => {
    const at = `${key}:${table.number}`;
    const hands = table.hands_limit + ONE_MORE;
    const one = () => attempt(at, async (tell) => {
      await call('PATCH', path, { body: { hands, table: table.number } });
      await showNight(night.id, true);
      tell(tn(hands, 'Table {table} of series {number} now has {hands} hand.',
        'Table {table} of series {number} now has {hands} hands.',
        { table: table.number, number: series.number, hands }));
    });
    const played = tn(table.hands_limit, 'Table {table}: {played} of {hands} hand',
      'Table {table}: {played} of {hands} hands',
      { table: table.number, played: table.hands_played, hands: table.hands_limit });
    return html`<li data-table=${table.number}><span class="played">${played}</span> <button
      type="button" class="one-more" ?disabled=${busy(at)} @click=${one}>${t(
      '+{hands} hand at table {table}', { hands: ONE_MORE, table: table.number })}</button>${
      noticeAt(at)}</li>`;
  });
  return html`<p class="length">${words.now}</p><button type="button" class="longer"
    ?disabled=${busy(key)} @click=${lengthen}>${words.longer}</button>${noticeAt(key)}<ul
    class="table-lengths">${each}</ul>`;
}

/** When `hhmm` ("21:30") next comes after `drawn` (an ISO time): the series' end as the
 * director means it, this device's time zone, past midnight the next day. */
function nextAt(hhmm, drawn) {
  const [hours, minutes] = hhmm.split(':').map(Number);
  const from = new Date(drawn);
  const at = new Date(from.getFullYear(), from.getMonth(), from.getDate(), hours, minutes);
  if (at <= from) at.setDate(at.getDate() + 1);
  return at;
}

/** The series' clock while its tables are open: the time it is to end (every phone at its
 * tables shows it with the hands left; no hand is refused for it), set, changed or taken away
 * here; and "End the series now", asked first: each table stops at the hands it recorded. */
function clockControl(night, series) {
  const open = series.tables.filter((table) => table.status === 'open');
  if (!open.length) return nothing;
  const key = `clock:${series.number}`;
  const path = `/nights/${night.id}/series/${series.number}`;
  const ends = open.map((table) => table.series_ends_at).find(Boolean) || null;
  const shown = ends
    ? new Date(ends).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' }) : '';
  const field = `clock-${series.number}`;
  const set = (event) => attempt(key, async (tell) => {
    event.preventDefault();
    const value = new FormData(event.target).get('time');
    if (!value) return;
    const at = nextAt(String(value), series.drawn_at);
    await call('PATCH', path, { body: { ends_at: at.toISOString() } });
    await showNight(night.id, true);
    tell(t('Series {number} ends at {time}.', { number: series.number,
      time: at.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' }) }));
  });
  const clear = () => attempt(key, async (tell) => {
    await call('PATCH', path, { body: { ends_at: null } });
    await showNight(night.id, true);
    tell(t('Series {number} has no clock.', { number: series.number }));
  });
  const end = () => attempt(key, async (tell) => {
    await call('PATCH', path, { body: { end: true } });
    await showNight(night.id, true);
    tell(t('Series {number} is over: no table starts another hand.', { number: series.number }));
  });
  const ask = t('End series {number} now? Each table stops at the hands it has recorded; a '
    + 'hand still in play needs "+1 hand" at its table.', { number: series.number });
  return html`<form class="clock" @submit=${set}><label for=${field}>${t('Series ends at')}</label>
    <input id=${field} name="time" type="time" required .value=${shown}> <button type="submit"
    ?disabled=${busy(key)}>${t('Set the clock')}</button>${ends ? html` <button type="button"
    ?disabled=${busy(key)} @click=${clear}>${t('No clock')}</button>` : nothing}</form><p><button
    type="button" class="end-series" ?disabled=${busy(key)} @click=${() => askFirst(key, ask,
      t('Yes, end it now'), end)}>${t('End the series now')}</button></p>${noticeAt(key)}`;
}

/** The night's result to take home: its standings (and money) as a spreadsheet in this
 * screen's language, and the big screen, which prints as the night's result sheet. */
function resultCard(night) {
  if (!night.series.length) return nothing;
  const words = { title: t("The night's result"),
    csv: t('Download the standings (CSV, for a spreadsheet)'),
    sheet: t('Result sheet to print (the big screen)') };
  const sheetLink = `${linkOf(`/nights/${night.id}/screen`)}#token=${viewer || token}`;
  const save = () => attempt('csv', async (tell) => {
    const file = await fetchFile(`/nights/${night.id}/standings.csv`, 'night.csv');
    download(file.name, 'text/csv', file.blob);
    tell(t('Downloaded: {file}', { file: file.name }));
  });
  return html`<section class="card result"><h2>${words.title}</h2><p><button type="button"
    class="csv" ?disabled=${busy('csv')} @click=${save}>${words.csv}</button></p>${
      noticeAt('csv')}<p><a class="sheet" href=${sheetLink} target="_blank"
    rel="noopener">${words.sheet}</a></p></section>`;
}

function standingsCard(board) {
  const money = board.money;
  const head = [t('Rank'), t('Player'),
    ...board.night.series.map((s) => t('S{number}', { number: s.number })), t('Total')];
  const moneyHead = money ? html`<th class="cents">${t('Money')}</th>` : nothing;
  const rows = board.standings.map((line) => html`<tr><td>${String(line.rank)}</td><td
    class="name">${line.name}</td>${line.series.map((r) => html`<td>${r ? signed(r.result)
    : ''}</td>`)}<td><strong>${signed(line.total)}</strong></td>${money ? html`<td
    class="cents">${formatCents(line.cents, money.currency, lang, true)}</td>` : nothing}</tr>`);
  const title = t('Standings');
  return html`<section class="card standings"><h2>${title}</h2><div class="scroll"><table>
    <thead><tr>${head.map((x) => html`<th>${x}</th>`)}${moneyHead}</tr></thead>
    <tbody>${rows}</tbody></table></div></section>`;
}

function moneyCard(money) {
  if (!money) return nothing;
  const cents = (n, sign = false) => formatCents(n, money.currency, lang, sign);
  const pool = t('the pool');
  const who = (party) => (party.party === 'pool' ? pool : party.name);
  const payments = money.transfers.length
    ? money.transfers.map((x) => html`<li>${t('{payer} pays {payee} {amount}',
      { payer: who(x.from), payee: who(x.to), amount: cents(x.cents) })}</li>`)
    : html`<li>${t('Nobody pays anybody.')}</li>`;
  const left = money.tables_left_out.map((x) => `${x.series}.${x.number}`).join(', ');
  const words = { title: t('Settle-up in money'),
    fees: t('Table fees, apart: {amount} to the club.', { amount: cents(money.fees_cents) }),
    left: t("Not counted (no rate in the night's currency): {tables}.", { tables: left }),
    rounding: t(
      'Each table is rounded down to the cent as its own settle-up shows it, the cents left '
      + 'over going to the largest remainders; the night adds up those amounts per player.',
    ) };
  // By amount, as the money goes: who gets most first, who pays most last.
  const ordered = [...money.players].sort((a, b) => b.cents - a.cents
    || a.name.localeCompare(b.name, lang));
  const each = ordered.map((p) => html`<tr><td class="name">${p.name}</td><td
    class="cents">${cents(p.cents, true)}</td></tr>`);
  return html`<section class="card settle-up"><h2>${words.title}</h2><table
    class="each"><tbody>${each}</tbody></table><ul class="payments">${payments}</ul>${
      money.fees_cents ? html`<p>${words.fees}</p>` : nothing}${
      left ? html`<p class="hint">${words.left}</p>` : nothing}<p
    class="hint">${words.rounding}</p></section>`;
}

function closeCard(night) {
  const words = { closed: t('The night is closed: its tables are closed too.'),
    close: t('Close the night'), anyway: t('Close anyway'), yes: t('Yes, close the night'),
    ask: t('Close the night? Its tables close with it: no hand can be recorded at them any '
      + 'more, and the night cannot be opened again.') };
  return closingCard({ attempt, askFirst, busy, noticeAt }, {
    open: night.status === 'open', words,
    closeNight: (early) => call('POST', `/nights/${night.id}/close`, { body: { early } }),
    after: () => showNight(night.id, true),
  });
}

/** The way back: the club on the Solo pad, and the club's nights. */
function crumbs() {
  const nights = state.night ? html` › <a href="#${hashOf(null)}">${t("The club's nights")}</a>`
    : nothing;
  return html`<nav class="crumbs" aria-label=${t('Back to the club')}><a
    href="/#league=${enc(clubId)}">${state.club.name}</a>${nights}</nav>`;
}

function nightView(night) {
  const back = t("The club's nights");
  const series = [...night.series].reverse().map((s) => seriesCard(night, s));
  return html`${summary(night)}${presence(night)}${drawCard(night)}${series}<div
    class="live">${standingsCard(state.board)}${moneyCard(state.board.money)}</div>${
    resultCard(night)}${closeCard(night)}<p><a href="#${hashOf(null)}">${back}</a></p>`;
}

/** What stops the screen: a line to read, and the way to the score pad. */
function failedView(text) {
  const pad = t('Open the Solo pad');
  return html`<p class="notice error" role="alert">${text}</p><p><a href="/">${pad}</a></p>`;
}

function screen() {
  if (state.failed) return failedView(state.failed);
  if (!state.club) return nothing;
  const title = `${t('Club night')} · ${state.club.name}`;
  const shown = state.night ? nightView(state.night)
    : html`${openNights()}${startForm()}${nightList()}`;
  return html`${crumbs()}<h1>${title}</h1>${noticeAt(null, 'route')}${shown}`;
}

let timer = null;

async function showNight(nightId, keepNotice = false) {
  clearTimeout(timer);
  const { data: night } = await api(`/nights/${nightId}`);
  const { data: board, etag } = await api(`/nights/${nightId}/standings`);
  // The links of each series still playing: the ones its draw made, which its cards carry.
  state.cards = new Map();
  for (const series of night.series) {
    if (series.tables.some((table) => table.status === 'open')) {
      await loadCards(nightId, series.number);
    }
  }
  Object.assign(state, { night, board, etag, nights: null });
  if (!keepNotice) state.notice = QUIET;
  redraw();
  const follow = async () => {
    if (!state.night || state.night.id !== nightId) return;
    try {
      const answer = await api(`/nights/${nightId}/standings`, { etag: state.etag });
      if (answer.status !== 304 && state.night && state.night.id === nightId) {
        Object.assign(state, { board: answer.data, etag: answer.etag });
        draw();
      }
    } catch { /* the next poll tries again */ }
    timer = setTimeout(follow, POLL_MS);
  };
  timer = setTimeout(follow, POLL_MS);
}

async function home() {
  clearTimeout(timer);
  const { data } = await api(`/clubs/${enc(clubId)}/nights`);
  Object.assign(state, { night: null, board: null, etag: null, nights: data });
  redraw();
}

/** The address's fragment for a night (null: the club's nights), keeping a token given there. */
function hashOf(nightId) {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  const parts = [nightId ? `night=${nightId}` : 'nights', given ? `token=${given}` : null];
  return parts.filter(Boolean).join('&');
}

/** What the fragment asks for: a night, or the club's nights and a new one. A director who
 * comes back (no night asked for) finds the open night, if there is one, before all else. */
async function route() {
  const asked = new URLSearchParams(location.hash.slice(1));
  const chosen = asked.get('night');
  if (chosen) return showNight(chosen);
  await home();
  const open = state.nights.filter((n) => n.status === 'open');
  if (!asked.has('nights') && open.length === 1) {
    history.replaceState(null, '', `#${hashOf(open[0].id)}`);
    await showNight(open[0].id);
  }
}

function fail(text) {
  state.failed = text;
  draw();
}

async function main() {
  if (!token) {
    fail(t(
      'This device keeps no admin token of this club. Open the club on the Solo pad with its '
      + 'admin link, then come back here through Club, Manage, Club night.',
    ));
    return;
  }
  const [club, players, seasons, variants] = await Promise.all([
    api(`/clubs/${enc(clubId)}`), api(`/clubs/${enc(clubId)}/players`),
    api(`/clubs/${enc(clubId)}/seasons`), api('/variants')]);
  Object.assign(state, { club: club.data, players: players.data, seasons: seasons.data,
    variants: variants.data });
  window.addEventListener('hashchange', () => attempt('route', route));
  await route();
}

main().catch((error) => {
  fail(error instanceof Problem ? error.lines().join(' ')
    : t('No connection: showing what was last loaded.'));
});
