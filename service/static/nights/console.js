// The director's console of an open tournament (docs/tournaments.md, getTournamentConsole):
// every table of the series drawn last on one screen, what needs the director first, as the
// service sorts them (disputed, to be confirmed, no hand lately, playing, confirmed): each
// table's hands of the series', its last hand's time, its phones connected, its confirmations
// and its open disputes. A table opens to its seats, its disputes (the hand as recorded and as
// the service settled it; corrected, voided or rejected by the director) and the director's
// own confirmation. Below the tables, a move or a substitute between series (seatEntrant).
//
// Part of the director's screen (tournament.js), drawn into it with its state, requests and
// notices; its words are the screen's (the service's catalogs). The game's words (a hand's
// fields, its contracts, its choices) are the game's own, from GET /variants.

import { html, nothing } from '../pad/lit-html.js';
import { lang, t, tn } from '../pad/i18n.js';
import { field } from '../pad/club-shared.js';
import { signed } from '../pad/dom.js';
import { NONE, forTable, formFields, isShown, optionValues, recordOf, valuesFrom }
  from '../pad/hand-fields.js';

/** The states that need the director, the service's order (rules/tournament_results.py). */
const NEEDS = ['disputed', 'unconfirmed', 'stale'];
const STATES = [...NEEDS, 'playing', 'confirmed'];
export const CONSOLE_MS = 5000;

/** The console of the screen `s` (tournament.js's state, requests and notices).
 * @param {any} s */
export function consoleOf(s) {
  const { state, call, draw, busy, attempt, askFirst, noticeAt } = s;
  state.console = { data: null, etag: null, filter: 'needs', open: null, hands: new Map(),
    editing: null, form: null };
  const c = state.console;

  const stateWords = () => ({ disputed: t('Disputed'), unconfirmed: t('To be confirmed'),
    stale: t('No hand lately'), playing: t('Playing'), confirmed: t('Confirmed') });

  /** "vor 4 Min.", "hace 4 min", "4 min. ago": the language's own way (Intl). */
  function ago(iso) {
    const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
    const words = new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: 'short' });
    return minutes < 60 ? words.format(-minutes, 'minute')
      : words.format(-Math.floor(minutes / 60), 'hour');
  }

  /** The console read again (a 304 keeps what is shown); `fresh`: without the ETag. */
  async function load(id, fresh = false) {
    const answer = await call('GET', `/tournaments/${id}/console`,
      { etag: fresh ? null : c.etag });
    if (answer.status !== 304) Object.assign(c, { data: answer.data, etag: answer.etag });
    draw();
  }

  // --- a table's facts --------------------------------------------------------------------------

  function facts(table) {
    const director = table.confirmations.includes(null);
    const given = table.confirmations.filter((seat) => seat !== null).length;
    const open = table.disputes.filter((d) => d.status === 'open').length;
    return [
      table.hands_limit ? t('Hands {played}/{limit}', { played: table.hands_played,
        limit: table.hands_limit }) : t('Hands {played}', { played: table.hands_played }),
      table.last_hand_at ? t('Last hand {when}', { when: ago(table.last_hand_at) })
        : t('No hand yet'),
      table.phones === null ? null : tn(table.phones, '{count} phone connected',
        '{count} phones connected', { count: table.phones }),
      director ? t('Confirmed by the director')
        : t('Confirmations {given}/{needed}', { given, needed: table.confirmations_needed }),
      open ? tn(open, '{count} open dispute', '{count} open disputes', { count: open }) : null,
    ].filter(Boolean);
  }

  const seatName = (table, seat) => {
    const found = table.seats.find((x) => x.seat === seat);
    return found ? found.name : t('Seat {number}', { number: seat + 1 });
  };

  // --- a disputed hand: as recorded, as settled, and its correction ----------------------------

  const variantOf = () => {
    const named = state.variants.find((v) => v.name === state.tournament.variant);
    return forTable(named, state.tournament.options);
  };

  /** A field's value in the game's words: a seat by its name, a contract or choice by its
   * title, a yes or no, a card as its rank and suit. */
  function valueWords(variant, table, f, value) {
    if (value === null || value === undefined) return '—';
    if (f.widget === 'seat') return seatName(table, value);
    if (f.widget === 'contract') {
      const found = (variant.contracts || []).find((x) => x.name === value);
      return found ? found.title : value;
    }
    if (f.widget === 'kind') {
      const found = (variant.hand_kinds || []).find((x) => x.name === value);
      return found && found.title ? found.title : value;
    }
    if (typeof value === 'boolean') return value ? t('yes') : t('no');
    if (typeof value === 'string') return choiceTitle(variant, f, value);
    if (Array.isArray(value)) return value.map((v) => JSON.stringify(v)).join(', ') || '—';
    if (typeof value === 'object') return Object.values(value).join(' ');
    return String(value);
  }

  /** A choice's title: the field's own choices, else an option's of the game with that value
   * (the suits: the couleur's choices), else the value. */
  function choiceTitle(variant, f, value) {
    const lists = [f.field.choices, ...(variant.options || []).map((o) => o.choices)];
    for (const list of lists) {
      const found = (list || []).find((x) => x.value === value);
      if (found) return found.title;
    }
    return value;
  }

  async function showHand(table, dispute) {
    await attempt(`dispute:${dispute.id}`, async () => {
      const { data } = await call('GET', `/tables/${table.table_id}/hands/${dispute.hand}`);
      c.hands.set(dispute.id, data);
    });
  }

  function handView(table, dispute) {
    const hand = c.hands.get(dispute.id);
    if (!hand) return nothing;
    const variant = variantOf();
    // The fields the record gives (an empty one, a call or errors that are not there, left out).
    const given = (value) => value !== undefined && value !== null
      && !(Array.isArray(value) && !value.length);
    const shown = formFields(variant).filter((f) => given(hand.hand[f.name]));
    const record = shown.map((f) => html`<li><span class="field">${f.title}:</span> ${
      valueWords(variant, table, f, hand.hand[f.name])}</li>`);
    const settled = hand.settlement;
    const deltas = settled ? settled.deltas.map((delta, seat) => html`<li>${
      seatName(table, seat)} <strong>${signed(delta)}</strong></li>`) : [];
    return html`<div class="hand"><h2>${t('Hand {number} as recorded', { number: hand.number })}${
      hand.status === 'void' ? html` <span class="tag">${t('void')}</span>` : nothing}</h2>
      <ul class="record">${record}</ul>${settled ? html`<h2>${t('As the service settled it')}</h2>
      <ul class="explanation">${settled.explanation.map((line) => html`<li>${line}</li>`)}</ul>
      <ul class="deltas">${deltas}</ul>` : nothing}</div>`;
  }

  async function startCorrection(table, dispute) {
    if (!c.hands.has(dispute.id)) await showHand(table, dispute);
    const hand = c.hands.get(dispute.id);
    if (!hand) return;
    const variant = variantOf();
    const fields = formFields(variant);
    c.editing = dispute.id;
    c.form = { variant, fields, values: valuesFrom(variant, fields, hand.hand),
      players: table.seats.length, options: optionValues(variant, state.tournament.options) };
    draw();
  }

  /** One field of the correction: a choice, a seat, a number, a yes/no; what the form cannot
   * edit (a card, the matadores, the errors) stays as recorded and is said so. */
  function fieldControl(table, f) {
    const { form } = c;
    const id = `fix-${f.name}`;
    const value = form.values[f.name];
    const set = (made) => (event) => {
      form.values[f.name] = made(event.currentTarget);
      draw();
    };
    if (['kind', 'contract', 'choice', 'suit', 'seat'].includes(f.widget)) {
      let choices;
      if (f.widget === 'seat') choices = table.seats.map((x) => [x.seat, x.name]);
      else if (f.widget === 'contract') {
        choices = form.variant.contracts.map((x) => [x.name, x.title]);
      }
      else {
        choices = (f.field.allowed || []).map((v) => [v, f.widget === 'kind'
          ? valueWords(form.variant, table, f, v) : choiceTitle(form.variant, f, v)]);
      }
      const empty = f.widget === 'seat' || f.field.nullable ? html`<option value=""
        ?selected=${value === null || value === NONE}>—</option>` : nothing;
      const read = (select) => (select.value === '' ? (f.widget === 'seat' ? null : NONE)
        : f.widget === 'seat' ? Number(select.value) : select.value);
      return field(id, f.title, html`<select id=${id} @change=${set(read)}>${empty}${
        choices.map(([v, words]) => html`<option value=${v} ?selected=${v === value}>${words}
        </option>`)}</select>`);
    }
    if (f.widget === 'count' || f.widget === 'points') {
      return field(id, f.title, html`<input id=${id} type="number" inputmode="numeric"
        min=${f.field.min ?? ''} max=${f.field.max ?? ''}
        .value=${value === null ? '' : String(value)}
        @change=${set((input) => (input.value === '' ? null : Number(input.value)))}>`);
    }
    if (f.widget === 'yesno' || f.widget === 'flag') {
      return html`<label class="check"><input type="checkbox" .checked=${value === true}
        @change=${set((input) => input.checked)}>${f.title}</label>`;
    }
    return html`<p class="hint">${t('{field}: as recorded ({value})', { field: f.title,
      value: valueWords(form.variant, table, f, recordOf(form)[f.name]) })}</p>`;
  }

  function correctionForm(table, dispute) {
    if (c.editing !== dispute.id || !c.form) return nothing;
    const key = `dispute:${dispute.id}`;
    const shown = c.form.fields.filter((f) => f.widget !== 'kind' || f.field.allowed.length > 1)
      .filter((f) => isShown(f, c.form));
    const save = (event) => {
      event.preventDefault();
      resolve(table, dispute, { outcome: 'corrected', hand: recordOf(c.form) },
        t('Hand {hand} corrected: the table confirms its result again.', { hand: dispute.hand }));
    };
    const cancel = () => {
      c.editing = null;
      draw();
    };
    return html`<form class="correction" @submit=${save}><h2>${t('Correct hand {hand}',
      { hand: dispute.hand })}</h2>${shown.map((f) => fieldControl(table, f))}<p><button
      class="primary" type="submit" ?disabled=${busy(key)}>${t('Save the correction')}</button>
      <button type="button" @click=${cancel}>${t('Not yet')}</button></p></form>`;
  }

  /** The dispute resolved as `body` says; what it did is said at the table (the dispute's own
   * place is gone with it). */
  function resolve(table, dispute, body, said) {
    return attempt(`dispute:${dispute.id}`, async () => {
      await call('POST', `/tournaments/${state.tournament.id}/disputes/${dispute.id}/resolution`,
        { body });
      c.editing = null;
      c.hands.delete(dispute.id);
      await load(state.tournament.id, true);
      s.notifier(`table:${table.table_id}`)(said);
    });
  }

  function disputeView(table, dispute) {
    const key = `dispute:${dispute.id}`;
    const button = (label, run, kind = '') => html`<button type="button" class=${kind}
      ?disabled=${busy(key)} @click=${run}>${label}</button>`;
    const voidIt = () => askFirst(key, t('Void hand {hand}? Every later hand is settled again.',
      { hand: dispute.hand }), t('Void hand {hand}', { hand: dispute.hand }), () => resolve(table,
      dispute, { outcome: 'voided' }, t('Hand {hand} voided: the table confirms its result again.',
        { hand: dispute.hand })));
    const reject = () => resolve(table, dispute, { outcome: 'rejected' },
      t('Dispute rejected: hand {hand} stands.', { hand: dispute.hand }));
    return html`<div class="dispute" data-dispute=${dispute.id}><p>${t(
      'Hand {hand}, disputed by {name}: “{reason}”', { hand: dispute.hand,
        name: seatName(table, dispute.seat), reason: dispute.reason })}</p><p class="actions">${
      button(t('See the hand'), () => showHand(table, dispute))}${
      button(t('Correct hand {hand}', { hand: dispute.hand }),
        () => startCorrection(table, dispute), 'primary')}${
      button(t('Void hand {hand}', { hand: dispute.hand }), voidIt, 'danger')}${
      button(t('Reject the dispute'), reject)}</p>${noticeAt(key)}${handView(table, dispute)}${
      correctionForm(table, dispute)}</div>`;
  }

  function confirmButton(table) {
    if (table.confirmed || table.state !== 'unconfirmed') return nothing;
    const key = `table:${table.table_id}`;
    const run = () => attempt(key, async (tell) => {
      await call('POST', `/tournaments/${state.tournament.id}/tables/${table.table_id}/`
        + 'confirmations', { body: {} });
      await load(state.tournament.id, true);
      tell(t('Table {number} confirmed by the director.', { number: table.number }));
    });
    return html`<p><button type="button" class="primary" ?disabled=${busy(key)} @click=${run}>${
      t('Confirm the result as the director')}</button></p>`;
  }

  function tableView(table) {
    const words = stateWords();
    const toggle = (event) => {
      const opened = event.currentTarget.open;
      if (opened) c.open = table.table_id;
      else if (c.open === table.table_id) c.open = null;
    };
    const confirmedBy = new Set(table.confirmations);
    const seats = table.seats.map((x) => html`<li>${x.name}${x.seat === 0 ? html` <span
      class="hint">(${t('keeps the list')})</span>` : nothing}${confirmedBy.has(x.seat)
      ? html` <span class="tag">${t('confirmed')}</span>` : nothing}</li>`);
    const open = table.disputes.filter((d) => d.status === 'open');
    return html`<li class="desk ${table.state}" data-table=${table.number}><details
      ?open=${c.open === table.table_id} @toggle=${toggle}><summary><span class="number">${
      t('Table {number}', { number: table.number })}</span><span class="tag state">${
      words[table.state]}</span><span class="facts">${facts(table).join(' · ')}</span></summary>
      <ol class="seats">${seats}</ol>${open.map((d) => disputeView(table, d))}${
      confirmButton(table)}</details>${noticeAt(`table:${table.table_id}`)}</li>`;
  }

  // --- a move or a substitute between series ---------------------------------------------------

  function seatingCard(x, data) {
    const seatOf = new Map();
    for (const table of data.tables) {
      for (const seat of table.seats) seatOf.set(seat.player_id, [table.number, seat.seat]);
    }
    const choices = state.entrants.filter((e) => e.status !== 'withdrawn').map((e) => {
      const at = seatOf.get(e.player_id);
      const where = at ? t('table {table}, seat {seat}', { table: at[0], seat: at[1] + 1 })
        : s.tagOf(e);
      return html`<option value=${e.id}>${e.name} (${where})</option>`;
    });
    const most = Math.max(...x.table_sizes);
    const submit = (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      const value = (name) => form.elements.namedItem(name).value;
      const entrant = state.entrants.find((e) => e.id === value('entrant'));
      const body = { entrant_id: value('entrant'), table: Number(value('table')),
        seat: Number(value('seat')) };
      attempt('seating', async (tell) => {
        const { data: made } = await call('POST', `/tournaments/${x.id}/seats`, { body });
        c.data = made;
        await s.reload();
        tell(t('{name} sits at table {table}, seat {seat}.', { name: entrant ? entrant.name : '',
          table: body.table, seat: body.seat + 1 }));
      });
    };
    const words = { title: t('Move a player or seat a substitute'),
      hint: t('Before a table’s first hand: a player moved swaps seats with the one sitting '
        + 'there; a registered player takes the seat of one who withdrew.'),
      player: t('Player'), choose: t('Choose a player'), table: t('Table'), seat: t('Seat'),
      go: t('Seat here') };
    const tables = data.tables.map((table) => table.number).sort((a, b) => a - b)
      .map((n) => [n, t('Table {number}', { number: n })]);
    const seats = Array.from({ length: most }, (_, i) => [i, t('Seat {number}',
      { number: i + 1 })]);
    const options = (list) => list.map(([v, label]) => html`<option value=${v}>${label}</option>`);
    return html`<section class="card seating"><h2>${words.title}</h2><p class="hint">${
      words.hint}</p><form @submit=${submit}>${field('seat-entrant', words.player, html`<select
      id="seat-entrant" name="entrant" required><option value="">${words.choose}</option>${
      choices}</select>`)}<div class="row">${field('seat-table', words.table, html`<select
      id="seat-table" name="table">${options(tables)}</select>`)}${field('seat-seat', words.seat,
      html`<select id="seat-seat" name="seat">${options(seats)}</select>`)}</div><button
      class="primary" type="submit" ?disabled=${busy('seating')}>${words.go}</button>${
      noticeAt('seating')}</form></section>`;
  }

  // --- the console ------------------------------------------------------------------------------

  function view(x) {
    const data = c.data;
    const heading = html`<h1>${t('Console · {name}', { name: x.name })}</h1>`;
    if (!data || data.series === null) {
      return html`<div class="console">${heading}<p>${t('No series drawn yet.')}</p></div>`;
    }
    const words = stateWords();
    const needing = NEEDS.reduce((sum, name) => sum + data.counts[name], 0);
    const shown = c.filter === 'all' ? data.tables
      : data.tables.filter((table) => NEEDS.includes(table.state));
    const choose = (filter) => () => {
      c.filter = filter;
      draw();
    };
    const filters = [['needs', t('Needs the director ({count})', { count: needing })],
      ['all', t('All tables ({count})', { count: data.tables.length })]]
      .map(([name, label]) => html`<button type="button" class="filter"
        aria-pressed=${c.filter === name ? 'true' : 'false'} @click=${choose(name)}>${label}
        </button>`);
    // What an action at a table said, at the top when the table has left the list shown (a
    // table confirmed is no longer one that needs the director).
    const said = state.notice.at || '';
    const gone = said.startsWith('table:')
      && !shown.some((table) => `table:${table.table_id}` === said) ? noticeAt(said) : nothing;
    // Each count whole on its line ("Zu bestätigen: 1" never broken).
    const counts = STATES.filter((name) => data.counts[name]).map((name) => html` · <span
      class="count">${words[name]}: ${data.counts[name]}</span>`);
    return html`<div class="console">${heading}<p class="meta">${t('Series {number}',
      { number: data.series })}${counts}</p><div class="filters" role="group"
      aria-label=${t('Tables')}>${filters}</div>${gone}${shown.length ? html`<ol class="desks">${
      shown.map(tableView)}</ol>` : html`<p class="hint">${
      t('No table needs the director now.')}</p>`}
      ${seatingCard(x, data)}</div>`;
  }

  return { view, load };
}
