// The director's screen of an open tournament (docs/tournaments.md): a new tournament, the
// settings, the registration link with its QR code (opened or closed), the entrants with one
// tap to check each in, a search, late entries and withdrawals, the draw of each series and its
// table cards, the standings, the prizes and the host's cash sheet, and the ranking list to
// print (#tournament=<id>&ranking) with its CSV, the console of the tables
// (#tournament=<id>&console, console.js) and the tournament's close. Works with the club's
// admin token the score pad keeps on this device (localStorage, same origin), or `#token=…` in
// the address.
//
// Drawn as the club night's screen is (admin.js): lit-html from `state`, `draw()` after each
// change, its words from the service's catalogs (data-words) read by the pad's `t` and `tn`,
// the same requests (requests.js) and notices beside the button that asked (notices.js).

import { html, nothing } from '../pad/lit-html.js';
import { lang, t, tn } from '../pad/i18n.js';
import { download, enc, field } from '../pad/club-shared.js';
import { signed } from '../pad/dom.js';
import { store } from '../pad/store.js';
import { formatCents, parseAmount, rateFromAmount } from './money.js';
import { CONSOLE_MS, consoleOf } from './console.js';
import { QUIET, closingCard, screenOf } from './notices.js';
import { Problem, requester } from './requests.js';

const content = document.getElementById('content');
const clubId = document.body.dataset.club;
const POLL_MS = 15000;

const fragment = new URLSearchParams(location.hash.slice(1));
const kept = store.clubs()[clubId] || {}; // the pad's clubs on this device
const token = fragment.get('token') || kept.token || null;
const viewer = kept.viewer || null;
const { call, fetchFile } = requester(token);
const api = (path, options) => call('GET', path, options);

const STATUSES = ['registered', 'checked_in', 'waiting', 'withdrawn'];

const state = {
  club: null, players: [], variants: [],
  list: null, // the club's tournaments (the start)
  tournament: null, entrants: [], night: null, standings: null, prizes: null,
  view: null, // another view of the tournament: 'ranking' (the list to print) or 'console'
  filter: 'all', // the entrants shown: all, or those of one status
  query: '', // the search box
  qr: null, // the registration link's QR code (qr.js, loaded when first shown)
  resultsQr: null, // the public results' QR code, likewise
  game: null, // the new tournament's game (null: the first)
  fixedPrizes: false, // the new tournament's prizes are fixed amounts, not shares
  notice: QUIET,
  busy: new Set(),
  failed: null,
};

const { draw, redraw, busy, notifier, attempt, askFirst, noticeAt } = screenOf(state, content,
  () => screen());
const desk = consoleOf({ state, call, draw, busy, notifier, attempt, askFirst, noticeAt,
  tagOf, reload: () => reload() });

// --- words and numbers --------------------------------------------------------------------------

const money = (cents) => formatCents(cents, state.tournament.currency, lang);

function variantTitle(name) {
  const found = state.variants.find((v) => v.name === name);
  return found ? found.title : name;
}

const STATUS_WORDS = () => ({ all: t('All'), registered: t('Registered'),
  checked_in: t('Checked in'), waiting: t('Waiting'), withdrawn: t('Withdrawn') });

/** Text as a search compares it: lower case, without accents ("José" is found as "jose"). */
const folded = (text) => (text || '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function linkOf(path) {
  return `${path}${path.includes('?') ? '&' : '?'}lang=${lang}`;
}

/** The address's fragment for a tournament (null: the club's) and its `view` ('ranking',
 * 'console'), keeping a token given there. */
function hashOf(id, view = null) {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  const parts = [id ? `tournament=${id}` : 'tournaments', view,
    given ? `token=${given}` : null];
  return parts.filter(Boolean).join('&');
}

// --- a new tournament ---------------------------------------------------------------------------

/** The prize table from "50, 30, 20" (`shares`: percent of the money taken, place 1 first) or
 * from "100, 50" (fixed amounts in `currency`), or throws naming the field `label`. */
function readPrizes(text, label, shares, currency, example) {
  const parts = text.split(/[;\s]+|,(?=\s)|,$/).map((p) => p.trim()).filter(Boolean);
  const prizes = [];
  for (const part of parts) {
    const amount = parseAmount(part, lang);
    if (shares) {
      const made = amount ? rateFromAmount(amount, 'EUR') : null; // percent, to two places
      if (!made || made.per !== 1 || made.cents % 10) {
        throw new Error(t('{field}: write shares such as 50, 30, 20.', { field: label }));
      }
      prizes.push({ per_mille: made.cents / 10 });
    } else {
      const made = amount ? rateFromAmount(amount, currency) : null;
      if (!made || made.per !== 1) {
        throw new Error(t('{field}: write an amount such as {example}.', { field: label,
          example }));
      }
      prizes.push({ cents: made.cents });
    }
  }
  return prizes;
}

/** An amount field's cents (0 when empty), or throws naming the field `label`. */
function readCents(text, label, currency, example) {
  const amount = parseAmount(text, lang);
  const made = amount ? rateFromAmount(amount, currency) : { cents: 0, per: 1 };
  if (amount === undefined || !made || made.per !== 1) {
    throw new Error(t('{field}: write an amount such as {example}.', { field: label, example }));
  }
  return made.cents;
}

// The game's options in the game's words (its description's `title`, `choices`, `none_title`,
// in the page's language), as the pad's new table offers them: this screen names no option.

/** The words of `option`'s value `value`: its choice's title, else the value itself. */
function optionValueWords(option, value) {
  if (value === '') return option.none_title || '—';
  if (option.type === 'boolean') return value === 'true' ? t('yes') : t('no');
  const choice = (option.choices || []).find((c) => String(c.value) === value);
  return choice ? choice.title : value;
}

function optionControl(option) {
  const id = `new-option-${option.name}`;
  const given = option.default === null || option.default === undefined ? ''
    : String(option.default);
  if (option.type === 'integer' && !option.allowed) {
    return field(id, option.title, html`<input id=${id} name=${id} type="number"
      inputmode="numeric" min=${option.min ?? ''} max=${option.max ?? ''}
      placeholder=${option.nullable ? option.none_title || '' : ''} value=${given}>`);
  }
  const values = option.type === 'boolean' ? ['false', 'true']
    : [...(option.nullable ? [''] : []), ...(option.allowed || []).map(String)];
  return field(id, option.title, html`<select id=${id} name=${id}>${values.map((v) => html`
    <option value=${v} ?selected=${v === given}>${optionValueWords(option, v)}</option>`)}
    </select>`);
}

/** The options that differ from the game's defaults, as `createTournament` takes them. */
function chosenOptions(variant, value) {
  const chosen = {};
  for (const option of variant.options || []) {
    const text = value(`new-option-${option.name}`);
    let made = text === '' ? null : text;
    if (made !== null && option.type === 'integer') made = Number(made);
    if (option.type === 'boolean') made = text === 'true';
    if (made !== (option.default ?? null)) chosen[option.name] = made;
  }
  return chosen;
}

function createForm() {
  const currency = state.club.currency;
  const symbol = new Intl.NumberFormat(lang, { style: 'currency', currency }).formatToParts(0)
    .find((part) => part.type === 'currency').value;
  const variant = state.variants.find((v) => v.name === state.game) || state.variants[0];
  const words = { title: t('New open tournament'), name: t('Name'), game: t('Game'),
    series: t('Number of series'), hands: t('Hands per series'),
    fee: t('Entry fee ({currency})', { currency: symbol }),
    loss: t('Losses money per lost game ({currency}, empty: none)', { currency: symbol }),
    cap: t('Most entrants (empty: no limit)'), sizes: t('Table sizes'),
    sizesHint: t('The draws seat the players at tables of these sizes.'),
    options: t("The game's options"), scoring: t('Scoring'),
    result: t("The game's own result"), places: t('Place points at each table'),
    kind: t('The prizes are'), shares: t('Shares of the money taken'),
    fixed: t('Fixed amounts'),
    prizes: state.fixedPrizes
      ? t("Prizes: each place's amount in {currency}, first place first", { currency: symbol })
      : t("Prizes: each place's share of the fees in %, first place first"),
    create: t('Create the tournament'), tournament: t('Open tournament') };
  const example = new Intl.NumberFormat(lang, { minimumFractionDigits: 2 }).format(10);
  const create = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = (name) => form.elements.namedItem(name).value.trim();
    const tell = notifier('create');
    let body;
    try {
      const sizes = [...form.querySelectorAll('input[name=size]:checked')]
        .map((box) => Number(box.value));
      body = { name: value('name'), variant: variant.name, series: Number(value('series')),
        hands_per_series: Number(value('hands')),
        entry_fee_cents: readCents(value('fee'), words.fee, currency, example),
        loss_fee_cents: readCents(value('loss'), words.loss, currency, example), currency,
        cap: value('cap') ? Number(value('cap')) : null,
        table_sizes: variant.players.length > 1 ? sizes : null,
        options: chosenOptions(variant, value), scoring: value('scoring'),
        prizes: readPrizes(value('prizes'), words.prizes, !state.fixedPrizes, currency,
          example) };
    } catch (error) {
      tell(error.message, 'error');
      return;
    }
    attempt('create', async (done) => {
      const { data } = await call('POST', `/clubs/${enc(clubId)}/tournaments`, { body });
      done('');
      location.hash = hashOf(data.id);
    });
  };
  const chooseGame = (event) => {
    state.game = event.currentTarget.value;
    draw();
  };
  const choosePrizes = (event) => {
    state.fixedPrizes = event.currentTarget.value === 'fixed';
    draw();
  };
  const games = state.variants.map((v) => html`<option value=${v.name}
    ?selected=${v === variant}>${v.title}</option>`);
  const sizes = variant.players.length > 1 ? html`<fieldset class="sizes"><legend>${
    words.sizes}</legend>${variant.players.map((n) => html`<label class="check"><input
    type="checkbox" name="size" value=${n} checked>${n}</label>`)}<p class="hint">${
    words.sizesHint}</p></fieldset>` : nothing;
  const options = (variant.options || []).length ? html`<details class="options"><summary>${
    words.options}</summary><div class="option-fields">${variant.options.map(optionControl)}
    </div></details>` : nothing;
  return html`<form class="card start" @submit=${create}><h2>${words.title}</h2>
    ${field('new-name', words.name, html`<input id="new-name" name="name" type="text" required
      maxlength="80" value=${words.tournament}>`)}
    ${field('new-game', words.game, html`<select id="new-game" name="variant"
      @change=${chooseGame}>${games}</select>`)}${sizes}${options}
    <div class="row">${field('new-series', words.series, html`<input id="new-series"
      name="series" type="number" min="1" max="20" value="2" inputmode="numeric">`)}${
      field('new-hands', words.hands, html`<input id="new-hands" name="hands" type="number"
      min="1" max="200" value="24" inputmode="numeric">`)}</div>
    <div class="row">${field('new-fee', words.fee, html`<input id="new-fee" name="fee"
      type="text" inputmode="decimal" autocomplete="off" placeholder=${example}>`)}${
      field('new-cap', words.cap, html`<input id="new-cap" name="cap" type="number" min="1"
      max="1000" inputmode="numeric">`)}</div>
    ${field('new-loss', words.loss, html`<input id="new-loss" name="loss" type="text"
      inputmode="decimal" autocomplete="off">`)}
    ${field('new-scoring', words.scoring, html`<select id="new-scoring" name="scoring"><option
      value="result">${words.result}</option><option value="place_points">${words.places}
      </option></select>`)}
    ${field('new-prize-kind', words.kind, html`<select id="new-prize-kind" name="prize_kind"
      @change=${choosePrizes}><option value="shares" ?selected=${!state.fixedPrizes}>${
      words.shares}</option><option value="fixed" ?selected=${state.fixedPrizes}>${words.fixed}
      </option></select>`)}
    ${field('new-prizes', words.prizes, html`<input id="new-prizes" name="prizes" type="text"
      autocomplete="off" placeholder="50, 30, 20">`)}
    <button class="primary" type="submit" ?disabled=${busy('create')}>${words.create}</button>
    ${noticeAt('create')}</form>`;
}

function tournamentList() {
  const list = state.list || [];
  if (!list.length) return nothing;
  return html`<section class="card"><h2>${t('Open tournaments')}</h2><ul class="nights">${
    list.map((x) => html`<li><a href="#${hashOf(x.id)}">${x.name}</a> · ${
      variantTitle(x.variant)} · ${tn(x.entrants.registered + x.entrants.checked_in,
      '{count} entrant', '{count} entrants', { count: x.entrants.registered
        + x.entrants.checked_in })}</li>`)}</ul></section>`;
}

// --- a tournament: its settings and its registration --------------------------------------------

function summary(x) {
  const prizes = x.prizes.map((p) => (p.cents !== undefined ? money(p.cents)
    : `${new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(p.per_mille / 10)} %`));
  const parts = [variantTitle(x.variant),
    x.series_drawn ? t('Series {number} of {planned}', { number: x.series_drawn,
      planned: x.series_planned }) : t('No series drawn yet.'),
    x.hands_per_series ? tn(x.hands_per_series, '{hands} hand per series',
      '{hands} hands per series', { hands: x.hands_per_series }) : null,
  ].filter(Boolean);
  const lines = [
    x.entry_fee_cents ? t('Entry fee {amount}', { amount: money(x.entry_fee_cents) })
      : t('No entry fee.'),
    x.cap ? tn(x.cap, 'At most {count} entrant', 'At most {count} entrants', { count: x.cap })
      : t('No limit on entrants.'),
    prizes.length ? t('Prizes: {prizes}', { prizes: prizes.join(' · ') }) : t('No prizes.'),
    x.scoring === 'place_points' ? t('Scoring: place points at each table')
      : t("Scoring: the game's own result"),
  ];
  return html`<section class="card summary"><p class="meta">${parts.join(' · ')}</p>${
    lines.map((line) => html`<p class="meta">${line}</p>`)}</section>`;
}

/** The public registration link: the page, and the token after `#` (never sent to a server
 * but as the registration's bearer token), with the tournament's name for its heading. */
function registrationLink(x) {
  const hash = new URLSearchParams({ token: x.registration_token, name: x.name });
  return `${location.origin}/tournaments/${x.id}/register#${hash}`;
}

function registrationCard(x) {
  const words = { title: t('Registration'), open: t('Registration is open.'),
    closed: t('Registration is closed.'), openIt: t('Open registration'),
    closeIt: t('Close registration'), with: t('Players register with this link or its QR code:'),
    qr: t('Show the QR code'), copy: t('Copy the link') };
  const link = registrationLink(x);
  const toggle = () => attempt('registration', async (tell) => {
    const { data } = await call('PATCH', `/tournaments/${x.id}`,
      { body: { registration_open: !x.registration_open } });
    state.tournament = data;
    tell(data.registration_open ? words.open : words.closed);
  });
  // Copied where the browser lets a page write the clipboard, else selected to copy by hand.
  const copy = () => attempt('registration', async (tell) => {
    try {
      await navigator.clipboard.writeText(link);
      tell(t('Copied.'));
    } catch {
      getSelection().selectAllChildren(content.querySelector('.registration a.link'));
    }
  });
  const showQr = async (event) => {
    if (!event.currentTarget.open || state.qr) return;
    const { qrSvg } = await import('../pad/qr.js'); // only when the code is first shown
    state.qr = qrSvg(link, t('QR code of the registration link'));
    draw();
  };
  return html`<section class="card registration"><h2>${words.title}</h2>
    <p><strong>${x.registration_open ? words.open : words.closed}</strong></p>
    <p>${words.with}<br><a class="link" href=${link} target="_blank" rel="noopener">${link}</a></p>
    <p><button type="button" ?disabled=${busy('registration')} @click=${copy}>${words.copy}</button>
    <button type="button" class=${x.registration_open ? 'danger' : 'primary'}
      ?disabled=${busy('registration')} @click=${toggle}>${
      x.registration_open ? words.closeIt : words.openIt}</button></p>${noticeAt('registration')}
    <details @toggle=${showQr}><summary>${words.qr}</summary><div class="qrbox">${
      state.qr || nothing}</div></details></section>`;
}

/** The public results (`getPublicResults`, the page `/results/<public_id>`): published or
 * taken back by the director, with or without the prize places, its link and QR code. */
function publicCard(x) {
  const words = { title: t('Public results'), qr: t('Show the QR code'), copy: t('Copy the link'),
    shown: t('The results are public: anyone with this link follows them live, names as each '
      + 'player chose.'), hidden: t('The results are not public yet.'),
    publish: t('Publish the results'), takeBack: t('Take the results back'),
    prizes: t('Show the prize places there') };
  const link = x.public_id ? `${location.origin}/results/${x.public_id}` : null;
  const change = (body) => attempt('public', async (tell) => {
    const { data } = await call('PATCH', `/tournaments/${x.id}`, { body });
    state.tournament = data;
    state.resultsQr = null; // a new address the first time it is published
    tell(data.public_results ? words.shown : words.hidden);
  });
  const copy = () => attempt('public', async (tell) => {
    try {
      await navigator.clipboard.writeText(link);
      tell(t('Copied.'));
    } catch {
      getSelection().selectAllChildren(content.querySelector('.public a.link'));
    }
  });
  const showQr = async (event) => {
    if (!event.currentTarget.open || state.resultsQr) return;
    const { qrSvg } = await import('../pad/qr.js'); // only when the code is first shown
    state.resultsQr = qrSvg(link, t('QR code of the public results'));
    draw();
  };
  const shown = x.public_results && link;
  return html`<section class="card public"><h2>${words.title}</h2>
    <p><strong>${shown ? words.shown : words.hidden}</strong></p>${shown ? html`<p><a
    class="link" href=${link} target="_blank" rel="noopener">${link}</a></p>` : nothing}
    <p><label class="check"><input type="checkbox" .checked=${x.public_prizes}
      ?disabled=${busy('public')} @change=${(event) => change(
        { public_prizes: event.currentTarget.checked })}> ${words.prizes}</label></p>
    <p>${shown ? html`<button type="button" ?disabled=${busy('public')} @click=${copy}>${
      words.copy}</button> ` : nothing}<button type="button" class=${shown ? 'danger' : 'primary'}
      ?disabled=${busy('public')} @click=${() => change({ public_results: !x.public_results })}>${
      shown ? words.takeBack : words.publish}</button></p>${noticeAt('public')}${shown ? html`
    <details @toggle=${showQr}><summary>${words.qr}</summary><div class="qrbox">${
      state.resultsQr || nothing}</div></details>` : nothing}</section>`;
}

// --- the entrants -------------------------------------------------------------------------------

/** An entrant's status in words (a waiting one's place on the list). */
function tagOf(e) {
  return e.status === 'waiting' ? t('waiting, no. {position}', { position: e.waiting_position })
    : STATUS_WORDS()[e.status];
}

async function changeEntrant(entrant, status) {
  await attempt(`entrant:${entrant.id}`, async (tell) => {
    const { data } = await call('PATCH',
      `/tournaments/${state.tournament.id}/entrants/${entrant.id}`, { body: { status } });
    await reload();
    tell(`${data.name}: ${tagOf(data)}`);
  });
}

function entrantRow(e) {
  const key = `entrant:${e.id}`;
  const checkIn = () => changeEntrant(e, 'checked_in');
  const back = () => changeEntrant(e, 'registered');
  const withdraw = () => askFirst(key, t('Withdraw the entry of {name}?', { name: e.name }),
    t('Withdraw'), () => changeEntrant(e, 'withdrawn'));
  const button = (label, run, kind = '') => html`<button type="button" class=${kind}
    ?disabled=${busy(key)} @click=${run}>${label}</button>`;
  const actions = {
    registered: [button(t('Check in'), checkIn, 'primary'), button(t('Withdraw'), withdraw)],
    waiting: [button(t('Check in'), checkIn, 'primary'), button(t('Withdraw'), withdraw)],
    checked_in: [button(t('Undo check-in'), back), button(t('Withdraw'), withdraw)],
    withdrawn: [button(t('Enter again'), back)],
  }[e.status];
  return html`<li class="entrant ${e.status}" data-entrant=${e.id}><div class="who"><span
    class="name">${e.name}</span>${e.club ? html` <span class="club">${e.club}</span>` : nothing}
    <span class="tag">${tagOf(e)}</span>${e.contact ? html`<br><span
    class="club contact">${e.contact}</span>` : nothing}</div><div
    class="actions">${actions}</div>${noticeAt(key)}</li>`;
}

function entrantsCard(x) {
  const words = { ...STATUS_WORDS(), search: t('Search by name or club') };
  const counts = { all: state.entrants.length };
  for (const status of STATUSES) counts[status] = x.entrants[status];
  const query = folded(state.query);
  const shown = state.entrants.filter((e) => (state.filter === 'all' || e.status === state.filter)
    && (!query || folded(`${e.name} ${e.club || ''}`).includes(query)));
  const search = (event) => {
    state.query = event.currentTarget.value;
    draw();
  };
  const choose = (status) => () => {
    state.filter = status;
    draw();
  };
  const filters = ['all', ...STATUSES].map((status) => html`<button type="button"
    class="filter" aria-pressed=${state.filter === status ? 'true' : 'false'}
    @click=${choose(status)}>${words[status]} (${counts[status]})</button>`);
  return html`<section class="card entrants"><h2>${t('Entrants')}</h2>
    <div class="filters" role="group" aria-label=${t('Entrants')}>${filters}</div>
    ${field('entrant-search', words.search, html`<input id="entrant-search"
      type="search" autocomplete="off" .value=${state.query} @input=${search}>`)}
    <ul class="entrant-list">${shown.length ? shown.map(entrantRow)
      : html`<li class="hint">${t('Nobody matches.')}</li>`}</ul>${lateEntry(x)}</section>`;
}

/** A late entry: a player of the host club picked from its players, or a guest. */
function lateEntry(x) {
  const entered = new Set(state.entrants.filter((e) => e.status !== 'withdrawn')
    .map((e) => e.player_id).filter(Boolean));
  const players = state.players.filter((p) => !p.retired && !entered.has(p.id));
  const enter = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = (name) => form.elements.namedItem(name).value.trim();
    const player = players.find((p) => p.id === value('player'));
    const guest = value('guest');
    if (!player && !guest) {
      notifier('late')(t("Choose a player of the club or write a guest's name."), 'error');
      return;
    }
    const body = player ? { name: player.name, player_id: player.id }
      : { name: guest, club: value('club') || null };
    body.check_in = form.elements.namedItem('check_in').checked;
    attempt('late', async (tell) => {
      const { data } = await call('POST', `/tournaments/${x.id}/entrants`, { body });
      form.reset();
      await reload();
      tell(`${data.name}: ${tagOf(data)}`);
    });
  };
  const options = players.map((p) => html`<option value=${p.id}>${p.name}</option>`);
  const words = { player: t('A player of the club'), guest: t('Or a guest: name'),
    club: t('Club (optional)') };
  return html`<details class="late"><summary>${t('Late entry')}</summary><form
    @submit=${enter}>${field('late-player', words.player, html`<select
    id="late-player" name="player"><option value="">${t('Choose a player')}</option>${options}
    </select>`)}<div class="row">${field('late-guest', words.guest, html`<input
    id="late-guest" name="guest" type="text" maxlength="80" autocomplete="off">`)}${
    field('late-club', words.club, html`<input id="late-club" name="club"
    type="text" maxlength="80" autocomplete="off">`)}</div><label class="check"><input
    type="checkbox" name="check_in" checked>${t('Checked in at once')}</label><button
    class="primary" type="submit" ?disabled=${busy('late')}>${t('Enter')}</button>${
    noticeAt('late')}</form></details>`;
}

// --- the series ---------------------------------------------------------------------------------

function drawCard(x) {
  if (x.status !== 'open') return nothing; // closed: nothing more is drawn
  if (!x.next_series) {
    return html`<section class="card draw"><p>${t('All series are drawn.')}</p></section>`;
  }
  const number = x.next_series;
  const run = () => attempt('draw', async (tell) => {
    const { data } = await call('POST', `/tournaments/${x.id}/series`, { body: {} });
    await reload();
    tell(t('Series {number} drawn with seed {seed}.', { number, seed: String(data.seed) }));
  });
  return html`<section class="card draw"><p>${t('The draw seats everyone checked in: {count}.',
    { count: x.entrants.checked_in })}</p><button class="primary" type="button"
    ?disabled=${busy('draw')} @click=${run}>${t('Draw series {number}', { number })}</button>${
    noticeAt('draw')}</section>`;
}

function seriesCard(night, series) {
  const cards = `${linkOf(`/nights/${night.id}/cards?series=${series.number}`)}#token=${token}`;
  const big = `${linkOf(`/nights/${night.id}/screen`)}#token=${viewer || token}`;
  const first = t('deals first');
  const tables = series.tables.map((table) => html`<li><strong>${t('Table {number}',
    { number: table.number })}</strong> <span class="names">${table.seats.map((s) => (
    s.seat === table.first_dealer ? `${s.name} (${first})` : s.name)).join(', ')}</span></li>`);
  return html`<section class="card series" data-series=${series.number}><h2>${t('Series {number}',
    { number: series.number })}</h2><p class="links"><a href=${cards} target="_blank"
    rel="noopener">${t('Print the table cards')}</a> · <a href=${big} target="_blank"
    rel="noopener">${t('Big screen')}</a></p><ol class="tables">${tables}</ol></section>`;
}

// --- standings, prizes, cash sheet, the ranking list --------------------------------------------

function standingsTable(board, prizes) {
  if (!board.standings.length) return html`<p class="hint">${t('Nobody has played yet.')}</p>`;
  const drawnSeries = Math.max(0, ...board.standings.map((line) => line.series.length));
  const counted = board.scoring === 'place_points' ? 'place_points' : 'result';
  const paid = new Map((prizes ? prizes.prize_list : []).map((p) => [p.entrant_id, p.cents]));
  const head = [t('Rank'), t('Player'),
    ...Array.from({ length: drawnSeries }, (_, i) => t('S{number}', { number: i + 1 })),
    t('Total'), ...(prizes ? [t('Prize')] : [])];
  const kind = (i) => (i > 1 && i < 2 + drawnSeries ? 'of-series' : '');
  const rows = board.standings.map((line) => html`<tr class=${line.status}><td>${
    String(line.rank)}</td><td class="name">${line.name}${line.club ? html` <span
    class="club">${line.club}</span>` : nothing}${line.status === 'withdrawn' ? html` <span
    class="tag">${t('withdrawn')}</span>` : nothing}</td>${line.series.map((s) => html`<td
    class="of-series">${
    s ? signed(s[counted]) : ''}</td>`)}<td><strong>${signed(line.total)}</strong></td>${
    prizes ? html`<td class="cents">${paid.get(line.entrant_id) ? money(paid.get(line.entrant_id))
      : ''}</td>` : nothing}</tr>`);
  return html`<div class="scroll"><table><thead><tr>${head.map((h, i) => html`<th
    class=${kind(i)}>${h}</th>`)}</tr>
    </thead><tbody>${rows}</tbody></table></div>`;
}

function cashCard(prizes) {
  if (!prizes) return nothing;
  const sheet = prizes.cash_sheet;
  const places = prizes.places.map((p) => html`<li>${t('Place {place}', { place: p.place })}: ${
    money(p.cents)}</li>`);
  const rows = [
    [t('Entry fees: {paying} × {fee}', { paying: sheet.paying, fee: money(sheet.entry_fee_cents) }),
      sheet.fees_cents],
    ...(sheet.loss_fee_cents ? [[t('Losses money: {games} × {fee}', { games: sheet.lost_games,
      fee: money(sheet.loss_fee_cents) }), sheet.losses_cents]] : []),
    [t('Prizes paid'), -sheet.prizes_cents],
    [t('Remains with the host'), sheet.remains_cents],
  ];
  return html`<section class="card cash"><h2>${t('Prizes and cash sheet')}</h2><ul
    class="places">${places}</ul><table class="each"><tbody>${rows.map(([label, cents]) => html`<tr>
    <td class="name">${label}</td><td class="cents">${formatCents(cents, prizes.currency, lang,
      cents < 0)}</td></tr>`)}</tbody></table></section>`;
}

function resultCard(x) {
  const words = { title: t('The ranking list'), print: t('Ranking list to print'),
    csv: t('Download the ranking (CSV, for a spreadsheet)') };
  const save = () => attempt('csv', async (tell) => {
    const file = await fetchFile(`/tournaments/${x.id}/ranking.csv`, 'tournament.csv');
    download(file.name, 'text/csv', file.blob);
    tell(t('Downloaded: {file}', { file: file.name }));
  });
  return html`<section class="card result"><h2>${words.title}</h2><p><a class="button"
    href="#${hashOf(x.id, 'ranking')}">${words.print}</a></p><p><button type="button" class="csv"
    ?disabled=${busy('csv')} @click=${save}>${words.csv}</button></p>${noticeAt('csv')}</section>`;
}

/** The ranking list as it prints (A4, the print stylesheet): the standings with the prizes. */
function rankingView(x) {
  const when = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' })
    .format(new Date());
  const status = state.prizes && state.prizes.final ? t('Final ranking.')
    : t('Provisional ranking as of {time}: final once the tournament is closed.', { time: when });
  return html`<div class="ranking"><p class="no-print"><a href="#${hashOf(x.id)}">${
    t('Back to the tournament')}</a> <button type="button" class="primary"
    @click=${() => window.print()}>${t('Print')}</button></p><h1>${t('Ranking list · {name}',
    { name: x.name })}</h1><p class="meta">${variantTitle(x.variant)} · ${status}</p>${
    standingsTable(state.standings, state.prizes)}${cashCard(state.prizes)}</div>`;
}

/** The way to the console of the series' tables (once a series is drawn). */
function consoleCard(x) {
  if (!x.series_drawn) return nothing;
  return html`<section class="card to-console"><h2>${t("The director's console")}</h2><p
    class="hint">${t('Every table of the series at a glance: what needs you first, disputes, '
    + 'confirmations, moves and substitutes.')}</p><p><a class="button primary"
    href="#${hashOf(x.id, 'console')}">${t('Open the console')}</a></p></section>`;
}

/** The tournament's close (its night's, `closeNight`): asked first; then the ranking is final. */
function closeCard(x) {
  const words = { closed: t('The tournament is closed: the ranking list is final.'),
    close: t('Close the tournament'), anyway: t('Close anyway'),
    yes: t('Yes, close the tournament'),
    ask: t('Close the tournament? Its tables close with it: no hand can be recorded any more, '
      + 'the ranking list and the prizes are final, and it cannot be opened again.') };
  return closingCard({ attempt, askFirst, busy, noticeAt }, {
    open: x.status === 'open', words,
    closeNight: (early) => call('POST', `/nights/${x.night_id}/close`, { body: { early } }),
    after: reload,
  });
}

function tournamentView(x) {
  const series = state.night ? [...state.night.series].reverse()
    .map((s) => seriesCard(state.night, s)) : [];
  return html`<h1>${x.name}</h1>${noticeAt(null, 'route')}${summary(x)}${registrationCard(x)}${
    publicCard(x)}${entrantsCard(x)}${drawCard(x)}${consoleCard(x)}${series}<div
    class="live"><section class="card standings"><h2>${t('Standings')}</h2>${
    standingsTable(state.standings, null)}</section>${cashCard(state.prizes)}</div>${
    resultCard(x)}${closeCard(x)}`;
}

/** The way back: the club on the Solo pad, its tournaments, and from a view of a tournament
 * (the console) the tournament. */
function crumbs() {
  const x = state.tournament;
  const list = x ? html` › <a href="#${hashOf(null)}">${t('Open tournaments')}</a>` : nothing;
  const back = x && state.view ? html` › <a href="#${hashOf(x.id)}">${x.name}</a>` : nothing;
  return html`<nav class="crumbs" aria-label=${t('Back to the club')}><a
    href="/#league=${enc(clubId)}">${state.club.name}</a>${list}${back}</nav>`;
}

function failedView(text) {
  return html`<p class="notice error" role="alert">${text}</p><p><a href="/">${
    t('Open the Solo pad')}</a></p>`;
}

function screen() {
  if (state.failed) return failedView(state.failed);
  if (!state.club) return nothing;
  if (state.tournament && state.view === 'ranking') return rankingView(state.tournament);
  if (state.tournament && state.view === 'console') {
    return html`${crumbs()}${desk.view(state.tournament)}`;
  }
  if (state.tournament) return html`${crumbs()}${tournamentView(state.tournament)}`;
  return html`${crumbs()}<h1>${t('Open tournaments')} · ${state.club.name}</h1>${
    noticeAt(null, 'route')}${tournamentList()}${createForm()}`;
}

// --- loading ------------------------------------------------------------------------------------

/** The tournament shown, its entrants, its night's series, standings and prizes, read again. */
async function reload(id = state.tournament.id) {
  const [tournament, entrants, standings, prizes] = await Promise.all([
    api(`/tournaments/${id}`), api(`/tournaments/${id}/entrants`),
    api(`/tournaments/${id}/standings`), api(`/tournaments/${id}/prizes`)]);
  const night = await api(`/nights/${tournament.data.night_id}`);
  Object.assign(state, { tournament: tournament.data, entrants: entrants.data,
    standings: standings.data, prizes: prizes.data, night: night.data });
  draw();
}

let timer = null;

async function showTournament(id, view) {
  clearTimeout(timer);
  const another = !state.tournament || state.tournament.id !== id || state.view !== view;
  if (!state.tournament || state.tournament.id !== id) state.qr = null;
  state.view = view;
  state.notice = QUIET;
  await reload(id);
  if (view === 'console') await desk.load(id, true);
  redraw();
  if (another) window.scrollTo(0, 0); // another screen starts at its top
  // The console follows its tables (asked with its ETag: a 304 while nothing changed, and the
  // last hands' times said again); else the standings and prizes follow them.
  const follow = async () => {
    if (!state.tournament || state.tournament.id !== id || state.view !== view) return;
    try {
      if (view === 'console') {
        await desk.load(id);
      } else {
        const [standings, prizes] = await Promise.all([api(`/tournaments/${id}/standings`),
          api(`/tournaments/${id}/prizes`)]);
        Object.assign(state, { standings: standings.data, prizes: prizes.data });
        draw();
      }
    } catch { /* the next poll tries again */ }
    timer = setTimeout(follow, view === 'console' ? CONSOLE_MS : POLL_MS);
  };
  timer = setTimeout(follow, view === 'console' ? CONSOLE_MS : POLL_MS);
}

async function route() {
  const asked = new URLSearchParams(location.hash.slice(1));
  const chosen = asked.get('tournament');
  if (chosen) {
    const view = ['ranking', 'console'].find((name) => asked.has(name)) || null;
    return showTournament(chosen, view);
  }
  clearTimeout(timer);
  const { data } = await api(`/clubs/${enc(clubId)}/tournaments`);
  Object.assign(state, { tournament: null, list: data, notice: QUIET });
  redraw();
  return undefined;
}

function fail(text) {
  state.failed = text;
  draw();
}

async function main() {
  if (!token) {
    fail(t(
      'This device keeps no admin token of this club. Open the club on the Solo pad with its '
      + 'admin link, then come back here through Club, Manage, Open tournaments.',
    ));
    return;
  }
  const [club, players, variants] = await Promise.all([api(`/clubs/${enc(clubId)}`),
    api(`/clubs/${enc(clubId)}/players`), api('/variants')]);
  Object.assign(state, { club: club.data, players: players.data, variants: variants.data });
  window.addEventListener('hashchange', () => attempt('route', route));
  await route();
}

main().catch((error) => {
  fail(error instanceof Problem ? error.lines().join(' ')
    : t('No connection: showing what was last loaded.'));
});
