"""A tournament table's result: who may confirm it, when it counts, and what of the tables
needs the director first (pure; docs/tournaments.md).

The scorer is the table's first seat (seat 0, "seat 1" on the card): the table's phones share
one token, so the service cannot tell who typed a hand; the tournament's rule names who keeps
the list, and the other players check it. A result counts once two players other than the
scorer (or the director) have confirmed the hands as they stand, and no dispute is open.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .base import RuleViolation

SCORER_SEAT = 0
"""The seat that keeps the table's list (enters its hands), and so cannot confirm them."""
CONFIRMATIONS_NEEDED = 2
STALE_MINUTES = 10
"""A table still playing with no hand for this long needs a look (the console's default)."""

# What a table's result is, in the order the director's console lists them.
STATES = ("disputed", "unconfirmed", "stale", "playing", "confirmed")


def check_confirming_seat(seat: int, players: int, field: str = "seat") -> int:
    """``seat``, a seat of a table of ``players`` other than the scorer's; RuleViolation
    naming ``field`` otherwise."""
    if not 0 <= seat < players:
        raise RuleViolation(field, "the table has seats 0 to %(last)s", last=players - 1)
    if seat == SCORER_SEAT:
        raise RuleViolation(
            field,
            "the first seat keeps the table's list: two other players confirm it",
        )
    return seat


def check_disputing_seat(seat: int, players: int, field: str = "seat") -> int:
    """``seat``, any seat of a table of ``players`` (the scorer too may dispute a hand)."""
    if not 0 <= seat < players:
        raise RuleViolation(field, "the table has seats 0 to %(last)s", last=players - 1)
    return seat


@dataclass(frozen=True)
class TableResult:
    """What is known of one table's series: its hands played and length (None: until the
    director ends it), whether it is closed, the seats that confirmed the hands as they stand
    now, whether the director did, its open disputes, and the minutes since its last hand
    (or since its draw, before the first)."""

    played: int
    limit: int | None
    closed: bool
    confirmed_by: frozenset[int]
    director: bool
    open_disputes: int
    idle_minutes: float

    @property
    def complete(self) -> bool:
        return self.closed or (self.limit is not None and self.played >= self.limit)

    @property
    def confirmed(self) -> bool:
        """Whether the table's result counts: complete, undisputed, and confirmed by the
        director or by two players other than the scorer."""
        return (
            self.complete
            and not self.open_disputes
            and (self.director or len(self.confirmed_by - {SCORER_SEAT}) >= CONFIRMATIONS_NEEDED)
        )

    def state(self, stale_minutes: float = STALE_MINUTES) -> str:
        if self.open_disputes:
            return "disputed"
        if self.confirmed:
            return "confirmed"
        if self.complete:
            return "unconfirmed"
        if self.idle_minutes >= stale_minutes:
            return "stale"
        return "playing"


def console_order(
    tables: Collection[tuple[int, TableResult]], stale_minutes: float = STALE_MINUTES
) -> list[int]:
    """The tables' numbers in the order the director's console lists them: open disputes
    first, then complete but unconfirmed, then stale, then the rest playing, confirmed last;
    within each, the longest idle first, then by number."""
    return [
        number
        for number, result in sorted(
            tables,
            key=lambda entry: (
                STATES.index(entry[1].state(stale_minutes)),
                -entry[1].idle_minutes,
                entry[0],
            ),
        )
    ]
