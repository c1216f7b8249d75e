// A correction, a void or a re-seating sent to the service: what the whole table becomes,
// asked first as a dry run, then the write and what it changed in the balances.

import { NetworkError, ProblemError } from './api.js';
import { signed, toast } from './dom.js';
import { html, nothing } from './lit-html.js';
import { fieldWords } from './hand-words.js';
import { num, t } from './i18n.js';
import { refresh, tookWrite } from './model.js';

/** "Anna +24 → +16, Bob …": what a correction or a void changed in the balances. */
function balanceChanges(before, after) {
  const lines = after.seats
    .map((s, i) => {
      const was = before.seats.find((x) => x.player_id === s.player_id) || before.seats[i];
      const old = was ? was.balance : 0;
      return old === s.balance ? null : `${s.name} ${signed(old)} → ${signed(s.balance)}`;
    })
    .filter(Boolean);
  const moved = lines.length ? lines.join(', ') : t('no balance changed');
  if (after.pool === null || after.pool === undefined) return moved;
  return after.pool === before.pool
    ? t('{changes}; the pool stays at {pool}', { changes: moved, pool: after.pool })
    : t('{changes}; pool {before} → {after}', {
        changes: moved,
        before: before.pool,
        after: after.pool,
      });
}

/** The token for corrections: the table token, or the club's admin token once it is closed. */
export function writeToken(ctx) {
  return ctx.table.status === 'closed' && ctx.adminToken
    ? ctx.adminToken
    : ctx.token || ctx.adminToken;
}

/** Run a correction (PUT/DELETE), reload the hands, say what changed in the balances. */
export async function write(ctx, app, request, done) {
  const before = ctx.table;
  try {
    const { data } = await request();
    const table = data.table || data; // re-seating answers with the table itself
    await tookWrite(ctx, table);
    const said = { done, changes: balanceChanges(before, table) };
    app.go(`#table=${encodeURIComponent(ctx.id)}`, {
      notice: t('{done}. Balances: {changes}.', said),
    });
    return true;
  } catch (error) {
    if (error instanceof ProblemError && error.status === 412) {
      await refresh(ctx, true).catch(() => {});
      toast(t('The table changed on another phone meanwhile. Check and try again.'), 'error');
      app.update();
    } else {
      toast(
        error instanceof ProblemError
          ? error.lines((name) => fieldWords(ctx.variant, name)).join(' ')
          : t('No connection: corrections need the network.'),
        'error',
      );
    }
    return false;
  }
}

/** What the whole table becomes (a dry run): `{data, table}` (`data`: the dry run's whole
 *  answer, with a corrected hand's settlement), or `{problem}` (the words) when the service
 *  refused or cannot be reached.
 *  @param {any} ctx @param {() => Promise<any>} dryRun */
export async function tableAfter(ctx, dryRun) {
  try {
    const { data } = await dryRun(); // a hand's answer carries the table; re-seating's is the table
    return { data, table: data.table || data };
  } catch (error) {
    const problem =
      error instanceof NetworkError
        ? t('No connection: a correction needs the network.')
        : error instanceof ProblemError
          ? error.lines((name) => fieldWords(ctx.variant, name)).join(' ')
          : String(error);
    return { problem };
  }
}

/** A dry run's answer in words: every balance and the pool, now and after, the hands settled
 *  again; while it is asked (`answer` undefined), that it is. */
export function tableAfterView(ctx, answer) {
  if (!answer) return html`<p class="hint">${t('Asking the service what the table becomes…')}</p>`;
  if (answer.problem) return html`<p class="notice error" role="alert">${answer.problem}</p>`;
  const { resettled } = answer.data;
  const again = t('Hands settled again: {hands}.', { hands: resettled });
  return html`${compareTable(ctx.table, answer.table, t('What the table becomes'))}
    ${resettled ? html`<p class="hint">${again}</p>` : nothing}`;
}

function compareTable(before, after, caption) {
  const row = (name, was, now, change, rowClass = '') =>
    html`<tr class=${rowClass || nothing}>
      <th scope="row">${name}</th>
      <td>${was}</td>
      <td>${now}</td>
      <td>${change}</td>
    </tr>`;
  const rows = after.seats.map((s, i) => {
    const old = before.seats.find((x) => x.player_id === s.player_id) || before.seats[i];
    return row(s.name, signed(old.balance), signed(s.balance), signed(s.balance - old.balance));
  });
  if (after.pool !== null && after.pool !== undefined) {
    const change = signed(after.pool - before.pool);
    rows.push(row(t('Pool'), num(before.pool), num(after.pool), change, 'pool'));
  }
  const heads = ['', t('Now'), t('After'), t('Change')];
  return html`<table class="compare">
    <caption>${caption}</caption>
    <thead>
      <tr>
        ${heads.map((x) => html`<th scope="col">${x}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
