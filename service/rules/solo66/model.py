"""Solo 66's contracts and values, and its option and hand records."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

TITLE: Final = "Solo 66"
PLAYERS: Final = 5
TOTAL_POINTS: Final = 134
WIN_POINTS: Final = 66
LAST_TRICK_POINTS: Final = 10
KITTY_CARDS: Final = 2
CARDS_PER_TRICK: Final = PLAYERS
TRICKS: Final = 6
CARD_POINTS: Final[Mapping[str, int]] = {
    "ace": 11,
    "ten": 11,
    "king": 4,
    "queen": 3,
    "jack": 2,
    "nine": 0,
    "eight": 0,
    "seven": 0,
}
MAX_KITTY_POINTS: Final = 22
MIN_COUNTED: Final = TOTAL_POINTS - MAX_KITTY_POINTS
DEFAULT_STAKE: Final = 1
MAX_STAKE: Final = 10_000
OPTION_NAMES: Final = ("stake",)
HAND_FIELDS: Final = ("kind", "soloist", "trump", "soloist_points", "defender_points", "last_trick")


@functools.cache
def possible_points() -> frozenset[tuple[int, int]]:
    """Every ``(soloist_points, defender_points)`` that one deal and play can produce.

    The 32 cards are split into the soloist's tricks (5 cards each, ``k`` of 6 tricks), the
    defenders' tricks (the other ``30 - 5k`` cards) and the kitty (2 cards, not counted); the
    last trick's 10 points go to the soloist if ``k >= 1`` took it, else to the defenders.
    """
    counts: dict[int, int] = {}
    for points in CARD_POINTS.values():
        counts[points] = counts.get(points, 0) + 4
    zeros = counts.pop(0)
    # (soloist's point cards, kitty cards, soloist's points, defenders' points)
    states = {(0, 0, 0, 0)}
    for points, number in sorted(counts.items()):
        states = {
            (taken + a, kitty + c, s + a * points, d + (number - a - c) * points)
            for taken, kitty, s, d in states
            for c in range(min(number, KITTY_CARDS - kitty) + 1)
            for a in range(number - c + 1)
        }
    pairs: set[tuple[int, int]] = set()
    for taken, kitty, s, d in states:
        free_zeros = zeros - (KITTY_CARDS - kitty)
        for zeros_to_soloist in range(free_zeros + 1):
            cards = taken + zeros_to_soloist
            if cards % CARDS_PER_TRICK:
                continue
            tricks = cards // CARDS_PER_TRICK
            if tricks >= 1:
                pairs.add((s + LAST_TRICK_POINTS, d))
            if tricks < TRICKS:
                pairs.add((s, d + LAST_TRICK_POINTS))
    return frozenset(pairs)


@functools.cache
def possible_pile_points() -> frozenset[int]:
    """Every number of card points one side can take (all but 1 and 133)."""
    return frozenset(s for s, _ in possible_points())


@dataclass(frozen=True, slots=True)
class Solo66Options:
    """``stake``: chips each payment moves."""

    stake: int = DEFAULT_STAKE

    def to_dict(self) -> dict[str, Any]:
        return {"stake": self.stake}


@dataclass(frozen=True, slots=True)
class Solo66Hand:
    """A checked Solo 66 hand: a soloist's game with its card points, or (``trump`` None) a
    game without trump won by ``last_trick``."""

    trump: str | None
    soloist: int | None
    soloist_points: int | None
    defender_points: int | None
    last_trick: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "soloist": self.soloist,
            "trump": self.trump,
            "soloist_points": self.soloist_points,
            "defender_points": self.defender_points,
            "last_trick": self.last_trick,
        }
