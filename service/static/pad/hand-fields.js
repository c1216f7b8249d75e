// A game's hand fields as GET /api/v1/variants describes them, and what a form does with
// them: the widget each gets, whether it is shown and required for the values entered so far,
// the values of a stored record and the record of the values. Pure: no page, no requests, and
// no game's rules: everything a game says about its fields comes from its description
// (`hand_fields`, `hand_kinds`, `contracts`, `decks`, `options`).

/** The value of a choice that leaves a nullable field empty ("No trump", "Alone", "Nobody"). */
export const NONE = '';

/** Widgets that go into the form's "more" box: what most hands do not need. */
const MORE = new Set(['flag', 'matadores', 'errors']);

/**
 * The variant as a table with `options` plays it: contracts behind an option it did not set
 * left out, and its deck's tricks and target (the deck with the table's `tricks`).
 * @param {Variant} variant
 * @param {Record<string, any>} options
 */
export function forTable(variant, options, figures = null) {
  const values = optionValues(variant, options);
  const deck = (variant.decks || []).find((d) => figures && d.tricks === figures.per_hand);
  const contracts = (variant.contracts || [])
    .filter((c) => !c.option || values[c.option])
    .map((c) => (deck ? { ...c, target: deck.target } : c));
  if (!deck) return { ...variant, contracts };
  const handFields = variant.hand_fields.map((f) =>
    f.max_by_deck ? { ...f, max: f.max_by_deck[String(deck.cards)] ?? f.max } : f,
  );
  return { ...variant, contracts, tricks: deck.tricks, hand_fields: handFields };
}

/**
 * A table's options with the description's defaults for those it leaves out.
 * @param {Variant} variant
 * @param {Record<string, any>} options
 */
export function optionValues(variant, options) {
  const defaults = Object.fromEntries((variant.options || []).map((o) => [o.name, o.default]));
  return { ...defaults, ...(options || {}) };
}

/**
 * Every field a hand of `variant` may have: its hand fields, then those its hand kinds add
 * (American Solo's forfeit names its seat), each once.
 * @param {Variant} variant
 */
export function allFields(variant) {
  const out = [...variant.hand_fields];
  for (const kind of variant.hand_kinds || []) {
    for (const f of kind.hand_fields || []) if (!out.some((x) => x.name === f.name)) out.push(f);
  }
  return out;
}

/**
 * The widget a field gets, from its type and shape; null for one no widget can fill in.
 * @param {Field} f
 * @param {Variant} variant
 */
export function widgetOf(f, variant) {
  const suits = variant.suits || [];
  const allowed = f.allowed || [];
  if (f.name === 'kind') return 'kind';
  if (f.name === 'contract') return 'contract';
  if (f.type === 'boolean') return f.required ? 'yesno' : 'flag';
  if (f.type === 'integer' && f.seat) return 'seat';
  if (f.type === 'integer') return f.max !== undefined && f.max <= 16 ? 'count' : 'points';
  if (f.type === 'string' && allowed.length && allowed.every((a) => suits.includes(a)))
    return 'suit';
  if (f.type === 'string' && allowed.length) return 'choice';
  if (f.type === 'object' && f.fields && f.fields.rank && f.fields.suit) return 'card';
  if (f.type === 'object' && f.fields && f.fields.side) return 'matadores';
  if (f.type === 'array' && f.item_seat) return 'errors';
  return null;
}

/**
 * The form's fields, in the description's order.
 * @param {Variant} variant
 */
export function formFields(variant) {
  /** @type {FormField[]} */
  const out = [];
  for (const field of allFields(variant)) {
    const widget = widgetOf(field, variant);
    if (!widget) continue;
    out.push({ name: field.name, field, widget, title: fieldTitle(field), more: MORE.has(widget) });
  }
  return out;
}

/**
 * A field's words: its title in the description's language, else its name as the API spells
 * it ("last_trick" → "Last trick").
 * @param {Field} f
 */
export function fieldTitle(f) {
  if (f.title) return f.title;
  const words = f.name.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The field named `name` of `variant` (its hand kinds' too), or null.
 * @param {Variant|null} variant
 * @param {string} name
 */
export function fieldNamed(variant, name) {
  return variant ? allFields(variant).find((f) => f.name === name) || null : null;
}

/**
 * Whether the value `value` of a field with widget `widget` is filled in.
 * @param {string} widget
 */
export function isGiven(widget, value) {
  if (widget === 'card') return !!(value && value.suit);
  if (widget === 'matadores') return !!(value && value.side);
  if (widget === 'errors') return !!(value && value.length);
  if (widget === 'flag' || widget === 'yesno') return value === true;
  return value !== null && value !== undefined && value !== NONE;
}

/**
 * Whether `condition` holds: each fact it names takes one of its values. The facts are the
 * hand's fields (contract, kind, tricks, trump: a chosen "none" is null), the table's `players`
 * and `option`s, and which fields are `given` or `unset`.
 * @param {Condition} condition
 * @param {FormState} form
 */
function holds(condition, form) {
  const given = (/** @type {string} */ name) => {
    const f = form.fields.find((x) => x.name === name);
    return !!f && isGiven(f.widget, form.values[name]);
  };
  return Object.entries(condition).every(([fact, allowed]) => {
    if (fact === 'given') return allowed.every(given);
    if (fact === 'unset') return allowed.every((/** @type {string} */ n) => !given(n));
    if (fact === 'option') {
      return Object.entries(allowed).every(([name, values]) => values.includes(form.options[name]));
    }
    if (fact === 'players') return allowed.includes(form.players);
    const value = form.values[fact];
    if (value === null || value === undefined) return false; // not chosen yet: no value holds
    return allowed.includes(value === NONE ? null : value);
  });
}

/**
 * The hand kind the values have (American Solo: played, forfeit, misdeal), or null.
 * @param {Variant} variant
 * @param {Values} values
 */
export function kindOf(variant, values) {
  return (variant.hand_kinds || []).find((k) => k.name === (values.kind || 'played')) || null;
}

/**
 * Whether the form shows field `f` for the values entered so far.
 * @param {FormField} f
 * @param {FormState} form
 */
export function isShown(f, form) {
  if (f.widget === 'kind') return (f.field.allowed || []).length > 1;
  const kind = kindOf(form.variant, form.values);
  if (kind && !kind.fields.includes(f.name)) return false;
  const when = f.field.shown_when;
  return !when || when.some((c) => holds(c, form));
}

/**
 * Whether a stored hand `record` of a table with `players` seats and `options` shows the
 * field named `name` (its conditions read from the record, as its correction's form would).
 * @param {Variant} variant
 * @param {Record<string, any>} record
 * @param {string} name
 * @param {number} players
 * @param {Record<string, any>} options
 */
export function recordShows(variant, record, name, players, options) {
  const fields = formFields(variant);
  const f = fields.find((x) => x.name === name);
  if (!f) return false;
  const values = valuesFrom(variant, fields, record);
  return isShown(f, { variant, fields, values, players, options: optionValues(variant, options) });
}

/**
 * Whether field `f` must be filled in (a required boolean: must be true) for the values so far.
 * @param {FormField} f
 * @param {FormState} form
 */
export function isRequired(f, form) {
  if (!isShown(f, form)) return false;
  const when = f.field.required_when;
  return when ? when.some((c) => holds(c, form)) : !!f.field.required;
}

/**
 * The contract chosen, as the table's variant describes it, or null.
 * @param {Variant} variant
 * @param {Values} values
 */
export function contractOf(variant, values) {
  return (variant.contracts || []).find((c) => c.name === values.contract) || null;
}

/**
 * The tricks the chosen contract needs (its target; else just over half of the tricks).
 * @param {Variant} variant
 * @param {Values} values
 */
export function targetOf(variant, values) {
  const c = contractOf(variant, values);
  if (c && typeof c.target === 'number') return c.target;
  return typeof variant.tricks === 'number' ? Math.ceil(variant.tricks / 2) + 1 : 5;
}

/**
 * The ranks a card field may take with the chosen contract (German Solo: a king only in a
 * frage), else the field's own.
 * @param {FormField} f
 * @param {Variant} variant
 * @param {Values} values
 */
export function cardRanks(f, variant, values) {
  const c = contractOf(variant, values);
  const own = (f.field.fields && f.field.fields.rank) || [];
  return c && c.called_ranks && c.called_ranks.length ? c.called_ranks : own;
}

/**
 * Every rank any contract lets a card field take (the buttons; those not allowed now hide).
 * @param {FormField} f
 * @param {Variant} variant
 */
export function everyRank(f, variant) {
  const own = (f.field.fields && f.field.fields.rank) || [];
  return [...new Set([...own, ...(variant.contracts || []).flatMap((c) => c.called_ranks || [])])];
}

/**
 * The form's values for a stored record (or a new hand: its first contract and that
 * contract's target, so a won first game needs no tap for either).
 * @param {Variant} variant
 * @param {FormField[]} fields
 * @param {Record<string, any>|undefined} record
 */
export function valuesFrom(variant, fields, record) {
  const r = record || {};
  /** @type {Values} */
  const v = {};
  for (const f of fields) {
    const value = r[f.name];
    if (f.widget === 'kind') {
      const allowed = f.field.allowed || ['played'];
      v.kind = value || (allowed.includes(f.field.default) ? f.field.default : allowed[0]);
    } else if (f.widget === 'card') {
      v[f.name] = value ? { ...value } : { rank: cardRanks(f, variant, v)[0] || null, suit: null };
    } else if (f.widget === 'matadores')
      v[f.name] = value ? { ...value } : { side: null, lower: 0 };
    else if (f.widget === 'errors')
      v[f.name] = (value || []).map((/** @type {any} */ e) => ({ ...e }));
    else if (f.widget === 'flag') v[f.name] = value === true;
    else if (value === undefined) v[f.name] = null;
    else v[f.name] = value === null ? NONE : value;
  }
  const contracts = variant.contracts || [];
  if (v.contract === null && fields.some((f) => f.widget === 'contract') && contracts.length) {
    v.contract = contracts[0].name;
  }
  for (const f of fields) {
    if (f.field.starts_at === 'target' && v[f.name] === null) v[f.name] = targetOf(variant, v);
  }
  return v;
}

/**
 * The hand record the values describe: only the fields shown, empty ones left out (a chosen
 * "none" sent as null where the field takes null).
 * @param {FormState} form
 */
export function recordOf(form) {
  /** @type {Record<string, any>} */
  const rec = {};
  for (const f of form.fields) {
    const value = form.values[f.name];
    if (f.widget === 'kind') {
      rec.kind = value;
      continue;
    }
    if (!isShown(f, form)) continue;
    if (f.widget === 'card') {
      if (value.suit) rec[f.name] = { rank: value.rank, suit: value.suit };
    } else if (f.widget === 'matadores') {
      if (value.side) rec[f.name] = { side: value.side, lower: value.lower };
    } else if (f.widget === 'errors') {
      if (value.length) rec[f.name] = value.map((/** @type {any} */ e) => ({ ...e }));
    } else if (f.widget === 'flag') {
      if (value) rec[f.name] = true;
    } else if (value === NONE) {
      if (f.field.nullable) rec[f.name] = null;
    } else if (value !== null && value !== undefined) rec[f.name] = value;
  }
  return rec;
}

/**
 * The fields still to fill in, in the form's order. A chosen "none" answers a nullable
 * choice (Solo 66's "No trump"), never a required seat.
 * @param {FormState} form
 */
export function missingOf(form) {
  return form.fields.filter((f) => {
    if (!isRequired(f, form)) return false;
    const value = form.values[f.name];
    if ((f.widget === 'suit' || f.widget === 'choice') && value === NONE) return !f.field.nullable;
    if (f.widget === 'yesno') return value !== true && value !== false;
    return !isGiven(f.widget, value);
  });
}

/**
 * The seat fields of a record in the description's order: the first is who played (the
 * declarer, the soloist, the taker of the last trick), and a field that may be his own card
 * (the partner) names who played with him.
 * @param {Variant|null} variant
 * @param {Record<string, any>} record}
 */
export function playersOf(variant, record) {
  const seats = variant ? allFields(variant).filter((f) => f.seat && !f.own_card_of) : [];
  const whoField = seats.find((f) => typeof record[f.name] === 'number');
  const who = whoField ? record[whoField.name] : null;
  const partnerField = variant
    ? allFields(variant).find((f) => f.own_card_of && whoField && f.own_card_of === whoField.name)
    : null;
  const partner =
    partnerField && typeof record[partnerField.name] === 'number'
      ? record[partnerField.name]
      : null;
  return {
    who,
    partner: partner === who ? null : partner,
    ownCard: partner !== null && partner === who,
  };
}

/**
 * What a hand counted as, if not its contract: a contract whose declarer held his own called
 * card may rank as another (American Solo: a simple game alone is a solo).
 * @param {Variant|null} variant
 * @param {Record<string, any>} record
 */
export function countedAs(variant, record) {
  const contract = variant && contractOf(variant, record);
  if (!contract || !contract.own_card_ranks_as) return null;
  return playersOf(variant, record).ownCard ? contract.own_card_ranks_as : null;
}

/**
 * Whether the deal passes to the next seat after a hand of this record (the description's
 * hand kind says; a game without kinds always passes it).
 * @param {Variant|null} variant
 * @param {Record<string, any>} record
 */
export function dealPasses(variant, record) {
  const kind = variant ? kindOf(variant, record) : null;
  return !kind || kind.deal_passes !== false;
}
