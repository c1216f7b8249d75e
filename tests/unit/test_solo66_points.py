"""Solo 66's card points, as the rulebook states what the service checks: the kitty holds what two
cards can, and no side has exactly 1 point."""

from __future__ import annotations

import pytest

from service.rules import preview
from service.rules.base import RuleViolation
from service.rules.solo66 import TOTAL_POINTS, possible_points

KITTY = {0, *range(2, 9), 11, 13, 14, 15, 22}  # the rulebook's list: what two cards can hold


def test_the_kitty_left_by_every_accepted_pair_is_what_two_cards_hold() -> None:
    assert {TOTAL_POINTS - s - d for s, d in possible_points()} == KITTY


@pytest.mark.parametrize("kitty", sorted(set(range(0, 23)) - KITTY))
def test_a_pair_leaving_the_kitty_what_two_cards_cannot_hold_is_refused(kitty: int) -> None:
    hand = {
        "soloist": 0,
        "trump": "hearts",
        "soloist_points": 70,
        "defender_points": TOTAL_POINTS - 70 - kitty,
    }
    with pytest.raises(RuleViolation) as caught:
        preview("solo66", 5, None, None, hand)
    assert caught.value.field == "hand.defender_points"


@pytest.mark.parametrize(
    ("field", "points"), [("soloist_points", 1), ("defender_points", 1), ("soloist_points", 133)]
)
def test_no_side_has_exactly_one_point(field: str, points: int) -> None:
    hand = {"soloist": 0, "trump": "hearts", "soloist_points": 66, field: points}
    with pytest.raises(RuleViolation) as caught:
        preview("solo66", 5, None, None, hand)
    assert caught.value.field == f"hand.{field}"
