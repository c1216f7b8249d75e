"""A stored hand is read as the rules read it when they took it (``Variant.read_stored_hand``,
docs/rules.md "Hands stored before a check existed"): a record today's rules take reads the
same stored, and the records the checks of later Decisions refuse are read, as the rulebook
says such a hand was played, instead of blocking their table's settling again."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules import RuleViolation
from service.rules.american import AMERICAN
from service.rules.german import GERMAN
from tests.strategies import american_hands, max_lower
from tests.strategies_variants import german_hands, german_options

american_cases = st.sampled_from((3, 4, 5)).flatmap(
    lambda n: st.tuples(st.just(n), american_hands(n))
)
german_cases = german_options.flatmap(lambda o: st.tuples(st.just(o), german_hands(o)))


def tricks_of(options: dict[str, Any]) -> tuple[int, int]:
    """A hand's tricks and the target with the table's deck."""
    return (6, 4) if options.get("deck") == 24 else (8, 5)


@given(american_cases)
def test_an_american_record_of_todays_rules_reads_the_same_stored(
    case: tuple[int, dict[str, Any]],
) -> None:
    players, hand = case
    assert AMERICAN.read_stored_hand(hand, players, None) == AMERICAN.parse_hand(
        hand, players, None
    )


@given(german_cases)
def test_a_german_record_of_todays_rules_reads_the_same_stored(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    options, hand = case
    assert GERMAN.read_stored_hand(hand, 4, options) == GERMAN.parse_hand(hand, 4, options)


@given(american_cases, st.data())
def test_a_lone_declarers_lower_matadores_stored_before_the_bound_count_as_recorded(
    case: tuple[int, dict[str, Any]], data: st.DataObject
) -> None:
    players, hand = case
    if "contract" not in hand:
        return
    lone = {**hand, "contract": "solo", "partner": None, "called": None}
    lone.update(tricks=min(hand["tricks"], 7), tout_after_five=False)
    lone["errors"] = [e for e in hand.get("errors", []) if e["kind"] != "unannounced_void"]
    most = max_lower(hand["trump"], players)
    lower = data.draw(st.integers(6, most))
    old = {**lone, "matadores": {"side": "declarers", "lower": lower}}
    with pytest.raises(RuleViolation) as refused:
        AMERICAN.parse_hand(old, players, None)
    assert refused.value.field == "hand.matadores.lower"
    options = AMERICAN.parse_options(None)
    state = AMERICAN.initial_state(players, options)
    read = AMERICAN.read_stored_hand(old, players, options)
    settled = AMERICAN.settle(players, options, state, read)
    five_lower = {**lone, "matadores": {"side": "declarers", "lower": 5}}
    five = AMERICAN.settle(players, options, state, AMERICAN.parse_hand(five_lower, players, None))
    # One chip more per payment for each lower matadore past five, as recorded.
    assert settled.value == five.value + lower - 5
    # Past what a side of that trump suit can hold, it was never taken: still refused.
    with pytest.raises(RuleViolation):
        AMERICAN.read_stored_hand(
            {**lone, "matadores": {"side": "declarers", "lower": most + 1}}, players, None
        )


@given(german_cases)
def test_all_the_tricks_stored_with_no_flag_went_on_after_the_first_ones(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    options, hand = case
    every, _ = tricks_of(options)
    old = {**hand, "tricks": every, "asked_partner": False}
    for flag in ("stopped_after_five", "continued_after_five", "tout_announced"):
        old.pop(flag, None)
    with pytest.raises(RuleViolation) as refused:
        GERMAN.parse_hand(old, 4, options)
    assert refused.value.field == "hand.continued_after_five"
    went_on = GERMAN.parse_hand({**old, "continued_after_five": True}, 4, options)
    assert GERMAN.read_stored_hand(old, 4, options) == went_on


@given(german_cases, st.data())
def test_a_stop_stored_with_more_tricks_than_the_target_is_settled_as_recorded(
    case: tuple[dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    options, hand = case
    every, target = tricks_of(options)
    tricks = data.draw(st.integers(target + 1, every))
    old = {**hand, "tricks": tricks, "stopped_after_five": True, "asked_partner": False}
    old.pop("continued_after_five", None)
    old.pop("tout_announced", None)
    with pytest.raises(RuleViolation) as refused:
        GERMAN.parse_hand(old, 4, options)
    assert refused.value.field in ("hand.stopped_after_five", "hand.continued_after_five")
    read = GERMAN.read_stored_hand(old, 4, options)
    assert (read.tricks, read.stopped_after_five, read.continued_after_five) == (
        tricks,
        True,
        False,
    )
    # Scored as the stop at the target it was, with its prime, whatever tricks it recorded.
    at_target = GERMAN.parse_hand({**old, "tricks": target}, 4, options)
    state = GERMAN.initial_state(4, options)
    assert GERMAN.settle(4, options, state, read).deltas == (
        GERMAN.settle(4, options, state, at_target).deltas
    )
    # Fewer than the target was never taken with a stop: still refused.
    with pytest.raises(RuleViolation):
        GERMAN.read_stored_hand({**old, "tricks": target - 1}, 4, options)
