// What a club night's table shows of its series: "Series 1: hand 4 of 6" above the table, the
// end of the series (no hand beyond it, unless the night's director lengthens it), and once
// the next series is drawn, where each of the table's players sits next. The night (read with
// the table's own token by table.js) says which series and table this is, and the next draw.

import { lang, num, t, tn } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { counted, seriesOver } from './series.js';

/** This table's series and number in its night ({series, table}), null until the night is read
 *  (or for a table of its own). */
function placeOf(ctx, night) {
  for (const series of (night && night.series) || []) {
    const table = series.tables.find((x) => x.table_id === ctx.id);
    if (table) return { series: series.number, table: table.number };
  }
  return null;
}

/** The line under the table's name: "Series 1: hand 4 of 6" (null: not a night's table, or
 *  the series is over or the table closed, which the notice below says). */
export function seriesLine(ctx, night) {
  const table = ctx.table;
  if (!table.night_id || table.status === 'closed' || seriesOver(ctx)) return null;
  const place = placeOf(ctx, night);
  const values = {
    series: num(place ? place.series : 0),
    number: num(counted(ctx) + 1),
    hands: num(table.hands_limit ?? 0),
  };
  if (!place) {
    return table.hands_limit ? t('Hand {number} of {hands}', values) : null;
  }
  return table.hands_limit
    ? t('Series {series}: hand {number} of {hands}', values)
    : t('Series {series}: hand {number}', values);
}

/** The series' clock, when the night's director set one: "until 21:30", or, once the phone's
 *  clock has passed it, that the hand in play is the last (null: no clock, or the series is
 *  over). The service refuses no hand for it: the series' length does that. */
export function seriesClock(ctx) {
  const table = ctx.table;
  if (!table.series_ends_at || table.status === 'closed' || seriesOver(ctx)) return null;
  const ends = new Date(table.series_ends_at);
  if (Date.now() >= ends.getTime()) return t('time is up: finish the hand in play');
  const time = ends.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
  return t('until {time}', { time });
}

/** Where each player of this table sits in the next series, once it is drawn: [name, words]. */
function nextSeats(ctx, night, place) {
  const next = night.series.find((s) => s.number === place.series + 1);
  if (!next) return null;
  return ctx.table.seats.map((seat) => {
    const at = next.tables.find((x) => x.seats.some((s) => s.player_id === seat.player_id));
    return [seat.name, at ? t('table {number}', { number: num(at.number) }) : t('sits out')];
  });
}

/** What comes after the series when the next is not drawn yet: a tournament's words (its
 *  director, no lengthening: the result is confirmed now) or a club night's. */
function waitingWords(night, table) {
  if (night.tournament_id) {
    return night.next_series === null
      ? t('That was the last series of the tournament.')
      : t('The tournament’s director draws the next series.');
  }
  if (night.next_series === null) return t('That was the last series of the night.');
  return table.status === 'closed'
    ? t('The night’s director draws the next series.')
    : t('The night’s director draws the next series, or lengthens this one.');
}

/** The end of the series, in place of "New hand": how many were played, and where everyone
 *  sits next (or that the director draws the next series, or may lengthen this one). Also on
 *  a table the next draw closed. Nothing for a table of its own or a series still playing. */
export function seriesEnd(ctx, night) {
  const table = ctx.table;
  if (!table.night_id || !(table.status === 'closed' || seriesOver(ctx))) return nothing;
  const place = placeOf(ctx, night);
  if (!place) return nothing;
  const played = counted(ctx);
  const values = { series: num(place.series), hands: num(table.hands_limit ?? 0) };
  const over = table.hands_limit
    ? tn(
        played,
        'Series {series} is over: {n} hand of {hands} played.',
        'Series {series} is over: {n} hands of {hands} played.',
        values,
      )
    : tn(
        played,
        'Series {series} is over: {n} hand played.',
        'Series {series} is over: {n} hands played.',
        values,
      );
  const seats = nextSeats(ctx, night, place);
  const waiting = waitingWords(night, table);
  return html`<section class="notice series-end" data-series="over" aria-live="polite">
    <p><strong>${over}</strong></p>
    ${seats
      ? html`<h2>${t('Series {series}: where you sit', { series: num(place.series + 1) })}</h2>
          <ul class="next-seats">
            ${seats.map(
              ([name, where]) =>
                html`<li><span class="name">${name}</span> <strong>${where}</strong></li>`,
            )}
          </ul>`
      : html`<p>${waiting}</p>`}
  </section>`;
}
