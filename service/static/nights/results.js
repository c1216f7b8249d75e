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

function result(value) {
  return value === null ? '' : signed(value);
}

function line(r, series, prizes, entry) {
  const prize = prizes && entry.prize_cents ? money(entry.prize_cents, r.prizes.currency) : '';
  return html`<tr class=${entry.withdrawn ? 'withdrawn' : ''}>
    <td>${entry.rank}</td>
    <td class="name">${entry.name}${entry.withdrawn
      ? html` <span class="note">(${t('withdrawn')})</span>` : nothing}</td>
    ${series.map((_, i) => html`<td>${result(entry.series[i])}</td>`)}
    <td><strong>${signed(entry.total)}</strong></td>
    ${prizes ? html`<td>${prize}</td>` : nothing}
  </tr>`;
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
      <tbody>${r.standings.map((entry) => line(r, series, prizes, entry))}</tbody>
    </table>
  </section>`;
}

function table(each) {
  const played = each.hands_played;
  const limit = each.hands_limit;
  const count = limit === null
    ? tn(played, '{played} hand', '{played} hands', { played })
    : t('{played} of {hands} hands', { played, hands: limit });
  return html`<li class="table${each.done ? ' done' : ''}">
    <h3>${t('Table {number}', { number: each.table })}${each.done
      ? html` <span class="state">${t('done')}</span>` : nothing}</h3>
    <p class="count">${count}</p>
    ${limit === null ? nothing
      : html`<progress max=${limit} value=${Math.min(played, limit)}></progress>`}
    ${each.last_hand_at
      ? html`<p class="last">${t('last hand {time}', { time: clock(each.last_hand_at) })}</p>`
      : nothing}
  </li>`;
}

function tables(r) {
  if (!r.tables.length) return nothing;
  return html`<section class="tables-part">
    <h2>${t('Tables')}</h2>
    <ul class="tables">${r.tables.map(table)}</ul>
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
