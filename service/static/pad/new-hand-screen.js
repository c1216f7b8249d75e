// Record a hand: the hand form for the next deal, who deals it, and the hands still waiting
// in the outbox before it.

import { backToTable, h, clear, suitLabel } from './dom.js';
import { handForm } from './hand.js';
import { t, tn } from './i18n.js';
import { couleurOf, couleurSettled, doubledWords, nextHand, seatName } from './model.js';
import { enqueue, entriesFor } from './outbox.js';

export function renderNewHand(root, ctx, app) {
  const tb = ctx.table;
  if (tb.status === 'closed' || (tb.session && tb.session.over)) {
    clear(
      root,
      h(
        'div.screen',
        backToTable(ctx.id),
        h('h1', t('No more hands')),
        h('p', t('This table is closed or its session is over.')),
      ),
    );
    return null;
  }
  // Offline with hands waiting, the deal follows them; pool and couleur wait for the server.
  const queued = entriesFor(ctx.id);
  const next = nextHand(ctx, queued);
  const number = next.number;
  const tableLink = `#table=${encodeURIComponent(ctx.id)}`;
  const form = handForm({
    ctx,
    variant: ctx.variant,
    number,
    saveLabel: t('Save hand {number}', { number }),
    onSave: (record) => {
      enqueue(ctx.id, number, record);
      form.discard();
      app.go(tableLink);
      app.flush();
    },
  });
  const name = seatName(ctx, next.dealer);
  const deals = next.stakeDue
    ? t('{name} deals and stakes', { name })
    : t('{name} deals', { name });
  const word = doubledWords(ctx).of(suitLabel(couleurOf(ctx)));
  const couleur = !couleurOf(ctx) || !(next.known || couleurSettled(ctx)) ? '' : ` · ${word}`;
  const n = queued.length;
  const known = { known: stillUnknown(ctx) };
  const waiting = !n
    ? null
    : h(
        'p.notice',
        tn(
          n,
          '{n} hand waits to be sent: {known} are known once it is recorded.',
          '{n} hands wait to be sent: {known} are known once they are recorded.',
          known,
        ),
      );
  const discard = h(
    'button.small.link',
    {
      type: 'button',
      onclick: () => {
        form.discard();
        app.go(tableLink);
      },
    },
    t('Discard'),
  );
  clear(
    root,
    h(
      'div.screen.record',
      h('div.titlebar', backToTable(ctx.id), h('h1', t('Hand {number}', { number })), discard),
      h('p.hint', { 'data-next': 'dealer' }, deals + couleur),
      waiting,
      form,
    ),
  );
  return { update: () => form.refreshTaken() };
}

/** What the hands waiting to be sent still decide, in words: the pool only for a game that has
 *  one, the couleur (German Solo's preferred suit) only while it can still change (the game's
 *  description names both among a table's state), and always the balances. */
function stillUnknown(ctx) {
  const state = new Set(((ctx.variant && ctx.variant.state_fields) || []).map((f) => f.name));
  const pool = state.has('pool');
  const couleur = state.has('couleur') && !couleurSettled(ctx);
  if (!couleur) return pool ? t('the pool and the balances') : t('the balances');
  const doubled = doubledWords(ctx);
  return pool ? doubled.unknownWithPool : doubled.unknown;
}
