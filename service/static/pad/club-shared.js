// What the club screens (league.js, league-admin.js) and the app share: a club-area link, a
// read of the API, a refusal in words, a revoked link and its screen, a two-step button, a
// download and a labelled field. Imports no screen.

import { call, ProblemError } from './api.js';
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { store } from './store.js';

export const enc = encodeURIComponent;
const REVOKED = 'urn:solo:problem:token-revoked';

/** The address of a club-area screen. */
export function link(id, params = {}) {
  const q = new URLSearchParams({ league: id });
  for (const [k, v] of Object.entries(params))
    if (v !== '' && v !== null && v !== undefined) q.set(k, v);
  return `#${q}`;
}

export const get = (path, token) => call('GET', path, { token }).then((r) => r.data);

export function problemText(error) {
  return error instanceof ProblemError
    ? error.lines().join(' ')
    : t('No connection: try again when online.');
}

export function isRevoked(error) {
  return error instanceof ProblemError && error.problem.type === REVOKED;
}

/** A button that asks once more before it acts (no confirm(): a dialog hides the table). */
export function twoStep(label, again, action, cls = '.small') {
  let armed = false;
  const button = h(
    `button${cls}`,
    {
      type: 'button',
      onclick: async () => {
        if (!armed) {
          armed = true;
          button.textContent = again;
          button.classList.add('danger');
          return;
        }
        button.disabled = true;
        try {
          await action();
        } catch (error) {
          toast(problemText(error), 'error');
        }
        armed = false;
        button.disabled = false;
        button.textContent = label;
        button.classList.remove('danger');
      },
    },
    label,
  );
  return button;
}

export function download(name, type, text) {
  const a = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

export function field(label, input) {
  input.id = `l-${Math.random().toString(36).slice(2, 9)}`;
  return h('div.field', h('label', { htmlFor: input.id }, label), input);
}

/** What a phone shows when the link it holds was revoked (or for any other refusal). */
export function renderRevoked(root, error, tableId) {
  clear(
    root,
    h(
      'div.screen.revoked',
      h('h1', t('This link no longer works')),
      h('p.notice.error', error.message),
      h(
        'div.buttons',
        tableId
          ? h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  store.forgetTable(tableId);
                  location.hash = '#';
                },
              },
              t('Forget this table on this phone'),
            )
          : null,
        h('a.button', { href: '#' }, t('Start')),
      ),
    ),
  );
}
