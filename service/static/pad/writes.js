// A correction, a void or a re-seating sent to the service: what the whole table becomes,
// asked first as a dry run, then the write and what it changed in the balances.

import { NetworkError, ProblemError } from './api.js';
import { clear, h, signed, toast } from './dom.js';
import { fieldWords } from './hand-words.js';
import { num, t } from './i18n.js';
import { loadHands, refresh } from './model.js';

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
    await loadHands(ctx, table);
    ctx.etag = `"${table.version}"`;
    const said = { done, changes: balanceChanges(before, table) };
    ctx.ui.notice = t('{done}. Balances: {changes}.', said);
    app.go(`#table=${encodeURIComponent(ctx.id)}`);
    app.update();
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

/** Fill `box` with what the whole table becomes (a dry run): every balance and the pool, now and
 *  after, later hands settled again; `onAnswer` gets the dry run's whole answer (a corrected
 *  hand's settlement). The table after, or false when the service refused or cannot be reached.
 *  @param {any} ctx @param {HTMLElement} box @param {() => Promise<any>} dryRun
 *  @param {(data: any) => void} [onAnswer] */
export async function tableAfter(ctx, box, dryRun, onAnswer = (_data) => {}) {
  try {
    const { data } = await dryRun(); // a hand's answer carries the table; re-seating's is the table
    onAnswer(data);
    clear(
      box,
      compareTable(ctx, ctx.table, data.table || data, t('What the table becomes')),
      data.resettled
        ? h('p.hint', t('Hands settled again: {hands}.', { hands: data.resettled }))
        : null,
    );
    return data.table || data;
  } catch (error) {
    clear(
      box,
      h(
        'p.notice.error',
        { role: 'alert' },
        error instanceof NetworkError
          ? t('No connection: a correction needs the network.')
          : error instanceof ProblemError
            ? error.lines((name) => fieldWords(ctx.variant, name)).join(' ')
            : String(error),
      ),
    );
    return false;
  }
}

function compareTable(ctx, before, after, caption) {
  const rows = after.seats.map((s, i) => {
    const old = before.seats.find((x) => x.player_id === s.player_id) || before.seats[i];
    return h(
      'tr',
      h('th', { scope: 'row' }, s.name),
      h('td', signed(old.balance)),
      h('td', signed(s.balance)),
      h('td', signed(s.balance - old.balance)),
    );
  });
  if (after.pool !== null && after.pool !== undefined) {
    rows.push(
      h(
        'tr.pool',
        h('th', { scope: 'row' }, t('Pool')),
        h('td', num(before.pool)),
        h('td', num(after.pool)),
        h('td', signed(after.pool - before.pool)),
      ),
    );
  }
  return h(
    'table.compare',
    h('caption', caption),
    h(
      'thead',
      h(
        'tr',
        ['', t('Now'), t('After'), t('Change')].map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h('tbody', rows),
  );
}
