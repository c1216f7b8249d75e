// The hand form: one widget per field of the game's description (GET /api/v1/variants, read by
// hand-fields.js), shown and required as the description's conditions say, with a live
// preview of the settlement. No game is known here by name.

import { api, NetworkError, ProblemError } from './api.js';
import { h, clear, plain, signed, suitName, suitSpan, title } from './dom.js';
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

// --- building blocks --------------------------------------------------------------------------
/** A fieldset with a legend. */
function group(label, ...children) {
  return h('fieldset.group', h('legend', label), ...children);
}

/** A group whose legend names what is chosen in full ("Declarer: Anna-Katharina Berger"). */
function chosenGroup(label, chosen, ...children) {
  const out = h('span.chosen');
  const el = h('fieldset.group', h('legend', label, out), ...children);
  el.sync = () => {
    const c = chosen();
    out.textContent = c ? `: ${c}` : '';
  };
  return el;
}

/** A row of big toggle buttons, one choice at a time. */
function choiceRow(options, isOn, choose, extraClass = '') {
  const buttons = options.map((o) => {
    const b = h(
      `button.choice${extraClass}`,
      {
        type: 'button',
        'aria-pressed': isOn ? 'false' : null,
        'aria-label': o.aria || null,
        'data-value': o.value,
        onclick: () => choose(o.value),
      },
      o.content || o.label,
    );
    b.sync = () => {
      if (isOn) b.setAttribute('aria-pressed', String(isOn(o.value)));
      b.disabled = o.disabled ? o.disabled() : false;
      if (o.hidden) b.hidden = o.hidden();
    };
    return b;
  });
  const row = h('div.row', { role: 'group' }, buttons);
  row.sync = () => buttons.forEach((b) => b.sync());
  return row;
}

function stepper(label, get, set, min, max, hint) {
  const out = h('output.count', { 'aria-live': 'polite' });
  const top = () => (typeof max === 'function' ? max() : max);
  const less = h(
    'button.step',
    {
      type: 'button',
      'aria-label': t('{label}: one less', { label }),
      onclick: () => set(Math.max(min, (get() ?? min) - 1)),
    },
    '−',
  );
  const more = h(
    'button.step',
    {
      type: 'button',
      'aria-label': t('{label}: one more', { label }),
      onclick: () => set(Math.min(top(), (get() ?? min) + 1)),
    },
    '+',
  );
  const note = h('span.hint');
  const el = h('div.stepper', less, out, more, note);
  el.sync = () => {
    const value = get();
    out.textContent = value === null || value === undefined ? '–' : num(value);
    less.disabled = value !== null && value <= min;
    more.disabled = value !== null && value >= top();
    note.textContent = hint ? hint() : '';
  };
  return el;
}

// --- the widgets, one per kind of field (hand-fields.js widgetOf): each takes the field and the
// form's Env and returns its element; the `syncs` it pushes redraw it from the values.

const WIDGETS = {
  kind(f, env) {
    const { form } = env;
    const row = choiceRow(
      (f.field.allowed || []).map((k) => ({ value: k, label: kindTitle(form.variant, k) })),
      (x) => form.values.kind === x,
      (x) => env.set('kind', x),
      ' small',
    );
    row.classList.add('fill'); // a row of words: each as wide as it is, wrapped whole
    env.syncs.push(row.sync);
    return h('div.group.kinds', { role: 'group', 'aria-label': f.title }, row);
  },

  contract(f, env) {
    const { form } = env;
    const row = choiceRow(
      (form.variant.contracts || []).map((c) => ({
        value: c.name,
        label: c.title || title(c.name),
      })),
      (x) => form.values.contract === x,
      (x) => env.set('contract', x),
      ' contract',
    );
    row.classList.add('fill'); // "Grossfrage" on one line, not broken inside the word
    env.syncs.push(row.sync);
    return group(f.title, row);
  },

  suit(f, env) {
    const { form } = env;
    const options = (f.field.allowed || []).map((s) => ({
      value: s,
      content: [suitSpan(s), h('span.word', suitName(s))],
    }));
    if (f.field.nullable) options.push({ value: NONE, label: f.field.none_title || t('None') });
    const row = choiceRow(
      options,
      (x) => form.values[f.name] === x,
      (x) => env.set(f.name, x),
      ' suitbtn',
    );
    env.syncs.push(row.sync);
    return group(f.title, row);
  },

  choice(f, env) {
    const { form } = env;
    const options = (f.field.allowed || []).map((a) => ({ value: a, label: title(a) }));
    if (f.field.nullable) options.push({ value: NONE, label: f.field.none_title || t('None') });
    const row = choiceRow(
      options,
      (x) => form.values[f.name] === x,
      (x) => env.set(f.name, x),
    );
    env.syncs.push(row.sync);
    return group(f.title, row);
  },

  seat(f, env) {
    const { form, ctx } = env;
    const v = form.values;
    const own = f.field.own_card_of; // the partner may be the declarer: his own card
    // The short name shows, the full name is read out (it starts with the short one).
    const options = ctx.table.seats.map((s) => {
      const short = shortName(ctx, s.seat);
      return {
        value: s.seat,
        content: h('span.short.fit', short),
        aria: short === s.name ? null : s.name,
      };
    });
    // An empty choice ("Alone", "Nobody") where the description names one, or the field is never
    // required; it hides while the field is required.
    if (f.field.nullable && (f.field.none_title || !f.field.required_when)) {
      options.push({
        value: NONE,
        label: f.field.none_title || t('Nobody'),
        hidden: () => isRequired(f, form),
      });
    }
    const isOn = (x) => (x === NONE ? v[f.name] === NONE || v[f.name] === null : v[f.name] === x);
    const row = choiceRow(options, isOn, (x) => env.set(f.name, x), ' seat');
    const el = chosenGroup(
      f.title,
      () => (typeof v[f.name] === 'number' ? seatName(ctx, v[f.name]) : null),
      row,
    );
    env.syncs.push(el.sync, row.sync);
    if (own) {
      for (const b of row.querySelectorAll('button'))
        if (b.dataset.value !== NONE) b.append(h('span.own', ' ' + t('(own card)')));
      env.syncs.push(() => {
        for (const b of row.querySelectorAll('button')) {
          if (b.dataset.value === NONE) continue;
          const mine = Number(b.dataset.value) === v[own];
          b.classList.toggle('own', mine);
          const name = seatName(ctx, Number(b.dataset.value));
          b.setAttribute('aria-label', mine ? t('{name} (own card)', { name }) : name);
        }
      });
    }
    return el;
  },

  card(f, env) {
    const { form } = env;
    const v = form.values;
    const card = () => v[f.name];
    const ranks = choiceRow(
      everyRank(f, form.variant).map((r) => ({ value: r, label: rankWord(r) })),
      (x) => card().rank === x,
      (x) => {
        card().rank = x;
        env.changed();
      },
      ' small',
    );
    env.syncs.push(() => {
      const allowed = cardRanks(f, form.variant, v);
      if (!allowed.includes(card().rank)) card().rank = allowed[0];
      for (const b of ranks.children) b.hidden = !allowed.includes(b.dataset.value);
      ranks.hidden = allowed.length < 2;
    });
    const notSuit = f.field.not_suit_of; // a called card is never of the trump
    const suits = choiceRow(
      ((f.field.fields && f.field.fields.suit) || []).map((s) => ({
        value: s,
        content: [suitSpan(s), h('span.word', suitName(s))],
        disabled: () => !!notSuit && s === v[notSuit],
      })),
      (x) => card().suit === x,
      (x) => {
        // Tapped again while the card may stay empty: no card.
        card().suit = card().suit === x && !isRequired(f, form) ? null : x;
        env.changed();
      },
      ' suitbtn',
    );
    ranks.classList.add('ranks');
    env.syncs.push(ranks.sync, suits.sync);
    return group(f.title, suits, ranks);
  },

  count(f, env) {
    const { form } = env;
    const s = stepper(
      f.title,
      () => form.values[f.name],
      (x) => env.set(f.name, x, true),
      f.field.min ?? 0,
      f.field.max ?? 99,
      () => env.hint(f),
    );
    env.syncs.push(s.sync);
    return group(f.title, s);
  },

  points(f, env) {
    // Card points without the keyboard: steps of 10 and 1 beside the field (typing works too).
    const { form } = env;
    const v = form.values;
    const min = f.field.min ?? 0;
    const max = f.field.max ?? 9999;
    const label = f.title;
    const input = h('input.num', {
      type: 'number',
      inputmode: 'numeric',
      min,
      max,
      'aria-label': label,
      oninput: () => {
        v[f.name] = input.value === '' ? null : Number(input.value);
        env.changed();
      },
    });
    // From empty, the first tap lands near half the points: +10 → 70, −1 → 65 of 134.
    const up = Math.floor(max / 20) * 10;
    const down = Math.floor(max / 2) - 1;
    const by = (d) =>
      h(
        'button.step.small',
        {
          type: 'button',
          'aria-label':
            d > 0
              ? t('{label}: plus {step}', { label, step: d })
              : t('{label}: minus {step}', { label, step: -d }),
          onclick: () => {
            const from = typeof v[f.name] === 'number' ? v[f.name] : d > 0 ? up : down;
            v[f.name] = Math.min(max, Math.max(min, from + d));
            env.changed();
          },
        },
        `${d > 0 ? '+' : '−'}${Math.abs(d)}`,
      );
    env.syncs.push(() => {
      if (document.activeElement !== input) input.value = v[f.name] ?? '';
    });
    return group(
      label,
      h('div.points', by(-10), by(-1), input, by(1), by(10)),
      f.field.description ? h('p.hint', plain(f.field.description)) : null,
    );
  },

  flag(f, env) {
    const { form } = env;
    const b = h(
      'button.choice.toggle',
      {
        type: 'button',
        'aria-pressed': 'false',
        onclick: () => env.set(f.name, !form.values[f.name]),
      },
      f.title,
    );
    env.syncs.push(() => b.setAttribute('aria-pressed', String(!!form.values[f.name])));
    return h('div.group', b);
  },

  yesno(f, env) {
    const { form } = env;
    const row = choiceRow(
      [
        { value: 'yes', label: t('Yes') },
        { value: 'no', label: t('No') },
      ],
      (x) => form.values[f.name] === (x === 'yes'),
      (x) => env.set(f.name, x === 'yes'),
    );
    env.syncs.push(row.sync);
    return group(f.title, row);
  },

  matadores(f, env) {
    const { form } = env;
    const { variant, players } = form;
    const held = () => form.values[f.name];
    const sides = (variant.matadores && variant.matadores.sides) || f.field.fields.side || [];
    // The most lower matadores, by the player count and the trump (the game's suit field).
    const suitField = form.fields.find((x) => x.widget === 'suit');
    const maxLower = () => {
      const most =
        variant.matadores &&
        variant.matadores.max_lower &&
        variant.matadores.max_lower[String(players)];
      const trump = suitField ? form.values[suitField.name] : null;
      return (most && trump && most[trump]) ?? 7;
    };
    const row = choiceRow(
      [
        { value: null, label: t('None') },
        ...sides.map((s) => ({ value: s, label: HELD_BY[s] || title(s) })),
      ],
      (x) => held().side === x,
      (x) => {
        held().side = x;
        if (!x) held().lower = 0;
        env.changed();
      },
      ' small',
    );
    row.classList.add('fill');
    const lower = stepper(
      t('Lower matadores'),
      () => held().lower,
      (x) => {
        held().lower = x;
        env.changed();
      },
      0,
      maxLower,
      () => t('worth {value}', { value: 1 + held().lower }),
    );
    const lowerBox = h(
      'div',
      h('p.hint', t('Lower matadores (trumps in unbroken order from the ace down)')),
      lower,
    );
    env.syncs.push(
      () => {
        lowerBox.hidden = !held().side;
        held().lower = Math.min(held().lower, maxLower());
      },
      row.sync,
      lower.sync,
    );
    return group(t('Matadores (Spadilla, Manilla, Basta on one side)'), row, lowerBox);
  },

  /** Errors in two taps: the kind (the first, chosen already), then who made it; each tap on a
   *  seat adds one, in the order they happened. */
  errors(f, env) {
    const { form, ctx } = env;
    const kinds = form.variant.error_kinds || [];
    if (!kinds.length) return null;
    const list = () => form.values[f.name];
    let kind = kinds[0].name;
    const shown = h('ul.errors');
    const kindRow =
      kinds.length > 1
        ? choiceRow(
            kinds.map((k) => ({ value: k.name, label: errorTitle(form.variant, k.name) })),
            (x) => kind === x,
            (x) => {
              kind = x;
              env.changed();
            },
            ' small',
          )
        : null;
    const seats = choiceRow(
      ctx.table.seats.map((s) => ({
        value: s.seat,
        content: h('span.short.fit', shortName(ctx, s.seat)),
        aria: t('Add an error by {name}', { name: s.name }),
      })),
      null,
      (x) => {
        list().push({ kind, seat: x });
        env.changed();
      },
      ' seat small',
    );
    if (kindRow) {
      kindRow.classList.add('wrap');
      env.syncs.push(kindRow.sync);
    }
    env.syncs.push(seats.sync, () =>
      clear(
        shown,
        list().map((e, i) => {
          const words = { error: errorTitle(form.variant, e.kind), name: seatName(ctx, e.seat) };
          return h(
            'li',
            t('{error} by {name}', words),
            ' ',
            h(
              'button.small.link',
              {
                type: 'button',
                'aria-label': t('Remove {error} by {name}', words),
                onclick: () => {
                  list().splice(i, 1);
                  env.changed();
                },
              },
              t('remove'),
            ),
          );
        }),
      ),
    );
    return group(
      t('Errors (in the order they happened)'),
      shown,
      kindRow,
      h('p.hint', t('Tap who made it to add it:')),
      seats,
    );
  },
};

const RANKS = { ace: t('Ace'), king: t('King') };
const rankWord = (rank) => RANKS[rank] || title(rank);

/** Build the form.
 *  `opts`: {ctx, variant, number, record (edit), saveLabel, onSave(record, preview)} */
export function handForm(opts) {
  const { ctx } = opts;
  const table = ctx.table;
  const variant = forTable(opts.variant, table.options || {});
  const fields = formFields(variant);
  /** @type {FormState} */
  const form = {
    variant,
    fields,
    values: valuesFrom(variant, fields, opts.record),
    players: table.seats.length,
    options: optionValues(variant, table.options || {}),
  };
  const v = form.values;
  const touched = new Set(opts.record ? fields.map((f) => f.name) : []); // counts a player set
  const auto = new Set(); // required flags the form set itself (it takes them back)
  let lastPreview = null;
  let previewSeq = 0;
  let previewTimer = 0;
  const syncs = [];

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
    for (const s of syncs) s();
    schedulePreview();
    // Only what a player entered is kept as a draft.
    if (built) store.saveDraft(draftKey, { v, touched: [...touched] });
  };

  /** After a change: counts that start at the target follow the contract until a player sets
   *  them; required flags are set (and taken back). */
  function follow() {
    for (const f of fields) {
      if (f.field.starts_at === 'target' && !touched.has(f.name)) v[f.name] = targetOf(variant, v);
      if (f.widget === 'card' && f.field.not_suit_of && v[f.name].suit === v[f.field.not_suit_of])
        v[f.name].suit = null;
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

  /** @type {Env} */
  const env = { form, ctx, set, changed, syncs, hint };
  const body = [];
  const more = [];
  for (const f of fields) {
    const el = WIDGETS[f.widget](f, env);
    if (!el) continue;
    el.dataset.field = f.name;
    syncs.push(() => {
      el.hidden = !isShown(f, form);
    });
    (f.more ? more : body).push(el);
  }

  const moreCount = h('span.badge');
  const moreBox = more.length
    ? h('details.more', h('summary', t('Matadores, errors, more'), ' ', moreCount), more)
    : null;
  syncs.push(() => {
    if (!moreBox) return;
    const n = fields
      .filter((f) => f.more && isShown(f, form))
      .reduce(
        (sum, f) =>
          sum + (f.widget === 'errors' ? v[f.name].length : isGiven(f.widget, v[f.name]) ? 1 : 0),
        0,
      );
    moreCount.textContent = n ? tn(n, '({n} set)', '({n} set)') : '';
    moreBox.hidden = !more.some((m) => !m.hidden);
  });

  const preview = h('section.preview', {
    'aria-live': 'polite',
    'aria-atomic': 'true',
    'aria-label': t('Preview of the settlement'),
  });
  const status = h('p.status', { id: `save-status-${opts.number}`, 'aria-live': 'polite' });
  const save = h(
    'button.primary.save',
    { type: 'submit', 'aria-describedby': status.id },
    opts.saveLabel,
  );
  const taken = h('p.notice.warn', { hidden: true, role: 'alert' });
  const missing = () => missingOf(form).map(promptOf);

  const el = h(
    'form.handform',
    {
      novalidate: true,
      onsubmit: (event) => {
        event.preventDefault();
        const still = missing();
        if (still.length) {
          status.textContent = toSave(still);
          return;
        }
        opts.onSave(recordOf(form), lastPreview);
      },
    },
    taken,
    body,
    moreBox,
    preview,
    h('div.footer', status, save),
  );
  el.discard = () => store.dropDraft(draftKey);
  el.hasDraft = !!draft;

  syncs.push(() => {
    const still = missing();
    save.setAttribute('aria-disabled', String(still.length > 0));
    save.classList.toggle('incomplete', still.length > 0);
    if (still.length) status.textContent = toSave(still);
  });

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 150);
  }

  async function runPreview() {
    const seq = ++previewSeq;
    lastPreview = null;
    if (missing().length) {
      clear(preview, h('p.hint', t('The settlement shows here as soon as the hand is complete.')));
      return;
    }
    try {
      const { data } = await api.preview({
        variant: table.variant,
        players: form.players,
        options: variantOptions(table),
        state: stateBefore(ctx, opts.number),
        hand: recordOf(form),
      });
      if (seq !== previewSeq) return;
      lastPreview = data;
      clear(preview, settlementView(ctx, data, { heading: t('Preview') }));
      // Short names: the bar stays small.
      const scores = data.deltas.map((d, i) => `${shortName(ctx, i)} ${signed(d)}`).join(', ');
      status.textContent = data.result
        ? t('{result}: {scores}', { result: resultWord(data.result), scores })
        : scores;
    } catch (error) {
      if (seq !== previewSeq) return;
      if (error instanceof NetworkError) {
        clear(
          preview,
          h(
            'p.notice',
            t('Offline: no preview. The hand is kept on this phone and settled when it is sent.'),
          ),
        );
        status.textContent = t('Offline — the hand will be sent when the connection returns.');
      } else if (error instanceof ProblemError) {
        clear(
          preview,
          h(
            'div.notice.error',
            { role: 'alert' },
            h('strong', t('This hand breaks a rule:')),
            h(
              'ul',
              error.lines((name) => fieldWords(variant, name)).map((line) => h('li', line)),
            ),
          ),
        );
        status.textContent = t('Fix the hand to save it.');
      }
    }
  }

  el.refreshTaken = () => {
    const next = ctx.table.next_number;
    const clash = opts.record === undefined && next > opts.number;
    taken.hidden = !clash;
    if (clash) {
      taken.textContent = t(
        'Hand {number} was just recorded on another phone. Saving will show both versions.',
        { number: opts.number },
      );
    }
  };
  el.values = v;
  changed();
  built = true;
  return el;
}
