// The hand form: built from GET /api/v1/variants (American Solo's hand kinds, contracts,
// matadores and errors, or any variant's `hand_fields`), with a live preview of the settlement.

import { api, NetworkError, ProblemError } from './api.js';
import { h, clear, plain, signed, suitName, suitSpan, title } from './dom.js';
import { num, t, tn } from './i18n.js';
import {
  describeTransfer, errorWord, flagWord, kindWord, rankWord, resultWord, seatName, shortName, stateBefore,
  variantOptions,
} from './model.js';
import { store } from './store.js';

const NONE = ''; // "no trump", "alone": chosen, and sent as null or left out
const SEAT_FIELDS = new Set(['declarer', 'partner', 'soloist', 'last_trick', 'seat']);
const LABELS = {
  kind: t('Kind of hand'), contract: t('Contract'), trump: t('Trump'), declarer: t('Declarer'),
  partner: t('Partner (holds the called card)'), called: t('Called card'), tricks: t('Tricks taken'),
  seat: t('Who forfeits'), soloist: t('Soloist'), last_trick: t('Last trick taken by'),
  soloist_points: t('Soloist’s card points'), defender_points: t('Defenders’ card points'),
  matadores: t('Matadores'), errors: t('Errors'), tout_after_five: t('Tout after five (played on for all 8)'),
  // German and Spanish Solo's own fields (their English is the field's name).
  giver: t('Giver'), forced: t('Forced'), stopped_after_five: t('Stopped after five'),
  continued_after_five: t('Continued after five'), tout_announced: t('Tout announced'),
  matadors_together: t('Matadors together'),
};
const MISSING = {
  contract: t('choose the contract'), trump: t('choose the trump'), declarer: t('tap the declarer'),
  partner: t('tap the partner'), called: t('choose the called card'), seat: t('tap who forfeits'),
  soloist: t('tap the soloist'), last_trick: t('tap who took the last trick'),
  soloist_points: t('set soloist points'),
};

/** The fields of `variant`'s hand record, each {name, w (widget), required, more, …}. */
function fieldsFor(variant, players) {
  // Games with several kinds of hand (American Solo: played, forfeit, misdeal) get the tuned
  // form; the others are built from their hand fields.
  if (Array.isArray(variant.hand_fields) && !variant.hand_kinds) return genericFields(variant, players);
  const kinds = variant.hand_kinds || [{ name: 'played', fields: [] }];
  const byKind = Object.fromEntries(kinds.map((k) => [k.name, k.fields]));
  const suits = variant.suits || ['clubs', 'spades', 'hearts', 'diamonds'];
  return [
    { name: 'kind', w: 'kind', allowed: kinds.map((k) => k.name) },
    { name: 'contract', w: 'contract', required: true },
    { name: 'trump', w: 'suit', required: true, allowed: suits },
    { name: 'declarer', w: 'seat', required: true },
    { name: 'called', w: 'called', ranks: variant.called_ranks || ['ace', 'king'], suits },
    { name: 'partner', w: 'seat' },
    { name: 'tricks', w: 'stepper', min: 0, max: variant.tricks || 8 },
    { name: 'seat', w: 'seat', required: true },
    { name: 'tout_after_five', w: 'toggle', more: true },
    { name: 'matadores', w: 'matadores', more: true },
    { name: 'errors', w: 'errors', more: true },
  ].map((f) => ({ ...f, kinds: f.name === 'kind' ? null : kinds.filter((k) => k.fields.includes(f.name)).map((k) => k.name) }))
    .filter((f) => f.name === 'kind' || f.kinds.length)
    .map((f) => ({ ...f, byKind }));
}

function genericFields(variant, players) {
  const suits = variant.suits || [];
  const out = [];
  for (const f of variant.hand_fields) {
    const base = { name: f.name, required: !!f.required, nullable: !!f.nullable, description: f.description, contracts: f.contracts };
    const allowed = f.allowed || [];
    if (f.name === 'kind') out.push({ ...base, w: 'kind', allowed: allowed.length ? allowed : ['played'] });
    else if (f.name === 'contract') out.push({ ...base, w: 'contract' });
    else if (f.name === 'errors') out.push({ ...base, w: 'errors', more: true });
    else if (f.name === 'called' && f.type === 'object') {
      const fields = f.fields || {};
      out.push({ ...base, w: 'called', ranks: fields.rank || ['ace'], suits: fields.suit || suits });
    } else if (f.type === 'string' && allowed.length && allowed.every((a) => suits.includes(a))) {
      out.push({ ...base, w: 'suit', allowed });
    } else if (f.type === 'string' && allowed.length) out.push({ ...base, w: 'choice', allowed });
    else if (f.type === 'integer' && (SEAT_FIELDS.has(f.name) || f.max === players - 1) && f.min === 0) {
      out.push({ ...base, w: 'seat' });
    } else if (f.type === 'integer') {
      out.push({ ...base, w: f.max !== undefined && f.max <= 16 ? 'stepper' : 'number', min: f.min ?? 0, max: f.max ?? 9999 });
    } else if (f.type === 'boolean') out.push({ ...base, w: 'toggle', more: true });
  }
  return out;
}

function contractOf(variant, v) {
  return (variant.contracts || []).find((c) => c.name === v.contract) || null;
}

function callMode(variant, v) {
  const c = contractOf(variant, v);
  return c ? c.calls_partner || 'none' : null;
}

function visible(f, variant, v, players) {
  if (f.w === 'kind') return f.allowed.length > 1;
  if (f.kinds && !f.kinds.includes(v.kind)) return false;
  if (f.contracts && !f.contracts.includes(v.contract)) return false;
  if (f.name === 'called' && demandsAce(variant, v)) return true;
  if (f.name === 'called' || f.name === 'partner') {
    const mode = callMode(variant, v);
    if (mode === 'none' || (mode === null && (variant.contracts || []).length)) return false;
    if (players === 3 && v.contract === 'forcee_simple') return false;
  }
  if (f.name === 'tout_after_five') return v.contract !== 'tout';
  // Solo 66: a game with trump has a soloist and his points; a game without, a last trick.
  if (POINTS_GAME.has(f.name)) return v.trump !== NONE;
  if (f.name === 'last_trick') return v.trump === NONE;
  return true;
}

const POINTS_GAME = new Set(['soloist', 'soloist_points', 'defender_points']);

/** A contract with no partner that names a card (the mediateur's demanded ace), optional. */
function demandsAce(variant, v) {
  const c = contractOf(variant, v);
  return !!c && c.calls_partner === 'none' && (c.called_ranks || []).length > 0;
}

function required(f, variant, v) {
  if (f.name === 'called' || f.name === 'partner') return callMode(variant, v) === 'required';
  if (f.name === 'soloist' || f.name === 'soloist_points' || f.name === 'last_trick') return true;
  return f.required;
}

/** The ranks a contract may call (German Solo: a king only in a frage), else the field's. */
function calledRanks(f, variant, v) {
  const c = contractOf(variant, v);
  return c && Array.isArray(c.called_ranks) && c.called_ranks.length ? c.called_ranks : f.ranks;
}

function targetOf(variant, v) {
  const c = contractOf(variant, v);
  if (c && typeof c.target === 'number') return c.target;
  return typeof variant.tricks === 'number' ? Math.ceil(variant.tricks / 2) + 1 : 5;
}

/** Form values (v) from a stored hand record. */
function valuesFrom(fields, record, variant) {
  const v = { kind: 'played', called: { rank: null, suit: null }, matadores: { side: null, lower: 0 }, errors: [] };
  for (const f of fields) {
    if (f.w === 'kind') v.kind = (record && record.kind) || (f.allowed.includes('played') ? 'played' : f.allowed[0]);
    else if (f.w === 'called') {
      const ranks = f.ranks || ['ace'];
      v.called = record && record.called ? { ...record.called } : { rank: ranks[0], suit: null };
    } else if (f.w === 'matadores') {
      if (record && record.matadores) v.matadores = { ...record.matadores };
    } else if (f.w === 'errors') v.errors = record && record.errors ? record.errors.map((e) => ({ ...e })) : [];
    else if (f.w === 'toggle') v[f.name] = !!(record && record[f.name]);
    else if (record && f.name in record) v[f.name] = record[f.name] === null ? NONE : record[f.name];
    else v[f.name] = null;
  }
  // A new hand (or a forfeit corrected into a game) starts at the commonest contract and its
  // target: a won simple game needs no tap for either.
  const contracts = variant.contracts || [];
  const common = contracts.find((c) => c.name === 'simple') || contracts[0];
  if (v.contract == null && fields.some((f) => f.w === 'contract') && common) v.contract = common.name;
  if (v.tricks == null) v.tricks = targetOf(variant, v);
  return v;
}

/** The hand record the form describes (only the fields that apply). */
function recordOf(fields, variant, v, players) {
  const rec = {};
  for (const f of fields) {
    if (f.w === 'kind') { rec.kind = v.kind; continue; }
    if (!visible(f, variant, v, players)) continue;
    const value = v[f.name];
    if (f.w === 'called') {
      if (value.suit) rec.called = { rank: value.rank, suit: value.suit };
    } else if (f.w === 'matadores') {
      if (value.side) rec.matadores = { side: value.side, lower: value.lower };
    } else if (f.w === 'errors') {
      if (value.length) rec.errors = value.map((e) => ({ ...e }));
    } else if (f.w === 'toggle') {
      if (value) rec[f.name] = true;
    } else if (value === NONE) {
      if (f.nullable) rec[f.name] = null;
    } else if (value !== null && value !== undefined) rec[f.name] = value;
  }
  return rec;
}

function missingOf(fields, variant, v, players) {
  const out = [];
  for (const f of fields) {
    if (!visible(f, variant, v, players) || !required(f, variant, v)) continue;
    const value = v[f.name];
    const empty = f.w === 'called' ? !value.suit : value === null || value === undefined
      || (value === NONE && !(f.nullable || f.name === 'partner'));
    if (empty) out.push(MISSING[f.name] || t('set {field}', { field: title(f.name).toLowerCase() }));
  }
  const partner = fields.find((f) => f.name === 'partner');
  if (partner && visible(partner, variant, v, players)
    && !!v.called.suit !== (v.partner !== null && v.partner !== NONE)) {
    out.push(v.called.suit ? MISSING.partner : MISSING.called);
  }
  return [...new Set(out)];
}

const toSave = (missing) => t('To save: {missing}.', { missing: missing.join(', ') });

/** Under the tricks: the target, and when every trick made the form set the played-on flag. */
function tricksHint(target, all, flag) {
  const hint = t('target {target}', { target });
  return all ? hint + ' · ' + t('all {tricks}: {flag} is set', { tricks: all, flag: flagWord(flag) }) : hint;
}

const HELD_BY = { declarers: t('Held by declarers'), defenders: t('Held by defenders') };

// --- widgets ----------------------------------------------------------------------------------
function group(label, ...children) {
  return h('fieldset.group', h('legend', label), ...children);
}

/** A group whose legend names what is chosen in full ("Declarer: Anna-Katharina Berger"). */
function chosenGroup(label, chosen, ...children) {
  const out = h('span.chosen');
  const el = h('fieldset.group', h('legend', label, out), ...children);
  el.sync = () => { const c = chosen(); out.textContent = c ? `: ${c}` : ''; };
  return el;
}

/** A row of big toggle buttons, one choice at a time. */
function choiceRow(options, isOn, choose, extraClass = '') {
  const buttons = options.map((o) => {
    const b = h(`button.choice${extraClass}`, { type: 'button', 'aria-pressed': isOn ? 'false' : null,
      'aria-label': o.aria || null, 'data-value': o.value, onclick: () => choose(o.value) },
    o.content || o.label);
    b.sync = () => {
      if (isOn) b.setAttribute('aria-pressed', String(isOn(o.value)));
      b.disabled = o.disabled ? o.disabled() : false;
    };
    return b;
  });
  const row = h('div.row', { role: 'group' }, buttons);
  row.sync = () => buttons.forEach((b) => b.sync());
  return row;
}

function suitOptions(allowed, nullable) {
  const out = allowed.map((s) => ({ value: s, content: [suitSpan(s), h('span.word', suitName(s))] }));
  if (nullable) out.push({ value: NONE, label: t('No trump') });
  return out;
}

function stepper(label, get, set, min, max, hint) {
  const out = h('output.count', { 'aria-live': 'polite' });
  const less = h('button.step', { type: 'button', 'aria-label': t('{label}: one less', { label }), onclick: () => set(Math.max(min, (get() ?? min) - 1)) }, '−');
  const top = () => (typeof max === 'function' ? max() : max);
  const more = h('button.step', { type: 'button', 'aria-label': t('{label}: one more', { label }), onclick: () => set(Math.min(top(), (get() ?? min) + 1)) }, '+');
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

/** Build the form. `opts`: {ctx, variant, number, record (edit), saveLabel, onSave(record, preview)} */
export function handForm(opts) {
  const { ctx } = opts;
  const table = ctx.table;
  const variant = forTable(opts.variant, table.options || {});
  const players = table.seats.length;
  const fields = fieldsFor(variant, players);
  const v = valuesFrom(fields, opts.record, variant);
  let tricksTouched = !!opts.record;
  let lastPreview = null;
  let previewSeq = 0;
  let previewTimer = 0;
  const syncs = [];

  // The short name shows, the full name is read out (it starts with the short one).
  const seatOptions = () => table.seats.map((s) => {
    const short = shortName(ctx, s.seat);
    return { value: s.seat, content: h('span.short.fit', short), aria: short === s.name ? null : s.name };
  });
  const draftKey = opts.record === undefined ? `new:${ctx.id}:${opts.number}` : `edit:${ctx.id}:${opts.number}`;
  const draft = store.draft(draftKey);
  if (draft) { Object.assign(v, draft.v); tricksTouched = draft.touched; }
  let autoTout = false;
  const playedOn = ['tout_after_five', 'continued_after_five'].find((n) => fields.some((f) => f.name === n));

  const changed = () => {
    for (const s of syncs) s();
    schedulePreview();
    if (built) store.saveDraft(draftKey, { v, touched: tricksTouched }); // only what a player entered
  };
  let built = false;

  function setValue(name, value) {
    v[name] = value;
    if (name === 'contract') {
      const mode = callMode(variant, v);
      if (mode === 'none') { v.partner = null; v.called.suit = null; }
      if (mode === 'optional' && v.partner === null) v.partner = NONE;
      if (!tricksTouched) v.tricks = targetOf(variant, v);
    }
    if ((name === 'trump') && v.called.suit === value) v.called.suit = null;
    // Every trick in a game that is not a tout: the declarer played on after five (the rules
    // require the flag: American "tout after five", German "continued after five").
    const all = playedOn && v.kind === 'played' && v.tricks === (variant.tricks || 8) && v.contract !== 'tout' && !v.tout_announced;
    if (all && !v[playedOn]) { v[playedOn] = true; autoTout = true; }
    if (!all && autoTout) { v[playedOn] = false; autoTout = false; }
    changed();
  }

  const body = [];
  const more = [];
  for (const f of fields) {
    const label = LABELS[f.name] || title(f.name);
    let el;
    if (f.w === 'kind') {
      const row = choiceRow(f.allowed.map((k) => ({ value: k, label: kindWord(k) })), (x) => v.kind === x,
        (x) => setValue('kind', x), ' small');
      row.classList.add('fill'); // a row of words: each as wide as it is, wrapped whole
      el = h('div.group.kinds', { role: 'group', 'aria-label': label }, row);
      syncs.push(row.sync);
    } else if (f.w === 'contract') {
      const contracts = (variant.contracts || []).filter((c) => !f.allowed || f.allowed.includes(c.name));
      const row = choiceRow(contracts.map((c) => ({ value: c.name, label: c.title || title(c.name) })),
        (x) => v.contract === x, (x) => setValue('contract', x), ' contract');
      row.classList.add('fill'); // "Grossfrage" on one line, not broken inside the word
      el = group(label, row);
      syncs.push(row.sync);
    } else if (f.w === 'suit') {
      const row = choiceRow(suitOptions(f.allowed, f.nullable), (x) => v[f.name] === x,
        (x) => setValue(f.name, x), ' suitbtn');
      el = group(label, row);
      syncs.push(row.sync);
    } else if (f.w === 'choice') {
      const row = choiceRow(f.allowed.map((a) => ({ value: a, label: title(a) })), (x) => v[f.name] === x,
        (x) => setValue(f.name, x));
      el = group(label, row);
      syncs.push(row.sync);
    } else if (f.w === 'seat') {
      const options = seatOptions();
      const alone = f.name === 'partner' || (f.nullable && !f.required && !POINTS_GAME.has(f.name));
      if (alone) options.push({ value: NONE, label: f.name === 'partner' ? t('Alone') : t('Nobody') });
      const row = choiceRow(options, (x) => v[f.name] === x, (x) => setValue(f.name, x), ' seat');
      el = chosenGroup(label, () => (typeof v[f.name] === 'number' ? seatName(ctx, v[f.name]) : null), row);
      syncs.push(el.sync);
      if (f.name === 'partner') {
        for (const b of row.querySelectorAll('button')) if (b.dataset.value !== NONE) b.append(h('span.own', ' ' + t('(own card)')));
        syncs.push(() => {
          for (const b of row.querySelectorAll('button')) {
            if (b.dataset.value === NONE) continue;
            const own = Number(b.dataset.value) === v.declarer;
            b.classList.toggle('own', own);
            const name = seatName(ctx, Number(b.dataset.value));
            b.setAttribute('aria-label', own ? t('{name} (own card)', { name }) : name);
          }
          const alone = row.querySelector(`button[data-value="${NONE}"]`);
          if (alone) alone.hidden = callMode(variant, v) !== 'optional';
        });
      }
      syncs.push(row.sync);
    } else if (f.w === 'called') {
      const allRanks = [...new Set([...f.ranks, ...(variant.contracts || []).flatMap((c) => c.called_ranks || [])])];
      const ranks = choiceRow(allRanks.map((r) => ({ value: r, label: rankWord(r) })),
        (x) => v.called.rank === x, (x) => { v.called.rank = x; changed(); }, ' small');
      syncs.push(() => {
        const allowed = calledRanks(f, variant, v);
        if (!allowed.includes(v.called.rank)) v.called.rank = allowed[0];
        for (const b of ranks.children) b.hidden = !allowed.includes(b.dataset.value);
        ranks.hidden = allowed.length < 2;
      });
      const suits = choiceRow(f.suits.map((s) => ({ value: s, content: [suitSpan(s), h('span.word', suitName(s))],
        disabled: () => s === v.trump })), (x) => v.called.suit === x,
      (x) => {
        const optional = callMode(variant, v) === 'optional' || demandsAce(variant, v);
        v.called.suit = v.called.suit === x && optional ? null : x;
        changed();
      }, ' suitbtn');
      el = group(label, suits, ranks);
      ranks.classList.add('ranks');
      syncs.push(ranks.sync, suits.sync);
    } else if (f.w === 'stepper') {
      const s = stepper(label, () => v[f.name], (x) => {
        if (f.name === 'tricks') tricksTouched = true;
        setValue(f.name, x);
      }, f.min, f.max, f.name === 'tricks' ? () => tricksHint(targetOf(variant, v), autoTout && v.tricks, playedOn) : null);
      el = group(label, s);
      syncs.push(s.sync);
    } else if (f.w === 'number') {
      // Card points without the keyboard: steps of 10 and 1 beside the field (typing works too).
      const input = h('input.num', { type: 'number', inputmode: 'numeric', min: f.min, max: f.max,
        'aria-label': label,
        oninput: () => { v[f.name] = input.value === '' ? null : Number(input.value); changed(); } });
      const by = (d) => h('button.step.small', { type: 'button',
        'aria-label': d > 0 ? t('{label}: plus {step}', { label, step: d }) : t('{label}: minus {step}', { label, step: -d }),
        onclick: () => { v[f.name] = Math.min(f.max, Math.max(f.min, (v[f.name] ?? (d > 0 ? 60 : 66)) + d)); changed(); } },
      `${d > 0 ? '+' : '−'}${Math.abs(d)}`);
      el = group(label, h('div.points', by(-10), by(-1), input, by(1), by(10)), f.description ? h('p.hint', plain(f.description)) : null);
      syncs.push(() => { if (document.activeElement !== input) input.value = v[f.name] ?? ''; });
    } else if (f.w === 'toggle') {
      const b = h('button.choice.toggle', { type: 'button', 'aria-pressed': 'false',
        onclick: () => setValue(f.name, !v[f.name]) }, label);
      el = h('div.group', b);
      syncs.push(() => b.setAttribute('aria-pressed', String(!!v[f.name])));
    } else if (f.w === 'matadores') {
      el = matadoresWidget(variant, v, players, changed, syncs);
    } else if (f.w === 'errors') {
      el = errorsWidget(ctx, variant, v, changed, syncs);
    }
    if (!el) continue;
    el.dataset.field = f.name;
    syncs.push(() => { el.hidden = !visible(f, variant, v, players); });
    (f.more ? more : body).push(el);
  }

  const moreCount = h('span.badge');
  const moreBox = more.length ? h('details.more', h('summary', t('Matadores, errors, more'), ' ', moreCount), more) : null;
  syncs.push(() => {
    if (!moreBox) return;
    const n = (v.matadores.side ? 1 : 0) + v.errors.length + (v.tout_after_five ? 1 : 0)
      + fields.filter((f) => f.w === 'toggle' && f.name !== 'tout_after_five' && v[f.name]).length;
    moreCount.textContent = n ? tn(n, '({n} set)', '({n} set)') : '';
    moreBox.hidden = !more.some((m) => !m.hidden);
  });

  const preview = h('section.preview', { 'aria-live': 'polite', 'aria-atomic': 'true', 'aria-label': t('Preview of the settlement') });
  const status = h('p.status', { id: `save-status-${opts.number}`, 'aria-live': 'polite' });
  const save = h('button.primary.save', { type: 'submit', 'aria-describedby': status.id }, opts.saveLabel);
  const taken = h('p.notice.warn', { hidden: true, role: 'alert' });

  const form = h('form.handform', {
    novalidate: true,
    onsubmit: (event) => {
      event.preventDefault();
      const missing = missingOf(fields, variant, v, players);
      if (missing.length) { status.textContent = toSave(missing); return; }
      opts.onSave(recordOf(fields, variant, v, players), lastPreview);
    },
  }, taken, body, moreBox, preview, h('div.footer', status, save));
  form.discard = () => store.dropDraft(draftKey);
  form.hasDraft = !!draft;

  syncs.push(() => {
    const missing = missingOf(fields, variant, v, players);
    save.setAttribute('aria-disabled', String(missing.length > 0));
    save.classList.toggle('incomplete', missing.length > 0);
    if (missing.length) status.textContent = toSave(missing);
  });

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 150);
  }

  async function runPreview() {
    const seq = ++previewSeq;
    lastPreview = null;
    const missing = missingOf(fields, variant, v, players);
    if (missing.length) {
      clear(preview, h('p.hint', t('The settlement shows here as soon as the hand is complete.')));
      return;
    }
    const record = recordOf(fields, variant, v, players);
    try {
      const { data } = await api.preview({ variant: table.variant, players, options: variantOptions(table),
        state: stateBefore(ctx, opts.number), hand: record });
      if (seq !== previewSeq) return;
      lastPreview = data;
      clear(preview, settlementView(ctx, data, { heading: t('Preview') }));
      const scores = data.deltas.map((d, i) => `${shortName(ctx, i)} ${signed(d)}`).join(', '); // the bar stays small
      status.textContent = data.result ? t('{result}: {scores}', { result: resultWord(data.result), scores }) : scores;
    } catch (error) {
      if (seq !== previewSeq) return;
      if (error instanceof NetworkError) {
        clear(preview, h('p.notice', t('Offline: no preview. The hand is kept on this phone and settled when it is sent.')));
        status.textContent = t('Offline — the hand will be sent when the connection returns.');
      } else if (error instanceof ProblemError) {
        clear(preview, h('div.notice.error', { role: 'alert' }, h('strong', t('This hand breaks a rule:')),
          h('ul', error.lines().map((line) => h('li', line)))));
        status.textContent = t('Fix the hand to save it.');
      }
    }
  }

  form.refreshTaken = () => {
    const next = ctx.table.next_number;
    const clash = opts.record === undefined && next > opts.number;
    taken.hidden = !clash;
    if (clash) {
      taken.textContent = t('Hand {number} was just recorded on another phone. Saving will show both versions.',
        { number: opts.number });
    }
  };
  form.values = v;
  changed();
  built = true;
  return form;
}

function matadoresWidget(variant, v, players, changed, syncs) {
  const sides = (variant.matadores && variant.matadores.sides) || ['declarers', 'defenders'];
  const maxLower = () => {
    const table = variant.matadores && variant.matadores.max_lower && variant.matadores.max_lower[String(players)];
    return (table && v.trump && table[v.trump]) ?? 7;
  };
  const row = choiceRow([{ value: null, label: t('None') }, ...sides.map((s) => ({ value: s, label: HELD_BY[s] || `Held by ${s}` }))],
    (x) => v.matadores.side === x, (x) => { v.matadores.side = x; if (!x) v.matadores.lower = 0; changed(); }, ' small');
  row.classList.add('fill');
  const lower = stepper(t('Lower matadores'), () => v.matadores.lower,
    (x) => { v.matadores.lower = x; changed(); }, 0, maxLower, () => t('worth {value}', { value: 1 + v.matadores.lower }));
  const lowerBox = h('div', h('p.hint', t('Lower matadores (trumps in unbroken order from the ace down)')), lower);
  syncs.push(() => {
    lowerBox.hidden = !v.matadores.side;
    v.matadores.lower = Math.min(v.matadores.lower, maxLower());
  }, row.sync, lower.sync);
  return group(t('Matadores (Spadilla, Manilla, Basta on one side)'), row, lowerBox);
}

/** Errors in two taps: the kind (revoke first, chosen already), then who made it; each tap on a
 *  seat adds one, in the order they happened. */
function errorsWidget(ctx, variant, v, changed, syncs) {
  const kinds = variant.error_kinds || [];
  if (!kinds.length) return null;
  let kind = kinds[0].name;
  const list = h('ul.errors');
  const kindRow = kinds.length > 1 ? choiceRow(kinds.map((k) => ({ value: k.name, label: errorWord(k.name) })),
    (x) => kind === x, (x) => { kind = x; changed(); }, ' small') : null;
  const seats = choiceRow(ctx.table.seats.map((s) => ({ value: s.seat,
    content: h('span.short.fit', shortName(ctx, s.seat)), aria: t('Add an error by {name}', { name: s.name }) })),
  null, (x) => { v.errors.push({ kind, seat: x }); changed(); }, ' seat small');
  if (kindRow) { kindRow.classList.add('wrap'); syncs.push(kindRow.sync); }
  syncs.push(seats.sync, () => clear(list, v.errors.map((e, i) => {
    const words = { error: errorWord(e.kind), name: seatName(ctx, e.seat) };
    return h('li', t('{error} by {name}', words), ' ',
      h('button.small.link', { type: 'button', 'aria-label': t('Remove {error} by {name}', words),
        onclick: () => { v.errors.splice(i, 1); changed(); } }, t('remove')));
  })));
  return group(t('Errors (in the order they happened)'), list, kindRow, h('p.hint', t('Tap who made it to add it:')), seats);
}

function worth(ctx, s) {
  if (s.value === null || s.value === undefined) return '';
  if (!s.value) return t('nothing to pay');
  const value = s.value;
  return ctx.table.units === 'points' ? tn(value, 'each payment {n} point', 'each payment {n} points')
    : tn(value, 'each payment {n} chip', 'each payment {n} chips');
}

/** "Anna +24 · Bob −8 …" */
export function summaryLine(ctx, s) {
  const w = worth(ctx, s);
  const scores = s.deltas.map((d, i) => `${seatName(ctx, i)} ${signed(d)}`).join(', ');
  if (!s.result) return scores;
  const result = resultWord(s.result);
  return w ? t('{result}, {worth}: {scores}', { result, worth: w, scores }) : t('{result}: {scores}', { result, scores });
}

/** A settlement: result, deltas per seat, transfers and the explanation lines. */
export function settlementView(ctx, s, { heading } = {}) {
  const items = [];
  if (heading) items.push(h('h2', heading));
  if (s.result) {
    const w = worth(ctx, s);
    items.push(h('p.result', h('strong', resultWord(s.result)), s.in_couleur ? ' · ' + (ctx.table.variant === 'german' ? t('in the preferred suit') : t('in couleur')) : '', w ? ` · ${w}` : ''));
  }
  items.push(h('ul.deltas', s.deltas.map((d, i) => h(`li${d > 0 ? '.plus' : d < 0 ? '.minus' : ''}`,
    h('span.name', seatName(ctx, i)), h('span.num', signed(d))))));
  if (s.transfers.length) {
    items.push(h('ul.transfers', { 'aria-label': t('Transfers') }, s.transfers.map((x) => h('li', describeTransfer(ctx, x)))));
  }
  if (s.pool) items.push(h('p.hint', t('Pool {before} → {after}', { before: s.pool.before, after: s.pool.after })));
  if (s.explanation.length) {
    items.push(h('ul.explanation', { 'aria-label': t('Explanation') },
      s.explanation.map((line) => h('li', withNames(ctx, line)))));
  }
  return h('div.settlement', items);
}

/** The rules say "seat 2" or "Seats 1, 3 and 4" (numbered from 1); the table knows their names. */
function withNames(ctx, line) {
  return plain(line).replace(/\b(?:[Ss]eats?|Platz|[Aa]sientos?) (\d(?:(?:, | and | und | y )\d)*)\b/g,
    (_, list) => list.replace(/\d/g, (n) => seatName(ctx, Number(n) - 1)));
}

/** The variant as this table plays it: contracts behind an option it did not set left out, and
 * its deck's tricks and target (German Solo's `mediateur` and `deck`). */
function forTable(variant, options) {
  const deck = (variant.decks || []).find((d) => d.cards === options.deck);
  const contracts = (variant.contracts || []).filter((c) => !c.option || options[c.option])
    .map((c) => (deck ? { ...c, target: deck.target } : c));
  if (!deck) return { ...variant, contracts };
  const handFields = variant.hand_fields && variant.hand_fields.map((f) => (f.name === 'tricks' ? { ...f, max: deck.tricks } : f));
  return { ...variant, contracts, tricks: deck.tricks, hand_fields: handFields };
}
