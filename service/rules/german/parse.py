"""Reading and checking German Solo's options and hand records (the checks are listed in the
package docstring); each problem is a ``RuleViolation`` naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import RuleViolation
from ..common import (
    MISSING,
    TRICKS,
    as_object,
    get,
    optional_called,
    optional_seat,
    optional_suit,
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
    HAND_FIELDS,
    OPTION_NAMES,
    PARTNER_CONTRACTS,
    TARGET,
    TITLE,
    TOUT_FLAGS,
    GermanHand,
    GermanOptions,
)


def parse_options(raw: Mapping[str, Any] | None) -> GermanOptions:
    """``preferred_suit``: a suit or null (the default)."""
    if raw is None:
        return GermanOptions()
    obj = as_object(raw, "options")
    reject_unknown(obj, OPTION_NAMES, "options", "unknown option")
    preferred = get(obj, "preferred_suit")
    return GermanOptions(None if preferred is MISSING
                         else optional_suit(preferred, "options.preferred_suit"))


def parse_hand(raw: object, n: int) -> GermanHand:
    """A complete, rule-checked hand record (see the package docstring for every check);
    ``n`` is the number of players, already checked."""
    obj = as_object(raw, "hand")
    reject_unknown(obj, HAND_FIELDS, "hand")
    require_kind_played(get(obj, "kind"), "hand.kind", TITLE)
    contract = require_choice(get(obj, "contract"), "hand.contract", CONTRACTS, "a contract")
    trump = require_suit(get(obj, "trump"), "hand.trump")
    declarer = require_seat(get(obj, "declarer"), "hand.declarer", n)
    ranks = CALLED_RANKS.get(contract, ("ace", "king"))
    called = optional_called(get(obj, "called"), "hand.called", ranks)
    partner = optional_seat(get(obj, "partner"), "hand.partner", n)
    tricks = require_int(get(obj, "tricks"), "hand.tricks", 0, TRICKS)
    flags = {f: require_bool(get(obj, f), f"hand.{f}") for f in TOUT_FLAGS}
    matadors = require_bool(get(obj, "matadors_together"), "hand.matadors_together")
    errors = parse_errors(get(obj, "errors"), "hand.errors", n)

    if contract in PARTNER_CONTRACTS:
        if called is None:
            raise RuleViolation("hand.called",
                                f"a {contract} calls a card whose holder is the partner: "
                                "give the card")
        if called.suit == trump:
            raise RuleViolation("hand.called.suit",
                                "the called card must be of a plain suit, not of trumps")
        if partner is None:
            raise RuleViolation("hand.partner",
                                f"a {contract} needs the seat holding the called card")
        if partner == declarer:
            raise RuleViolation("hand.partner",
                                "the partner (holder of the called card) must be another "
                                "seat than the declarer")
    else:
        if called is not None:
            raise RuleViolation("hand.called", "a solo is played alone: no called card")
        if partner is not None:
            raise RuleViolation("hand.partner", "a solo is played alone: no partner")

    raised = [f for f in TOUT_FLAGS if flags[f]]
    if len(raised) > 1:
        raise RuleViolation(f"hand.{raised[1]}",
                            "at most one of stopped_after_five, continued_after_five and "
                            "tout_announced may be true")
    for flag in ("stopped_after_five", "continued_after_five"):
        if flags[flag] and tricks < TARGET:
            action = "stop" if flag == "stopped_after_five" else "go on"
            raise RuleViolation(f"hand.{flag}",
                                f"the declaring party can {action} after five only when it "
                                f"won the first five tricks (tricks must be at least 5)")
    return GermanHand(contract, trump, declarer, called, partner, tricks,
                      flags["stopped_after_five"], flags["continued_after_five"],
                      flags["tout_announced"], matadors, errors)

