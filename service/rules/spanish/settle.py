"""Settling a Spanish Solo hand."""

from __future__ import annotations

from ..base import Settlement, Step
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
        players=n,
        dealer=st.dealer,
        side=side,
        value=value,
        tricks=h.tricks,
        target=target,
        errors=h.errors,
        lines=lines,
        party="spanish",
        in_couleur=in_couleur,
        couleur=opts.couleur,
    )


def _contract_line(h: SpanishHand, opts: SpanishOptions, value: int, target: int) -> Step:
    args: dict[str, object] = {
        "suit": Step(f"suit.{h.trump}"),
        "value": value,
        "seat": h.declarer,
        "where": Step("spanish.in_colour" if h.trump == opts.couleur else "spanish.in_suit"),
        "needs": Step(
            "spanish.needs_all" if target == TRICKS else "spanish.needs", {"target": target}
        ),
    }
    if h.contract == "simple" and h.called is not None and h.partner is not None:
        args["contract"] = Step(
            "spanish.contract.forced" if h.forced else "spanish.contract.simple"
        )
        args["ace"] = Step("card.ace", {"suit": Step(f"suit.{h.called.suit}")})
        if h.partner == h.declarer:
            return Step("spanish.own_ace", args)
        args["partner"] = h.partner
        return Step("spanish.with_partner", args)
    args["contract"] = Step(f"spanish.contract.{'solo' if h.contract == 'solo' else 'tout'}")
    return Step("spanish.alone", args)
