// What the screens share besides their templates: suits and numbers in words, the toast, the
// heading's focus, names that fit. No inline handlers (the page runs under a strict CSP).

import { num, t } from './i18n.js';
import { html } from './lit-html.js';

export const SUITS = { clubs: '♣', spades: '♠', hearts: '♥', diamonds: '♦' };
const SUIT_NAMES = {
  clubs: t('clubs'),
  spades: t('spades'),
  hearts: t('hearts'),
  diamonds: t('diamonds'),
};

/** A suit's name in the page's language ("hearts", "Herz", "corazones"). */
export function suitName(suit) {
  return SUIT_NAMES[suit] || String(suit);
}

/** +3, −2, 0 with a real minus sign (read as "minus" by screen readers). */
export function signed(n) {
  if (n === null || n === undefined) return '–';
  return n > 0 ? `+${num(n)}` : n < 0 ? `−${num(-n)}` : '0';
}

export function suitLabel(suit) {
  return suit ? `${SUITS[suit] || ''} ${suitName(suit)}` : t('no trump');
}

export function title(name) {
  const s = String(name).replaceAll('_', ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

let toastTimer = 0;
/** A short message in the page's polite live region. */
export function toast(text, kind = 'info') {
  const el = document.getElementById('toast');
  if (!el) return;
  clearTimeout(toastTimer);
  el.className = `toast ${kind}`;
  el.textContent = text;
  el.hidden = false;
  toastTimer = setTimeout(
    () => {
      el.hidden = true;
    },
    kind === 'error' ? 8000 : 3500,
  );
}

/** A random key for Idempotency-Key (crypto.randomUUID needs a secure context; this does not). */
export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `then` once the next frame is painted (a task after the frame's animation callbacks). */
export function afterPaint(then) {
  requestAnimationFrame(() => setTimeout(then));
}

/** A new screen starts at its top, its heading focused (announced by screen readers). Done after
 *  the next frame is painted: focusing a heading just built forces a synchronous layout. */
export function focusHeading(root) {
  const heading = root.querySelector('h1, h2');
  if (!heading) return;
  heading.tabIndex = -1;
  afterPaint(() => {
    if (!heading.isConnected) return;
    heading.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  });
}

/** Text for screen readers only. */
export function sr(text) {
  return html`<span class="sr">${text}</span>`;
}

/** The service's words as a player writes them ("bete" → "bête"). */
export function plain(text) {
  return String(text)
    .replace(/\bbete(s?)\b/g, 'bête$1')
    .replace(/\bBete(s?)\b/g, 'Bête$1');
}

/** Short forms of the seats' names: the first name, or as much more of the name as tells two
 *  seats apart. Each is the start of the full name, so the full name says what the button
 *  shows. */
export function shortNames(names) {
  return names.map((name) => {
    const first = name.split(/\s/)[0];
    let k = first.length;
    const clash = () => names.some((o) => o !== name && o.slice(0, k) === name.slice(0, k));
    while (k < name.length && clash()) k += 1;
    if (name[k - 1] === ' ') k += 1;
    return name.slice(0, k);
  });
}

/** A word too wide for its .fit box is set smaller (.fit1, .fit2): after each change and resize. */
export function fitNames() {
  let queued = false;
  const tooWide = (el) => el.scrollWidth > el.clientWidth + 1;
  const fit = () => {
    queued = false;
    const all = [...document.querySelectorAll('.fit')];
    all.forEach((el) => el.classList.remove('fit1', 'fit2'));
    const wide = all.filter(tooWide);
    wide.forEach((el) => el.classList.add('fit1'));
    wide.filter(tooWide).forEach((el) => el.classList.replace('fit1', 'fit2'));
  };
  const later = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(fit);
    }
  };
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
  addEventListener('resize', later);
  later();
}

/** The link back to table `id`'s screen, at the top of each of its other screens. */
export function backToTable(id) {
  const href = `#table=${encodeURIComponent(id)}`;
  return html`<a class="button back" href=${href}>${t('← Table')}</a>`;
}
