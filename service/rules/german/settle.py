"""Settling a German Solo hand: its value (base, bonuses, the preferred suit) and the points."""

from __future__ import annotations

from ..base import Settlement
from ..common import (
    DealerState,
    settle_points_game,
)
from .model import (
    BASE,
    MATADORS,
    PREFERRED_MULTIPLIER,
    PRIME,
    TITLES,
    TOUT_ANNOUNCED,
    TOUT_CONTINUED,
    GermanHand,
    GermanOptions,
)


def value_terms(hand: GermanHand) -> list[tuple[str, int]]:
    """The base and each bonus that applies, in the rulebook's order."""
    terms = [("base", BASE[hand.contract])]
    if hand.stopped_after_five:
        terms.append(("prime", PRIME))
    if hand.continued_after_five:
        terms.append(("tout after five", TOUT_CONTINUED))
    if hand.tout_announced:
        terms.append(("tout announced", TOUT_ANNOUNCED))
    if hand.matadors_together:
        terms.append(("matadors together", MATADORS))
    return terms


def hand_value(hand: GermanHand, options: GermanOptions) -> int:
    """Base plus bonuses, doubled when the trump is the preferred suit."""
    total = sum(points for _, points in value_terms(hand))
    return total * PREFERRED_MULTIPLIER if hand.trump == options.preferred_suit else total


def settle(n: int, opts: GermanOptions, st: DealerState, h: GermanHand) -> Settlement:
    """Score one hand: ``±value`` to each of the declaring party, 0 to the others."""
    preferred = opts.preferred_suit is not None and h.trump == opts.preferred_suit
    terms = value_terms(h)
    value = hand_value(h, opts)
    side = h.side
    lines = [_contract_line(h)]
    sum_text = " + ".join(f"{label} {points}" for label, points in terms)
    if len(terms) > 1:
        sum_text += f" = {sum(points for _, points in terms)}"
    if preferred:
        sum_text += f", doubled for the preferred suit {h.trump} = {value}"
    lines.append(f"Value: {sum_text}")
    return settle_points_game(
        players=n, dealer=st.dealer, side=side, value=value, tricks=h.tricks,
        target=h.target, errors=h.errors, lines=lines, party="declaring party",
        others="the others", in_couleur=preferred, couleur=None)


def _contract_line(h: GermanHand) -> str:
    name = TITLES[h.contract]
    if h.continued_after_five:
        needs = "all 8 tricks (went on after five)"
    elif h.tout_announced:
        needs = "all 8 tricks (tout announced)"
    elif h.stopped_after_five:
        needs = "5 tricks (stopped after five for prime)"
    else:
        needs = "5 tricks"
    if h.called is None:
        return f"{name} in {h.trump}: seat {h.declarer} plays alone; target {needs}"
    return (f"{name} in {h.trump}: seat {h.declarer} declares with seat {h.partner}, holder "
            f"of the {h.called.rank} of {h.called.suit}; target {needs}")

