// A table's season and rate (docs/league.md); money as the language writes it is money.js's.

import { api, ProblemError } from './api.js';
import { field } from './club-shared.js';
import { toast } from './dom.js';
import { lang, t } from './i18n.js';
import { html, nothing } from './lit-html.js';
import { format, minor, rateWords } from './money.js';
import { tookTable } from './model.js';

/** The select of a table's season: "No season" and the club's seasons of the game. */
function seasonSelect(id, seasons, chosen, onchange) {
  const none = t('No season');
  return html`<select id=${id} @change=${onchange}><option value="">${none}</option>${seasons.map(
    (s) => html`<option value=${s.id} ?selected=${s.id === chosen}>${s.name}</option>`)}</select>`;
}

/** The one season open today, if only one is. */
export function defaultSeason(seasons) {
  const today = new Date().toLocaleDateString('sv'); // YYYY-MM-DD, the phone's day
  const open = seasons.filter(
    (s) => (!s.starts_on || s.starts_on <= today) && (!s.ends_on || today <= s.ends_on),
  );
  return open.length === 1 ? open[0].id : null;
}

// Amounts as the language writes them: "0,05" in German and Spanish, "0.05" in English; either
// separator is read (a phone's keyboard may offer only one), no grouping.
const decimal = new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 6 });

/** An amount typed in a field: a number (either separator), null for none, NaN for neither. */
export function readAmount(text) {
  const typed = String(text).trim();
  if (!typed) return null;
  return /^(\d+([.,]\d*)?|[.,]\d+)$/.test(typed) ? Number(typed.replace(',', '.')) : NaN;
}

/** A rate's fields as state (the text typed, the amount refused). `rows(disabled, draw)`:
 *  their templates (`draw()` after a change of settlement); `problem()`: the words for a bad
 *  amount (its field marked), else null; `value()`: the API's `rate` (null: none), with its
 *  currency only if `sendCurrency`. */
export function rateFields(units, c, rate, sendCurrency = true) {
  const d = minor(c);
  const symbol = format(c)
    .formatToParts(0)
    .find((p) => p.type === 'currency').value;
  const shown = (value) => (value === '' ? '' : decimal.format(value));
  const cents = new Intl.NumberFormat(lang, { useGrouping: false, minimumFractionDigits: d });
  const id = `s-${Math.random().toString(36).slice(2, 9)}`; // the fields' ids: unique on a page
  const words = {
    amount:
      units === 'points'
        ? t('Money per point ({currency})', { currency: symbol })
        : t('Money per chip ({currency})', { currency: symbol }),
    fee: t('Table fee per player ({currency})', { currency: symbol }),
    none: t('Not for money'),
    settling: t('Settling the scores'),
    pairs: t('Pairwise difference'),
    average: t('Against the average'),
  };
  const typed = {
    amount: shown(rate ? rate.cents / rate.per / 10 ** d : ''),
    fee: rate && rate.table_fee_cents ? cents.format(rate.table_fee_cents / 10 ** d) : '',
    settlement: units === 'points' ? rate?.point_settlement || 'pairs' : null,
  };
  /** @type {Record<string, boolean>} (absent: not checked yet) */
  const invalid = {};
  const number = (name, disabled, placeholder = nothing) => html`<input id=${`${id}-${name}`}
    type="text" inputmode="decimal" autocomplete="off" placeholder=${placeholder}
    aria-invalid=${name in invalid ? String(invalid[name]) : nothing} ?disabled=${disabled}
    .value=${typed[name]} @input=${(event) => { typed[name] = event.target.value; }}>`;
  return {
    rows(disabled = false, draw = () => {}) {
      const settle = (event) => {
        typed.settlement = event.target.value;
        draw();
      };
      const amount = field(`${id}-amount`, words.amount, number('amount', disabled, words.none));
      const fee = field(`${id}-fee`, words.fee, number('fee', disabled));
      if (!typed.settlement) return html`${amount}${fee}`;
      // (A template of its own: fields of other units are new inputs, not these with old text.)
      const settlement = html`<select id=${`${id}-settlement`} ?disabled=${disabled}
        @change=${settle}><option value="pairs">${words.pairs}</option><option value="average"
        ?selected=${typed.settlement === 'average'}>${words.average}</option></select>`;
      return html`${amount}${fee}${field(`${id}-settlement`, words.settling, settlement)}`;
    },
    problem() {
      for (const name of ['amount', 'fee']) {
        const bad = Number.isNaN(readAmount(typed[name]));
        invalid[name] = bad;
        if (bad)
          return t('{field}: write an amount such as {example}.', {
            field: words[name],
            example: decimal.format(0.05),
          });
      }
      return null;
    },
    value() {
      const feeCents = Math.round((readAmount(typed.fee) || 0) * 10 ** d);
      const perUnit = readAmount(typed.amount);
      if (perUnit === null && !feeCents) return null;
      // per: the smallest power of ten that makes the cents whole
      const cents = (perUnit || 0) * 10 ** d;
      const per =
        [1, 10, 100, 1000].find((p) => Math.abs(Math.round(cents * p) - cents * p) < 1e-6) || 1000;
      const out = { cents: Math.round(cents * per), per, table_fee_cents: feeCents };
      if (sendCurrency) out.currency = c;
      if (typed.settlement) out.point_settlement = typed.settlement;
      return out;
    },
  };
}

/** A setting is absolute, not based on the hands: guarded by the version just read. */
function saveSettings(ctx, app, body) {
  const token = ctx.adminToken || ctx.token;
  return api
    .table(ctx.id, token)
    .then(({ data }) => api.updateTable(ctx.id, token, body, data.version))
    .then(
      ({ data }) => {
        tookTable(ctx, data);
        app.update();
      },
      (error) =>
        toast(
          error instanceof ProblemError ? error.lines().join(' ') : t('No connection.'),
          'error',
        ),
    );
}

/** What the settings show besides the table (`state.settings`): the club's seasons of the
 *  game (admin token only) and the rate's fields (its currency, else the club's). */
export function loadSettings(ctx, app) {
  const table = ctx.table;
  const { settings } = app.state();
  if (settings && settings.table === table) return;
  app.setState({ settings: { table, seasons: null, rate: null } });
  const update = (patch) => {
    const now = app.state().settings;
    if (now && now.table === table) app.setState({ settings: { ...now, ...patch } });
  };
  if (ctx.adminToken) {
    api.seasons(table.club_id, ctx.adminToken).then(
      ({ data }) => {
        update({ seasons: data.filter((s) => s.variant === table.variant) });
      },
      () => {},
    );
  }
  const currency = table.rate
    ? Promise.resolve(table.rate.currency)
    : ctx.adminToken
      ? api.club(table.club_id, ctx.adminToken).then(
          ({ data }) => data.currency,
          () => null,
        )
      : Promise.resolve(null);
  currency.then((code) => {
    update({ rate: rateFields(table.units, code || 'EUR', table.rate, !!code) });
  });
}

/** The season (admin token only) and the rate (a table's phones too, while it is open). */
export function settingsView(ctx, state, app) {
  const table = ctx.table;
  const { seasons, rate } = state.settings || {};
  const redraw = () => app.setState({});
  const submit = (event) => {
    event.preventDefault();
    const problem = rate.problem();
    redraw(); // the amount refused, or none, marked
    if (problem) toast(problem, 'error');
    else saveSettings(ctx, app, { rate: rate.value() });
  };
  const chosen = (event) => saveSettings(ctx, app, { season_id: event.target.value || null });
  const seasonRow = seasons
    ? field('settings-season', t('Counts for the season'),
      seasonSelect('settings-season', seasons, table.season_id, chosen))
    : nothing;
  const may = table.status === 'open' || !!ctx.adminToken;
  const plays = table.rate
    ? t('Plays for {rate}.', { rate: rateWords(table.rate, table.units) })
    : t('Not for money');
  const rateForm = rate
    ? html`<form @submit=${submit}>
        <p>${plays}</p>
        ${rate.rows(!may, redraw)}
        ${may ? html`<button type="submit">${t('Save the rate')}</button>` : nothing}
      </form>`
    : nothing;
  // Open stays open when the screen is drawn again (a hand recorded on another phone).
  const toggled = (event) => {
    const { open } = event.target;
    if (open !== !!state.settingsOpen) app.setState({ settingsOpen: open });
  };
  return html`<details class="card settings" ?open=${!!state.settingsOpen} @toggle=${toggled}>
    <summary>${t('Season and money')}</summary>
    <div>${seasonRow}</div>
    <div>${rateForm}</div>
  </details>`;
}
