"""Settling a Solo 66 hand."""

from __future__ import annotations

from typing import Literal

from ..base import Reason, RuleViolation, Settlement, Step, Transfer
from ..common import (
    DealerState,
    seat_list,
)
from .model import (
    WIN_POINTS,
    Solo66Hand,
    Solo66Options,
)


def settle(n: int, opts: Solo66Options, st: DealerState, h: Solo66Hand) -> Settlement:
    """Pay the stake from each loser to each winner, in ascending seat order."""
    stake = opts.stake
    lines: list[Step] = []
    transfers: list[Transfer] = []
    result: Literal["won", "lost", "drawn"]
    if h.trump is None and h.last_trick is not None:
        winner = h.last_trick
        others = [seat for seat in range(n) if seat != winner]
        result = "won"
        lines.append(Step("solo66.all_passed", {"seat": winner}))
        transfers = [Transfer(seat, winner, stake, Reason.GAME) for seat in others]
        lines.append(
            Step("solo66.each_pay", {"seats": seat_list(others), "chips": stake, "seat": winner})
        )
    elif h.soloist is not None and h.soloist_points is not None and h.defender_points is not None:
        soloist = h.soloist
        defenders = [seat for seat in range(n) if seat != soloist]
        lines.append(
            Step(
                "solo66.plays",
                {
                    "seat": soloist,
                    "suit": Step(f"suit.{h.trump}"),
                    "soloist_points": h.soloist_points,
                    "defender_points": h.defender_points,
                },
            )
        )
        if h.soloist_points >= WIN_POINTS:
            result = "won"
            lines.append(Step("solo66.won", {"win": WIN_POINTS}))
            transfers = [Transfer(seat, soloist, stake, Reason.GAME) for seat in defenders]
            lines.append(
                Step(
                    "solo66.each_pay",
                    {"seats": seat_list(defenders), "chips": stake, "seat": soloist},
                )
            )
        elif h.defender_points >= WIN_POINTS:
            result = "lost"
            lines.append(Step("solo66.lost", {"win": WIN_POINTS}))
            transfers = [Transfer(soloist, seat, stake, Reason.GAME) for seat in defenders]
            lines.append(
                Step(
                    "solo66.pays_each",
                    {"seat": soloist, "chips": stake, "seats": seat_list(defenders)},
                )
            )
        else:
            result = "drawn"
            lines.append(Step("solo66.drawn", {"win": WIN_POINTS}))
    else:  # only a hand built by hand, bypassing parse_hand, can get here
        raise RuleViolation("hand", "is not a complete Solo 66 hand")
    deltas = [0] * n
    for t in transfers:
        if isinstance(t.source, int):
            deltas[t.source] -= t.chips
        if isinstance(t.target, int):
            deltas[t.target] += t.chips
    next_dealer = (st.dealer + 1) % n
    lines.append(Step("deals_next", {"seat": next_dealer}))
    return Settlement(
        result=result,
        in_couleur=None,
        value=0 if result == "drawn" else stake,
        transfers=tuple(transfers),
        deltas=tuple(deltas),
        pool_before=None,
        pool_after=None,
        couleur_before=None,
        couleur_after=None,
        next_dealer=next_dealer,
        explanation=tuple(lines),
        state_after=DealerState(next_dealer),
    )
