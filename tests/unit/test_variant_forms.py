"""Each variant describes its hand fields completely for a form: a title in the catalogs, the
seats, and when a field is shown and required; the conditions name only real facts, and they
say what the rules do."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules import VARIANTS, RuleViolation, preview

CONDITION_KEYS = {"contract", "kind", "players", "tricks", "trump", "given", "option"}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_field_has_a_title_and_conditions_on_real_facts(name: str) -> None:
    described = VARIANTS[name].describe()
    contracts = {c["name"] for c in described["contracts"]}
    fields = {f["name"] for f in described["hand_fields"]}
    for field in described["hand_fields"]:
        assert isinstance(field.get("title"), str) and field["title"], (name, field["name"])
        for key in ("shown_when", "required_when"):
            for condition in field.get(key, []):
                assert set(condition) <= CONDITION_KEYS, (name, field["name"], condition)
                assert set(condition.get("contract", [])) <= contracts, (name, field["name"])
                assert set(condition.get("given", [])) <= fields, (name, field["name"])
                assert set(condition.get("players", [])) <= set(described["players"])


SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
CALLED = {"called": {"rank": "ace", "suit": "clubs"}, "partner": 1}


def _refused(variant: str, players: int, hand: dict[str, Any]) -> str | None:
    try:
        preview(variant, players, None, None, hand)
    except RuleViolation as violation:
        return violation.field
    return None


def _field(variant: str, name: str) -> dict[str, Any]:
    return next(f for f in VARIANTS[variant].describe()["hand_fields"] if f["name"] == name)


def test_americans_called_card_is_shown_and_required_as_the_rules_take_it() -> None:
    called = _field("american", "called")
    assert "solo" not in called["shown_when"][0]["contract"]
    assert _refused("american", 4, {**SOLO, **CALLED}) == "hand.called"
    # A forcée simple calls at four or five players, and may play alone at three.
    assert {"contract": ["forcee_simple"], "players": [4, 5]} in called["required_when"]
    forcee = {**SOLO, "contract": "forcee_simple", "tricks": 5}
    assert _refused("american", 3, forcee) is None
    assert _refused("american", 4, forcee) == "hand.called"


def test_solo66s_fields_follow_the_trump() -> None:
    last_trick = _field("solo66", "last_trick")
    assert last_trick["required_when"] == [{"trump": [None]}]
    assert _refused("solo66", 5, {"trump": None}) == "hand.last_trick"
    soloist = _field("solo66", "soloist")
    assert soloist["required_when"] == [{"given": ["trump"]}]
    assert _refused("solo66", 5, {"trump": "hearts", "soloist_points": 70}) == "hand.soloist"


def test_germans_giver_and_question_are_shown_only_where_the_rules_take_them() -> None:
    assert _field("german", "giver")["shown_when"] == [{"contract": ["mediateur"]}]
    assert _field("german", "asked_partner")["shown_when"] == [
        {"contract": ["frage", "grossfrage"]}
    ]
    solo = {**SOLO, "asked_partner": True}
    assert _refused("german", 4, solo) == "hand.asked_partner"
    assert _refused("german", 4, {**SOLO, "giver": 2}) == "hand.giver"
