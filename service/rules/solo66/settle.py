"""Settling a Solo 66 hand."""

from __future__ import annotations

from typing import Literal

from ..base import Reason, RuleViolation, Settlement, Transfer
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
    lines: list[str] = []
    transfers: list[Transfer] = []
    result: Literal["won", "lost", "drawn"]
    if h.trump is None and h.last_trick is not None:
        winner = h.last_trick
        others = [seat for seat in range(n) if seat != winner]
        result = "won"
        lines.append(f"All passed: played without trump; seat {winner + 1} took the last trick "
                     "and wins")
        transfers = [Transfer(seat, winner, stake, Reason.GAME) for seat in others]
        lines.append(f"{seat_list(others).capitalize()} each pay {_chips(stake)} "
                     f"to seat {winner + 1}")
    elif h.soloist is not None and h.soloist_points is not None \
            and h.defender_points is not None:
        soloist = h.soloist
        defenders = [seat for seat in range(n) if seat != soloist]
        lines.append(f"Seat {soloist + 1} plays alone with {h.trump} as trump: "
                     f"{h.soloist_points} card points against the defenders' "
                     f"{h.defender_points}")
        if h.soloist_points >= WIN_POINTS:
            result = "won"
            lines.append(f"The soloist has {WIN_POINTS} or more: won")
            transfers = [Transfer(seat, soloist, stake, Reason.GAME) for seat in defenders]
            lines.append(f"{seat_list(defenders).capitalize()} each pay "
                         f"{_chips(stake)} to seat {soloist + 1}")
        elif h.defender_points >= WIN_POINTS:
            result = "lost"
            lines.append(f"The soloist has less than {WIN_POINTS} and the defenders "
                         f"{WIN_POINTS} or more: lost")
            transfers = [Transfer(soloist, seat, stake, Reason.GAME) for seat in defenders]
            lines.append(f"Seat {soloist + 1} pays {_chips(stake)} to each of "
                         f"{seat_list(defenders)}")
        else:
            result = "drawn"
            lines.append(f"Neither side reached {WIN_POINTS}: drawn, no chips move")
    else:  # only a hand built by hand, bypassing parse_hand, can get here
        raise RuleViolation("hand", "is not a complete Solo 66 hand")
    deltas = [0] * n
    for t in transfers:
        if isinstance(t.source, int):
            deltas[t.source] -= t.chips
        if isinstance(t.target, int):
            deltas[t.target] += t.chips
    next_dealer = (st.dealer + 1) % n
    lines.append(f"Seat {next_dealer + 1} deals next")
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


def _chips(stake: int) -> str:
    return f"{stake} chip" if stake == 1 else f"{stake} chips"

