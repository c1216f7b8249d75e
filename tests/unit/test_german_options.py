"""German Solo's options from the seed's variations (the mediateur, ``preferred_suit: first_won``,
the 24-card Münsterland deck), the hands no table can produce, and Spanish Solo's own ace."""

from __future__ import annotations

from typing import Any

import pytest

from service.i18n import explain
from service.rules import preview
from service.rules.base import RuleViolation, Settlement
from service.rules.german import GERMAN
from service.rules.spanish import SPANISH

SOLO = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 5}
FRAGE = {
    "contract": "frage",
    "trump": "hearts",
    "declarer": 1,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "spades"},
    "partner": 2,
}
MEDIATEUR = {
    "contract": "mediateur",
    "trump": "hearts",
    "declarer": 2,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "clubs"},
    "giver": 0,
}


def german(
    hand: dict[str, Any], options: dict[str, Any] | None = None, state: dict[str, Any] | None = None
) -> Settlement:
    return preview("german", 4, options, state, hand)


def refused(hand: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    with pytest.raises(RuleViolation) as caught:
        german(hand, options)
    assert list(caught.value.errors) == [caught.value.field]
    return caught.value.field


# --- the mediateur --------------------------------------------------------------------------


def test_a_mediateur_needs_the_tables_option() -> None:
    assert refused(MEDIATEUR) == "hand.contract"
    assert refused(MEDIATEUR, {"mediateur": False}) == "hand.contract"


def test_a_mediateur_is_worth_4_and_only_the_declarer_scores() -> None:
    won = german(MEDIATEUR, {"mediateur": True})
    assert (won.result, won.value, won.deltas) == ("won", 4, (0, 0, 4, 0))
    lost = german({**MEDIATEUR, "tricks": 4}, {"mediateur": True})
    assert (lost.result, lost.deltas) == ("lost", (0, 0, -4, 0))
    assert explain(won.explanation)[0] == (
        "Mediateur in hearts: seat 3 plays alone after demanding an "
        "ace with the ace of clubs from seat 1; target 5 tricks"
    )


def test_a_mediateurs_bonuses_and_preferred_suit_apply_as_to_any_contract() -> None:
    hand = {**MEDIATEUR, "stopped_after_five": True, "matadors_together": True}
    s = german(hand, {"mediateur": True, "preferred_suit": "hearts"})
    assert (s.value, s.deltas) == (2 * (4 + 2 + 2), (0, 0, 16, 0))


def test_a_mediateurs_demanded_ace_and_giver_are_for_the_record_only() -> None:
    options = {"mediateur": True}
    bare = {k: v for k, v in MEDIATEUR.items() if k not in ("called", "giver")}
    assert german(bare, options).deltas == german(MEDIATEUR, options).deltas
    record = GERMAN.parse_hand(MEDIATEUR, 4, GERMAN.parse_options(options)).to_dict()
    assert (record["called"], record["giver"], record["partner"]) == (
        {"rank": "ace", "suit": "clubs"},
        0,
        None,
    )


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"partner": 1}, "hand.partner"),
        ({"called": {"rank": "ace", "suit": "hearts"}}, "hand.called.suit"),
        ({"called": {"rank": "king", "suit": "clubs"}}, "hand.called.rank"),
        ({"giver": 2}, "hand.giver"),
        ({"giver": 4}, "hand.giver"),
    ],
)
def test_a_mediateur_is_played_alone_after_an_opponent_gives_a_plain_ace(
    change: dict[str, Any], field: str
) -> None:
    assert refused({**MEDIATEUR, **change}, {"mediateur": True}) == field


def test_only_a_mediateur_has_a_giver() -> None:
    assert refused({**FRAGE, "giver": 0}, {"mediateur": True}) == "hand.giver"
    assert refused({**SOLO, "giver": 1}) == "hand.giver"


# --- preferred_suit: first_won ----------------------------------------------------------------


def test_first_won_prefers_no_suit_until_a_declaring_party_wins() -> None:
    options = {"preferred_suit": "first_won"}
    assert GERMAN.initial_state(4, GERMAN.parse_options(options)).to_dict() == {
        "dealer": 0,
        "couleur": None,
    }
    lost = german({**FRAGE, "tricks": 3}, options)
    assert lost.state_after.to_dict() == {"dealer": 1, "couleur": None}
    assert lost.to_dict()["couleur"] is None

    won = german(FRAGE, options)
    assert won.value == 2  # the first game won is not doubled itself
    assert won.state_after.to_dict() == {"dealer": 1, "couleur": "hearts"}
    assert won.to_dict()["couleur"] == {"before": None, "after": "hearts"}
    assert "The first contract won: hearts is the preferred suit from the next hand on" in (
        explain(won.explanation)
    )
    assert explain(won.explanation)[-1] == "Seat 2 deals next"


def test_first_won_doubles_the_later_games_in_that_suit_and_never_changes_again() -> None:
    options = {"preferred_suit": "first_won"}
    state = {"dealer": 1, "couleur": "hearts"}
    doubled = german(FRAGE, options, state)
    assert (doubled.value, doubled.in_couleur) == (4, True)
    other = german(SOLO, options, state)  # won in clubs: hearts stays preferred
    assert (other.value, other.state_after.to_dict()["couleur"]) == (6, "hearts")
    assert other.to_dict()["couleur"] == {"before": "hearts", "after": "hearts"}


def test_a_game_won_on_an_opponents_revoke_is_won_for_first_won() -> None:
    hand = {**FRAGE, "tricks": 0, "errors": [{"kind": "revoke", "seat": 0}]}
    s = german(hand, {"preferred_suit": "first_won"})
    assert (s.result, s.state_after.to_dict()["couleur"]) == ("won", "hearts")


def test_a_fixed_preferred_suit_is_the_states_whatever_a_client_sends() -> None:
    s = german(FRAGE, {"preferred_suit": "hearts"}, {"couleur": None, "dealer": 3})
    assert (s.value, s.state_after.to_dict()) == (4, {"dealer": 0, "couleur": "hearts"})
    plain = german(FRAGE, None, {"couleur": "hearts"})
    assert (plain.value, plain.state_after.to_dict()["couleur"]) == (2, None)


# --- the 24-card Münsterland deck -------------------------------------------------------------

DECK_24 = {"deck": 24}


def test_24_cards_make_six_tricks_with_a_target_of_four() -> None:
    assert german({**SOLO, "tricks": 4}, DECK_24).result == "won"
    assert german({**SOLO, "tricks": 3}, DECK_24).result == "lost"
    assert refused({**SOLO, "tricks": 7}, DECK_24) == "hand.tricks"
    assert explain(german({**SOLO, "tricks": 4}, DECK_24).explanation)[0] == (
        "Solo in clubs: seat 1 plays alone; target 4 tricks"
    )


def test_24_cards_prime_is_stopping_after_four_and_tout_all_six() -> None:
    prime = german({**SOLO, "tricks": 4, "stopped_after_five": True}, DECK_24)
    assert (prime.result, prime.value) == ("won", 6 + 2)
    assert explain(prime.explanation)[0].endswith("target 4 tricks (stopped after four for prime)")
    tout = german({**SOLO, "tricks": 6, "continued_after_five": True}, DECK_24)
    assert (tout.result, tout.value) == ("won", 6 + 4)
    assert explain(tout.explanation)[1] == "Value: base 6 + tout after four 4 = 10"
    missed = german({**SOLO, "tricks": 5, "continued_after_five": True}, DECK_24)
    assert missed.result == "lost"
    assert refused({**SOLO, "tricks": 5, "stopped_after_five": True}, DECK_24) == (
        "hand.stopped_after_five"
    )
    assert refused({**SOLO, "tricks": 6}, DECK_24) == "hand.continued_after_five"
    assert refused({**SOLO, "tricks": 3, "continued_after_five": True}, DECK_24) == (
        "hand.continued_after_five"
    )


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"deck": 28}, "options.deck"),
        ({"deck": "24"}, "options.deck"),
        ({"deck": 24.0}, "options.deck"),
        ({"deck": True}, "options.deck"),
        ({"mediateur": "yes"}, "options.mediateur"),
        ({"preferred_suit": "first"}, "options.preferred_suit"),
        ({"preferred_suit": "FIRST_WON"}, "options.preferred_suit"),
    ],
)
def test_bad_german_options_are_refused_naming_the_option(
    options: dict[str, Any], field: str
) -> None:
    with pytest.raises(RuleViolation) as caught:
        GERMAN.parse_options(options)
    assert caught.value.field == field


# --- hands no table can produce ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ({**SOLO, "tricks": 6, "stopped_after_five": True}, "hand.stopped_after_five"),
        ({**SOLO, "tricks": 8, "stopped_after_five": True}, "hand.stopped_after_five"),
        ({**SOLO, "tricks": 8}, "hand.continued_after_five"),
        ({**FRAGE, "tricks": 8, "matadors_together": True}, "hand.continued_after_five"),
    ],
)
def test_a_german_hand_no_table_can_produce_is_refused(hand: dict[str, Any], field: str) -> None:
    assert refused(hand) == field


def test_all_eight_tricks_after_going_on_or_announcing_tout_are_taken() -> None:
    assert german({**SOLO, "tricks": 8, "continued_after_five": True}).value == 6 + 4
    assert german({**SOLO, "tricks": 8, "tout_announced": True}).value == 6 + 6
    assert german({**SOLO, "tricks": 5, "stopped_after_five": True}).value == 6 + 2


# --- Spanish Solo: the declarer's own ace -----------------------------------------------------

SIMPLE = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 1,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 1,
}


def test_a_spanish_declarer_may_call_an_ace_he_holds_and_plays_alone() -> None:
    won = preview("spanish", 4, None, None, SIMPLE)
    assert (won.result, won.value, won.deltas) == ("won", 2, (0, 2, 0, 0))
    assert explain(won.explanation)[0] == (
        "Simple game in spades, in suit: 2 points, target 5 tricks; "
        "seat 2 called the ace of hearts from their own hand and plays "
        "alone"
    )
    lost = preview("spanish", 4, {"couleur": "spades"}, None, {**SIMPLE, "tricks": 4})
    assert (lost.value, lost.deltas) == (4, (0, -4, 0, 0))
    record = SPANISH.parse_hand(SIMPLE, 4, None).to_dict()
    assert (record["partner"], record["called"]) == (1, {"rank": "ace", "suit": "hearts"})


def test_a_spanish_own_ace_game_is_decided_by_a_revoke_like_any_other() -> None:
    hand = {**SIMPLE, "tricks": 0, "errors": [{"kind": "revoke", "seat": 3}]}
    assert preview("spanish", 4, None, None, hand).deltas == (0, 2, 0, 0)
