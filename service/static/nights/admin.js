// The club night's admin screen: start a night, draw each series (its seed, each table's link
// and QR code, the cards to print, the big screen), who is here between series, the standings,
// the money and closing. Works with the club's admin token the score pad keeps on this device
// (localStorage, same origin), or one given in the address's fragment (#token=…), which never
// reaches a server. Every word comes from the server's catalogs (data-words).
import { parseAmount, rateFromAmount, rateAmount, formatCents } from './money.js';

const body = document.body;
const content = document.getElementById('content');
const clubId = body.dataset.club;
const W = JSON.parse(body.dataset.words);
const lang = document.documentElement.lang;
const PAD_CLUBS = 'solo-pad:clubs'; // the pad's store.js: {id: {id, name, token, viewer}}
const LINKS = 'solo-night:links:'; // + night id + ':' + series: the cards' HTML shown once made
const POLL_MS = 10000;

function t(key, values = {}) {
  return (W[key] || key).replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ''));
}

function h(tag, attrs = {}, ...children) {
  const [name, ...classes] = tag.split('.');
  const el = document.createElement(name);
  if (classes.length) el.className = classes.join(' ');
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key in el && key !== 'list') el[key] = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child);
  }
  return el;
}

function padClub() {
  try {
    return (JSON.parse(localStorage.getItem(PAD_CLUBS) || '{}') || {})[clubId] || null;
  } catch {
    return null;
  }
}

const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('token') || (padClub() || {}).token || null;
const viewer = (padClub() || {}).viewer || null;

// --- the API -------------------------------------------------------------------------------

class Problem extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }

  /** The detail, then each field it names with its message. */
  lines() {
    const errors = Object.entries(this.problem.errors || {});
    const named = errors.map(([field, messages]) => `${field}: ${[].concat(messages).join(' ')}`);
    return named.length ? named : [this.message];
  }
}

function key() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/** One request to the API (`/api/v1` + path), or with `page` to a night page's own path (the
 * cards, which need no Idempotency-Key). Resolves {status, data, etag}; a refusal throws. */
async function call(method, path, { body: sent, etag, page } = {}) {
  const headers = { Accept: page ? 'text/html' : 'application/json', 'Accept-Language': lang, Authorization: `Bearer ${token}` };
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && !page) headers['Idempotency-Key'] = key();
  if (etag) headers['If-None-Match'] = etag;
  const answer = await fetch(page ? path : `/api/v1${path}`, {
    method, headers, body: sent === undefined ? undefined : JSON.stringify(sent), cache: 'no-store',
  });
  if (answer.status === 304) return { status: 304, data: null, etag };
  const type = answer.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await answer.json().catch(() => null) : await answer.text();
  if (!answer.ok) throw new Problem(answer.status, typeof data === 'object' ? data : { detail: data });
  return { status: answer.status, data, etag: answer.headers.get('ETag') };
}

const api = (path, options) => call('GET', path, options);

// --- what the page shows ---------------------------------------------------------------------

const state = { club: null, players: [], seasons: [], variants: [], night: null, standings: null, etag: null };
const notice = h('p.notice', { role: 'status', hidden: true });

function say(text, kind = 'info') {
  notice.replaceChildren(...[].concat(text).flatMap((line, i) => (i ? [h('br'), line] : [line])));
  notice.className = `notice ${kind}`;
  notice.hidden = !text || (Array.isArray(text) && !text.length);
}

let newest = 0; // the number of the admin's latest action

/** The notice of a new action: from now on it alone speaks, and what an earlier action says
 * when its answer comes late is dropped. `tell(text, kind)` answers whether it was shown. */
function notifier() {
  const mine = ++newest;
  return (text, kind) => {
    if (mine !== newest) return false;
    say(text, kind);
    return true;
  };
}

/** Run `action(tell)` with the `buttons` that started it disabled until its answer is in (a
 * second tap sends nothing twice). A refusal is shown with its own words and `then` offers a
 * way on, unless a later action has spoken since. */
async function attempt(action, then, buttons = []) {
  const tell = notifier();
  const held = [].concat(buttons).filter(Boolean);
  for (const button of held) button.disabled = true;
  try {
    await action(tell);
  } catch (error) {
    if (error instanceof Problem) {
      if (tell(error.lines(), 'error') && then) then(error);
    } else {
      tell(t('offline'), 'error');
    }
  } finally {
    for (const button of held) button.disabled = false;
  }
}

/** The button that submitted a form (its submit button where the browser does not say). */
function submitter(event) {
  return event.submitter || event.currentTarget.querySelector('button[type=submit]');
}

function variantTitle(name) {
  const found = state.variants.find((v) => v.name === name);
  return found ? found.title : name;
}

function unitsOf(name) {
  const found = state.variants.find((v) => v.name === name);
  return found ? found.units : 'chips';
}

function rateText(rate, units) {
  if (!rate) return t('no_rate');
  const amount = rateAmount(rate, lang);
  let line = t(units === 'points' ? 'per_point_amount' : 'per_chip_amount', { amount });
  if (rate.table_fee_cents) line += `; ${t('fee_amount', { amount: formatCents(rate.table_fee_cents, rate.currency, lang) })}`;
  return t('rate', { rate: line });
}

function field(label, input, hint) {
  input.id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  return h('div.field', {}, h('label', { htmlFor: input.id }, label), input, hint ? h('p.hint', {}, hint) : null);
}

/** The rate's inputs; `value()`: the API's rate (null: none), or throws a line naming the field. */
function rateFields(units, currency, rate) {
  const symbol = new Intl.NumberFormat(lang, { style: 'currency', currency }).formatToParts(0)
    .find((part) => part.type === 'currency').value;
  const example = new Intl.NumberFormat(lang, { minimumFractionDigits: 2 }).format(0.05);
  const amount = h('input', { type: 'text', inputMode: 'decimal', autocomplete: 'off', placeholder: t('not_for_money'),
    value: rate ? rateAmount(rate, lang, false) : '' });
  const fee = h('input', { type: 'text', inputMode: 'decimal', autocomplete: 'off', placeholder: '0',
    value: rate && rate.table_fee_cents ? rateAmount({ cents: rate.table_fee_cents, per: 1, currency }, lang, false) : '' });
  const settlement = units === 'points'
    ? h('select', {}, h('option', { value: 'pairs' }, t('pairs')),
      h('option', { value: 'average', selected: rate && rate.point_settlement === 'average' }, t('average')))
    : null;
  const amountLabel = t(units === 'points' ? 'per_point' : 'per_chip', { currency: symbol });
  const feeLabel = t('fee', { currency: symbol });
  return {
    rows: [field(amountLabel, amount), field(feeLabel, fee), settlement && field(t('settling'), settlement)],
    value() {
      const per = parseAmount(amount.value, lang);
      const feeAmount = parseAmount(fee.value, lang);
      if (per === undefined) throw new Error(t('bad_amount', { field: amountLabel, example }));
      if (feeAmount === undefined) throw new Error(t('bad_amount', { field: feeLabel, example }));
      if (per === null && feeAmount === null) return null;
      const made = rateFromAmount(per || { digits: 0n, scale: 0 }, currency);
      const feeCents = feeAmount ? rateFromAmount(feeAmount, currency) : { cents: 0, per: 1 };
      if (!made || !feeCents || feeCents.per !== 1) throw new Error(t('bad_amount', { field: made ? feeLabel : amountLabel, example }));
      return { ...made, currency, table_fee_cents: feeCents.cents, ...(settlement ? { point_settlement: settlement.value } : {}) };
    },
  };
}

// --- starting a night ------------------------------------------------------------------------

function openSeasons(variant) {
  const today = new Date().toLocaleDateString('sv'); // YYYY-MM-DD, this device's day
  return state.seasons.filter((s) => s.variant === variant && (!s.starts_on || s.starts_on <= today) && (!s.ends_on || today <= s.ends_on));
}

function startForm() {
  const today = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'numeric', year: 'numeric' }).format(new Date());
  const name = h('input', { type: 'text', required: true, maxLength: 80, value: `${t('title')} ${today}` });
  const game = h('select', {}, state.variants.map((v) => h('option', { value: v.name }, v.title)));
  const active = state.players.filter((p) => !p.retired);
  const boxes = active.map((p) => h('input', { type: 'checkbox', value: p.id, name: 'present' }));
  const people = h('fieldset.players', {}, h('legend', {}, t('present')),
    active.map((p, i) => h('label.player', {}, boxes[i], h('span.name', {}, p.name))));
  const newcomers = h('textarea', { rows: 2 });
  const hands = h('input', { type: 'number', min: 1, max: 200, value: 8, inputMode: 'numeric' });
  const untilClosed = h('input', { type: 'checkbox', onchange: () => { hands.disabled = untilClosed.checked; } });
  const series = h('input', { type: 'number', min: 1, max: 20, value: 2, inputMode: 'numeric' });
  const season = h('select');
  const money = h('div.money');
  let rate = null;
  const follow = () => {
    const seasons = openSeasons(game.value);
    const chosen = seasons.length === 1 ? seasons[0].id : '';
    season.replaceChildren(h('option', { value: '' }, t('no_season')),
      ...state.seasons.filter((s) => s.variant === game.value)
        .map((s) => h('option', { value: s.id, selected: s.id === chosen }, s.name)));
    rate = rateFields(unitsOf(game.value), state.club.currency, null);
    money.replaceChildren(...rate.rows.filter(Boolean));
  };
  game.addEventListener('change', follow);
  follow();
  const form = h('form.card.start', {
    onsubmit: (event) => {
      event.preventDefault();
      let chosenRate;
      try {
        chosenRate = rate.value();
      } catch (error) {
        notifier()(error.message, 'error');
        return;
      }
      attempt(async (tell) => {
        const { data } = await call('POST', `/clubs/${encodeURIComponent(clubId)}/nights`, { body: {
          name: name.value.trim(),
          variant: game.value,
          players: boxes.filter((b) => b.checked).map((b) => b.value),
          new_players: newcomers.value.split('\n').map((line) => line.trim()).filter(Boolean),
          hands_per_series: untilClosed.checked ? null : Number(hands.value),
          series: Number(series.value),
          season_id: season.value || null,
          rate: chosenRate,
        } });
        tell('');
        location.hash = hashOf(data.id); // the hashchange shows the night
      }, null, submitter(event));
    },
  }, h('h2', {}, t('start')), field(t('name'), name), field(t('game'), game), people,
  field(t('new_players'), newcomers),
  h('div.row', {}, field(t('hands'), hands), h('label.check', {}, untilClosed, t('until_closed'))),
  field(t('series_count'), series), field(t('season'), season), money,
  h('button.primary', { type: 'submit' }, t('start_button')));
  return form;
}

async function nightList() {
  const { data } = await api(`/clubs/${encodeURIComponent(clubId)}/nights`);
  if (!data.length) return null;
  return h('section.card', {}, h('h2', {}, t('nights')), h('ul.nights', {}, data.map((n) => h('li', {},
    h('a', { href: `#${hashOf(n.id)}` }, n.name), ` · ${variantTitle(n.variant)} · ${t(n.status)}`))));
}

// --- a night ---------------------------------------------------------------------------------

function linkOf(path) {
  const sep = path.includes('?') ? '&' : '?';
  return `${path}${sep}lang=${lang}`;
}

function summary(night) {
  const units = unitsOf(night.variant);
  const season = state.seasons.find((s) => s.id === night.season_id);
  const drawn = night.series.length;
  const parts = [variantTitle(night.variant), t(night.status),
    drawn ? t('series_of', { number: drawn, planned: night.series_planned }) : t('no_series'),
    night.hands_per_series ? t('hands_each', { hands: night.hands_per_series }) : t('until_closed'),
    season ? season.name : t('no_season')];
  const rateLine = h('p.rate', {}, rateText(night.rate, units));
  const section = h('section.card.summary', {}, h('h2', {}, night.name), h('p.meta', {}, parts.join(' · ')), rateLine);
  const fields = rateFields(units, night.rate ? night.rate.currency : state.club.currency, night.rate);
  const form = h('form.rate-form', {
    onsubmit: (event) => {
      event.preventDefault();
      let rate;
      try {
        rate = fields.value();
      } catch (error) {
        notifier()(error.message, 'error');
        return;
      }
      attempt(async (tell) => {
        await call('PATCH', `/nights/${night.id}`, { body: { rate } });
        tell(t('rate_saved'));
        await showNight(night.id, true);
      }, null, submitter(event));
    },
  }, fields.rows.filter(Boolean), h('button', { type: 'submit' }, t('save_rate')));
  section.append(h('details', {}, h('summary', {}, t('change_rate')), form));
  return section;
}

function presence(night) {
  const known = new Map(night.players.map((p) => [p.player_id, p]));
  const others = state.players.filter((p) => !p.retired && !known.has(p.id));
  const rows = [...night.players.map((p) => ({ id: p.player_id, name: p.name, present: p.present, ofNight: true })),
    ...others.map((p) => ({ id: p.id, name: p.name, present: false, ofNight: false }))];
  const boxes = rows.map((r) => h('input', { type: 'checkbox', checked: r.present, value: r.id }));
  const newcomers = h('textarea', { rows: 2 });
  return h('form.card.presence', {
    onsubmit: (event) => {
      event.preventDefault();
      const arrived = rows.filter((r, i) => boxes[i].checked && !r.present).map((r) => r.id);
      const left = rows.filter((r, i) => !boxes[i].checked && r.present && r.ofNight).map((r) => r.id);
      const names = newcomers.value.split('\n').map((line) => line.trim()).filter(Boolean);
      attempt(async (tell) => {
        await call('PATCH', `/nights/${night.id}/presence`, { body: { arrived, left, new_players: names } });
        tell(t('presence_saved'));
        await showNight(night.id, true);
      }, null, submitter(event));
    },
  }, h('h2', {}, t('presence')), h('p.hint', {}, t('presence_hint')),
  h('div.players', {}, rows.map((r, i) => h('label.player', {}, boxes[i], h('span.name', {}, r.name)))),
  field(t('new_players'), newcomers), h('button', { type: 'submit' }, t('save_presence')));
}

function drawCard(night) {
  if (night.status !== 'open') return null;
  if (!night.next_series) return h('section.card', {}, h('p', {}, t('all_drawn')));
  const seed = h('input', { type: 'number', min: 0, inputMode: 'numeric' });
  const draw = (early, button) => attempt(async (tell) => {
    const body = { early, ...(seed.value === '' ? {} : { seed: Number(seed.value) }) };
    const { data } = await call('POST', `/nights/${night.id}/series`, { body });
    await makeLinks(night.id, data.number, false);
    tell(t('drawn', { number: data.number, seed: data.seed }));
    await showNight(night.id, true);
  }, (refusal) => {
    if (refusal.problem.type === 'urn:solo:problem:night-tables-pending') {
      notice.append(' ', h('button', { type: 'button', onclick: (event) => draw(true, event.currentTarget) }, t('end_anyway')));
    }
  }, button);
  return h('section.card.draw', {}, h('button.primary', { type: 'button', onclick: (event) => draw(false, event.currentTarget) },
    t('draw', { number: night.next_series })), h('details', {}, h('summary', {}, t('seed')), seed));
}

/** New links for the series' tables (the server's cards: link and QR code), kept on this device. */
async function makeLinks(nightId, number, renew) {
  const url = `/nights/${nightId}/cards/${number}?lang=${lang}${renew ? '&renew=1' : ''}`;
  const { data } = await call('POST', url, { page: true });
  try { localStorage.setItem(`${LINKS}${nightId}:${number}`, data); } catch { /* full: shown once */ }
}

function seriesCard(night, series) {
  const stored = localStorage.getItem(`${LINKS}${night.id}:${series.number}`);
  const open = series.tables.some((table) => table.status === 'open');
  const cards = h('div.cards-here');
  if (stored && open) cards.innerHTML = stored; // the server's own markup, every name escaped
  else {
    cards.append(h('ol.tables', {}, series.tables.map((table) => h('li', {},
      h('strong', {}, t('table', { number: table.number })), ' ',
      h('span.names', {}, table.seats.map((s) => (s.seat === table.first_dealer ? `${s.name} (${t('deals_first')})` : s.name)).join(', ')),
      ` · ${t('hands_played', { played: table.hands_played })}`))));
  }
  const screenToken = viewer || token;
  const actions = h('p.links', {},
    h('a', { href: `${linkOf(`/nights/${night.id}/cards?series=${series.number}`)}#token=${token}`, target: '_blank', rel: 'noopener' }, t('print')),
    ' · ',
    h('a', { href: `${linkOf(`/nights/${night.id}/screen`)}#token=${screenToken}`, target: '_blank', rel: 'noopener' }, t('screen')));
  const section = h('section.card.series', { 'data-series': series.number }, h('h2', {}, t('series', { number: series.number })),
    h('p.seed', {}, t('seed_shown', { seed: series.seed })), actions, cards);
  if (open && !stored) {
    section.append(h('button', { type: 'button', onclick: (event) => attempt(async (tell) => {
      await makeLinks(night.id, series.number, false);
      tell('');
      await showNight(night.id, true);
    }, (refusal) => {
      if (refusal.problem.type === 'urn:solo:problem:night-cards-in-use') {
        notice.append(' ', h('button', { type: 'button', onclick: (again) => attempt(async (tell) => {
          await makeLinks(night.id, series.number, true);
          tell('');
          await showNight(night.id, true);
        }, null, again.currentTarget) }, t('links_again')));
      }
    }, event.currentTarget) }, t('links')));
  }
  if (!viewer) section.append(h('p.hint', {}, t('screen_hint')));
  return section;
}

function standingsCard(board) {
  const night = board.night;
  const money = board.money;
  const head = [t('rank'), t('player'), ...night.series.map((s) => t('short_series', { number: s.number })), t('total'),
    ...(money ? [t('money')] : [])];
  const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');
  const rows = board.standings.map((line) => h('tr', {}, h('td', {}, String(line.rank)), h('td.name', {}, line.name),
    line.series.map((r) => h('td', {}, r ? signed(r.result) : '')), h('td', {}, h('strong', {}, signed(line.total))),
    money ? h('td.cents', {}, formatCents(line.cents, money.currency, lang, true)) : null));
  return h('section.card.standings', {}, h('h2', {}, t('standings')),
    h('div.scroll', {}, h('table', {}, h('thead', {}, h('tr', {}, head.map((x, i) => h(money && i === head.length - 1 ? 'th.cents' : 'th', {}, x)))), h('tbody', {}, rows))));
}

function moneyCard(money) {
  if (!money) return null;
  const who = (party) => (party.party === 'pool' ? t('pool') : party.name);
  const payments = money.transfers.length
    ? money.transfers.map((x) => h('li', {}, t('pays', { payer: who(x.from), payee: who(x.to), amount: formatCents(x.cents, money.currency, lang) })))
    : [h('li', {}, t('nobody_pays'))];
  const left = money.tables_left_out.map((x) => `${x.series}.${x.number}`).join(', ');
  const each = h('table.each', {}, h('tbody', {}, money.players.map((p) => h('tr', {},
    h('td.name', {}, p.name), h('td.cents', {}, formatCents(p.cents, money.currency, lang, true))))));
  return h('section.card.settle-up', {}, h('h2', {}, t('settle_up')), each, h('ul.payments', {}, payments),
    money.fees_cents ? h('p', {}, t('fees', { amount: formatCents(money.fees_cents, money.currency, lang) })) : null,
    left ? h('p.hint', {}, t('left_out', { tables: left })) : null,
    h('p.hint', {}, t('rounding')));
}

function closeCard(night) {
  if (night.status !== 'open') return h('section.card', {}, h('p', {}, t('closed_done')));
  const close = (early, button) => attempt(async (tell) => {
    await call('POST', `/nights/${night.id}/close`, { body: { early } });
    tell(t('closed_done'));
    await showNight(night.id, true);
  }, (refusal) => {
    if (refusal.problem.type === 'urn:solo:problem:night-tables-pending') {
      notice.append(' ', h('button', { type: 'button', onclick: (event) => close(true, event.currentTarget) }, t('close_anyway')));
    }
  }, button);
  return h('section.card.close', {}, h('button.danger', { type: 'button', onclick: (event) => close(false, event.currentTarget) }, t('close')));
}

let timer = null;

async function showNight(nightId, keepNotice = false) {
  clearTimeout(timer);
  const { data: night } = await api(`/nights/${nightId}`);
  const { data: board, etag } = await api(`/nights/${nightId}/standings`);
  state.night = night;
  state.etag = etag;
  if (!keepNotice) say('');
  const live = h('div.live', {}, standingsCard(board), moneyCard(board.money));
  content.replaceChildren(...[h('h1', {}, `${t('title')} · ${state.club.name}`), notice, summary(night),
    night.status === 'open' ? presence(night) : null, drawCard(night),
    ...[...night.series].reverse().map((s) => seriesCard(night, s)), live, closeCard(night),
    h('p', {}, h('a', { href: `#${hashOf(null)}` }, t('nights')))]
    .filter(Boolean));
  const follow = async () => {
    try {
      const answer = await api(`/nights/${nightId}/standings`, { etag: state.etag });
      if (answer.status !== 304 && state.night && state.night.id === nightId) {
        state.etag = answer.etag;
        live.replaceChildren(...[standingsCard(answer.data), moneyCard(answer.data.money)].filter(Boolean));
      }
    } catch { /* the next poll tries again */ }
    timer = setTimeout(follow, POLL_MS);
  };
  timer = setTimeout(follow, POLL_MS);
}

async function home() {
  clearTimeout(timer);
  state.night = null;
  const list = await nightList();
  content.replaceChildren(...[h('h1', {}, `${t('title')} · ${state.club.name}`), notice, startForm(), list].filter(Boolean));
}

/** The address's fragment for a night (null: the club's nights), keeping a token given there. */
function hashOf(nightId) {
  const given = new URLSearchParams(location.hash.slice(1)).get('token');
  const parts = [nightId ? `night=${nightId}` : 'nights', given ? `token=${given}` : null];
  return parts.filter(Boolean).join('&');
}

/** What the fragment asks for: a night, or the club's nights and a new one. */
function route() {
  const chosen = new URLSearchParams(location.hash.slice(1)).get('night');
  return chosen ? showNight(chosen) : home();
}

async function main() {
  if (!token) {
    content.replaceChildren(h('p.notice.error', { role: 'alert' }, t('no_token')), h('p', {}, h('a', { href: '/' }, t('to_pad'))));
    return;
  }
  const [club, players, seasons, variants] = await Promise.all([
    api(`/clubs/${encodeURIComponent(clubId)}`), api(`/clubs/${encodeURIComponent(clubId)}/players`),
    api(`/clubs/${encodeURIComponent(clubId)}/seasons`), api('/variants')]);
  state.club = club.data;
  state.players = players.data;
  state.seasons = seasons.data;
  state.variants = variants.data;
  window.addEventListener('hashchange', () => attempt(route));
  await route();
}

main().catch((error) => {
  content.replaceChildren(h('p.notice.error', { role: 'alert' }, error instanceof Problem ? error.lines().join(' ') : t('offline')),
    h('p', {}, h('a', { href: '/' }, t('to_pad'))));
});
