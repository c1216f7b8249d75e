// A hand record in words from its game's description: a sheet's line ("Solo ♥ Bernd, won"), the
// hand ("Solo ♥ · Anna · 6 tricks"), a correction's changes ("Giver of the ace: Anna → Carla"),
// a refused field. A field's words are its description's title: nowhere else in the pad.

import { SUITS, suitLabel, suitName, title } from './dom.js';
import { num, t, tn } from './i18n.js';
import {
  NONE,
  allFields,
  countedAs,
  fieldNamed,
  fieldTitle,
  isGiven,
  kindOf,
  playersOf,
  recordShows,
  widgetOf,
} from './hand-fields.js';
import { seatName, shortName } from './model.js';

/**
 * A kind of hand in words (American Solo's "Forfeit"), from the description.
 * @param {Variant|null} variant
 * @param {string} kind
 */
export function kindTitle(variant, kind) {
  const described = ((variant && variant.hand_kinds) || []).find((k) => k.name === kind);
  return described && described.title
    ? described.title
    : kind === 'played'
      ? t('Played')
      : title(kind);
}

/**
 * An error's kind in words ("Revoke"), from the description.
 * @param {Variant|null} variant
 * @param {string} kind
 */
export function errorTitle(variant, kind) {
  const described = ((variant && variant.error_kinds) || []).find((k) => k.name === kind);
  return described && described.title ? described.title : title(kind);
}

/**
 * A contract in words ("Simple game"); "Game" for none.
 * @param {Variant|null} variant
 * @param {string|null|undefined} name
 */
export function contractTitle(variant, name) {
  const c = variant && (variant.contracts || []).find((x) => x.name === name);
  return c && c.title ? c.title : name ? title(name) : t('Game');
}

/**
 * The words of field `name` in a refusal ("Tricks taken: …"), or null for one the game does
 * not describe.
 * @param {Variant|null} variant
 * @param {string} name
 */
export function fieldWords(variant, name) {
  const f = fieldNamed(variant, name);
  return f ? fieldTitle(f) : null;
}

const SIDES = { declarers: t('declarers'), defenders: t('defenders') };
const CALLED_RANKS = { ace: t('ace'), king: t('king') };

/**
 * A field's value in words: a seat's player, a card, a suit, a count.
 * @param {Variant} variant
 * @param {Field} f
 */
function valueWords(ctx, variant, f, value) {
  const widget = widgetOf(f, variant);
  if (value === null || value === undefined) return f.none_title || '—';
  if (widget === 'kind') return kindTitle(variant, value);
  if (widget === 'contract') return contractTitle(variant, value);
  if (widget === 'seat') return seatName(ctx, value);
  if (widget === 'suit') return suitLabel(value);
  if (widget === 'card') {
    return t('{rank} of {suit}', {
      rank: CALLED_RANKS[value.rank] || value.rank,
      suit: suitName(value.suit),
    });
  }
  if (widget === 'matadores') {
    const held = { lower: value.lower };
    return value.side === 'declarers'
      ? t('declarers, {lower} lower', held)
      : value.side === 'defenders'
        ? t('defenders, {lower} lower', held)
        : `${value.side}, ${value.lower}`;
  }
  if (widget === 'errors') {
    return value
      .map((e) =>
        t('{error} by {name}', { error: errorTitle(variant, e.kind), name: seatName(ctx, e.seat) }),
      )
      .join('; ');
  }
  if (value === true) return t('yes');
  if (value === false) return t('no');
  return typeof value === 'number' ? num(value) : String(value);
}

/** A record's fields in words, by name (empty ones left out; the kind always there). */
function recordWords(ctx, record) {
  const variant = ctx.variant;
  const r = record || {};
  /** @type {Record<string, string>} */
  const out = { kind: kindTitle(variant, r.kind || 'played') };
  for (const [name, value] of Object.entries(r)) {
    const f = fieldNamed(variant, name);
    // An answer tags its record with the table's variant: not a field of the hand.
    if (!f || name === 'kind' || value === null) continue;
    if (value === false && widgetOf(f, variant) === 'flag') continue; // a flag not set
    if (Array.isArray(value) && !value.length) continue;
    out[name] = valueWords(ctx, variant, f, value);
  }
  return out;
}

/**
 * The lines "Tricks taken: 6 → 5" between two records of a hand.
 * @param {Record<string, any>} before
 * @param {Record<string, any>} after
 */
export function recordChanges(ctx, before, after) {
  const a = recordWords(ctx, before);
  const b = recordWords(ctx, after);
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return names
    .filter((name) => a[name] !== b[name])
    .map((name) => {
      const f = fieldNamed(ctx.variant, name);
      return `${f ? fieldTitle(f) : title(name)}: ${a[name] ?? '—'} → ${b[name] ?? '—'}`;
    });
}

/**
 * What a played hand was: its contract (or the game's only one, or its trump's "none"), and
 * the trump's symbol.
 * @param {Variant|null} variant
 * @param {Record<string, any>} r
 */
function gameWords(variant, r) {
  const contracts = (variant && variant.contracts) || [];
  const { field, symbol } = trumpOf(variant, r);
  const after = symbol ? ` ${symbol}` : '';
  if (r.contract) return `${contractTitle(variant, r.contract)}${after}`;
  if (contracts.length === 1) return `${contracts[0].title || title(contracts[0].name)}${after}`;
  if (field && r[field.name] === null) return field.none_title || t('No trump');
  return t('Game') + after;
}

/**
 * A record's trump: the game's suit field, and the symbol of the suit chosen ('' for none).
 * @param {Variant|null} variant
 * @param {Record<string, any>} r
 */
export function trumpOf(variant, r) {
  const field = variant
    ? allFields(variant).find((f) => widgetOf(f, variant) === 'suit') || null
    : null;
  const suit = field ? r[field.name] : undefined;
  return { field, symbol: typeof suit === 'string' && suit in SUITS ? SUITS[suit] : '' };
}

/**
 * A hand of another kind than played ("Misdeal", "Forfeit: Bob"), or null for a played one.
 * @param {Record<string, any>} r
 * @param {(ctx: any, seat: number) => string} name
 */
function otherKind(ctx, r, name) {
  const variant = ctx.variant;
  const kind = variant && kindOf(variant, r);
  if (!kind || !variant.hand_kinds || kind.name === variant.hand_kinds[0].name) return null;
  const seats = (kind.hand_fields || []).filter((f) => f.seat && typeof r[f.name] === 'number');
  const words = kindTitle(variant, kind.name);
  return seats.length
    ? t('{kind}: {name}', { kind: words, name: seats.map((f) => name(ctx, r[f.name])).join(', ') })
    : words;
}

/** "Solo ♥ · Anna · 6 tricks", or "Misdeal", "Forfeit: Bob". */
export function describeHand(ctx, record) {
  if (!record) return '';
  const other = otherKind(ctx, record, seatName);
  if (other) return other;
  const variant = ctx.variant;
  const parts = [gameWords(variant, record)];
  const { who, partner, ownCard } = playersOf(variant, record);
  const named = new Set();
  if (who !== null) {
    const name = seatName(ctx, who);
    parts.push(
      ownCard
        ? t('{name} (own card)', { name })
        : partner === null
          ? name
          : t('{name} & {partner}', { name, partner: seatName(ctx, partner) }),
    );
  }
  const fields = variant ? allFields(variant) : [];
  for (const f of fields) {
    const value = record[f.name];
    const widget = widgetOf(f, variant);
    if (value === null || value === undefined || value === false || value === NONE) continue;
    if (['kind', 'contract', 'suit'].includes(widget || '')) continue;
    if (f.seat && (named.has(value) || value === who || value === partner || f.own_card_of))
      continue;
    if (f.gives && isGiven('card', record[f.gives])) continue; // worded with the card it gave
    if (f.seat) named.add(value);
    if (widget === 'card') parts.push(cardWords(ctx, record, f, fields));
    else if (widget === 'count' && f.starts_at === 'target')
      parts.push(tn(value, '{n} trick', '{n} tricks'));
    else if (widget === 'matadores') {
      parts.push(
        t('matadores {side} +{lower}', {
          side: SIDES[value.side] || value.side,
          lower: value.lower,
        }),
      );
    } else if (widget === 'errors') {
      for (const e of value)
        parts.push(
          t('{error} by {name}', {
            error: errorTitle(variant, e.kind),
            name: seatName(ctx, e.seat),
          }),
        );
    } else if (widget === 'flag' || value === true) parts.push(fieldTitle(f));
    else parts.push(`${fieldTitle(f)}: ${valueWords(ctx, variant, f, value)}`);
  }
  return parts.join(' · ');
}

/**
 * A card of a hand in words: called ("called ace ♠"), or demanded of the seat that gave it
 * while the game's description says a seat gives it ("demanded ace ♠ from Anna", a mediateur).
 * @param {Field} f
 * @param {Field[]} fields
 */
function cardWords(ctx, record, f, fields) {
  const value = record[f.name];
  const card = { rank: CALLED_RANKS[value.rank] || value.rank, suit: SUITS[value.suit] };
  const giver = fields.find((g) => g.gives === f.name);
  const demanded =
    giver &&
    recordShows(ctx.variant, record, giver.name, ctx.table.seats.length, ctx.table.options || {});
  if (!giver || !demanded) return t('called {rank} {suit}', card);
  const seat = record[giver.name];
  return typeof seat === 'number'
    ? t('demanded {rank} {suit} from {name}', { ...card, name: seatName(ctx, seat) })
    : t('demanded {rank} {suit}', card);
}

/** "Solo ♥ Bernd, won", "Forfeit: Bob", "Misdeal": one line of the score sheet. */
export function shortHand(ctx, hand) {
  const r = hand.hand || {};
  const other = otherKind(ctx, r, shortName);
  if (other) return other;
  const variant = ctx.variant;
  const { who, partner } = playersOf(variant, r);
  let people = '';
  if (who !== null) {
    const name = shortName(ctx, who);
    people =
      partner !== null
        ? ' ' + t('{name} & {partner}', { name, partner: shortName(ctx, partner) })
        : ` ${name}`;
  }
  const counted = countedAs(variant, r);
  const as = counted
    ? ' (' + t('counted as {contract}', { contract: contractTitle(variant, counted) }) + ')'
    : '';
  const line = `${gameWords(variant, r)}${people}${as}`;
  const result = hand.status === 'void' ? 'void' : hand.settlement && hand.settlement.result;
  if (result === 'won') return t('{hand}, won', { hand: line });
  if (result === 'lost') return t('{hand}, lost', { hand: line });
  if (result === 'drawn') return t('{hand}, drawn', { hand: line });
  if (result === 'void') return t('{hand}, void', { hand: line });
  return result ? `${line}, ${result}` : line;
}

/** The contract a hand counts as for its glyph on the sheet (its own, or what it ranks as). */
export function countedContract(ctx, hand) {
  const r = hand.hand || {};
  const contracts = (ctx.variant && ctx.variant.contracts) || [];
  return (
    countedAs(ctx.variant, r) || r.contract || (contracts.length === 1 ? contracts[0].name : null)
  );
}
