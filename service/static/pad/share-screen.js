// Share the table: its link (with the table token) as text and as a QR code.

import { backToTable, toast } from './dom.js';
import { t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { qrSvg } from './qr.js';

/** The table's link: the service answers it with the table's first screen in the page
 *  (service/api/first_screen.py); the pad takes the token from it as from `#table=…&token=…`. */
function shareLink(id, token) {
  return `${location.origin}/?table=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
}

let drawn = { link: '', code: null }; // the QR code of the last link (drawn once per link)

function qrCode(link, name) {
  if (drawn.link !== link) {
    drawn = { link, code: qrSvg(link, t('QR code of the link to {name}', { name })) };
  }
  return drawn.code;
}

export function shareView(ctx) {
  const { token } = ctx;
  if (!token) {
    return html`<div class="screen">
      ${backToTable(ctx.id)}
      <h1>${t('Share')}</h1>
      <p>${t('This phone has no table token to share.')}</p>
    </div>`;
  }
  const link = shareLink(ctx.id, token);
  const name = ctx.table.name;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t('Link copied.'));
    } catch {
      /** @type {HTMLTextAreaElement} */ (document.querySelector('.sharelink')).select();
      toast(t('Select the link and copy it.'));
    }
  };
  const share = () => navigator.share({ title: name, url: link }).catch(() => {});
  const about = t(
    'Scan this on another phone to keep score together. The code carries the table token: anyone who has it can record and correct hands at this table.',
  );
  // A text area, not a one-line field: the whole link wraps into view.
  return html`<div class="screen share">
    <div class="titlebar">${backToTable(ctx.id)}<h1>${t('Share “{name}”', { name })}</h1></div>
    <p>${about}</p>
    <div class="qrbox">${qrCode(link, name)}</div>
    <textarea
      class="sharelink"
      readonly
      rows="3"
      .value=${link}
      aria-label=${t('Link to this table')}
    ></textarea>
    <div class="buttons">
      <button type="button" @click=${copy}>${t('Copy link')}</button
      >${navigator.share
        ? html`<button type="button" @click=${share}>${t('Share…')}</button>`
        : nothing}
    </div>
  </div>`;
}
