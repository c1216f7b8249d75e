// Running the club with its admin token: players (add, rename, retire, bring back), a new
// season, export and import, rotating the admin token, the read-only link with its QR code,
// the club's webhooks (added with their secret shown once, failing or turned off, deleted).
// Loaded by league.js only on a phone that keeps the club's admin token; drawn, as that screen,
// from its state (`screen`): what is being renamed, the import's outcome, the secret just made.
// (The texts are worded before each template: the catalogs' extractor reads none inside one.)

import { html, nothing } from './lit-html.js';
import { call } from './api.js';
import { toast } from './dom.js';
import { loadVariants } from './model.js';
import { qrSvg } from './qr.js';
import { store } from './store.js';
import { download, enc, field, link, problemText, twoStep } from './club-shared.js';
import { day, lang, t, tn } from './i18n.js';

async function attempt(action) {
  try { return await action(); } catch (error) { toast(problemText(error), 'error'); return null; }
}

/** A form's text input `name`, trimmed. */
const typed = (event, name) => event.target.elements.namedItem(name).value.trim();

const nameInput = (id, value = '') => html`<input id=${id} name="name" type="text" maxlength="80"
  autocomplete="off" .value=${value}>`;

// players

export function playerTools(screen, p) {
  const patch = (body, done) => attempt(async () => {
    await call('PATCH', `/players/${enc(p.id)}`, { token: screen.token, body });
    toast(done);
    screen.renaming = null;
    await screen.reload();
  });
  if (screen.renaming === p.id) {
    const save = (event) => {
      event.preventDefault();
      const name = typed(event, 'name');
      patch({ name }, t('Renamed to {name}.', { name }));
    };
    const words = { label: t('New name for {name}', { name: p.name }), save: t('Save') };
    return html`<span class="tools"><form class="inline" @submit=${save}>${field(`rename-${p.id}`,
      words.label, nameInput(`rename-${p.id}`, p.name))}<button class="small"
      type="submit">${words.save}</button></form></span>`;
  }
  const rename = () => {
    screen.renaming = p.id;
    screen.draw();
    document.getElementById(`rename-${p.id}`)?.focus();
  };
  const words = { rename: t('Rename'), back: t('Bring back'),
    isBack: t('{name} is back.', { name: p.name }) };
  const retire = p.retired
    ? html`<button class="small" type="button"
      @click=${() => patch({ retired: false }, words.isBack)}>${words.back}</button>`
    : twoStep(screen, `retire:${p.id}`, t('Retire'), t('Retire? Tap again'), () => patch(
      { retired: true }, t('{name} retired: the history stays.', { name: p.name })));
  return html`<span class="tools"><button class="small" type="button"
    @click=${rename}>${words.rename}</button>${retire}</span>`;
}

export function addPlayer(screen) {
  const add = (event) => {
    event.preventDefault();
    const name = typed(event, 'name');
    if (!name) { event.target.elements.namedItem('name').focus(); return; }
    attempt(async () => {
      const path = `/clubs/${enc(screen.id)}/players`;
      await call('POST', path, { token: screen.token, body: { name } });
      toast(t('{name} added.', { name }));
      event.target.reset();
      await screen.reload();
    });
  };
  const words = { title: t('Add a player'), name: t('Name'), add: t('Add') };
  return html`<form class="card" @submit=${add}><h3>${words.title}</h3>
    ${field('new-player', words.name, nameInput('new-player'))}
    <button class="small" type="submit">${words.add}</button></form>`;
}

// running the club

/** What the admin's screen reads: the games (for a new season) and the club's webhooks. */
export async function loadManage(screen) {
  const path = `/clubs/${enc(screen.id)}/webhooks`;
  const [variants, hooks] = await Promise.all([loadVariants().catch(() => null),
    attempt(() => call('GET', path, { token: screen.token }))]);
  return { variants, hooks: hooks ? hooks.data : [] };
}

export function manage(screen, data) {
  const words = { title: t('Run the club'),
    hint: t(
      'Players are added, renamed and retired under Players; sittings are closed, and their links revoked, under Tables.',
    ) };
  return html`<h2>${words.title}</h2>${nightLink(screen)}${seasonForm(screen, data.variants)}
    ${backup(screen)}${tokens(screen)}${webhooks(screen, data.hooks)}
    <p class="hint">${words.hint}</p>`;
}

// The club night's admin screen is a page of its own (service/static/nights/admin.js), and so
// is an open tournament's (tournament.js).
function nightLink(screen) {
  const words = { title: t('Club night'),
    hint: t(
      'Start a club night of several tables, draw its series, follow its standings and money.',
    ),
    open: t('Open the club night screen') };
  return html`<section class="card"><h3>${words.title}</h3><p class="hint">${words.hint}</p>
    <a class="button" href="/clubs/${enc(screen.id)}/night-admin?lang=${lang}">${words.open}</a>
    <a class="button" href="/clubs/${enc(screen.id)}/tournament-admin?lang=${lang}">${
      t('Open tournaments')}</a></section>`;
}

/** A new season of one of the games (the first the service lists is offered first). */
function seasonForm(screen, variants) {
  const words = { title: t('New season'), name: t('Name'), game: t('Game|variant'),
    starts: t('Starts on'), ends: t('Ends on'), start: t('Start the season'),
    offline: t('No connection: try again when online.') };
  if (!variants) {
    return html`<section class="card"><h3>${words.title}</h3>
      <p class="notice error">${words.offline}</p></section>`;
  }
  const start = (event) => {
    event.preventDefault();
    const value = (name) => event.target.elements.namedItem(name).value;
    attempt(async () => {
      const { data } = await call('POST', `/clubs/${enc(screen.id)}/seasons`, { token: screen.token,
        body: { name: typed(event, 'name'), variant: value('variant'),
          starts_on: value('starts') || null, ends_on: value('ends') || null } });
      toast(t('Season {name} started.', { name: data.name }));
      screen.app.go(link(screen.id, { view: 'standings', season: data.id }));
    });
  };
  const year = t('Season {year}', { year: String(new Date().getFullYear()) }); // 2026, not 2.026
  const games = html`<select id="season-game" name="variant">${variants.map((v) => html`
    <option value=${v.name}>${v.title}</option>`)}</select>`;
  const dateInput = (name) => html`<input id="season-${name}" name=${name} type="date">`;
  return html`<form class="card" @submit=${start}><h3>${words.title}</h3>
    ${field('season-name', words.name, nameInput('season-name', year))}
    ${field('season-game', words.game, games)}
    <div class="row3">${field('season-starts', words.starts, dateInput('starts'))}${field(
      'season-ends', words.ends, dateInput('ends'))}</div>
    <button class="small" type="submit">${words.start}</button></form>`;
}

// export and import

async function importClub(screen, event) {
  event.preventDefault();
  const file = event.target.elements.namedItem('file');
  if (!file.files.length) { file.focus(); return; }
  const said = (outcome) => { screen.imported = outcome; screen.draw(); };
  let body;
  try { body = JSON.parse(await file.files[0].text()); } catch {
    said({ problem: t('The file is not complete JSON (truncated?). Nothing was imported.') });
    return;
  }
  try {
    const { data } = await call('POST', '/clubs/import', { body });
    store.saveClub({ id: data.id, name: data.name, token: data.admin_token });
    store.useClub(screen.id);
    const n = data.imported;
    const counts = [tn(n.players, '{n} player', '{n} players'),
      tn(n.seasons, '{n} season', '{n} seasons'),
      tn(n.tables, '{n} table', '{n} tables'), tn(n.hands, '{n} hand', '{n} hands')].join(', ');
    said({ done: t('Imported as a new club “{name}”: {counts}. This phone keeps its admin token.',
      { name: data.name, counts }), id: data.id });
  } catch (error) {
    said({ problem: t('Nothing was imported: {problem}', { problem: problemText(error) }) });
  }
}

function backup(screen) {
  const exporter = () => attempt(async () => {
    const { data } = await call('GET', `/clubs/${enc(screen.id)}/export`, { token: screen.token });
    const name = t('club-{name}.json', { name: screen.club.name });
    download(name, 'application/json', JSON.stringify(data));
  });
  const words = { title: t('Export and import'),
    hint: t('The export holds every player, season, table and hand with its history.'),
    download: t('Download the export'), file: t('Club file to import (a new club is made)'),
    import: t('Import'), open: t('Open the imported club') };
  const outcome = screen.imported || {};
  const file = html`<input id="import-file" name="file" type="file"
    accept="application/json,.json">`;
  return html`<section class="card"><h3>${words.title}</h3><p class="hint">${words.hint}</p>
    <div class="buttons"><button class="small" type="button" @click=${exporter}>${words.download}
    </button></div>
    <form @submit=${(event) => importClub(screen, event)}>${field('import-file', words.file, file)}
      <button class="small" type="submit">${words.import}</button></form>
    <div role="status">${outcome.problem ? html`<p class="notice error">${outcome.problem}</p>`
      : nothing}${outcome.done ? html`<p class="notice ok">${outcome.done}</p><a
      class="button small" href=${link(outcome.id)}>${words.open}</a>` : nothing}</div>
    </section>`;
}

// links and tokens

function tokens(screen) {
  const club = store.clubs()[screen.id];
  const url = club.viewer && `${location.origin}/${link(screen.id, { viewer: club.viewer })}`;
  const words = { title: t('Links and tokens'),
    about: t(
      'A read-only link shows the standings, tables and players (for a noticeboard or a TV) and changes nothing.',
    ),
    link: t('Read-only link to the club'), qr: t('QR code of the read-only link to the club'),
    none: t('No read-only link made on this phone yet.'),
    rotate: t(
      'Rotate the admin token if it may have leaked: this phone keeps the new one, every other phone must open the club again.',
    ) };
  const shown = url
    ? html`<div class="qrbox small">${qrSvg(url, words.qr)}</div>
      <input class="sharelink" type="text" readonly .value=${url} aria-label=${words.link}>`
    : html`<p class="hint">${words.none}</p>`;
  // The old link is this phone's, when it has one; without one, this phone cannot know
  // whether another made it, and says so rather than warn of a link that may not exist.
  const make = twoStep(screen, 'viewer', club.viewer ? t('Make a new read-only link')
    : t('Make the read-only link'), club.viewer ? t('The old link stops working. Tap again')
    : t('A read-only link another phone made would stop working. Tap again'), async () => {
    const path = `/clubs/${enc(screen.id)}/viewer-token`;
    const { data } = await call('POST', path, { token: screen.token });
    store.saveClub({ ...store.clubs()[screen.id], viewer: data.token });
    toast(t('Read-only link made.'));
  });
  const rotate = twoStep(screen, 'admin-token', t('Rotate the admin token'),
    t('Other phones lose the admin token. Tap again'), async () => {
      const path = `/clubs/${enc(screen.id)}/admin-token`;
      const { data } = await call('POST', path, { token: screen.token });
      store.saveClub({ ...store.clubs()[screen.id], token: data.token, fresh: true });
      screen.token = data.token;
      toast(t('New admin token kept on this phone: the old one no longer works.'));
    });
  return html`<section class="card"><h3>${words.title}</h3><p>${words.about}</p>${shown}
    <div class="buttons">${make}</div><p class="hint">${words.rotate}</p>
    <div class="buttons">${rotate}</div></section>`;
}

// webhooks

function hookState(hook) {
  if (!hook.enabled) {
    const off = hook.failing_since
      ? t('Turned off on {day}: it failed from {since} on.',
        { day: day(hook.disabled_at), since: day(hook.failing_since) })
      : t('Turned off on {day}.', { day: day(hook.disabled_at) });
    return html`<p class="notice error">${off}</p>`;
  }
  if (hook.failing_since) {
    const failing = t('Failing since {day}; retried.', { day: day(hook.failing_since) });
    return html`<p class="notice error">${failing}</p>`;
  }
  const delivering = t('Delivering');
  return html`<p class="hint">${delivering}</p>`;
}

function hookItem(screen, path, hook) {
  const at = `${path}/${enc(hook.id)}`;
  const turnOn = () => attempt(async () => {
    await call('PATCH', at, { token: screen.token, body: { enabled: true } });
    screen.madeSecret = null;
    toast(t('Webhook turned back on: it sends what it missed.'));
    await screen.reload();
  });
  const remove = twoStep(screen, `hook:${hook.id}`, t('Delete'), t('Delete the webhook? Tap again'),
    async () => {
      await call('DELETE', at, { token: screen.token });
      screen.madeSecret = null;
      toast(t('Webhook deleted.'));
      await screen.reload();
    });
  const words = { url: t('Webhook URL'), on: t('Turn back on') };
  return html`<li><input class="sharelink" type="text" readonly .value=${hook.url}
    aria-label=${words.url}>${hookState(hook)}<div class="buttons">${hook.enabled ? nothing
    : html`<button class="small" type="button" @click=${turnOn}>${words.on}</button>`}${remove}
    </div></li>`;
}

function webhooks(screen, hooks) {
  const path = `/clubs/${enc(screen.id)}/webhooks`;
  const add = (event) => {
    event.preventDefault();
    const url = typed(event, 'url');
    if (!url) { event.target.elements.namedItem('url').focus(); return; }
    attempt(async () => {
      const { data } = await call('POST', path, { token: screen.token,
        body: { url, event_types: ['*'] } });
      event.target.reset();
      screen.madeSecret = data.secret; // shown until the next change of the webhooks
      await screen.reload();
    });
  };
  const words = { title: t('Webhooks'),
    hint: t(
      'Programs of the club are sent every change as it happens, signed (see the API guide).',
    ),
    none: t('No webhook yet.'),
    made: t(
      'Webhook added. Its signing secret, shown this once only: copy it into the receiving program.',
    ),
    secret: t('Signing secret'), url: t('URL to send every change to'), add: t('Add the webhook') };
  const secret = screen.madeSecret ? html`<p class="notice ok">${words.made}</p>
    <input class="sharelink" type="text" readonly .value=${screen.madeSecret}
      aria-label=${words.secret}>` : nothing;
  const url = html`<input id="hook-url" name="url" type="url" maxlength="2000" autocomplete="off"
    placeholder="https://">`;
  return html`<section class="card"><h3>${words.title}</h3><p class="hint">${words.hint}</p>
    ${hooks.length ? html`<ul class="webhooks">${hooks.map((hook) => hookItem(screen, path, hook))}
      </ul>` : html`<p class="hint">${words.none}</p>`}${secret}
    <form @submit=${add}>${field('hook-url', words.url, url)}<button class="small"
      type="submit">${words.add}</button></form></section>`;
}
