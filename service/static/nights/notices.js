// The notices of the service's own screens (the club night's, the tournament's): what an
// action said, drawn beside the button that asked for it, which takes the focus so that a
// phone's screen shows it; the buttons of an action waiting for its answer are disabled.

import { html, nothing, render } from '../pad/lit-html.js';
import { t } from '../pad/i18n.js';
import { Problem } from './requests.js';

/** The quiet notice: nothing said yet. */
export const QUIET = { lines: [], kind: 'info', offers: [], at: null, id: 0 };

/** The notices of a screen whose `state` holds `notice` (QUIET at first) and `busy` (a Set of
 * action keys), drawn by `draw()` into `content`.
 * @param {{notice: any, busy: Set<string>}} state @param {() => void} draw
 * @param {HTMLElement} content */
export function notices(state, draw, content) {
  const busy = (key) => state.busy.has(key);

  let noticed = 0; // the id of the last notice that took the focus

  /** Show `text` beside the button of action `at` (`offers`: the buttons of the way on). */
  function say(text, kind = 'info', offers = [], at = null) {
    state.notice = { lines: text ? [].concat(text) : [], kind, offers: [].concat(offers || []), at,
      id: state.notice.id + 1 };
    draw();
  }

  let newest = 0; // the number of the admin's latest action

  /** The notice of a new action `at`: from now on it alone speaks, and what an earlier action
   * says when its answer comes late is dropped. `tell(text, kind, offers)` answers whether it
   * spoke. */
  function notifier(at = null) {
    const mine = ++newest;
    return (text, kind, offers) => {
      if (mine !== newest) return false;
      say(text, kind, offers, at);
      return true;
    };
  }

  /** Run `action(tell)` as the action `key`, its buttons disabled until its answer is in (a
   * second tap sends nothing twice). A refusal is shown beside its button with its own words and
   * the way on that `offer(refusal)` gives ({key, label, run}, or null), unless a later action
   * has spoken since. */
  async function attempt(key, action, offer = (_refusal) => null) {
    const tell = notifier(key);
    state.busy.add(key);
    draw();
    try {
      await action(tell);
    } catch (error) {
      if (error instanceof Problem) tell(error.lines(), 'error', offer(error));
      else tell(t('No connection: showing what was last loaded.'), 'error');
    } finally {
      state.busy.delete(key);
      draw();
    }
  }

  /** Ask before the action `key` that cannot be undone: `question` and its two buttons, beside
   * the button tapped (as a table's close asks again on the pad). */
  function askFirst(key, question, yes, run) {
    notifier(key)(question, 'ask', [{ key, label: yes, run, kind: 'danger' },
      { key, label: t('Not yet'), run: () => notifier(key)('') }]);
  }

  /** The notice of action `at`, if it is the one that spoke last (else nothing). */
  function noticeAt(...at) {
    const { lines, kind, offers, id } = state.notice;
    if (!lines.length || !at.includes(state.notice.at)) return nothing;
    const shown = lines.flatMap((line, i) => (i ? [html`<br>`, line] : [line]));
    const buttons = offers.map((offer) => html` <button type="button" class=${offer.kind || ''}
      ?disabled=${busy(offer.key)} @click=${offer.run}>${offer.label}</button>`);
    return html`<p class="notice ${kind}" role=${kind === 'info' ? 'status' : 'alert'}
      tabindex="-1" data-notice=${id}>${shown}${buttons}</p>`;
  }

  /** A new notice takes the focus (and so comes into view): the admin's eyes are where they
   * tapped, and a screen reader reads it out. */
  function focusNotice() {
    if (state.notice.id === noticed || !state.notice.lines.length) return;
    const shown = content.querySelector(`.notice[data-notice="${state.notice.id}"]`);
    if (!shown) return;
    noticed = state.notice.id;
    /** @type {HTMLElement} */ (shown).focus();
  }

  return { busy, say, notifier, attempt, askFirst, noticeAt, focusNotice };
}

/** A screen of the service's own (the club night's, the tournament's), `screen()` drawn by
 * lit-html into `content` (the page's "Loading…" replaced at the first draw), with its notices:
 * `draw()` draws it and gives the newest notice the focus; `redraw()` draws every form anew
 * (what was typed in them is gone).
 * @param {{notice: any, busy: Set<string>}} state @param {HTMLElement} content
 * @param {() => any} screen */
export function screenOf(state, content, screen) {
  let drawn = false; // whether lit-html draws the page yet
  const draw = () => {
    if (!drawn) content.replaceChildren();
    drawn = true;
    render(screen(), content);
    told.focusNotice();
  };
  const redraw = () => {
    if (drawn) render(nothing, content);
    draw();
  };
  const told = notices(state, draw, content);
  return { draw, redraw, ...told };
}

/** The problem of a close refused while tables still play. */
export const TABLES_PENDING = 'urn:solo:problem:night-tables-pending';

/** The card that closes a club night for good (a tournament's too: its night's): asked first,
 * beside the button; refused while tables still play, it offers "Close anyway". `words`:
 * `closed`, `close`, `anyway`, `yes`, `ask`; `closeNight(early)` asks the service, `after()`
 * draws the closed screen, before its notice is told.
 * @param {Pick<ReturnType<typeof screenOf>, 'attempt' | 'askFirst' | 'busy' | 'noticeAt'>} screen
 * @param {{open: boolean, words: Record<string, string>,
 *   closeNight: (early: boolean) => Promise<any>, after: () => Promise<any>}} card */
export function closingCard(screen, { open, words, closeNight, after }) {
  const { attempt, askFirst, busy, noticeAt } = screen;
  if (!open) {
    return html`<section class="card close"><p><strong>${words.closed}</strong></p>${
      noticeAt('close')}</section>`;
  }
  const close = (/** @type {boolean} */ early) => attempt('close', async (tell) => {
    await closeNight(early);
    await after();
    tell(words.closed);
  }, (refusal) => (refusal.problem.type === TABLES_PENDING
    ? { key: 'close', label: words.anyway, run: () => close(true) } : null));
  // Closing cannot be undone: it asks again, beside the button.
  const ask = () => askFirst('close', words.ask, words.yes, () => close(false));
  return html`<section class="card close"><button class="danger" type="button"
    ?disabled=${busy('close')} @click=${ask}>${words.close}</button>${noticeAt('close')}
    </section>`;
}
