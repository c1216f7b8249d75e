// Share the table: its link (with the table token) as text and as a QR code.

import { backToTable, h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { qrSvg } from './qr.js';

function shareLink(id, token) {
  return `${location.origin}/#table=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

export function renderShare(root, ctx) {
  const token = ctx.token;
  if (!token) {
    clear(
      root,
      h(
        'div.screen',
        backToTable(ctx.id),
        h('h1', t('Share')),
        h('p', t('This phone has no table token to share.')),
      ),
    );
    return null;
  }
  const link = shareLink(ctx.id, token);
  // A text area, not a one-line field: the whole link wraps into view.
  const field = h('textarea.sharelink', {
    readOnly: true,
    rows: 3,
    value: link,
    'aria-label': t('Link to this table'),
  });
  const copy = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          toast(t('Link copied.'));
        } catch {
          field.select();
          toast(t('Select the link and copy it.'));
        }
      },
    },
    t('Copy link'),
  );
  const share = navigator.share
    ? h(
        'button',
        {
          type: 'button',
          onclick: () => navigator.share({ title: ctx.table.name, url: link }).catch(() => {}),
        },
        t('Share…'),
      )
    : null;
  clear(
    root,
    h(
      'div.screen.share',
      h(
        'div.titlebar',
        backToTable(ctx.id),
        h('h1', t('Share “{name}”', { name: ctx.table.name })),
      ),
      h(
        'p',
        t(
          'Scan this on another phone to keep score together. The code carries the table token: anyone who has it can record and correct hands at this table.',
        ),
      ),
      h('div.qrbox', qrSvg(link, t('QR code of the link to {name}', { name: ctx.table.name }))),
      field,
      h('div.buttons', copy, share),
    ),
  );
  return null;
}
