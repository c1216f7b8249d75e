// The table screen: seats with balances, pool, couleur, next dealer, stake; the hands waiting
// in the outbox (and any conflict, with both versions); the score sheet, each hand with Correct
// and Void; the chart. Drawn from the table and the screen's own state (`TableView`) each time
// anything changes: lit-html changes only what differs, so a poll never pulls a button from
// under a thumb.

import { api } from './api.js';
import { afterPaint, plain, signed, sr, suitLabel, toast } from './dom.js';
import { lang, t, tn, tx, num } from './i18n.js';
import { optionValues, playersOf } from './hand-fields.js';
import {
  contractTitle,
  countedContract,
  describeHand,
  kindTitle,
  shortHand,
  trumpOf,
} from './hand-words.js';
import { html, nothing, svg } from './lit-html.js';
import {
  couleurOf,
  couleurSettled,
  doubledWords,
  nextHand,
  seatName,
  sheetRows,
  shortName,
} from './model.js';
import { store } from './store.js';
import { discard, entriesFor, renumber } from './outbox.js';
import { directorCloses, seriesOver } from './series.js';

/** settlement.js and writes.js (an opened row's, a conflict's, a void's): after the first
 *  paint, not on the first screen. */
let rowParts = null;
let rowPartsLoading = null;
function loadRowParts() {
  rowPartsLoading ||= Promise.all([import('./settlement.js'), import('./writes.js')]).then(
    ([settlement, writes]) => (rowParts = { ...settlement, ...writes }),
    (error) => {
      rowPartsLoading = null; // asked again next time
      throw error;
    },
  );
  return rowPartsLoading;
}

export function nextNumber(ctx) {
  return nextHand(ctx, entriesFor(ctx.id)).number;
}

/** A due stake's amount: the option a state field names (`amount_option`). */
function stakeOf({ table, variant }) {
  const due = (variant.state_fields || []).find((f) => f.amount_option);
  return due ? (optionValues(variant, table.options)[due.amount_option] ?? '') : '';
}

/** Closed, or its session over: no next deal. */
const finished = (table) => table.status === 'closed' || !!(table.session && table.session.over);
const hasPool = (table) => table.pool !== null && table.pool !== undefined;
const signClass = (n) => (n > 0 ? 'plus' : n < 0 ? 'minus' : '');
const sendable = (ctx) => (ctx.table.status === 'closed' ? [] : entriesFor(ctx.id));

function facts(ctx) {
  const table = ctx.table;
  const done = finished(table) || seriesOver(ctx);
  const next = nextHand(ctx, sendable(ctx));
  const unknown = t('not known yet');
  // [the fact's English name (data-fact, for tests and styles), its label, its value]
  const items = [];
  if (hasPool(table)) items.push(['pool', t('Pool'), next.known ? num(table.pool) : unknown]);
  const couleur = couleurOf(ctx);
  if (couleur) {
    const known = next.known || couleurSettled(ctx);
    const doubled = doubledWords(ctx); // the couleur, or what the game calls it
    items.push([doubled.key, doubled.title, known ? suitLabel(couleur) : unknown]);
  }
  if (!done) items.push(['deals next', t('Deals next'), seatName(ctx, next.dealer)]);
  if (!done && next.stakeDue !== null && next.stakeDue !== undefined) {
    const due = { stake: stakeOf(ctx) };
    items.push(['stake', t('Stake'), next.stakeDue ? t('{stake} due', due) : t('paid (redeal)')]);
  }
  items.push(['hands', t('Hands'), num(table.hands_played)]);
  return html`<dl class="facts">
    ${items.map(
      ([k, label, value]) =>
        html`<div><dt>${label}</dt><dd class="fit" data-fact=${k}>${value}</dd></div>`,
    )}
  </dl>`;
}

/** A session at its end: who won ("Gewonnen hat …" fits anyone) and why (the service's reason
 *  names the players). */
function ended(ctx) {
  const table = ctx.table;
  const names = table.session.winners.map((i) => seatName(ctx, i));
  const all = new Intl.ListFormat(lang, { type: 'conjunction' }).format(names);
  const winners =
    names.length > 1 ? t('Winners: {names}', { names: all }) : t('Winner: {names}', { names: all });
  const reason = plain(table.session.reason);
  const closed = t('This table is closed: these are its final balances.');
  return html`<p class="notice ok" data-session="over">${names.length
      ? html`<strong>${winners}</strong> · `
      : nothing}${t('The session is over: {reason}', { reason })}${table.status === 'closed'
      ? ` ${closed}`
      : nothing}</p>`;
}

/** The unit of a table's balances, as a word ("chips", "points"). */
function unitWord(units) {
  return units === 'points' ? t('points') : t('chips');
}

function seats(ctx) {
  const table = ctx.table;
  const waiting = sendable(ctx).length;
  const dealer = finished(table) || seriesOver(ctx) ? null : table.dealer;
  const label = finished(table) ? t('Final balances') : t('Seats in playing order, with balances');
  const unit = ` ${unitWord(table.units)}`;
  const before = tn(
    waiting,
    'Balances before the {n} hand waiting to be sent.',
    'Balances before the {n} hands waiting to be sent.',
  );
  return html`<ol class="seats" aria-label=${label}>
      ${table.seats.map(
        (s) =>
          html`<li class=${s.seat === dealer ? 'seat dealer' : 'seat'} data-seat=${s.seat}
            ><span class="name fit">${s.name}</span>${s.seat === dealer
              ? html`<span class="tag">${t('deals')}</span>`
              : nothing}<span class=${`balance ${signClass(s.balance)}`}
              >${signed(s.balance)}${sr(unit)}</span
            ></li
          >`,
      )}
    </ol>
    ${waiting ? html`<p class="hint">${before}</p>` : nothing}`;
}

// --- the score sheet --------------------------------------------------------------------------
/** Initials ("AKB"), numbered where two are alike ("AKB1"). */
function initialsOf(ctx) {
  const initials = ctx.table.seats.map((s) => {
    const w = s.name
      .split(/[\s-]+/)
      .filter(Boolean)
      .map((x) => x.charAt(0).toUpperCase());
    return w.length > 3 ? `${w[0]}${w[1]}${w[w.length - 1]}` : w.join('');
  });
  return initials.map((x, i) => (initials.filter((y) => y === x).length > 1 ? `${x}${i + 1}` : x));
}

/** Column headers short enough for five seats on a phone: the first name, or initials. */
function headers(ctx) {
  const initials = initialsOf(ctx);
  return ctx.table.seats.map((s, i) => {
    const short = shortName(ctx, i);
    return short.length <= (ctx.table.seats.length > 4 ? 4 : 5) ? short : initials[i];
  });
}

/** Kept on the phone: newest or oldest first, balances shown. */
const sheetPrefs = () => store.pref('sheet', { oldestFirst: false, balances: false });

function sheet(ctx, view, app) {
  const table = ctx.table;
  const rows = sheetRows(ctx);
  if (!rows.length) return html`<p class="hint">${t('No hand yet.')}</p>`;
  const prefs = sheetPrefs();
  const heads = headers(ctx);
  const marks = initialsOf(ctx);
  const cols = table.seats.length + 1 + (hasPool(table) ? 1 : 0);
  const choose = (change) => {
    store.savePref('sheet', { ...prefs, ...change });
    app.update();
  };
  const toggle = async (number) => {
    await loadRowParts().catch(() => {}); // with its transfers
    const open = new Set(view.open);
    if (open.has(number)) open.delete(number);
    else open.add(number);
    app.setState({ open });
  };
  const tools = html`<div class="sheettools">
    <button
      type="button"
      class="small"
      aria-pressed=${String(!prefs.oldestFirst)}
      @click=${() => choose({ oldestFirst: !prefs.oldestFirst })}
    >${t('Newest first')}</button
    ><button
      type="button"
      class="small"
      aria-pressed=${String(prefs.balances)}
      @click=${() => choose({ balances: !prefs.balances })}
    >${t('Balances')}</button>
  </div>`;
  const head = html`<thead>
    <tr>
      <th class="hd" scope="col">${t('Hand')}</th>
      ${table.seats.map(
        (s, i) =>
          html`<th scope="col"><button
            type="button"
            class="link head fit"
            aria-label=${heads[i] === s.name ? nothing : `${heads[i]}: ${s.name}`}
            @click=${() => toast(s.name)}
          >${heads[i]}</button></th>`,
      )}
      ${hasPool(table) ? html`<th class="pool" scope="col">${t('Pool')}</th>` : nothing}
    </tr>
  </thead>`;
  const ordered = prefs.oldestFirst ? rows : rows.slice().reverse();
  const bodies = ordered.map(({ hand, deltas, balances, pool }) => {
    const isVoid = hand.status === 'void';
    const open = view.open.has(hand.number);
    const { who } = playersOf(ctx.variant, hand.hand || {});
    const dealt = t('{name} dealt', { name: shortName(ctx, hand.dealer) });
    const corrected = hand.revision > 1 ? ` (${t('corrected')})` : '';
    const line = shortHand(ctx, hand);
    const glyph = (cls, text) => html`<span class=${cls} aria-hidden="true">${text}</span>`;
    const what = html`<button
      type="button"
      class="what"
      aria-expanded=${String(open)}
      @click=${() => toggle(hand.number)}
    ><span class="no">${num(hand.number)}</span> ${glyph('glyph', handGlyph(ctx, hand))}${
      hand.revision > 1 ? glyph('fixed', '*') : nothing
    }${glyph('mark', marks[hand.dealer])}<span class="sr"> <span class="line">${line}</span>${
      corrected
    } · ${dealt}</span></button>`;
    const cells = balances.map(
      (b, i) => html`<td class=${i === who ? 'decl' : nothing}><span
          class=${`d ${signClass(deltas[i])}`}
        >${isVoid ? '0' : signed(deltas[i])}</span><span class="run" ?hidden=${!prefs.balances}
        >${signed(b)}</span></td>`,
    );
    return html`<tbody class=${isVoid ? 'hand void' : 'hand'} data-number=${hand.number}>
      <tr class="nums">
        <th scope="row">${what}</th>
        ${cells} ${hasPool(table) ? html`<td class="pool">${num(pool)}</td>` : nothing}
      </tr>
      <tr class="more" ?hidden=${!open}>
        <td colspan=${cols}>${open ? handDetails(ctx, view, app, hand) : nothing}</td>
      </tr>
    </tbody>`;
  });
  return html`${tools}
    <table class=${prefs.balances ? 'sheet withruns' : 'sheet'} data-seats=${table.seats.length}>
      <caption>${t('Each hand: what it moved')}</caption>
      ${head} ${bodies}
    </table>`;
}

/** "S♥", "ES♠": the initials of what the hand counted as (more letters where two are alike), the
 *  trump. */
function handGlyph(ctx, hand) {
  const r = hand.hand || {};
  const { variant } = ctx;
  const kinds = variant && variant.hand_kinds;
  const kind = kinds ? r.kind || kinds[0].name : null;
  if (kind && kind !== kinds[0].name) return `${kindTitle(variant, kind).slice(0, 3)}.`;
  const contract = countedContract(ctx, hand);
  const { field, symbol: trump } = trumpOf(variant, r);
  if (!contract) return trump || initials((field && field.none_title) || t('No trump'));
  const titles = ((variant && variant.contracts) || []).map((c) => contractTitle(variant, c.name));
  const mine = contractTitle(variant, contract);
  const tries = (x) => [initials(x), x.slice(0, 2), x.slice(0, 3)];
  const unlike = (a) => titles.filter((x) => x !== mine && tries(x).includes(a)).length === 0;
  return `${tries(mine).find(unlike) || mine}${trump}`;
}

const initials = (text) =>
  text
    .replace(/\(.*\)/, '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase())
    .join('');

function handDetails(ctx, view, app, hand) {
  const isVoid = hand.status === 'void';
  const s = hand.settlement;
  const dealt = { name: seatName(ctx, hand.dealer), revision: hand.revision };
  const about = { number: hand.number };
  const edit = `#table=${encodeURIComponent(ctx.id)}&go=edit&n=${hand.number}`;
  const voiding = view.voiding && view.voiding.number === hand.number ? view.voiding : null;
  return html`<div class="body">
    <p>${describeHand(ctx, hand.hand)}</p>
    <p class="hint">${hand.revision > 1
        ? t('Dealt by {name} · corrected (revision {revision})', dealt)
        : t('Dealt by {name}', dealt)}</p>
    ${s && !isVoid
      ? rowParts?.settlementView(ctx, s)
      : html`<p>${t('Void: this hand moves nothing.')}</p>`}
    <div class="buttons">
      <button type="button" class="small" @click=${() => app.go(edit)}
        >${t('Correct hand {number}', about)}</button
      >${isVoid
        ? html`<button type="button" class="small" @click=${() => restore(ctx, app, hand)}
            >${t('Restore hand {number}', about)}</button
          >`
        : html`<button type="button" class="small danger" @click=${() => askVoid(ctx, app, hand)}
            >${t('Void hand {number}', about)}</button
          >`}
    </div>
    ${voiding ? confirmVoid(ctx, app, hand, voiding) : nothing}
  </div>`;
}

// --- the chart --------------------------------------------------------------------------------
const W = 320;
const H = 160;
const PAD = { left: 30, right: 6, top: 8, bottom: 18 }; // room for the axes' values
const MARKS = '●■▲◆✕'; // each player's marker, also in the legend

const marker = (i, x, y) => svg`<text x=${x} y=${y} class="m">${MARKS[i % 5]}</text>`;

/** The balances over the evening, one line per player (drawn here): axis values, a colour, dash
 *  and marker per player as in the legend; lines on the same values drawn apart. */
function chart(ctx) {
  const rows = sheetRows(ctx);
  if (rows.length < 2) return nothing;
  const seatsCount = ctx.table.seats.length;
  const series = ctx.table.seats.map((_, i) => [0, ...rows.map((r) => r.balances[i])]);
  const all = series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const x = (k) => PAD.left + (k * (W - PAD.left - PAD.right)) / rows.length;
  const y = (b) => PAD.top + ((hi - b) * (H - PAD.top - PAD.bottom)) / (hi - lo || 1);
  const shift = (i) => (i - (seatsCount - 1) / 2) * 1.5;
  const last = rows[rows.length - 1];
  const count = rows.length;
  const balances = ctx.table.seats
    .map((s, i) => `${s.name} ${signed(last.balances[i])}`)
    .join(', ');
  const after = { number: last.hand.number, balances };
  const summary = t('Balances after hand {number}: {balances}.', after);
  const title = tn(
    count,
    'Chart of the balances over {n} hand. {summary}',
    'Chart of the balances over {n} hands. {summary}',
    { summary },
  );
  const titleId = `chart-${ctx.id}-t`;
  // A marker on every point, or every few on a long evening.
  const every = Math.ceil(rows.length / 24);
  const xs = [...new Set([0, Math.round(rows.length / 2), rows.length])];
  const ticks = [...new Set([lo, 0, hi])].map(
    (v) => svg`<g class=${v === 0 ? 'tick zero' : 'tick'}>
      <line x1=${PAD.left} x2=${W - PAD.right} y1=${y(v)} y2=${y(v)}></line>
      <text x=${PAD.left - 3} y=${y(v) + 3.5} text-anchor="end">${signed(v)}</text>
    </g>`,
  );
  const hands = xs.map(
    (k) => svg`<text class="tick" x=${x(k)} y=${H - 4} text-anchor=${k ? 'middle' : 'start'}
      >${k ? num(rows[k - 1].hand.number) : t('start')}</text>`,
  );
  const at = (i, b, k) => `${x(k).toFixed(1)},${(y(b) + shift(i)).toFixed(1)}`;
  const lines = series.map(
    (points, i) => svg`<g class=${`l${i}`}>
      <polyline class="l" points=${points.map((b, k) => at(i, b, k)).join(' ')}></polyline>
      ${points.map((b, k) => (k % every ? nothing : marker(i, x(k), y(b) + shift(i))))}
    </g>`,
  );
  const key = (i) => html`<svg class=${`key l${i}`} viewBox="0 0 28 10" aria-hidden="true">
    <line class="l" x1="0" x2="28" y1="5" y2="5"></line>${marker(i, 14, 5)}
  </svg>`;
  return html`<figure class="chartbox">
    <svg viewBox=${`0 0 ${W} ${H}`} class="balchart" role="img" aria-labelledby=${titleId}>
      <title id=${titleId}>${title}</title>
      ${ticks} ${hands} ${lines}
    </svg>
    <figcaption>
      <ul class="legend">
        ${ctx.table.seats.map((s, i) => html`<li>${key(i)}${s.name}</li>`)}
      </ul>
    </figcaption>
  </figure>`;
}

function outboxPanel(ctx, app) {
  const entries = entriesFor(ctx.id);
  if (!entries.length) return nothing;
  const card = (e) => {
    const what = describeHand(ctx, e.body);
    if (e.state === 'conflict') return conflictCard(ctx, app, e, what);
    if (e.state === 'failed') {
      const drop = () => {
        discard(e.key);
        app.update();
      };
      return html`<div class="card error" data-outbox=${e.number}>
        <h3>${t('Hand {number} was not recorded', { number: e.number })}</h3>
        <p>${what}</p>
        <ul>
          ${(e.problem || []).map((line) => html`<li>${line}</li>`)}
        </ul>
        <button type="button" @click=${drop}>${t('Drop this hand')}</button>
      </div>`;
    }
    const state = e.state === 'sending' ? t('sending…') : t('waiting to send (kept on this phone)');
    const parts = {
      hand: html`<strong>${t('Hand {number}', { number: e.number })}</strong>`,
      what,
      state: html`<em>${state}</em>`,
    };
    return html`<div class="card pending" data-outbox=${e.number}>${tx(
      '{hand} · {what} — {state}',
      parts,
    )}</div>`;
  };
  return html`<section class="outbox" aria-label=${t('Hands not yet recorded')} aria-live="polite">
    ${entries.map(card)}
  </section>`;
}

function conflictCard(ctx, app, e, mine) {
  const theirs = e.theirs || {};
  const next = Math.max(ctx.table.next_number, e.next || 0);
  const keepTheirs = () => {
    discard(e.key);
    app.update();
    toast(t('Your hand {number} was dropped.', { number: e.number }));
  };
  const advice = t(
    'If both describe the same deal, keep theirs. If yours is another deal, add it after.',
  );
  const addMine = () => {
    renumber(e.key, next);
    app.flush();
  };
  return html`<div class="card conflict" role="alert" data-outbox=${e.number}>
    <h3>${t('Hand {number} was recorded on another phone', { number: e.number })}</h3>
    <div class="versions">
      <div>
        <h4>${t('Recorded (theirs)')}</h4>
        <p class="theirs">${describeHand(ctx, theirs.hand)}</p>
        ${theirs.settlement && rowParts
          ? html`<p class="hint">${rowParts.summaryLine(ctx, theirs.settlement)}</p>`
          : nothing}
      </div>
      <div>
        <h4>${t('Yours (not recorded)')}</h4>
        <p class="mine">${mine}</p>
      </div>
    </div>
    <p>${advice}</p>
    <div class="buttons">
      <button type="button" @click=${keepTheirs}>${t('Keep theirs, drop mine')}</button
      ><button type="button" @click=${addMine}
        >${t('Add mine as hand {number}', { number: next })}</button
      >
    </div>
  </div>`;
}

/** Void a hand: ask the service what the table becomes (a dry run), then confirm. The answer
 *  goes to the screen's state (`voiding`); the question takes the focus. */
async function askVoid(ctx, app, hand) {
  app.setState({ voiding: { number: hand.number, answer: null } });
  document.querySelector('.confirm button:not([disabled])')?.focus();
  const { tableAfter, writeToken } = await loadRowParts();
  const dryRun = () =>
    api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version, true);
  const answer = await tableAfter(ctx, dryRun);
  const { voiding } = app.state();
  if (voiding && voiding.number === hand.number) app.setState({ voiding: { ...voiding, answer } });
}

function confirmVoid(ctx, app, hand, voiding) {
  const about = { number: hand.number };
  const question = t('Void hand {number}?', about);
  const { answer } = voiding;
  const ready = !!(answer && answer.table) && !voiding.sending;
  const yes = async () => {
    app.setState({ voiding: { ...voiding, sending: true } });
    const { write, writeToken } = await loadRowParts();
    const request = () => api.voidHand(ctx.id, writeToken(ctx), hand.number, ctx.table.version);
    if (!(await write(ctx, app, request, t('Hand {number} is void', about)))) {
      app.setState({ voiding: { ...voiding, sending: false } });
    }
  };
  return html`<div class="confirm" role="region" aria-label=${question}>
    <h4>${question}</h4>
    <p>${describeHand(ctx, hand.hand)}</p>
    <div>
      ${rowParts?.tableAfterView(ctx, answer)}
      ${answer && answer.table ? dealerMoves(ctx, hand, answer.table) : nothing}
    </div>
    <div class="buttons">
      <button type="button" class="danger" ?disabled=${!ready} @click=${yes}
        >${t('Yes, void hand {number}', about)}</button
      ><button type="button" @click=${() => app.setState({ voiding: null })}
        >${t('Keep it')}</button>
    </div>
  </div>`;
}

/** The later hands whose dealer a void moves (a void hand passes no deal: each later one moves
 *  back as far as this one passed it), and the next dealer (the service's answer). */
function dealerMoves(ctx, hand, after) {
  const n = ctx.table.seats.length;
  const passed = hand.settlement ? (hand.settlement.next_dealer - hand.dealer + n) % n : 0;
  const moved = (seat) => (seat - passed + n) % n;
  const lines = ctx.hands
    .filter((x) => x.number > hand.number && passed)
    .map((x) =>
      t('Hand {number}: {before} → {after}', {
        number: x.number,
        before: seatName(ctx, x.dealer),
        after: seatName(ctx, moved(x.dealer)),
      }),
    );
  if (after.dealer !== ctx.table.dealer) {
    const names = { before: seatName(ctx, ctx.table.dealer), after: seatName(ctx, after.dealer) };
    lines.push(t('Next hand: {before} → {after}', names));
  }
  if (!lines.length) return nothing;
  return html`<p><strong>${t('Dealt by another player then:')}</strong></p>
    <ul class="moves">
      ${lines.map((x) => html`<li>${x}</li>`)}
    </ul>`;
}

async function restore(ctx, app, hand) {
  const { write, writeToken } = await loadRowParts();
  const request = () =>
    api.correct(ctx.id, writeToken(ctx), hand.number, hand.hand, ctx.table.version);
  await write(ctx, app, request, t('Hand {number} is restored', { number: hand.number }));
}

/** A club night's table: its series' words (`view.seriesView`, series-view.js, imported once)
 *  and the night, read again whenever the table changes (a hand, the director's lengthening, the
 *  next draw closing this table): `view.night`. Offline, or for a table of its own: nothing. */
function loadNight(ctx, view, app) {
  const table = ctx.table;
  if (!table.night_id) return;
  if (!view.seriesView) {
    import('./series-view.js').then(
      (seriesView) => app.setState({ seriesView }),
      () => {},
    );
  }
  if (view.nightFor !== table.version) {
    view.nightFor = table.version;
    api.night(table.night_id, ctx.token || ctx.adminToken).then(
      ({ data }) => {
        app.setState({ night: data });
        loadResult(ctx, view, app);
      },
      () => {},
    );
  }
  loadResult(ctx, view, app);
}

/** A tournament's table at its series' end: the result's panel (result-panel.js, imported
 *  then: no other table loads it) and its read, made again when the table or its result
 *  changes. */
function loadResult(ctx, view, app) {
  const over = ctx.table.status === 'closed' || seriesOver(ctx);
  if (!view.night || !view.night.tournament_id || !over) return;
  import('./result-panel.js').then(
    (resultPanel) => resultPanel.load(ctx, view, app),
    () => {},
  );
}

/** The printed settle-up: read once per version of the table, with its view
 *  (`view.settleUpView`, settle-up-view.js; offline: printed without it); a club night's table
 *  reads its night too (its series, the next draw). Both once the table is painted: the first
 *  screen waits for nothing it does not show. */
export function loadTable(ctx, view, app) {
  afterPaint(() => {
    // A conflict shows their hand's settlement: drawn again then.
    if (!rowParts) loadRowParts().then(() => app.update(), () => {});
    loadNight(ctx, view, app);
    if (view.printedFor === ctx.table.version) return;
    view.printedFor = ctx.table.version;
    const read = api.settleUp(ctx.id, ctx.token || ctx.adminToken);
    Promise.all([read, import('./settle-up-view.js')]).then(
      ([{ data }, { settleUpView }]) => app.setState({ printed: data, settleUpView }),
      () => {},
    );
  });
}

/** The table screen, from the table (`ctx`) and the screen's state (`view`: the open rows of
 *  the sheet, the notice of the last correction, a void being asked, the printed settle-up). */
/** "Amerikanisches Solo · Serie 1: Spiel 2 von 6": the series' part kept on one line, so a
 *  narrow phone breaks the line before it, never inside the count ("Spiel 2 von / 6"). */
function seriesHint(about, series, clock) {
  const mark = '\u0000'; // where the series goes in the language's order
  const [before, after = ''] = t('{game} · {series}', { ...about, series: mark }).split(mark);
  // The clock on a line of its own where the width needs it, never broken inside.
  const time = clock ? html` · <span class="series-line">${clock}</span>` : nothing;
  return html`${before}<span class="series-line">${series}</span>${after}${time}`;
}

export function tableView(ctx, view, app) {
  const table = ctx.table;
  const base = `#table=${encodeURIComponent(ctx.id)}`;
  const about = { game: ctx.variant ? ctx.variant.title : table.variant, number: nextNumber(ctx) };
  const over = table.session && table.session.over;
  const closed = t('This table is closed: these are its final balances.');
  // A night's table: its series' words, once series-view.js is loaded (series.js).
  const seriesView = view.seriesView;
  const end = seriesView ? seriesView.seriesEnd(ctx, view.night) : nothing;
  const next = over
    ? ended(ctx)
    : end !== nothing
      ? end
      : table.status === 'closed'
        ? html`<p class="notice">${closed}</p>`
        : seriesOver(ctx)
          ? html`<p class="notice" data-series="over">${t(
              'The series is over: the night’s director may lengthen it.',
            )}</p>`
          : html`<a class="button primary big" href=${`${base}&go=new`} id="new-hand"
              >${t('New hand {number}', { number: nextNumber(ctx) })}</a
            >`;
  const result = view.resultPanel ? view.resultPanel.panel(ctx, view, app) : nothing;
  const series = seriesView ? seriesView.seriesLine(ctx, view.night) : null;
  const clock = seriesView ? seriesView.seriesClock(ctx) : null;
  const hint =
    table.status === 'closed'
      ? t('{game} · closed', about)
      : finished(table) || seriesOver(ctx)
        ? t('{game} · over', about)
        : series
          ? seriesHint(about, series, clock)
          : t('{game} · next: hand {number}', about);
  const link = (go, text) => html`<a class="button" href=${`${base}&go=${go}`}>${text}</a>`;
  const settle =
    table.status === 'closed'
      ? t('Settle-up')
      : directorCloses(ctx)
        ? t('Settle up')
        : t('Settle up / close');
  // What the last correction did: shown until the screen changes.
  const { notice: said } = view;
  const notice = said ? html`<p class="notice ok" role="status">${said}</p>` : nothing;
  return html`<div class="screen table">
    <div class="titlebar">
      <h1>${table.name}</h1>
      <p class="hint" data-series=${series ? 'line' : nothing}>${hint}</p>
    </div>
    <div>${notice}</div>
    <div class="cols">
      <div class="col">
        ${seats(ctx)} ${facts(ctx)} ${next} ${result}
        <nav class="actions" aria-label=${t('Table')}>
          ${link('share', t('Share'))}${link('settle', settle)}${link(
            'seating',
            t('Seating'),
          )}<button
            type="button"
            @click=${() => window.print()}
          >${t('Print')}</button
          ><a class="button" href="#">${t('All tables')}</a>
        </nav>
      </div>
      <div class="col">
        <div>${outboxPanel(ctx, app)}</div>
        <h2>${t('Score sheet')}</h2>
        <div>${sheet(ctx, view, app)} ${chart(ctx)}</div>
        <div>
          <section class="printonly">${view.printed
              ? html`<h2>${t('Settle-up')}</h2>${view.settleUpView(ctx, view.printed)}`
              : nothing}</section>
        </div>
      </div>
    </div>
  </div>`;
}
