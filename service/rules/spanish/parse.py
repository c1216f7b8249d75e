"""Reading and checking Spanish Solo's options and hand records (the checks are listed in the
package docstring); each problem is a ``RuleViolation`` naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Phrase, RuleViolation
from ..common import (
    MISSING,
    TRICKS,
    as_object,
    get,
    optional_called,
    optional_seat,
    parse_errors,
    reject_unknown,
    require_bool,
    require_choice,
    require_int,
    require_kind_played,
    require_seat,
    require_suit,
)
from .model import (
    CALLED_RANKS,
    CONTRACTS,
    DEFAULT_COULEUR,
    HAND_FIELDS,
    MAX_TARGET_HANDS,
    MAX_TARGET_SCORE,
    OPTION_NAMES,
    TITLE,
    SpanishHand,
    SpanishOptions,
)


def _optional_target(value: object, path: str, high: int) -> int | None:
    if value is MISSING or value is None:
        return None
    return require_int(value, path, 1, high)


def parse_options(raw: Mapping[str, Any] | None) -> SpanishOptions:
    """``couleur`` (default clubs), ``target_hands`` and ``target_score`` (null or ≥ 1)."""
    if raw is None:
        return SpanishOptions()
    obj = as_object(raw, "options")
    reject_unknown(obj, OPTION_NAMES, "options", Phrase("unknown option"))
    couleur = get(obj, "couleur")
    return SpanishOptions(
        couleur=DEFAULT_COULEUR if couleur is MISSING else require_suit(couleur, "options.couleur"),
        target_hands=_optional_target(
            get(obj, "target_hands"), "options.target_hands", MAX_TARGET_HANDS
        ),
        target_score=_optional_target(
            get(obj, "target_score"), "options.target_score", MAX_TARGET_SCORE
        ),
    )


def parse_hand(raw: object, n: int) -> SpanishHand:
    """A complete, rule-checked hand record (see the package docstring for every check);
    ``n`` is the number of players, already checked."""
    obj = as_object(raw, "hand")
    reject_unknown(obj, HAND_FIELDS, "hand")
    require_kind_played(get(obj, "kind"), "hand.kind", TITLE)
    contract = require_choice(
        get(obj, "contract"), "hand.contract", CONTRACTS, Phrase("a contract")
    )
    trump = require_suit(get(obj, "trump"), "hand.trump")
    declarer = require_seat(get(obj, "declarer"), "hand.declarer", n)
    called = optional_called(get(obj, "called"), "hand.called", CALLED_RANKS)
    partner = optional_seat(get(obj, "partner"), "hand.partner", n)
    tricks = require_int(get(obj, "tricks"), "hand.tricks", 0, TRICKS)
    forced = require_bool(get(obj, "forced"), "hand.forced")
    errors = parse_errors(get(obj, "errors"), "hand.errors", n)
    if contract == "simple":
        if called is None:
            raise RuleViolation("hand.called", "a simple game calls an ace: give the card")
        if partner is None:
            raise RuleViolation(
                "hand.partner", "a simple game needs the seat holding the called ace"
            )
    else:
        if called is not None:
            raise RuleViolation(
                "hand.called",
                "a %(contract)s is played alone: no called card",
                contract=contract,
            )
        if partner is not None:
            raise RuleViolation(
                "hand.partner", "a %(contract)s is played alone: no partner", contract=contract
            )
        if forced:
            raise RuleViolation("hand.forced", "only a simple game can be forced (when all passed)")
    return SpanishHand(contract, trump, declarer, called, partner, tricks, forced, errors)
