// A club night's table and its series' length (`night_id`, `hands_limit`): whether the series is
// over, and who closes the table. A table's every screen asks, so this is all of it a table's
// first screen loads; what a night's table shows of its series ("Series 1: hand 4 of 6", its end
// and where each player sits next) is series-view.js, which table.js imports only for a night's
// table.

import { entriesFor } from './outbox.js';

/** The hands of the series played or waiting to be sent: the next one is this plus one. */
export const counted = (ctx) => ctx.table.hands_played + entriesFor(ctx.id).length;

/** A club night's table whose series has all its hands (with those waiting to be sent). */
export function seriesOver(ctx) {
  const limit = ctx.table.hands_limit;
  return limit !== null && limit !== undefined && counted(ctx) >= limit;
}

/** A club night's table, held with its own link: the night's director closes it (the next draw,
 *  or closing the night), and the service refuses the phone's closing (403
 *  `night-table-closed-by-director`), so the phone offers none. */
export const directorCloses = (ctx) => Boolean(ctx.table.night_id && ctx.token);
