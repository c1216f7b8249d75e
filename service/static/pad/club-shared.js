// What the club screens (league.js, league-admin.js) and the app share: a club-area link, a
// read of the API, a refusal in words, a revoked link and its screen, a two-step button, a
// download and a labelled field (lit-html templates). Imports no screen.

import { call, ProblemError } from './api.js';
import { toast } from './dom.js';
import { html, nothing } from './lit-html.js';
import { t } from './i18n.js';
import { store } from './store.js';

export const enc = encodeURIComponent;

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

/** A button that asks once more before it acts (no confirm(): a dialog hides the table), drawn
 *  from its screen's state: `screen.armed` names the one button asking again, `screen.busy` the
 *  one whose action runs; `screen.draw()` draws the screen again.
 *  @param {{armed: string|null, busy: string|null, draw: () => void}} screen
 *  @param {string} key @param {string} label @param {string} again
 *  @param {() => Promise<any>|any} action */
export function twoStep(screen, key, label, again, action) {
  const armed = screen.armed === key;
  const click = async () => {
    if (!armed) {
      screen.armed = key;
      screen.draw();
      return;
    }
    screen.armed = null;
    screen.busy = key;
    screen.draw();
    try {
      await action();
    } catch (error) {
      toast(problemText(error), 'error');
    }
    screen.busy = null;
    screen.draw();
  };
  return html`<button type="button" class=${armed ? 'small danger' : 'small'}
    ?disabled=${screen.busy === key} @click=${click}>${armed ? again : label}</button>`;
}

/** Saves `text` as the file `name`: a link that is clicked once, never part of a screen. */
export function download(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** A labelled control: `id` names the control (unique on the page). */
export function field(id, label, control, hint = null) {
  return html`<div class="field"><label for=${id}>${label}</label>${control}${
    hint ? html`<p class="hint">${hint}</p>` : nothing}</div>`;
}

/** What a phone shows when the link it holds was revoked (or for any other refusal); with a
 *  table's id, a button that forgets that table. */
export function revokedView(error, tableId = null) {
  const words = { title: t('This link no longer works'),
    forget: t('Forget this table on this phone'), start: t('Start') };
  const forget = () => {
    store.forgetTable(tableId);
    location.hash = '#';
  };
  return html`<div class="screen revoked"><h1>${words.title}</h1>
    <p class="notice error">${error.message}</p>
    <div class="buttons">${tableId ? html`<button type="button"
      @click=${forget}>${words.forget}</button>` : nothing}<a class="button"
      href="#">${words.start}</a></div></div>`;
}
