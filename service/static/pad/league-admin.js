// Running the club with its admin token: players (add, rename, retire, bring back), a new
// season, export and import, rotating the admin token, the read-only link with its QR code,
// the club's webhooks (added with their secret shown once, failing or turned off, deleted).
// Loaded by league.js only on a phone that keeps the club's admin token.

import { call } from './api.js';
import { h, append, clear, toast } from './dom.js';
import { loadVariants } from './model.js';
import { qrSvg } from './qr.js';
import { store } from './store.js';
import { download, enc, field, link, problemText, twoStep } from './club-shared.js';
import { day, lang, t, tn } from './i18n.js';

async function attempt(action) {
  try { return await action(); } catch (error) { toast(problemText(error), 'error'); return null; }
}

const nameInput = (value = '') => h('input', { type: 'text', maxLength: 80, autocomplete: 'off', value });

export function player(ctx, p) {
  const box = h('span.tools');
  const patch = (body, done) => attempt(async () => {
    await call('PATCH', `/players/${enc(p.id)}`, { token: ctx.token, body });
    toast(done);
    ctx.again();
  });
  const rename = h('button.small', { type: 'button', onclick: () => {
    const input = nameInput(p.name);
    clear(box, h('form.inline', { onsubmit: (event) => { event.preventDefault(); patch({ name: input.value.trim() }, t('Renamed to {name}.', { name: input.value.trim() })); } },
      field(t('New name for {name}', { name: p.name }), input), h('button.small', { type: 'submit' }, t('Save'))));
    input.focus();
  } }, t('Rename'));
  const retire = p.retired
    ? h('button.small', { type: 'button', onclick: () => patch({ retired: false }, t('{name} is back.', { name: p.name })) }, t('Bring back'))
    : twoStep(t('Retire'), t('Retire? Tap again'), () => patch({ retired: true }, t('{name} retired: the history stays.', { name: p.name })));
  return append(box, [rename, retire]);
}

export function addPlayer(ctx) {
  const input = nameInput();
  return h('form.card', { onsubmit: (event) => {
    event.preventDefault();
    if (!input.value.trim()) { input.focus(); return; }
    attempt(async () => {
      await call('POST', `/clubs/${enc(ctx.id)}/players`, { token: ctx.token, body: { name: input.value.trim() } });
      toast(t('{name} added.', { name: input.value.trim() }));
      ctx.again();
    });
  } }, h('h3', t('Add a player')), field(t('Name'), input), h('button.small', { type: 'submit' }, t('Add')));
}

async function seasonForm(ctx) {
  const name = nameInput(t('Season {year}', { year: String(new Date().getFullYear()) })); // 2026, not 2.026
  const variant = h('select', (await loadVariants().catch(() => [{ name: 'american', title: 'American Solo' }]))
    .map((v) => h('option', { value: v.name }, v.title)));
  const starts = h('input', { type: 'date' });
  const ends = h('input', { type: 'date' });
  return h('form.card', { onsubmit: (event) => {
    event.preventDefault();
    attempt(async () => {
      const { data } = await call('POST', `/clubs/${enc(ctx.id)}/seasons`, { token: ctx.token, body: {
        name: name.value.trim(), variant: variant.value, starts_on: starts.value || null, ends_on: ends.value || null } });
      toast(t('Season {name} started.', { name: data.name }));
      ctx.app.go(link(ctx.id, { view: 'standings', season: data.id }));
    });
  } }, h('h3', t('New season')), field(t('Name'), name), field(t('Game|variant'), variant),
  h('div.row3', field(t('Starts on'), starts), field(t('Ends on'), ends)), h('button.small', { type: 'submit' }, t('Start the season')));
}

function backup(ctx) {
  const file = h('input', { type: 'file', accept: 'application/json,.json' });
  const outcome = h('div', { role: 'status' });
  const exporter = h('button.small', { type: 'button', onclick: () => attempt(async () => {
    const { data } = await call('GET', `/clubs/${enc(ctx.id)}/export`, { token: ctx.token });
    download(t('club-{name}.json', { name: ctx.club.name }), 'application/json', JSON.stringify(data));
  }) }, t('Download the export'));
  const importer = h('form', { onsubmit: async (event) => {
    event.preventDefault();
    if (!file.files.length) { file.focus(); return; }
    let body;
    try { body = JSON.parse(await file.files[0].text()); } catch {
      clear(outcome, h('p.notice.error', t('The file is not complete JSON (truncated?). Nothing was imported.')));
      return;
    }
    try {
      const { data } = await call('POST', '/clubs/import', { body });
      store.saveClub({ id: data.id, name: data.name, token: data.admin_token });
      store.useClub(ctx.id);
      const n = data.imported;
      const counts = [tn(n.players, '{n} player', '{n} players'), tn(n.seasons, '{n} season', '{n} seasons'),
        tn(n.tables, '{n} table', '{n} tables'), tn(n.hands, '{n} hand', '{n} hands')].join(', ');
      clear(outcome, h('p.notice.ok', t('Imported as a new club “{name}”: {counts}. This phone keeps its admin token.', { name: data.name, counts })),
        h('a.button.small', { href: link(data.id) }, t('Open the imported club')));
    } catch (error) { clear(outcome, h('p.notice.error', t('Nothing was imported: {problem}', { problem: problemText(error) }))); }
  } }, field(t('Club file to import (a new club is made)'), file), h('button.small', { type: 'submit' }, t('Import')));
  return h('section.card', h('h3', t('Export and import')), h('p.hint', t('The export holds every player, season, table and hand with its history.')),
    h('div.buttons', exporter), importer, outcome);
}

function viewerLink(ctx, token) {
  return `${location.origin}/${link(ctx.id, { viewer: token })}`;
}

function tokens(ctx) {
  const club = store.clubs()[ctx.id];
  const url = club.viewer && viewerLink(ctx, club.viewer);
  const shown = url ? [h('div.qrbox.small', qrSvg(url, t('QR code of the read-only link to the club'))),
    h('input.sharelink', { type: 'text', readOnly: true, value: url, 'aria-label': t('Read-only link to the club') })]
    : h('p.hint', t('No read-only link made on this phone yet.'));
  const make = twoStep(club.viewer ? t('Make a new read-only link') : t('Make the read-only link'), t('The old link stops working. Tap again'), async () => {
    const { data } = await call('POST', `/clubs/${enc(ctx.id)}/viewer-token`, { token: ctx.token });
    store.saveClub({ ...store.clubs()[ctx.id], viewer: data.token });
    toast(t('Read-only link made.'));
    ctx.again();
  });
  const rotate = twoStep(t('Rotate the admin token'), t('Other phones lose the admin token. Tap again'), async () => {
    const { data } = await call('POST', `/clubs/${enc(ctx.id)}/admin-token`, { token: ctx.token });
    store.saveClub({ ...store.clubs()[ctx.id], token: data.token, fresh: true });
    toast(t('New admin token kept on this phone: the old one no longer works.'));
    ctx.again();
  });
  return h('section.card', h('h3', t('Links and tokens')),
    h('p', t('A read-only link shows the standings, tables and players (for a noticeboard or a TV) and changes nothing.')),
    shown, h('div.buttons', make), h('p.hint', t('Rotate the admin token if it may have leaked: this phone keeps the new one, every other phone must open the club again.')),
    h('div.buttons', rotate));
}

function hookState(hook) {
  if (!hook.enabled) {
    return h('p.notice.error', hook.failing_since
      ? t('Turned off on {day}: it failed from {since} on.', { day: day(hook.disabled_at), since: day(hook.failing_since) })
      : t('Turned off on {day}.', { day: day(hook.disabled_at) }));
  }
  if (hook.failing_since) return h('p.notice.error', t('Failing since {day}; retried.', { day: day(hook.failing_since) }));
  return h('p.hint', t('Delivering'));
}

// The secret of the webhook just added, for the next drawing of the card only (shown once).
let madeSecret = null;

async function webhooks(ctx) {
  const path = `/clubs/${enc(ctx.id)}/webhooks`;
  const hooks = (await attempt(() => call('GET', path, { token: ctx.token })))?.data || [];
  const shown = madeSecret ? [h('p.notice.ok', t('Webhook added. Its signing secret, shown this once only: copy it into the receiving program.')),
    h('input.sharelink', { type: 'text', readOnly: true, value: madeSecret, 'aria-label': t('Signing secret') })] : [];
  madeSecret = null;
  const list = hooks.length ? h('ul.webhooks', hooks.map((hook) => {
    const at = `${path}/${enc(hook.id)}`;
    const on = !hook.enabled && h('button.small', { type: 'button', onclick: () => attempt(async () => {
      await call('PATCH', at, { token: ctx.token, body: { enabled: true } });
      toast(t('Webhook turned back on: it sends what it missed.'));
      ctx.again();
    }) }, t('Turn back on'));
    const remove = twoStep(t('Delete'), t('Delete the webhook? Tap again'), () => attempt(async () => {
      await call('DELETE', at, { token: ctx.token });
      toast(t('Webhook deleted.'));
      ctx.again();
    }));
    return h('li', h('input.sharelink', { type: 'text', readOnly: true, value: hook.url, 'aria-label': t('Webhook URL') }),
      hookState(hook), h('div.buttons', on, remove));
  })) : h('p.hint', t('No webhook yet.'));
  const url = h('input', { type: 'url', maxLength: 2000, autocomplete: 'off', placeholder: 'https://' });
  const add = h('form', { onsubmit: (event) => {
    event.preventDefault();
    if (!url.value.trim()) { url.focus(); return; }
    attempt(async () => {
      const { data } = await call('POST', path, { token: ctx.token, body: { url: url.value.trim(), event_types: ['*'] } });
      madeSecret = data.secret;
      ctx.again();
    });
  } }, field(t('URL to send every change to'), url), h('button.small', { type: 'submit' }, t('Add the webhook')));
  return h('section.card', h('h3', t('Webhooks')),
    h('p.hint', t('Programs of the club are sent every change as it happens, signed (see the API guide).')),
    list, ...shown, add);
}

// The club night's admin screen is a page of its own (service/static/nights/admin.js).
function nightLink(ctx) {
  return h('section.card', h('h3', t('Club night')), h('p.hint', t('Start a club night of several tables, draw its series, follow its standings and money.')),
    h('a.button', { href: `/clubs/${enc(ctx.id)}/night-admin?lang=${lang}` }, t('Open the club night screen')));
}

export async function manage(ctx, body) {
  body.append(h('h2', t('Run the club')), nightLink(ctx), await seasonForm(ctx), backup(ctx), tokens(ctx), await webhooks(ctx),
    h('p.hint', t('Players are added, renamed and retired under Players; sittings are closed, and their links revoked, under Tables.')));
}
