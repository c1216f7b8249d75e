"""Settling a German Solo hand: its value (base, bonuses, the preferred suit) and the points."""

from __future__ import annotations

from dataclasses import replace

from ..base import Settlement
from ..common import settle_points_game
from .model import (
    BASE,
    FIRST_WON,
    MATADORS,
    PREFERRED_MULTIPLIER,
    PRIME,
    TITLES,
    TOUT_ANNOUNCED,
    TOUT_CONTINUED,
    GermanHand,
    GermanOptions,
    GermanState,
)


def value_terms(hand: GermanHand, first: str = "five") -> list[tuple[str, int]]:
    """The base and each bonus that applies, in the rulebook's order (``first``: the words for
    the first tricks, "five", or "four" with 24 cards)."""
    terms = [("base", BASE[hand.contract])]
    if hand.stopped_after_five:
        terms.append(("prime", PRIME))
    if hand.continued_after_five:
        terms.append((f"tout after {first}", TOUT_CONTINUED))
    if hand.tout_announced:
        terms.append(("tout announced", TOUT_ANNOUNCED))
    if hand.matadors_together:
        terms.append(("matadors together", MATADORS))
    return terms


def hand_value(hand: GermanHand, preferred_suit: str | None) -> int:
    """Base plus bonuses, doubled when the trump is the preferred suit in force."""
    total = sum(points for _, points in value_terms(hand))
    return total * PREFERRED_MULTIPLIER if hand.trump == preferred_suit else total


def settle(n: int, opts: GermanOptions, st: GermanState, h: GermanHand) -> Settlement:
    """Score one hand: ``±value`` to each of the declaring party, 0 to the others; with
    ``preferred_suit: first_won`` the first contract won makes its trump the preferred suit."""
    preferred = st.couleur is not None and h.trump == st.couleur
    first = _first(opts)
    terms = value_terms(h, first)
    value = hand_value(h, st.couleur)
    target = opts.tricks if h.plays_for_all else opts.target
    lines = [_contract_line(h, opts, target)]
    sum_text = " + ".join(f"{label} {points}" for label, points in terms)
    if len(terms) > 1:
        sum_text += f" = {sum(points for _, points in terms)}"
    if preferred:
        sum_text += f", doubled for the preferred suit {h.trump} = {value}"
    lines.append(f"Value: {sum_text}")
    settlement = settle_points_game(
        players=n, dealer=st.dealer, side=h.side, value=value, tricks=h.tricks,
        target=target, errors=h.errors, lines=lines, party="declaring party",
        others="the others", in_couleur=preferred, couleur=st.couleur)
    couleur_after = st.couleur
    if opts.preferred_suit == FIRST_WON and st.couleur is None and settlement.result == "won":
        couleur_after = h.trump
        lines.insert(-1, f"The first contract won: {h.trump} is the preferred suit from the "
                         "next hand on")
    return replace(settlement, couleur_after=couleur_after, explanation=tuple(lines),
                   state_after=GermanState(settlement.next_dealer, couleur_after))


def _first(opts: GermanOptions) -> str:
    """The first tricks a party may stop or go on after: five, or four with 24 cards."""
    return "five" if opts.target == 5 else "four"


def _contract_line(h: GermanHand, opts: GermanOptions, target: int) -> str:
    name = TITLES[h.contract]
    first = _first(opts)
    if h.continued_after_five:
        needs = f"all {target} tricks (went on after {first})"
    elif h.tout_announced:
        needs = f"all {target} tricks (tout announced)"
    elif h.stopped_after_five:
        needs = f"{target} tricks (stopped after {first} for prime)"
    else:
        needs = f"{target} tricks"
    if h.contract == "mediateur":
        demanded = "" if h.called is None else f" with the ace of {h.called.suit}"
        if h.giver is not None:
            demanded += f" from seat {h.giver + 1}"
        return (f"{name} in {h.trump}: seat {h.declarer + 1} plays alone after demanding an "
                f"ace{demanded}; target {needs}")
    if h.called is None:
        return f"{name} in {h.trump}: seat {h.declarer + 1} plays alone; target {needs}"
    partner = h.declarer if h.partner is None else h.partner
    return (f"{name} in {h.trump}: seat {h.declarer + 1} declares with seat {partner + 1}, "
            f"holder of the {h.called.rank} of {h.called.suit}; target {needs}")
