"""Settling a Spanish Solo hand."""

from __future__ import annotations

from ..base import Settlement
from ..common import (
    TRICKS,
    DealerState,
    settle_points_game,
)
from .model import (
    TARGETS,
    VALUES,
    SpanishHand,
    SpanishOptions,
)


def hand_value(hand: SpanishHand, options: SpanishOptions) -> int:
    """The points of the contract: doubled when the trump suit is the colour."""
    base = VALUES[hand.contract]
    return 2 * base if hand.trump == options.couleur else base


def settle(n: int, opts: SpanishOptions, st: DealerState, h: SpanishHand) -> Settlement:
    """Score one hand: ``±V`` to the declarer and the partner, 0 to the opponents."""
    in_couleur = h.trump == opts.couleur
    value = hand_value(h, opts)
    target = TARGETS[h.contract]
    side = h.side
    lines = [_contract_line(h, opts, value, target)]
    return settle_points_game(
        players=n, dealer=st.dealer, side=side, value=value, tricks=h.tricks,
        target=target, errors=h.errors, lines=lines, party="declaring side",
        others="the opponents", in_couleur=in_couleur, couleur=opts.couleur)


def _contract_line(h: SpanishHand, opts: SpanishOptions, value: int, target: int) -> str:
    where = "in colour" if h.trump == opts.couleur else "in suit"
    needs = f"target all {target} tricks" if target == TRICKS else f"target {target} tricks"
    if h.contract == "simple" and h.called is not None and h.partner is not None:
        name = "Forced simple game (all passed)" if h.forced else "Simple game"
        if h.partner == h.declarer:
            return (f"{name} in {h.trump}, {where}: {value} points, {needs}; seat {h.declarer + 1} "
                    f"called the ace of {h.called.suit}, which he holds, and plays alone")
        return (f"{name} in {h.trump}, {where}: {value} points, {needs}; seat {h.declarer + 1} "
                f"declares with seat {h.partner + 1}, holder of the ace of {h.called.suit}")
    name = "Solo" if h.contract == "solo" else "Tout"
    return f"{name} in {h.trump}, {where}: {value} points, {needs}; seat {h.declarer + 1} alone"

