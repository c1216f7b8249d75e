"""Settling a table's hands in order: one pure function, ``replay``, that every use case which
settles hands goes through (recording the next hand, a correction or a void and the hands
after it, a re-seating, the import of a backup).

State in, settled hands out: each hand starts from the state the one before it left, a void
hand moves nothing and passes the state on, and a session that is over (Spanish Solo's
targets) takes no further hand. A hand the service stored earlier is read as the rules read it
when it was taken (``Variant.read_stored_hand``), so a check added since never blocks the
settling of its table again; a new record (the hand being recorded, or a correction) is read
with every check. Pure: no I/O; the callers own the rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .base import RuleViolation, Settlement, Variant, VariantState

K = TypeVar("K")

RECORDED = "recorded"
VOID = "void"


@dataclass(frozen=True, slots=True)
class HandToSettle(Generic[K]):
    """One hand to settle: ``key`` is the caller's handle on it (a row, an index), returned
    as it is. ``stored``: the record is one the service took earlier (read leniently, see the
    module); False for a record a client sends now. ``state_before``: the state this hand was
    last settled from, if any (see ``stop_when_unchanged``)."""

    key: K
    status: str
    record: Mapping[str, Any]
    stored: bool = True
    state_before: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SettledHand(Generic[K]):
    """A hand settled at its place: the state it started from (as JSON), its record (a new
    one as the rules write it, a stored or void one as it was given), and its settlement
    (None: void)."""

    key: K
    status: str
    record: Mapping[str, Any]
    state_before: dict[str, Any]
    settlement: Settlement | None

    @property
    def state_after(self) -> dict[str, Any]:
        if self.settlement is None:
            return self.state_before
        state: dict[str, Any] = self.settlement.state_after.to_dict()
        return state


class HandRefused(Exception, Generic[K]):
    """Hand ``key`` (the ``position``-th given) cannot be settled at its place: ``violation``
    is the rules' reason, or None when the session was over before it."""

    def __init__(self, key: K, position: int, violation: RuleViolation | None) -> None:
        self.key = key
        self.position = position
        self.violation = violation
        super().__init__(f"hand {position}: {violation or 'the session was over'}")


@dataclass(frozen=True, slots=True)
class Replayed(Generic[K]):
    """The hands settled, and the totals and hands played after the last of them."""

    hands: tuple[SettledHand[K], ...]
    totals: tuple[int, ...]
    played: int


def replay(
    variant: Variant,
    players: int,
    options: Any,
    state: VariantState,
    hands: Iterable[HandToSettle[K]],
    *,
    totals: Sequence[int] | None = None,
    played: int = 0,
    stop_when_unchanged: bool = False,
) -> Replayed[K]:
    """Settle ``hands`` in order from ``state`` (a parsed state of ``variant``), with the
    seats' ``totals`` and the hands ``played`` before the first of them (a fresh table's by
    default), for the session's end.

    With ``stop_when_unchanged``, the run stops before the first stored hand whose
    ``state_before`` is the state it would start from now: from there on nothing can change,
    and it is not returned. Raises ``HandRefused`` for the first hand that cannot be settled."""
    running = [0] * players if totals is None else list(totals)
    state_raw: dict[str, Any] = state.to_dict()
    settled: list[SettledHand[K]] = []
    for position, hand in enumerate(hands):
        if stop_when_unchanged and hand.stored and hand.state_before == state_raw:
            break
        if hand.status != RECORDED:
            settled.append(SettledHand(hand.key, hand.status, hand.record, state_raw, None))
            continue
        outcome = variant.session_outcome(options, tuple(running), played)
        if outcome is not None and outcome.over:
            raise HandRefused(hand.key, position, None)
        try:
            read = variant.read_stored_hand if hand.stored else variant.parse_hand
            parsed = read(hand.record, players, options)
            settlement = variant.settle(players, options, state, parsed)
        except RuleViolation as violation:
            raise HandRefused(hand.key, position, violation) from None
        for seat, delta in enumerate(settlement.deltas):
            running[seat] += delta
        played += 1
        # A stored record is kept as it was stored (the league counts it from the same words
        # it was counted from before); a new one is written as the rules write it.
        record = dict(hand.record) if hand.stored else parsed.to_dict()
        settled.append(SettledHand(hand.key, RECORDED, record, state_raw, settlement))
        state = settlement.state_after
        state_raw = state.to_dict()
    return Replayed(tuple(settled), tuple(running), played)
