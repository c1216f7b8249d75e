// Correct a hand: the hand form with its record, then a confirmation of what changes in the
// record and in the whole table before the correction is saved.

import { api } from './api.js';
import { backToTable, h, clear } from './dom.js';
import { handForm } from './hand.js';
import { describeHand, recordChanges } from './hand-words.js';
import { t } from './i18n.js';
import { settlementView } from './settlement.js';
import { tableAfter, write, writeToken } from './writes.js';

export function renderEdit(root, ctx, app, number) {
  const hand = ctx.hands.find((x) => x.number === number);
  if (!hand) {
    clear(root, h('div.screen', backToTable(ctx.id), h('h1', t('No hand {number}', { number }))));
    return null;
  }
  const screen = h('div.screen.edit');
  const form = handForm({
    ctx,
    variant: ctx.variant,
    number,
    record: hand.hand,
    saveLabel: t('Review the change'),
    onSave: (record, preview) => confirm(record, preview),
  });

  async function confirm(record, preview) {
    const changes = recordChanges(ctx, hand.hand, record);
    const box = h(
      'section.confirm',
      { role: 'region', 'aria-labelledby': 'confirm-h' },
      h('h2', { id: 'confirm-h' }, t('Change hand {number}?', { number })),
      changes.length
        ? h(
            'ul.changes',
            changes.map((c) => h('li', c)),
          )
        : h('p', t('Nothing changes in the record.')),
      hand.status === 'void' ? h('p', t('The hand is void now; saving restores it.')) : null,
    );
    const after = h('div', h('p.hint', t('Asking the service what the table becomes…')));
    const save = h(
      'button.primary',
      {
        type: 'button',
        disabled: true,
        onclick: async () => {
          save.disabled = true;
          const ok = await write(
            ctx,
            app,
            () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version),
            t('Hand {number} is corrected', { number }),
          );
          if (ok) form.discard();
          else save.disabled = false;
        },
      },
      t('Save the correction'),
    );
    // The corrected hand's settlement: the form's preview at once, then the dry run's own.
    const corrected = h('div');
    const showSettlement = (s) =>
      clear(corrected, settlementView(ctx, s, { heading: t('The corrected hand') }));
    if (preview) showSettlement(preview);
    box.append(
      after,
      corrected,
      h(
        'div.buttons',
        save,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              box.remove();
              form.hidden = false;
            },
          },
          t('Back to the form'),
        ),
      ),
    );
    form.hidden = true;
    screen.append(box);
    box.querySelector('h2').tabIndex = -1;
    box.querySelector('h2').focus();
    const ok = await tableAfter(
      ctx,
      after,
      () => api.correct(ctx.id, writeToken(ctx), number, record, ctx.table.version, true),
      (answer) => {
        if (answer.settlement) showSettlement(answer.settlement);
      },
    );
    save.disabled = !ok;
  }

  const discard = form.hasDraft
    ? h(
        'button.small.link',
        {
          type: 'button',
          onclick: () => {
            form.discard();
            app.go(`#table=${encodeURIComponent(ctx.id)}`);
          },
        },
        t('Discard the changes'),
      )
    : null;
  const now = describeHand(ctx, hand.hand);
  clear(
    root,
    clear(
      screen,
      h(
        'div.titlebar',
        backToTable(ctx.id),
        h('h1', t('Correct hand {number}', { number })),
        discard,
      ),
      h(
        'p.hint',
        hand.status === 'void'
          ? t('Now: {hand} (void)', { hand: now })
          : t('Now: {hand}', { hand: now }),
      ),
      form,
    ),
  );
  return null;
}
