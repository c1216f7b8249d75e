// The public registration page of an open tournament, opened from its registration link or
// its QR code (`/tournaments/<id>/register#token=<the link's token>&name=<the tournament>`):
// a name, optionally a club and a way to be reached, and how the published results name the
// player. The answer says registered, or waiting with the place on the list; a closed
// registration or a link no longer valid is said in plain words. The token stays in the
// fragment (never sent to a server but as the registration's bearer token); nothing is read
// before the registration (the link reads nothing).
//
// In the phone's language (the server picks it from Accept-Language) or the one chosen with
// the switch (`?lang=`), worded from the service's catalogs (data-words) by the pad's `t`.

import { html, nothing, render } from '../pad/lit-html.js';
import { lang, t } from '../pad/i18n.js';
import { field } from '../pad/club-shared.js';
import { Problem, requester } from './requests.js';

const content = document.getElementById('content');
const tournamentId = document.body.dataset.tournament;
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('token');
const tournamentName = fragment.get('name') || '';
const { call } = requester(token);
const CLOSED = 'urn:solo:problem:registration-closed';
const LANGUAGES = { en: 'English', de: 'Deutsch', es: 'Español' };

const state = {
  typed: '', // the name as typed: the display choice shows it both ways
  display: 'full',
  busy: false,
  entrant: null, // the registration's answer
  refusal: null, // what was refused, in words
};

/** The name as the published results would show it with "initial" (the first name and the
 * family name's initial), as the service says: rules/tournament.py `display_name`, answered by
 * `previewDisplayNames` (no token) a moment after typing stops. The rule is the service's
 * alone; until its answer comes the choice shows "…". */
const preview = { name: '', initial: '', asked: '', timer: 0 };
function initialOf(name) {
  if (preview.name === name) return preview.initial;
  if (preview.asked !== name) {
    preview.asked = name;
    clearTimeout(preview.timer);
    preview.timer = setTimeout(async () => {
      try {
        const { data } = await call('GET',
          `/public/display-names?name=${encodeURIComponent(name)}`);
        Object.assign(preview, { name, initial: data.initial });
        draw();
      } catch (error) {
        if (!(error instanceof Problem)) preview.asked = ''; // offline: asked at the next key
      }
    }, 150);
  }
  return '…';
}

function languageSwitch() {
  const choose = (event) => {
    const code = event.currentTarget.value;
    location.replace(`${location.pathname}?lang=${code}${location.hash}`);
  };
  return html`<p class="language"><label for="language">${t('Language')}</label> <select
    id="language" @change=${choose}>${Object.entries(LANGUAGES).map(([code, name]) => html`
    <option value=${code} lang=${code} ?selected=${code === lang}>${name}</option>`)}</select></p>`;
}

function refusalText(error) {
  if (error && error.status === 409 && error.problem.type === CLOSED) {
    return t('Registration for this tournament is closed.');
  }
  if (error && (error.status === 401 || error.status === 404)) {
    return t("This is not the tournament's registration link: ask its director for the link.");
  }
  if (error && error.lines) return error.lines().join(' ');
  return t('No connection: try again when online.');
}

function form() {
  const typed = state.typed.trim();
  const example = typed || 'Anna-Katharina Berger';
  const submit = async (event) => {
    event.preventDefault();
    const elements = event.currentTarget.elements;
    const value = (name) => elements.namedItem(name).value.trim();
    const body = { name: value('name'), club: value('club') || null,
      contact: value('contact') || null, display: state.display };
    state.busy = true;
    state.refusal = null;
    draw();
    try {
      const { data } = await call('POST', `/tournaments/${tournamentId}/registrations`, { body });
      state.entrant = data;
    } catch (error) {
      state.refusal = refusalText(error);
    }
    state.busy = false;
    draw();
    /** @type {HTMLElement|null} */ (content.querySelector('.answer, .notice'))?.focus();
  };
  const typing = (event) => {
    state.typed = event.currentTarget.value;
    draw();
  };
  const choose = (event) => {
    state.display = event.currentTarget.value;
  };
  const words = { name: t('Your name'), club: t('Your club (optional)'),
    contact: t('How to reach you (optional: phone or e-mail)'),
    only: t('Only the tournament director sees this.') };
  const choice = (value, label) => html`<label class="check"><input type="radio" name="display"
    value=${value} .checked=${state.display === value} @change=${choose}><span>${label}</span>
    </label>`;
  return html`<form class="card register" @submit=${submit}>
    ${field('reg-name', words.name, html`<input id="reg-name" name="name" type="text"
      required maxlength="80" autocomplete="name" @input=${typing}>`)}
    ${field('reg-club', words.club, html`<input id="reg-club" name="club"
      type="text" maxlength="80" autocomplete="organization">`)}
    ${field('reg-contact', words.contact, html`<input
      id="reg-contact" name="contact" type="text" maxlength="120" autocomplete="email">`,
    words.only)}
    <fieldset class="display"><legend>${t('Your name in the published results')}</legend>${
      choice('full', t('Full name: {name}', { name: example }))}${
      choice('initial', t('First name and initial: {name}', { name: initialOf(example) }))}
    </fieldset>
    <button class="primary" type="submit" ?disabled=${state.busy}>${t('Register')}</button>
    ${state.refusal ? html`<p class="notice error" role="alert" tabindex="-1">${
      state.refusal}</p>` : nothing}</form>`;
}

function answer(entrant) {
  const again = () => {
    Object.assign(state, { entrant: null, typed: '', display: 'full' });
    render(nothing, content);
    draw();
  };
  const lines = entrant.status === 'waiting'
    ? [t('The tournament is full: you are on the waiting list, number {position}.',
      { position: entrant.waiting_position }),
    t('If a place becomes free, you move up in the order of the list.')]
    : [t('You are registered, {name}.', { name: entrant.display_name })];
  return html`<section class="card answer ${entrant.status}" role="status" tabindex="-1">${
    lines.map((line) => html`<p>${line}</p>`)}<button type="button"
    @click=${again}>${t('Register someone else')}</button></section>`;
}

function page() {
  const heading = t('Register for the tournament');
  const top = html`${languageSwitch()}<h1>${heading}</h1>${tournamentName
    ? html`<p class="tournament">${tournamentName}</p>` : nothing}`;
  if (!token) {
    return html`${top}<p class="notice error" role="alert">${
      t("Open this page with the tournament's registration link (#token=…).")}</p>`;
  }
  return html`${top}${state.entrant ? answer(state.entrant) : form()}`;
}

function draw() {
  render(page(), content);
}

content.replaceChildren();
draw();
