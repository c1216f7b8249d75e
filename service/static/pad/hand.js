// The hand form: one widget per field of the game's description (GET /api/v1/variants, read by
// hand-fields.js), shown and required as the description's conditions say, with a live
// preview of the settlement. No game is known here by name. Each widget is a function of the
// field and the form's values returning a template; the form is drawn again (lit-html render)
// after every change.

import { api, NetworkError, ProblemError } from './api.js';
import { SUITS, plain, signed, suitName, title } from './dom.js';
import { html, noChange, nothing, render } from './lit-html.js';
import { num, t, tn } from './i18n.js';
import {
  NONE,
  cardRanks,
  everyRank,
  forTable,
  formFields,
  isGiven,
  isRequired,
  isShown,
  missingOf,
  optionValues,
  recordOf,
  targetOf,
  valuesFrom,
} from './hand-fields.js';
import { errorTitle, fieldWords, kindTitle } from './hand-words.js';
import { resultWord, seatName, shortName, stateBefore, variantOptions } from './model.js';
import { settlementView } from './settlement.js';
import { store } from './store.js';

const toSave = (/** @type {string[]} */ missing) =>
  t('To save: {missing}.', { missing: missing.join(', ') });

/** What the form asks for while a field is missing: the description's prompt, else its title. */
const promptOf = (/** @type {FormField} */ f) =>
  f.field.prompt || t('set {field}', { field: f.title });

const HELD_BY = { declarers: t('Held by declarers'), defenders: t('Held by defenders') };

// --- building blocks: each returns a template, drawn again from the values on every change ---

const chosenSpan = (chosen) => html`<span class="chosen">${chosen}</span>`;

/** A fieldset with a legend, for field `f` (shown as its conditions say); `chosen` names what
 *  is chosen in full in the legend ("Declarer: Anna-Katharina Berger"). */
function group(f, ui, label, content, chosen = null) {
  return html`<fieldset class="group" data-field=${f.name} ?hidden=${!ui.shown(f)}>
    <legend>${label}${chosen === null ? nothing : chosenSpan(chosen)}</legend>
    ${content}
  </fieldset>`;
}

/** A row of big toggle buttons, one choice at a time (`isOn` null: buttons that only act).
 *  An option: {value, label | content, aria?, disabled?, hidden?, own?, className?}. */
function choiceRow(options, isOn, choose, extraClass = '', rowClass = '', rowHidden = false) {
  return html`<div class=${`row${rowClass}`} role="group" ?hidden=${rowHidden}>
    ${options.map(
      (o) =>
        html`<button
          type="button"
          class=${`choice${extraClass}${o.className || ''}`}
          aria-pressed=${isOn ? String(isOn(o.value)) : nothing}
          aria-label=${o.aria || nothing}
          data-value=${o.value ?? nothing}
          ?disabled=${!!o.disabled}
          ?hidden=${!!o.hidden}
          @click=${() => choose(o.value)}
        >${o.content || o.label}</button
        >`,
    )}
  </div>`;
}

function stepper(label, value, set, min, max, note) {
  const shown = value === null || value === undefined ? '–' : num(value);
  return html`<div class="stepper">
    <button
      type="button"
      class="step"
      aria-label=${t('{label}: one less', { label })}
      ?disabled=${value !== null && value <= min}
      @click=${() => set(Math.max(min, (value ?? min) - 1))}
    >−</button
    ><output class="count" aria-live="polite">${shown}</output>
    <button
      type="button"
      class="step"
      aria-label=${t('{label}: one more', { label })}
      ?disabled=${value !== null && value >= max}
      @click=${() => set(Math.min(max, (value ?? min) + 1))}
    >+</button
    ><span class="hint">${note}</span>
  </div>`;
}

const suitContent = (s) =>
  html`<span class="suit s-${s}" aria-hidden="true">${SUITS[s] || ''}</span
    ><span class="word">${suitName(s)}</span>`;

// --- the widgets, one per kind of field (hand-fields.js widgetOf): each takes the field and
// the form's FormUi (its values, the table's seats, set/changed) and returns its template.

const WIDGETS = {
  kind(f, ui) {
    const { form } = ui;
    // A row of words: each as wide as it is, wrapped whole.
    const row = choiceRow(
      (f.field.allowed || []).map((k) => ({ value: k, label: kindTitle(form.variant, k) })),
      (x) => form.values.kind === x,
      (x) => ui.set('kind', x),
      ' small',
      ' fill',
    );
    return html`<div
      class="group kinds"
      role="group"
      aria-label=${f.title}
      data-field=${f.name}
      ?hidden=${!ui.shown(f)}
    >
      ${row}
    </div>`;
  },

  contract(f, ui) {
    const { form } = ui;
    const options = (form.variant.contracts || []).map((c) => ({
      value: c.name,
      label: c.title || title(c.name),
    }));
    // "Grossfrage" on one line, not broken inside the word.
    const isOn = (x) => form.values.contract === x;
    const row = choiceRow(options, isOn, (x) => ui.set('contract', x), ' contract', ' fill');
    return group(f, ui, f.title, row);
  },

  suit(f, ui) {
    const { form } = ui;
    const options = (f.field.allowed || []).map((s) => ({ value: s, content: suitContent(s) }));
    if (f.field.nullable) options.push({ value: NONE, label: f.field.none_title || t('None') });
    const isOn = (x) => form.values[f.name] === x;
    return group(f, ui, f.title, choiceRow(options, isOn, (x) => ui.set(f.name, x), ' suitbtn'));
  },

  choice(f, ui) {
    const { form } = ui;
    const options = (f.field.allowed || []).map((a) => ({ value: a, label: title(a) }));
    if (f.field.nullable) options.push({ value: NONE, label: f.field.none_title || t('None') });
    const isOn = (x) => form.values[f.name] === x;
    return group(f, ui, f.title, choiceRow(options, isOn, (x) => ui.set(f.name, x)));
  },

  seat(f, ui) {
    const { form, table } = ui;
    const v = form.values;
    const own = f.field.own_card_of; // the partner may be the declarer: his own card
    // The short name shows, the full name is read out (it starts with the short one).
    const options = table.seats.map((s) => {
      const short = table.shortName(s.seat);
      const mine = !!own && v[own] === s.seat;
      const ownLabel = mine ? t('{name} (own card)', { name: s.name }) : s.name;
      return {
        value: s.seat,
        content: html`<span class="short fit">${short}</span>${own
            ? html`<span class="own">${' ' + t('(own card)')}</span>`
            : nothing}`,
        aria: own ? ownLabel : short === s.name ? null : s.name,
        className: mine ? ' own' : '',
      };
    });
    // An empty choice ("Alone", "Nobody") where the description names one, or the field is never
    // required; it hides while the field is required.
    if (f.field.nullable && (f.field.none_title || !f.field.required_when)) {
      options.push({
        value: NONE,
        label: f.field.none_title || t('Nobody'),
        hidden: isRequired(f, form),
      });
    }
    const isOn = (x) => (x === NONE ? v[f.name] === NONE || v[f.name] === null : v[f.name] === x);
    const row = choiceRow(options, isOn, (x) => ui.set(f.name, x), ' seat');
    const chosen = typeof v[f.name] === 'number' ? `: ${table.seatName(v[f.name])}` : '';
    return group(f, ui, f.title, row, chosen);
  },

  card(f, ui) {
    const { form } = ui;
    const v = form.values;
    const card = v[f.name];
    const allowed = cardRanks(f, form.variant, v);
    const ranks = choiceRow(
      everyRank(f, form.variant).map((r) => ({
        value: r,
        label: rankWord(r),
        hidden: !allowed.includes(r),
      })),
      (x) => card.rank === x,
      (x) => {
        card.rank = x;
        ui.changed();
      },
      ' small',
      ' ranks',
      allowed.length < 2,
    );
    const notSuit = f.field.not_suit_of; // a called card is never of the trump
    const suits = choiceRow(
      ((f.field.fields && f.field.fields.suit) || []).map((s) => ({
        value: s,
        content: suitContent(s),
        disabled: !!notSuit && s === v[notSuit],
      })),
      (x) => card.suit === x,
      (x) => {
        // Tapped again while the card may stay empty: no card.
        card.suit = card.suit === x && !isRequired(f, form) ? null : x;
        ui.changed();
      },
      ' suitbtn',
    );
    return group(f, ui, f.title, html`${suits}${ranks}`);
  },

  count(f, ui) {
    const set = (x) => ui.set(f.name, x, true);
    const max = f.field.max ?? 99;
    const { values } = ui.form;
    const counter = stepper(f.title, values[f.name], set, f.field.min ?? 0, max, ui.hint(f));
    return group(f, ui, f.title, counter);
  },

  points(f, ui) {
    // Card points without the keyboard: steps of 10 and 1 beside the field (typing works too).
    const v = ui.form.values;
    const min = f.field.min ?? 0;
    const max = f.field.max ?? 9999;
    const label = f.title;
    // From empty, the first tap lands near half the points: +10 → 70, −1 → 65 of 134.
    const up = Math.floor(max / 20) * 10;
    const down = Math.floor(max / 2) - 1;
    const by = (d) =>
      html`<button
        type="button"
        class="step small"
        aria-label=${d > 0
          ? t('{label}: plus {step}', { label, step: d })
          : t('{label}: minus {step}', { label, step: -d })}
        @click=${() => {
          const from = typeof v[f.name] === 'number' ? v[f.name] : d > 0 ? up : down;
          v[f.name] = Math.min(max, Math.max(min, from + d));
          ui.changed();
        }}
      >${`${d > 0 ? '+' : '−'}${Math.abs(d)}`}</button
      >`;
    const typed = (event) => {
      const { value } = event.target;
      v[f.name] = value === '' ? null : Number(value);
      ui.changed();
    };
    // What is being typed stays as typed (an empty or half-typed number).
    const typing = document.activeElement?.id === `points-${f.name}`;
    const input = html`<input
      class="num"
      id=${`points-${f.name}`}
      type="number"
      inputmode="numeric"
      min=${min}
      max=${max}
      aria-label=${label}
      .value=${typing ? noChange : String(v[f.name] ?? '')}
      @input=${typed}
    />`;
    const description = f.field.description
      ? html`<p class="hint">${plain(f.field.description)}</p>`
      : nothing;
    return group(
      f,
      ui,
      label,
      html`<div class="points">${by(-10)}${by(-1)}${input}${by(1)}${by(10)}</div>${description}`,
    );
  },

  flag(f, ui) {
    const { values } = ui.form;
    return html`<div class="group" data-field=${f.name} ?hidden=${!ui.shown(f)}>
      <button
        type="button"
        class="choice toggle"
        aria-pressed=${String(!!values[f.name])}
        @click=${() => ui.set(f.name, !values[f.name])}
      >${f.title}</button
      >
    </div>`;
  },

  yesno(f, ui) {
    const { values } = ui.form;
    const options = [
      { value: 'yes', label: t('Yes') },
      { value: 'no', label: t('No') },
    ];
    const isOn = (x) => values[f.name] === (x === 'yes');
    return group(f, ui, f.title, choiceRow(options, isOn, (x) => ui.set(f.name, x === 'yes')));
  },

  matadores(f, ui) {
    const { form } = ui;
    const held = form.values[f.name];
    const { matadores } = form.variant;
    const sides = (matadores && matadores.sides) || f.field.fields.side || [];
    const row = choiceRow(
      [
        { value: null, label: t('None') },
        ...sides.map((s) => ({ value: s, label: HELD_BY[s] || title(s) })),
      ],
      (x) => held.side === x,
      (x) => {
        held.side = x;
        if (!x) held.lower = 0;
        ui.changed();
      },
      ' small',
      ' fill',
    );
    const setLower = (x) => {
      held.lower = x;
      ui.changed();
    };
    const worth = t('worth {value}', { value: 1 + held.lower });
    const lower = stepper(t('Lower matadores'), held.lower, setLower, 0, maxLower(form), worth);
    return group(
      f,
      ui,
      t('Matadores (Spadilla, Manilla, Basta on one side)'),
      html`${row}
        <div ?hidden=${!held.side}>
          <p class="hint">${t('Lower matadores (trumps in unbroken order from the ace down)')}</p>
          ${lower}
        </div>`,
    );
  },

  /** Errors in two taps: the kind (the first, chosen already), then who made it; each tap on a
   *  seat adds one, in the order they happened. */
  errors(f, ui) {
    const { form, table } = ui;
    const kinds = form.variant.error_kinds || [];
    const list = form.values[f.name];
    const kind = ui.errorKind(f, kinds[0].name);
    const kindRow =
      kinds.length > 1
        ? choiceRow(
            kinds.map((k) => ({ value: k.name, label: errorTitle(form.variant, k.name) })),
            (x) => kind === x,
            (x) => ui.setErrorKind(f, x),
            ' small',
            ' wrap',
          )
        : nothing;
    const seats = choiceRow(
      table.seats.map((s) => ({
        value: s.seat,
        content: html`<span class="short fit">${table.shortName(s.seat)}</span>`,
        aria: t('Add an error by {name}', { name: s.name }),
      })),
      null,
      (x) => {
        list.push({ kind, seat: x });
        ui.changed();
      },
      ' seat small',
    );
    const made = list.map((e, i) => {
      const words = { error: errorTitle(form.variant, e.kind), name: table.seatName(e.seat) };
      const remove = () => {
        list.splice(i, 1);
        ui.changed();
      };
      return html`<li>${t('{error} by {name}', words)} <button
          type="button"
          class="small link"
          aria-label=${t('Remove {error} by {name}', words)}
          @click=${remove}
        >${t('remove')}</button
        ></li>`;
    });
    return group(
      f,
      ui,
      t('Errors (in the order they happened)'),
      html`<ul class="errors">
          ${made}
        </ul>
        ${kindRow}
        <p class="hint">${t('Tap who made it to add it:')}</p>
        ${seats}`,
    );
  },
};

/** The most lower matadores, by the player count and the trump (the game's suit field). */
function maxLower(form) {
  const most =
    form.variant.matadores &&
    form.variant.matadores.max_lower &&
    form.variant.matadores.max_lower[String(form.players)];
  const suitField = form.fields.find((x) => x.widget === 'suit');
  const trump = suitField ? form.values[suitField.name] : null;
  return (most && trump && most[trump]) ?? 7;
}

const RANKS = { ace: t('Ace'), king: t('King') };
const rankWord = (rank) => RANKS[rank] || title(rank);

/** The hand form: a <form> drawn again from its values (`render`) on every change.
 *  `opts`: {ctx, variant, number, record (edit), saveLabel, onSave(record, preview)}.
 *  Returns {element, discard(), hasDraft, redraw()} (redraw: after the table changed). */
export function handForm(opts) {
  const { ctx } = opts;
  const seated = ctx.table; // the table as the form opened: its seats, game and options
  const variant = forTable(opts.variant, seated.options || {}, seated.tricks);
  const fields = formFields(variant);
  /** @type {FormState} */
  const form = {
    variant,
    fields,
    values: valuesFrom(variant, fields, opts.record),
    players: seated.seats.length,
    options: optionValues(variant, seated.options || {}),
  };
  const v = form.values;
  const touched = new Set(opts.record ? fields.map((f) => f.name) : []); // counts a player set
  const auto = new Set(); // required flags the form set itself (it takes them back)
  const errorKinds = new Map(); // the kind of error chosen, by field (the first at the start)
  const hasErrorKinds = (variant.error_kinds || []).length > 0;
  const drawn = fields.filter((f) => f.widget !== 'errors' || hasErrorKinds);
  let lastPreview = null;
  let previewSeq = 0;
  let previewTimer = 0;
  const waiting = t('The settlement shows here as soon as the hand is complete.');
  let preview = html`<p class="hint">${waiting}</p>`;
  let note = ''; // the save bar's line once the hand is complete: the preview's scores

  const draftKey =
    opts.record === undefined ? `new:${ctx.id}:${opts.number}` : `edit:${ctx.id}:${opts.number}`;
  const draft = store.draft(draftKey);
  if (draft) {
    Object.assign(v, draft.v);
    for (const name of Array.isArray(draft.touched) ? draft.touched : []) touched.add(name);
  }
  let built = false;

  const changed = () => {
    follow();
    redraw();
    schedulePreview();
    // Only what a player entered is kept as a draft.
    if (built) store.saveDraft(draftKey, { v, touched: [...touched] });
  };

  /** After a change: counts that start at the target follow the contract until a player sets
   *  them; a card's rank and the lower matadores stay within what the hand allows; required
   *  flags are set (and taken back). */
  function follow() {
    for (const f of fields) {
      if (f.field.starts_at === 'target' && !touched.has(f.name)) v[f.name] = targetOf(variant, v);
      if (f.widget === 'card' && f.field.not_suit_of && v[f.name].suit === v[f.field.not_suit_of])
        v[f.name].suit = null;
      if (f.widget === 'card') {
        const allowed = cardRanks(f, variant, v);
        if (!allowed.includes(v[f.name].rank)) v[f.name].rank = allowed[0];
      }
      if (f.widget === 'matadores') v[f.name].lower = Math.min(v[f.name].lower, maxLower(form));
    }
    for (const f of fields) {
      if (f.widget !== 'flag') continue;
      const required = isRequired(f, form);
      if (required && !v[f.name]) {
        v[f.name] = true;
        auto.add(f.name);
      }
      if (!required && auto.has(f.name)) {
        v[f.name] = false;
        auto.delete(f.name);
      }
    }
  }

  function set(name, value, byHand = false) {
    v[name] = value;
    if (byHand) touched.add(name);
    auto.delete(name);
    changed();
  }

  /** Under a count that starts at the target: the target, and any flag the form set for it. */
  const hint = (f) => {
    if (f.field.starts_at !== 'target') return '';
    const target = t('target {target}', { target: targetOf(variant, v) });
    const flags = fields.filter((x) => auto.has(x.name) && v[x.name]).map((x) => x.title);
    if (!flags.length) return target;
    return (
      target +
      ' · ' +
      t('all {tricks}: {flag} is set', { tricks: v[f.name], flag: flags.join(', ') })
    );
  };

  /** @type {FormUi} */
  const ui = {
    form,
    table: {
      seats: seated.seats,
      seatName: (seat) => seatName(ctx, seat),
      shortName: (seat) => shortName(ctx, seat),
    },
    set,
    changed,
    hint,
    shown: (f) => isShown(f, form),
    errorKind: (f, first) => errorKinds.get(f.name) ?? first,
    setErrorKind: (f, kind) => {
      errorKinds.set(f.name, kind);
      changed();
    },
  };
  const missing = () => missingOf(form).map(promptOf);
  const statusId = `save-status-${opts.number}`;
  const element = document.createElement('form');
  element.className = 'handform';
  element.noValidate = true;
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    if (missing().length) redraw();
    else opts.onSave(recordOf(form), lastPreview);
  });

  function view() {
    const body = drawn.filter((f) => !f.more).map((f) => WIDGETS[f.widget](f, ui));
    const more = drawn.filter((f) => f.more);
    const shownMore = more.filter((f) => isShown(f, form));
    const given = (f) =>
      f.widget === 'errors' ? v[f.name].length : isGiven(f.widget, v[f.name]) ? 1 : 0;
    const count = shownMore.reduce((sum, f) => sum + given(f), 0);
    const moreBox = more.length
      ? html`<details class="more" ?hidden=${!shownMore.length}>
          <summary
            >${shownMore.some((f) => f.widget === 'matadores')
              ? t('Matadores, errors, more')
              : t('Errors and more')} <span class="badge"
              >${count ? tn(count, '({n} set)', '({n} set)') : ''}</span
            ></summary
          >
          ${more.map((f) => WIDGETS[f.widget](f, ui))}
        </details>`
      : nothing;
    const still = missing();
    const status = still.length ? toSave(still) : note;
    // Another phone recorded this hand meanwhile (a new hand's number is taken).
    const clash = opts.record === undefined && ctx.table.next_number > opts.number;
    const taken = t(
      'Hand {number} was just recorded on another phone. Saving will show both versions.',
      { number: opts.number },
    );
    // The fields apart from the save bar: on a phone's new-hand screen they scroll in their own
    // box above it, so the bar covers none of them (pad.css, "the record form").
    return html`<div class="fields">
        <p class="notice warn" role="alert" ?hidden=${!clash}>${clash ? taken : ''}</p>
        ${body} ${moreBox}
        <section
          class="preview"
          aria-live="polite"
          aria-atomic="true"
          aria-label=${t('Preview of the settlement')}
        >
          ${preview}
        </section>
      </div>
      <div class="footer">
        <p class="status" id=${statusId} aria-live="polite">${status}</p>
        <button
          type="submit"
          class=${still.length ? 'primary save incomplete' : 'primary save'}
          aria-describedby=${statusId}
          aria-disabled=${String(still.length > 0)}
        >${opts.saveLabel}</button
        >
      </div>`;
  }

  function redraw() {
    render(view(), element);
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 150);
  }

  function showPreview(content, line) {
    preview = content;
    note = line;
    redraw();
  }

  async function runPreview() {
    const seq = ++previewSeq;
    lastPreview = null;
    if (missing().length) {
      showPreview(html`<p class="hint">${waiting}</p>`, '');
      return;
    }
    try {
      const { data } = await api.preview({
        variant: seated.variant,
        players: form.players,
        options: variantOptions(seated),
        state: stateBefore(ctx, opts.number),
        hand: recordOf(form),
        names: seated.seats.map((seat) => seat.name), // the explanation names each player
      });
      if (seq !== previewSeq) return;
      lastPreview = data;
      // Short names: the bar stays small.
      const scores = data.deltas.map((d, i) => `${shortName(ctx, i)} ${signed(d)}`).join(', ');
      showPreview(
        settlementView(ctx, data, { heading: t('Preview') }),
        data.result ? t('{result}: {scores}', { result: resultWord(data.result), scores }) : scores,
      );
    } catch (error) {
      if (seq !== previewSeq) return;
      if (error instanceof NetworkError) {
        const offline = t(
          'Offline: no preview. The hand is kept on this phone and settled when it is sent.',
        );
        showPreview(
          html`<p class="notice">${offline}</p>`,
          t('Offline — the hand will be sent when the connection returns.'),
        );
      } else if (error instanceof ProblemError) {
        const lines = error.lines((name) => fieldWords(variant, name));
        showPreview(
          html`<div class="notice error" role="alert">
            <strong>${t('This hand breaks a rule:')}</strong>
            <ul>${lines.map((line) => html`<li>${line}</li>`)}</ul>
          </div>`,
          t('Fix the hand to save it.'),
        );
      }
    }
  }

  changed();
  built = true;
  return { element, discard: () => store.dropDraft(draftKey), hasDraft: !!draft, redraw };
}
