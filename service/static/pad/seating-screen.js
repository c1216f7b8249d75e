// Put a wrong seating right: the players in the order they sat and who dealt first; every
// hand is settled again.

import { api } from './api.js';
import { backToTable, h, clear } from './dom.js';
import { t } from './i18n.js';
import { tableAfter, write, writeToken } from './writes.js';

/** Put a wrong seating right: the players in the order they really sat and who dealt first; every
 *  hand is settled again. */
export function renderSeating(root, ctx, app) {
  const tb = ctx.table;
  const order = tb.seats.map((s) => s.player_id);
  const firstHand = ctx.hands[0];
  let first = tb.seats[firstHand ? firstHand.dealer : tb.dealer].player_id;
  const name = (id) => tb.seats.find((s) => s.player_id === id).name;
  const list = h('ol.reseat');
  const dealers = h('div');
  const after = h('div');
  let seq = 0;
  const save = h(
    'button.primary',
    {
      type: 'button',
      onclick: async () => {
        save.disabled = true;
        if (!(await write(ctx, app, request(false), t('The seating is changed'))))
          save.disabled = false;
      },
    },
    t('Save the seating'),
  );
  const request = (dry) => () =>
    api.reseat(
      ctx.id,
      writeToken(ctx),
      { seats: order, first_dealer: order.indexOf(first) },
      tb.version,
      dry,
    );
  const move = (i, d) => {
    [order[i], order[i + d]] = [order[i + d], order[i]];
    draw();
  };
  async function draw() {
    clear(
      list,
      order.map((id, i) =>
        h(
          'li',
          h('span.name.fit', name(id)),
          h(
            'button.small',
            {
              type: 'button',
              disabled: i === 0,
              'aria-label': t('Move {name} up', { name: name(id) }),
              onclick: () => move(i, -1),
            },
            '↑',
          ),
          h(
            'button.small',
            {
              type: 'button',
              disabled: i === order.length - 1,
              'aria-label': t('Move {name} down', { name: name(id) }),
              onclick: () => move(i, 1),
            },
            '↓',
          ),
        ),
      ),
    );
    clear(
      dealers,
      h(
        'fieldset.group',
        h('legend', t('Dealt the first hand')),
        h(
          'div.row.wrap',
          order.map((id) =>
            h(
              'button.choice.small',
              {
                type: 'button',
                'aria-pressed': String(id === first),
                onclick: () => {
                  first = id;
                  draw();
                },
              },
              name(id),
            ),
          ),
        ),
      ),
    );
    const same =
      order.every((id, i) => id === tb.seats[i].player_id) &&
      first === tb.seats[firstHand ? firstHand.dealer : tb.dealer].player_id;
    save.disabled = true;
    if (same) {
      clear(after, h('p.hint', t('This is the seating as recorded.')));
      return;
    }
    const mine = ++seq;
    const box = h('div');
    const ok = await tableAfter(ctx, box, request(true));
    if (mine !== seq) return;
    clear(after, box);
    save.disabled = !ok;
  }
  clear(
    root,
    h(
      'div.screen.seating',
      h('div.titlebar', backToTable(ctx.id), h('h1', t('Seating'))),
      tb.status === 'closed'
        ? h('p.notice', t('The table is closed: its seating stays as it is.'))
        : [
            h(
              'p',
              t(
                'Wrong seats noticed late? Put the players in the order they sat (the deal passes down the list) and tap who dealt the first hand. Every hand is settled again.',
              ),
            ),
            list,
            dealers,
            after,
            h('div.buttons', save),
          ],
    ),
  );
  if (tb.status !== 'closed') draw();
  return null;
}
