"""What one hand adds to each seated player's league counters. Pure: standard library only.

A hand is read as it is stored: its record (``HandRow.record``) and its settlement dict
(``HandRow.settlement``, None for a void hand). Every variant's record is understood:

- the declarer is ``declarer`` (American, Spanish, German) or ``soloist`` (Solo 66; a game
  without trump has none); ``won``/``lost`` follow the settlement's ``result`` from the
  declaring side's view, and count for the declarer only (a drawn Solo 66 is neither);
- the contract is ``contract``; a Solo 66 soloist's game counts as a ``solo``;
- a tout is the contract ``tout``, or a game that went on for all eight tricks
  (``tout_after_five``, ``continued_after_five``, ``tout_announced``);
- errors are the record's ``errors`` by seat, and a ``forfeit`` is an error of its ``seat``;
- bêtes paid and stamms drawn are counted from the settlement's transfers (how many, not how
  many chips); ``hands`` counts every current hand, forfeits and misdeals included, as the
  table's ``hands_played`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# Kept in step with ``persistence.league.COUNTERS`` (a unit test checks it); ``sittings`` is not a
# property of one hand, so it is not here.
HAND_COUNTERS: tuple[str, ...] = (
    "hands",
    "net",
    "declared",
    "won",
    "lost",
    "solos_won",
    "touts_won",
    "betes_paid",
    "stamms_drawn",
    "errors",
)
SOLO66_CONTRACT = "solo"
TOUT_FLAGS = ("tout_after_five", "continued_after_five", "tout_announced")


@dataclass(frozen=True, slots=True)
class SeatTally:
    """What one hand adds to one seat: counters in ``HAND_COUNTERS`` order, and the contract
    the seat declared with its outcome (``won``/``lost``/``drawn``) if it declared."""

    counters: tuple[int, ...]
    contract: str | None = None
    outcome: str | None = None


def declarer_of(record: Mapping[str, Any]) -> int | None:
    """The seat that declared the game, or None (forfeit, misdeal, Solo 66 without trump)."""
    if record.get("kind", "played") != "played":
        return None
    seat = record.get("declarer", record.get("soloist"))
    return seat if type(seat) is int else None


def contract_of(record: Mapping[str, Any]) -> str | None:
    if declarer_of(record) is None:
        return None
    contract = record.get("contract")
    return contract if isinstance(contract, str) else SOLO66_CONTRACT


def _is_tout(record: Mapping[str, Any], contract: str) -> bool:
    return contract == "tout" or any(record.get(flag) is True for flag in TOUT_FLAGS)


def tally_hand(
    record: Mapping[str, Any] | None, settlement: Mapping[str, Any] | None, players: int
) -> list[SeatTally]:
    """One ``SeatTally`` per seat; all zero for a void hand (no settlement)."""
    if record is None or settlement is None:
        return [SeatTally((0,) * len(HAND_COUNTERS)) for _ in range(players)]
    deltas: Sequence[int] = settlement.get("deltas") or [0] * players
    result = settlement.get("result")
    declarer = declarer_of(record)
    contract = contract_of(record)
    errors = [0] * players
    for error in record.get("errors") or ():
        seat = error.get("seat") if isinstance(error, Mapping) else None
        if type(seat) is int and 0 <= seat < players:
            errors[seat] += 1
    if record.get("kind") == "forfeit" and type(record.get("seat")) is int:
        errors[record["seat"]] += 1
    betes = [0] * players
    stamms = [0] * players
    for transfer in settlement.get("transfers") or ():
        if transfer["reason"] == "bete" and type(transfer["from"]) is int:
            betes[transfer["from"]] += 1
        elif transfer["reason"] == "stamm" and type(transfer["to"]) is int:
            stamms[transfer["to"]] += 1

    tallies = []
    for seat in range(players):
        declared = seat == declarer
        won = declared and result == "won"
        lost = declared and result == "lost"
        solo_won = won and contract == "solo"
        tout_won = won and contract is not None and _is_tout(record, contract)
        counters = (
            1,
            deltas[seat],
            int(declared),
            int(won),
            int(lost),
            int(solo_won),
            int(tout_won),
            betes[seat],
            stamms[seat],
            errors[seat],
        )
        if declared:
            tallies.append(SeatTally(counters, contract, result))
        else:
            tallies.append(SeatTally(counters))
    return tallies
