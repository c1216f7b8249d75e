"""Reading and checking Solo 66's options and hand records (the checks are listed in the
package docstring); each problem is a ``RuleViolation`` naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Phrase, RuleViolation
from ..common import (
    MISSING,
    as_object,
    get,
    is_absent,
    optional_seat,
    optional_suit,
    reject_unknown,
    require_int,
    require_kind_played,
    require_present,
)
from .model import (
    DEFAULT_STAKE,
    HAND_FIELDS,
    MAX_KITTY_POINTS,
    MAX_STAKE,
    MIN_COUNTED,
    OPTION_NAMES,
    TITLE,
    TOTAL_POINTS,
    Solo66Hand,
    Solo66Options,
    possible_pile_points,
    possible_points,
)


def _points(value: object, path: str) -> int:
    points = require_int(value, path, 0, TOTAL_POINTS, Phrase("a number of card points"))
    if points not in possible_pile_points():
        raise RuleViolation(path, "no pile of cards is worth %(points)s points", points=points)
    return points


def parse_options(raw: Mapping[str, Any] | None) -> Solo66Options:
    """``stake``: an integer from 1 to 10000 (default 1)."""
    if raw is None:
        return Solo66Options()
    obj = as_object(raw, "options")
    reject_unknown(obj, OPTION_NAMES, "options", Phrase("unknown option"))
    stake = get(obj, "stake")
    return Solo66Options(
        DEFAULT_STAKE if stake is MISSING else require_int(stake, "options.stake", 1, MAX_STAKE)
    )


def parse_hand(raw: object, n: int) -> Solo66Hand:
    """A complete, rule-checked hand record (see the package docstring for every check);
    ``n`` is the number of players, already checked."""
    obj = as_object(raw, "hand")
    reject_unknown(obj, HAND_FIELDS, "hand")
    require_kind_played(get(obj, "kind"), "hand.kind", TITLE)
    raw_trump = get(obj, "trump")
    require_present(
        raw_trump, "hand.trump", Phrase("is required: the trump suit, or null when all passed")
    )
    trump = optional_suit(raw_trump, "hand.trump")
    soloist = optional_seat(get(obj, "soloist"), "hand.soloist", n)
    raw_soloist_points = get(obj, "soloist_points")
    raw_defender_points = get(obj, "defender_points")
    soloist_points = (
        None
        if is_absent(raw_soloist_points)
        else _points(raw_soloist_points, "hand.soloist_points")
    )
    defender_points = (
        None
        if is_absent(raw_defender_points)
        else _points(raw_defender_points, "hand.defender_points")
    )
    last_trick = optional_seat(get(obj, "last_trick"), "hand.last_trick", n)

    if trump is None:
        if last_trick is None:
            raise RuleViolation(
                "hand.last_trick",
                "is required when all passed (trump null): the seat that took the last trick wins",
            )
        for path, value in (
            ("hand.soloist", soloist),
            ("hand.soloist_points", soloist_points),
            ("hand.defender_points", defender_points),
        ):
            if value is not None:
                raise RuleViolation(
                    path, "a game without trump has no soloist and its card points are not counted"
                )
        return Solo66Hand(None, None, None, None, last_trick)

    if soloist is None:
        raise RuleViolation("hand.soloist", "is required: the seat that plays alone")
    if soloist_points is None:
        raise RuleViolation("hand.soloist_points", "is required: the card points the soloist took")
    if last_trick is not None:
        raise RuleViolation(
            "hand.last_trick",
            "is recorded only for a game without trump; "
            "with a trump its 10 points are in the card points",
        )
    if defender_points is None:
        defender_points = TOTAL_POINTS - soloist_points
    counted = soloist_points + defender_points
    if counted > TOTAL_POINTS:
        raise RuleViolation(
            "hand.defender_points",
            "soloist and defenders together have %(counted)s points; there are only %(total)s",
            counted=counted,
            total=TOTAL_POINTS,
        )
    if counted < MIN_COUNTED:
        raise RuleViolation(
            "hand.defender_points",
            "soloist and defenders together have only %(counted)s points; "
            "the two kitty cards hold at most %(kitty)s, so at "
            "least %(least)s are taken in tricks",
            counted=counted,
            kitty=MAX_KITTY_POINTS,
            least=MIN_COUNTED,
        )
    if (soloist_points, defender_points) not in possible_points():
        raise RuleViolation(
            "hand.defender_points",
            "no deal of the cards gives the soloist %(soloist)s and "
            "the defenders %(defenders)s points",
            soloist=soloist_points,
            defenders=defender_points,
        )
    return Solo66Hand(trump, soloist, soloist_points, defender_points, None)
