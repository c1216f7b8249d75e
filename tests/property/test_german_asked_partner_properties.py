"""German Solo's "partner?" question, over every valid hand: after it no slam is taken, and
short of a slam it changes no points."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.rules import RuleViolation, preview
from service.rules.german import GERMAN
from tests.strategies_variants import german_hands, german_options

cases = german_options.flatmap(lambda options: st.tuples(st.just(options), german_hands(options)))


def tricks_of(options: dict[str, Any]) -> int:
    return 6 if options.get("deck") == 24 else 8


@given(cases)
def test_a_question_short_of_a_slam_scores_as_the_hand_without_it(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    options, hand = case
    slam = hand.get("continued_after_five") or hand.get("tout_announced")
    if hand["contract"] not in ("frage", "grossfrage") or slam:
        return
    if hand["tricks"] == tricks_of(options):
        return
    asked = preview("german", 4, options, None, {**hand, "asked_partner": True})
    plain = preview("german", 4, options, None, {**hand, "asked_partner": False})
    assert asked.deltas == plain.deltas and asked.value == plain.value


@given(cases, st.sampled_from(("continued_after_five", "tout_announced", "all_tricks")))
def test_after_the_question_every_slam_is_refused(
    case: tuple[dict[str, Any], dict[str, Any]], slam: str
) -> None:
    options, hand = case
    asked = {**hand, "asked_partner": True}
    for flag in ("stopped_after_five", "continued_after_five", "tout_announced"):
        asked.pop(flag, None)
    if slam == "all_tricks":
        asked["tricks"] = tricks_of(options)
        field = "hand.tricks"
    else:
        asked[slam] = True
        asked["tricks"] = tricks_of(options)
        field = f"hand.{slam}"
    if hand["contract"] not in ("frage", "grossfrage"):
        field = "hand.asked_partner"
    try:
        GERMAN.parse_hand(asked, 4, options)
    except RuleViolation as refused:
        assert refused.field == field
    else:
        raise AssertionError(f"a slam after the question was taken: {asked!r}")
