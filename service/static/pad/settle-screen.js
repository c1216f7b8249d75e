// Settle up and close the table: the settle-up if it closed now, the table's settings (season
// and rate), and closing it.

import { api, ProblemError } from './api.js';
import { backToTable, h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { settleUpView } from './settle-up-view.js';
import { settingsPanel } from './table-settings.js';

export function renderSettle(root, ctx, app) {
  const body = h('div', h('p.hint', t('Loading…')));
  const closed = ctx.table.status === 'closed';
  const closeBox = h('div');
  const closeButton = closed
    ? null
    : h(
        'button.danger',
        {
          type: 'button',
          onclick: () => {
            clear(
              closeBox,
              h(
                'div.confirm',
                { role: 'alertdialog', 'aria-label': t('Close the table?') },
                h(
                  'p',
                  t(
                    'Close the table? No more hands can be recorded; corrections then need the club’s admin token.',
                  ),
                ),
                h(
                  'div.buttons',
                  h(
                    'button.danger',
                    {
                      type: 'button',
                      onclick: async () => {
                        try {
                          const { data } = await api.close(ctx.id, ctx.token || ctx.adminToken);
                          ctx.table = data;
                          ctx.etag = null;
                          toast(t('The table is closed.'));
                          app.update();
                        } catch (error) {
                          toast(
                            error instanceof ProblemError
                              ? error.lines().join(' ')
                              : t('No connection.'),
                            'error',
                          );
                        }
                      },
                    },
                    t('Yes, close the table'),
                  ),
                  h('button', { type: 'button', onclick: () => clear(closeBox) }, t('Not yet')),
                ),
              ),
            );
          },
        },
        t('Close the table'),
      );
  const settings = h('div');
  const load = () =>
    api
      .settleUp(ctx.id, ctx.token || ctx.adminToken)
      .then(({ data }) => {
        clear(
          body,
          h(
            'p.notice',
            data.final ? t('Final: the table is closed.') : t('If the table closed now:'),
          ),
          settleUpView(ctx, data),
        );
      })
      .catch((error) => {
        clear(
          body,
          h(
            'p.notice.error',
            error instanceof ProblemError
              ? error.lines().join(' ')
              : t('No connection: the settle-up needs the network.'),
          ),
        );
      });
  // A changed rate changes the money: the settle-up is read again, and the settings redrawn.
  const drawSettings = () =>
    clear(
      settings,
      settingsPanel(ctx, () => {
        drawSettings();
        load();
      }),
    );
  clear(
    root,
    h(
      'div.screen.settle',
      h('div.titlebar', backToTable(ctx.id), h('h1', closed ? t('Settle-up') : t('Settle up'))),
      body,
      settings,
      closeButton,
      closeBox,
    ),
  );
  drawSettings();
  load();
  return null;
}
