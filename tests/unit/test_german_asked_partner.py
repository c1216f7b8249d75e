"""German Solo's "partner?" question (*Helfer?*): recorded as ``asked_partner``, only in a frage
or grossfrage, and after it "a slam is not permitted" (the seed)."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules import RuleViolation, preview
from service.rules.german import GERMAN

FRAGE: dict[str, Any] = {
    "contract": "frage",
    "trump": "hearts",
    "declarer": 0,
    "called": {"rank": "ace", "suit": "spades"},
    "partner": 2,
    "tricks": 6,
    "asked_partner": True,
}


def test_the_question_is_recorded_and_settles_as_the_hand_would_without_it() -> None:
    hand = GERMAN.parse_hand(FRAGE, 4, None)
    assert hand.asked_partner is True
    assert hand.to_dict()["asked_partner"] is True
    without = preview("german", 4, None, None, {**FRAGE, "asked_partner": False})
    assert preview("german", 4, None, None, FRAGE).deltas == without.deltas


def test_a_hand_without_the_question_reads_it_as_not_asked() -> None:
    record = {k: v for k, v in FRAGE.items() if k != "asked_partner"}
    assert GERMAN.parse_hand(record, 4, None).asked_partner is False


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"continued_after_five": True, "tricks": 7}, "hand.continued_after_five"),
        ({"tout_announced": True}, "hand.tout_announced"),
        ({"tricks": 8}, "hand.tricks"),
        ({"tricks": 8, "continued_after_five": True}, "hand.continued_after_five"),
        (
            {"contract": "solo", "called": None, "partner": None},
            "hand.asked_partner",
        ),
        (
            {"contract": "force", "called": {"rank": "ace", "suit": "spades"}},
            "hand.asked_partner",
        ),
        ({"asked_partner": "yes"}, "hand.asked_partner"),
    ],
)
def test_after_the_question_a_slam_is_refused(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        GERMAN.parse_hand({**FRAGE, **change}, 4, None)
    assert refused.value.field == field


def test_with_twenty_four_cards_the_slam_refused_is_all_six_tricks() -> None:
    options = {"deck": 24}
    assert GERMAN.parse_hand({**FRAGE, "tricks": 5}, 4, options).tricks == 5
    with pytest.raises(RuleViolation) as refused:
        GERMAN.parse_hand({**FRAGE, "tricks": 6}, 4, options)
    assert refused.value.field == "hand.tricks"
    assert "at most 5 tricks" in refused.value.message


def test_the_description_names_the_field_and_the_figures_of_each_deck() -> None:
    described = GERMAN.describe()
    field = next(f for f in described["hand_fields"] if f["name"] == "asked_partner")
    assert field["contracts"] == ["frage", "grossfrage"]
    assert described["tricks_by_deck"] == {"32": 8, "24": 6}
    assert {d["cards"]: (d["tricks"], d["target"], d["tout"]) for d in described["decks"]} == {
        32: (8, 5, 8),
        24: (6, 4, 6),
    }
    for contract in described["contracts"]:
        assert contract["target_by_deck"] == {"32": 5, "24": 4}
