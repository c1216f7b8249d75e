"""Each variant describes its hand fields completely for a form: a title in the catalogs, the
seats, and when a field is shown and required; the conditions name only real facts, and they
say what the rules do. Its options too: each titled, a nullable one's empty choice and each
string value worded, so that a form names none of them itself."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules import VARIANTS, RuleViolation, preview

CONDITION_KEYS = {
    "contract",
    "kind",
    "players",
    "tricks",
    "trump",
    "given",
    "unset",
    "option",
}
WORDS = ("title", "prompt", "none_title")
"""The keys of a hand field whose values are words for a player (in the catalogs)."""


def _all_fields(described: dict[str, Any]) -> list[dict[str, Any]]:
    """The variant's hand fields and those of its hand kinds (American Solo's forfeit)."""
    own = [f for kind in described.get("hand_kinds") or [] for f in kind.get("hand_fields", [])]
    return [*described["hand_fields"], *own]


def option_words_missing(option: dict[str, Any]) -> list[str]:
    """What a form would have to word itself for ``option``: its title, a nullable one's empty
    choice, or the title of a string value (``choices``, one for each of ``allowed``)."""
    missing = [] if option.get("title") else ["title"]
    if option.get("nullable") and not option.get("none_title"):
        missing.append("none_title")
    strings = [a for a in option.get("allowed") or () if isinstance(a, str)]
    titled = {c["value"]: c.get("title") for c in option.get("choices") or ()}
    missing += [f"choices.{value}" for value in strings if not titled.get(value)]
    if strings and list(titled) != strings:
        missing.append("choices in the order of allowed")
    return missing


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_option_and_each_of_its_values_has_its_words(name: str) -> None:
    for option in VARIANTS[name].describe()["options"]:
        assert option_words_missing(option) == [], (name, option["name"])


def test_an_option_without_its_words_is_told() -> None:
    bare = {"name": "x", "nullable": True, "allowed": ["a", "b"], "choices": [{"value": "a"}]}
    assert option_words_missing(bare) == [
        "title",
        "none_title",
        "choices.a",
        "choices.b",
        "choices in the order of allowed",
    ]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_field_has_a_title_and_conditions_on_real_facts(name: str) -> None:
    described = VARIANTS[name].describe()
    contracts = {c["name"] for c in described["contracts"]}
    fields = {f["name"] for f in _all_fields(described)}
    options = {o["name"]: o for o in described["options"]}
    for field in _all_fields(described):
        assert isinstance(field.get("title"), str) and field["title"], (name, field["name"])
        for key in WORDS:
            assert isinstance(field.get(key, ""), str), (name, field["name"], key)
        for key in ("not_suit_of", "own_card_of", "gives"):
            assert field.get(key, "trump") in fields, (name, field["name"], key)
        if "gives" in field:  # a seat that gave a card (a mediateur's ace)
            given = next(f for f in _all_fields(described) if f["name"] == field["gives"])
            assert field.get("seat") and "fields" in given, (name, field["name"])
        for key in ("shown_when", "required_when"):
            for condition in field.get(key, []):
                assert set(condition) <= CONDITION_KEYS, (name, field["name"], condition)
                assert set(condition.get("contract", [])) <= contracts, (name, field["name"])
                assert set(condition.get("given", [])) <= fields, (name, field["name"])
                assert set(condition.get("unset", [])) <= fields, (name, field["name"])
                assert set(condition.get("players", [])) <= set(described["players"])
                assert set(condition.get("option", {})) <= set(options), (name, field["name"])
    for kind in described.get("hand_kinds") or []:
        assert isinstance(kind["deal_passes"], bool), (name, kind["name"])
        assert set(kind["fields"]) <= fields, (name, kind["name"])


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


def test_germans_every_trick_requires_going_on_unless_a_tout_was_announced() -> None:
    """The form sets ``continued_after_five`` itself while its condition holds: the rules
    refuse every trick without it (or a tout announced), with either pack."""
    every = _field("german", "continued_after_five")["required_when"]
    assert {"tricks": [8], "option": {"deck": [32]}, "unset": ["tout_announced"]} in every
    assert {"tricks": [6], "option": {"deck": [24]}, "unset": ["tout_announced"]} in every
    all_eight = {**SOLO, "tricks": 8}
    assert _refused("german", 4, all_eight) == "hand.continued_after_five"
    assert _refused("german", 4, {**all_eight, "continued_after_five": True}) is None
    assert _refused("german", 4, {**all_eight, "tout_announced": True}) is None


def test_americans_forfeit_describes_its_seat_and_who_deals_next() -> None:
    kinds = {k["name"]: k for k in VARIANTS["american"].describe()["hand_kinds"]}
    assert [f["name"] for f in kinds["forfeit"]["hand_fields"]] == ["seat"]
    assert kinds["forfeit"]["hand_fields"][0]["seat"] is True
    # The same dealer deals again after a forfeit or a misdeal (R4, R5).
    assert [kinds[k]["deal_passes"] for k in ("played", "forfeit", "misdeal")] == [
        True,
        False,
        False,
    ]
    for kind, passes in (("misdeal", False), ("forfeit", False), ("played", True)):
        hand = {"kind": kind, "seat": 2} if kind == "forfeit" else {"kind": kind}
        settled = preview("american", 4, None, None, SOLO if kind == "played" else hand)
        assert (settled.next_dealer != 0) is passes, kind


def test_a_partner_who_is_the_declarer_ranks_the_american_simple_game_as_a_solo() -> None:
    contracts = {c["name"]: c for c in VARIANTS["american"].describe()["contracts"]}
    assert contracts["simple"]["own_card_ranks_as"] == "solo"
    assert contracts["forcee_simple"]["own_card_ranks_as"] == "solo"
    own = {**SOLO, "contract": "simple", "called": {"rank": "ace", "suit": "clubs"}, "partner": 1}
    alone = preview("american", 4, None, None, own)
    solo = preview("american", 4, None, None, SOLO)
    assert alone.value == solo.value
