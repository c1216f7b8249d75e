"""Settling a German Solo hand: its value (base, bonuses, the preferred suit) and the points."""

from __future__ import annotations

from dataclasses import replace

from ..base import Settlement, Step
from ..common import settle_points_game
from .model import (
    BASE,
    FIRST_WON,
    MATADORS,
    PREFERRED_MULTIPLIER,
    PRIME,
    TOUT_ANNOUNCED,
    TOUT_CONTINUED,
    GermanHand,
    GermanOptions,
    GermanState,
)


def value_terms(hand: GermanHand, first: str = "five") -> list[tuple[Step, int]]:
    """The base and each bonus that applies, in the rulebook's order, each named by a step
    (``first``: the first tricks, "five", or "four" with 24 cards)."""
    terms = [(Step("german.term.base"), BASE[hand.contract])]
    if hand.stopped_after_five:
        terms.append((Step("german.term.prime"), PRIME))
    if hand.continued_after_five:
        terms.append((Step(f"german.term.tout_after_{first}"), TOUT_CONTINUED))
    if hand.tout_announced:
        terms.append((Step("german.term.tout_announced"), TOUT_ANNOUNCED))
    if hand.matadors_together:
        terms.append((Step("german.term.matadors_together"), MATADORS))
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
    parts = tuple(Step("german.term", {"term": label, "value": points}) for label, points in terms)
    args: dict[str, object] = {"terms": parts}
    code = "german.value"
    if len(terms) > 1:
        code += "_sum"
        args["sum"] = sum(points for _, points in terms)
    if preferred:
        code += "_doubled"
        args.update(suit=Step(f"suit.{h.trump}"), value=value)
    lines.append(Step(code, args))
    settlement = settle_points_game(
        players=n,
        dealer=st.dealer,
        side=h.side,
        value=value,
        tricks=h.tricks,
        target=target,
        errors=h.errors,
        lines=lines,
        party="german",
        in_couleur=preferred,
        couleur=st.couleur,
    )
    couleur_after = st.couleur
    if opts.preferred_suit == FIRST_WON and st.couleur is None and settlement.result == "won":
        couleur_after = h.trump
        lines.insert(-1, Step("german.preferred_now", {"suit": Step(f"suit.{h.trump}")}))
    return replace(
        settlement,
        couleur_after=couleur_after,
        explanation=tuple(lines),
        state_after=GermanState(settlement.next_dealer, couleur_after),
    )


def _first(opts: GermanOptions) -> str:
    """The first tricks a party may stop or go on after: five, or four with 24 cards."""
    return "five" if opts.target == 5 else "four"


def _contract_line(h: GermanHand, opts: GermanOptions, target: int) -> Step:
    args: dict[str, object] = {
        "contract": Step(f"german.contract.{h.contract}"),
        "suit": Step(f"suit.{h.trump}"),
        "seat": h.declarer,
    }
    first = _first(opts)
    if h.continued_after_five:
        needs = Step(f"german.needs.tout_after_{first}", {"target": target})
    elif h.tout_announced:
        needs = Step("german.needs.tout_announced", {"target": target})
    elif h.stopped_after_five:
        needs = Step(f"german.needs.prime_after_{first}", {"target": target})
    else:
        needs = Step("german.needs", {"target": target})
    args["needs"] = needs
    if h.contract == "mediateur":
        code = "german.mediateur"
        if h.called is not None:
            code += "_ace"
            args["ace"] = Step("card.ace", {"suit": Step(f"suit.{h.called.suit}")})
        if h.giver is not None:
            code += "_from"
            args["giver"] = h.giver
        return Step(code, args)
    if h.called is None:
        return Step("german.alone", args)
    args["partner"] = h.declarer if h.partner is None else h.partner
    args["card"] = Step(f"card.{h.called.rank}", {"suit": Step(f"suit.{h.called.suit}")})
    return Step("german.with_partner", args)
