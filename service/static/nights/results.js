// A tournament's public results, followed live from home (no token): the standings per series
// and in total, each table's progress in the current series and, if the director shows them,
// the prizes. It asks for the results (`getPublicResults`, body.dataset.results) every
// `data-every` seconds with If-None-Match: a 304 while nothing changed, which the shipped
// nginx answers from its copy of the last second (docs/scaling.md), so that however many
// follow, the service makes the results about once a second.
//
// Drawn with lit-html from the answer, worded with the pad's i18n from the words the server
// gave in the page's language (data-words); every name is put in as text.

import { html, nothing, render } from '../pad/lit-html.js';
import { lang, t, tn } from '../pad/i18n.js';
import { signed } from '../pad/dom.js';

const body = document.body;
const content = document.getElementById('content');
const every = Number(body.dataset.every || '1') * 1000;
const NOT_SHOWN_EVERY = 30000; // unpublished: asked again now and then, it may come back
let etag = null;
let results = null;
let problem = '';
let timeFormat = null;
let moneyFormat = null;

function clock(iso) {
  if (!iso) return '';
  timeFormat ||= new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' });
  return timeFormat.format(new Date(iso));
}

function money(cents, currency) {
  moneyFormat ||= new Intl.NumberFormat(lang, { style: 'currency', currency });
  return moneyFormat.format(cents / 100);
}

function progress(r) {
  if (r.status === 'closed') return t('The tournament is over: final standings.');
  if (!r.series_drawn) return t('Waiting for the first draw.');
  return t('Series {number} of {planned}', { number: r.series_drawn, planned: r.series_planned });
}

function standings(r) {
  const series = Array.from({ length: r.series_drawn }, (_, i) => i + 1);
  const prizes = Boolean(r.prizes);
  return html`<section class="standings-part">
    <h2>${t('Standings')}</h2>
    <table class="standings">
      <thead><tr>
        <th>${t('Rank')}</th><th>${t('Player')}</th>
        ${series.map((number) => html`<th>${t('S{number}', { number })}</th>`)}
        <th>${t('Total')}</th>${prizes ? html`<th>${t('Prize')}</th>` : nothing}
      </tr></thead>
      <tbody>${r.standings.map((line) => html`<tr class=${line.withdrawn ? 'withdrawn' : ''}>
        <td>${line.rank}</td>
        <td class="name">${line.name}${line.withdrawn
          ? html` <span class="note">(${t('withdrawn')})</span>` : nothing}</td>
        ${series.map((_, i) => html`<td>${line.series[i] === null ? '' : signed(line.series[i])}</td>`)}
        <td><strong>${signed(line.total)}</strong></td>
        ${prizes ? html`<td>${line.prize_cents ? money(line.prize_cents, r.prizes.currency) : ''}</td>`
          : nothing}
      </tr>`)}</tbody>
    </table>
  </section>`;
}

function tables(r) {
  if (!r.tables.length) return nothing;
  return html`<section class="tables-part">
    <h2>${t('Tables')}</h2>
    <ul class="tables">${r.tables.map((table) => html`<li class="table${table.done ? ' done' : ''}">
      <h3>${t('Table {number}', { number: table.table })}${table.done
        ? html` <span class="state">${t('done')}</span>` : nothing}</h3>
      <p class="count">${table.hands_limit === null
        ? tn(table.hands_played, '{played} hand', '{played} hands', { played: table.hands_played })
        : t('{played} of {hands} hands', { played: table.hands_played, hands: table.hands_limit })}</p>
      ${table.hands_limit === null ? nothing
        : html`<progress max=${table.hands_limit} value=${Math.min(table.hands_played, table.hands_limit)}></progress>`}
      ${table.last_hand_at ? html`<p class="last">${t('last hand {time}', { time: clock(table.last_hand_at) })}</p>` : nothing}
    </li>`)}</ul>
  </section>`;
}

let drawn = false;

function draw() {
  const r = results;
  if (!drawn) content.textContent = ''; // the shell's "Loading…", which lit-html leaves
  drawn = true;
  render(
    html`${r ? html`<div class="results">
      <header><h1>${r.name}</h1>
        <p class="progress">${progress(r)}${r.last_hand_at
          ? html` · ${t('Updated {time}', { time: clock(r.last_hand_at) })}` : nothing}</p></header>
      <div class="columns">${standings(r)}${tables(r)}</div>
    </div>` : nothing}
    ${problem ? html`<p class="status" role="status">${problem}</p>` : nothing}`,
    content,
  );
}

async function refresh() {
  let wait = every;
  try {
    const headers = { Accept: 'application/json' };
    if (etag) headers['If-None-Match'] = etag;
    const answer = await fetch(body.dataset.results, { headers, cache: 'no-store' });
    if (answer.status === 200) {
      etag = answer.headers.get('ETag');
      results = await answer.json();
      problem = '';
    } else if (answer.status === 404) {
      results = null;
      etag = null;
      problem = t('These results are not published (any more).');
      wait = NOT_SHOWN_EVERY;
    } else if (answer.status !== 304) {
      problem = t('No connection: showing the last standings.');
    } else {
      problem = '';
    }
  } catch {
    problem = t('No connection: showing the last standings.');
  }
  draw();
  body.dataset.shown = results ? 'results' : 'none';
  setTimeout(refresh, wait);
}

refresh();
