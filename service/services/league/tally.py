"""What one hand adds to each seated player's league counters. Pure: standard library and the
rules' values only.

A hand is what its variant says it means for the league (``rules.LeagueHand``: the declarer,
the declaring side, the contract, the outcome, a tout, the errors' seats; ``Variant.league_hand``
reads the stored record), and its settlement dict (``HandRow.settlement``, None for a void
hand). So this module knows no game's field names:

- ``won``/``lost`` follow the outcome from the declaring side's view, and count for the
  declarer only (a drawn game is neither); ``solos_won`` counts a won solo;
- ``errors`` counts each error by its seat;
- bêtes paid and stamms drawn are counted from the settlement's transfers (how many, not how
  many chips); ``hands`` counts every current hand, forfeits and misdeals included, as the
  table's ``hands_played`` does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...rules.base import LEAGUE_STATISTICS, LeagueHand

# The rules' own list (each variant's ``statistics`` names some of them), kept in step with
# ``persistence.league.COUNTERS`` (a unit test checks it); ``sittings`` is not a property of one
# hand, so it is not here.
HAND_COUNTERS: tuple[str, ...] = LEAGUE_STATISTICS


@dataclass(frozen=True, slots=True)
class SeatTally:
    """What one hand adds to one seat: counters in ``HAND_COUNTERS`` order, and the contract
    the seat declared with its outcome (``won``/``lost``/``drawn``) if it declared."""

    counters: tuple[int, ...]
    contract: str | None = None
    outcome: str | None = None


def tally_hand(
    hand: LeagueHand | None, settlement: Mapping[str, Any] | None, players: int
) -> list[SeatTally]:
    """One ``SeatTally`` per seat; all zero for a void hand (no settlement)."""
    if hand is None or settlement is None:
        return [SeatTally((0,) * len(HAND_COUNTERS)) for _ in range(players)]
    deltas: Sequence[int] = settlement.get("deltas") or [0] * players
    result = hand.outcome
    declarer = hand.declarer
    contract = hand.contract
    errors = [0] * players
    for seat in hand.errors:
        if 0 <= seat < players:
            errors[seat] += 1
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
        solo_won = won and hand.solo
        tout_won = won and hand.tout
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
