"""American Solo refuses every bad input with a RuleViolation naming the field by its JSON path.

One parametrised case per rule of the rulebook's "Bad input" list, then wrong JSON types,
then options and state. Finally: the rules package imports nothing of Flask, SQLAlchemy or
marshmallow.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service.rules.american import AMERICAN
from service.rules.american.model import (
    AmericanOptions,
    AmericanState,
    CalledCard,
    Contract,
    ErrorKind,
    HandError,
    Matadores,
    PlayedHand,
    Rank,
    Side,
    make_played_hand,
    make_settlement,
    make_state,
)
from service.rules.base import (
    Reason,
    RuleViolation,
    Settlement,
    SettlementInvariantError,
    Suit,
    Transfer,
)

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = AmericanOptions()

SIMPLE = {
    "contract": "simple",
    "trump": "hearts",
    "declarer": 1,
    "tricks": 5,
    "called": {"rank": "ace", "suit": "diamonds"},
    "partner": 3,
}
SOLO = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 6}
TOUT = {"contract": "tout", "trump": "spades", "declarer": 2, "tricks": 8}


def hand(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``base`` with ``changes``; a change to ``...`` removes the field."""
    out = {**base, **changes}
    return {k: v for k, v in out.items() if v is not ...}


def violation(raw: object, players: int = 4) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.parse_hand(raw, players, OPTIONS)
    return caught.value


# --- the rulebook's "Bad input" list ----------------------------------------------------------

BAD_INPUT_RULES = [
    # (rule, players, hand, field)
    ("an unknown contract", 4, hand(SOLO, contract="grand"), "hand.contract"),
    ("an unknown trump suit", 4, hand(SOLO, trump="stars"), "hand.trump"),
    (
        "an unknown suit for the called card",
        4,
        hand(SIMPLE, called={"rank": "ace", "suit": "roses"}),
        "hand.called.suit",
    ),
    (
        "an unknown rank for the called card",
        4,
        hand(SIMPLE, called={"rank": "queen", "suit": "clubs"}),
        "hand.called.rank",
    ),
    (
        "an unknown error kind",
        4,
        hand(SOLO, errors=[{"kind": "cheating", "seat": 1}]),
        "hand.errors.0.kind",
    ),
    ("an unknown hand kind", 4, {"kind": "redeal"}, "hand.kind"),
    ("a declarer outside the table", 4, hand(SOLO, declarer=4), "hand.declarer"),
    ("a negative declarer", 4, hand(SOLO, declarer=-1), "hand.declarer"),
    ("a partner outside the table", 5, hand(SIMPLE, partner=5), "hand.partner"),
    (
        "an error's seat outside the table",
        3,
        hand(SOLO, errors=[{"kind": "revoke", "seat": 3}]),
        "hand.errors.0.seat",
    ),
    ("a forfeit's seat outside the table", 3, {"kind": "forfeit", "seat": 3}, "hand.seat"),
    ("more than eight tricks", 4, hand(SOLO, tricks=9), "hand.tricks"),
    ("negative tricks", 4, hand(SOLO, tricks=-1), "hand.tricks"),
    ("tricks that are not an integer", 4, hand(SOLO, tricks=5.0), "hand.tricks"),
    (
        "a simple game without a called card",
        4,
        hand(SIMPLE, called=..., partner=...),
        "hand.called",
    ),
    (
        "a simple game at 3 players without a called card",
        3,
        hand(SIMPLE, called=..., partner=..., declarer=0),
        "hand.called",
    ),
    (
        "a forcee simple at 4 players without a called card",
        4,
        hand(SIMPLE, contract="forcee_simple", called=..., partner=...),
        "hand.called",
    ),
    (
        "a forcee simple at 5 players without a called card",
        5,
        hand(SIMPLE, contract="forcee_simple", called=..., partner=...),
        "hand.called",
    ),
    ("a called card without its holder", 4, hand(SIMPLE, partner=...), "hand.partner"),
    ("a called card with a null holder", 4, hand(SIMPLE, partner=None), "hand.partner"),
    ("a partner without a called card", 4, hand(TOUT, partner=1), "hand.partner"),
    (
        "a called card of the trump suit",
        4,
        hand(SIMPLE, called={"rank": "ace", "suit": "hearts"}),
        "hand.called.suit",
    ),
    (
        "a called king of the trump suit",
        4,
        hand(SIMPLE, called={"rank": "king", "suit": "hearts"}),
        "hand.called.suit",
    ),
    (
        "a solo with a called card",
        4,
        hand(SOLO, called={"rank": "ace", "suit": "hearts"}, partner=2),
        "hand.called",
    ),
    ("a solo with a partner", 4, hand(SOLO, partner=2), "hand.partner"),
    ("a partner game at a 3-player table", 3, hand(SIMPLE, declarer=0, partner=2), "hand.partner"),
    (
        "a forcee simple with a partner at a 3-player table",
        3,
        hand(SIMPLE, contract="forcee_simple", declarer=0, partner=1),
        "hand.partner",
    ),
    ("tout_after_five on a tout", 4, hand(TOUT, tout_after_five=True), "hand.tout_after_five"),
    (
        "tout_after_five with fewer than five tricks",
        4,
        hand(SOLO, tricks=4, tout_after_five=True),
        "hand.tout_after_five",
    ),
    (
        "matadores with a negative lower",
        4,
        hand(SOLO, matadores={"side": "declarers", "lower": -1}),
        "hand.matadores.lower",
    ),
    (
        "matadores beyond a black suit",
        4,
        hand(SOLO, trump="spades", matadores={"side": "declarers", "lower": 7}),
        "hand.matadores.lower",
    ),
    (
        "matadores beyond a red suit",
        4,
        hand(SOLO, trump="hearts", matadores={"side": "defenders", "lower": 8}),
        "hand.matadores.lower",
    ),
    (
        "matadores beyond a black suit of the 40-card pack",
        5,
        hand(SOLO, trump="clubs", matadores={"side": "declarers", "lower": 9}),
        "hand.matadores.lower",
    ),
    (
        "matadores beyond a red suit of the 40-card pack",
        5,
        hand(SOLO, trump="diamonds", matadores={"side": "declarers", "lower": 10}),
        "hand.matadores.lower",
    ),
    (
        "matadores beyond any pack",
        5,
        hand(SOLO, trump="diamonds", matadores={"side": "declarers", "lower": 10**9}),
        "hand.matadores.lower",
    ),
    (
        "six lower matadores held by a lone declarer (8 cards: 3 higher and 5 more)",
        4,
        hand(SOLO, matadores={"side": "declarers", "lower": 6}),
        "hand.matadores.lower",
    ),
    (
        "nine lower matadores held by a lone declarer at 5 players",
        5,
        hand(SOLO, trump="hearts", matadores={"side": "declarers", "lower": 9}),
        "hand.matadores.lower",
    ),
    (
        "six lower matadores held by a declarer who called his own card",
        4,
        hand(SIMPLE, partner=1, matadores={"side": "declarers", "lower": 6}),
        "hand.matadores.lower",
    ),
    (
        "six lower matadores held by a tout's lone declarer",
        4,
        hand(TOUT, trump="hearts", matadores={"side": "declarers", "lower": 6}),
        "hand.matadores.lower",
    ),
    (
        "eight tricks on a solo without tout_after_five",
        4,
        hand(SOLO, tricks=8),
        "hand.tout_after_five",
    ),
    (
        "eight tricks on a simple game with tout_after_five false",
        4,
        hand(SIMPLE, tricks=8, tout_after_five=False),
        "hand.tout_after_five",
    ),
    (
        "eight tricks on a forcee partout without tout_after_five",
        5,
        hand(SOLO, contract="forcee_partout", tricks=8),
        "hand.tout_after_five",
    ),
    (
        "matadores held by an unknown side",
        4,
        hand(SOLO, matadores={"side": "kibitzers", "lower": 0}),
        "hand.matadores.side",
    ),
    (
        "an unannounced void by the partner",
        4,
        hand(SIMPLE, errors=[{"kind": "unannounced_void", "seat": 3}]),
        "hand.errors.0.seat",
    ),
    (
        "an unannounced void by a defender",
        4,
        hand(
            SIMPLE, errors=[{"kind": "revoke", "seat": 0}, {"kind": "unannounced_void", "seat": 2}]
        ),
        "hand.errors.1.seat",
    ),
    (
        "an unannounced void in a solo",
        4,
        hand(SOLO, errors=[{"kind": "unannounced_void", "seat": 0}]),
        "hand.errors.0.kind",
    ),
    (
        "an unannounced void when the caller holds his own card",
        4,
        hand(SIMPLE, partner=1, errors=[{"kind": "unannounced_void", "seat": 1}]),
        "hand.errors.0.kind",
    ),
]


@pytest.mark.parametrize(
    ("rule", "players", "raw", "field"), BAD_INPUT_RULES, ids=[case[0] for case in BAD_INPUT_RULES]
)
def test_each_bad_input_rule_is_refused_naming_its_field(
    rule: str, players: int, raw: Any, field: str
) -> None:
    error = violation(raw, players)
    assert list(error.errors) == [field]
    assert error.field == field
    [message] = error.errors[field]
    assert isinstance(message, str) and len(message) > 10


def test_the_messages_say_in_plain_english_what_is_wrong() -> None:
    solo_with_card = hand(SOLO, called={"rank": "ace", "suit": "hearts"}, partner=2)
    assert violation(solo_with_card).message == "a solo is played alone: no called card"
    assert "fixed, first_won" not in violation(hand(SOLO, contract="grand")).message
    assert (
        "simple, forcee_simple, forcee_partout, solo, tout"
        in violation(hand(SOLO, contract="grand")).message
    )
    assert (
        "at most 6 lower matadores"
        in violation(
            hand(SOLO, trump="spades", matadores={"side": "declarers", "lower": 7})
        ).message
    )


# --- wrong JSON types and shapes ----------------------------------------------------------------

WRONG_TYPES = [
    ("a list for the hand", [SOLO], "hand"),
    ("a string for the hand", "solo", "hand"),
    ("null for the hand", None, "hand"),
    ("a number for the hand", 5, "hand"),
    ("an unknown field", hand(SOLO, bid="solo"), "hand.bid"),
    (
        "an unknown field in a forfeit",
        {"kind": "forfeit", "seat": 1, "contract": "solo"},
        "hand.contract",
    ),
    ("an unknown field in a misdeal", {"kind": "misdeal", "seat": 1}, "hand.seat"),
    ("a forfeit without a seat", {"kind": "forfeit"}, "hand.seat"),
    ("a forfeit with a string seat", {"kind": "forfeit", "seat": "1"}, "hand.seat"),
    ("a kind that is not a string", hand(SOLO, kind=1), "hand.kind"),
    ("a null kind", hand(SOLO, kind=None), "hand.kind"),
    ("a missing contract", hand(SOLO, contract=...), "hand.contract"),
    ("a null contract", hand(SOLO, contract=None), "hand.contract"),
    ("a contract that is a list", hand(SOLO, contract=["solo"]), "hand.contract"),
    ("a missing trump", hand(SOLO, trump=...), "hand.trump"),
    ("a trump that is an object", hand(SOLO, trump={"suit": "clubs"}), "hand.trump"),
    ("a missing declarer", hand(SOLO, declarer=...), "hand.declarer"),
    ("a string declarer", hand(SOLO, declarer="0"), "hand.declarer"),
    ("a boolean declarer", hand(SOLO, declarer=False), "hand.declarer"),
    ("a float declarer", hand(SOLO, declarer=0.0), "hand.declarer"),
    ("missing tricks", hand(SOLO, tricks=...), "hand.tricks"),
    ("string tricks", hand(SOLO, tricks="6"), "hand.tricks"),
    ("boolean tricks", hand(SOLO, tricks=True), "hand.tricks"),
    ("a string partner", hand(SIMPLE, partner="3"), "hand.partner"),
    ("a boolean partner", hand(SIMPLE, partner=True), "hand.partner"),
    ("a called card that is a string", hand(SIMPLE, called="ace of diamonds"), "hand.called"),
    ("a called card without a rank", hand(SIMPLE, called={"suit": "diamonds"}), "hand.called.rank"),
    ("a called card without a suit", hand(SIMPLE, called={"rank": "ace"}), "hand.called.suit"),
    (
        "a called card with an extra field",
        hand(SIMPLE, called={"rank": "ace", "suit": "diamonds", "holder": 3}),
        "hand.called.holder",
    ),
    (
        "a called rank that is a number",
        hand(SIMPLE, called={"rank": 1, "suit": "diamonds"}),
        "hand.called.rank",
    ),
    ("a string tout_after_five", hand(SOLO, tout_after_five="yes"), "hand.tout_after_five"),
    ("a null tout_after_five", hand(SOLO, tout_after_five=None), "hand.tout_after_five"),
    ("a numeric tout_after_five", hand(SOLO, tout_after_five=1), "hand.tout_after_five"),
    ("matadores that are a number", hand(SOLO, matadores=3), "hand.matadores"),
    ("matadores without a side", hand(SOLO, matadores={"lower": 1}), "hand.matadores.side"),
    (
        "matadores without lower",
        hand(SOLO, matadores={"side": "declarers"}),
        "hand.matadores.lower",
    ),
    (
        "a string lower",
        hand(SOLO, matadores={"side": "declarers", "lower": "1"}),
        "hand.matadores.lower",
    ),
    (
        "a boolean lower",
        hand(SOLO, matadores={"side": "declarers", "lower": True}),
        "hand.matadores.lower",
    ),
    (
        "a float lower",
        hand(SOLO, matadores={"side": "declarers", "lower": 1.0}),
        "hand.matadores.lower",
    ),
    (
        "matadores with an extra field",
        hand(SOLO, matadores={"side": "declarers", "lower": 1, "higher": 3}),
        "hand.matadores.higher",
    ),
    ("errors that are an object", hand(SOLO, errors={"kind": "revoke", "seat": 1}), "hand.errors"),
    ("errors that are a string", hand(SOLO, errors="revoke"), "hand.errors"),
    ("null errors", hand(SOLO, errors=None), "hand.errors"),
    (
        "more than sixteen errors",
        hand(SOLO, errors=[{"kind": "revoke", "seat": 1}] * 17),
        "hand.errors",
    ),
    ("an error that is a string", hand(SOLO, errors=["revoke"]), "hand.errors.0"),
    ("an error without a kind", hand(SOLO, errors=[{"seat": 1}]), "hand.errors.0.kind"),
    ("an error without a seat", hand(SOLO, errors=[{"kind": "revoke"}]), "hand.errors.0.seat"),
    (
        "an error with a string seat",
        hand(SOLO, errors=[{"kind": "revoke", "seat": "1"}]),
        "hand.errors.0.seat",
    ),
    (
        "an error with a boolean seat",
        hand(SOLO, errors=[{"kind": "revoke", "seat": True}]),
        "hand.errors.0.seat",
    ),
    (
        "an error with an extra field",
        hand(SOLO, errors=[{"kind": "revoke", "seat": 1, "trick": 3}]),
        "hand.errors.0.trick",
    ),
    (
        "the third error bad",
        hand(SOLO, errors=[{"kind": "revoke", "seat": 1}] * 2 + [{"kind": "revoke", "seat": 9}]),
        "hand.errors.2.seat",
    ),
]


@pytest.mark.parametrize(
    ("case", "raw", "field"), WRONG_TYPES, ids=[case[0] for case in WRONG_TYPES]
)
def test_wrong_json_types_and_shapes_are_refused_naming_the_field(
    case: str, raw: Any, field: str
) -> None:
    assert list(violation(raw).errors) == [field]


# --- what is accepted --------------------------------------------------------------------------

GOOD_HANDS = [
    ("a simple game", 4, SIMPLE),
    ("a simple game calling a king", 4, hand(SIMPLE, called={"rank": "king", "suit": "clubs"})),
    ("a simple game with the caller's own ace", 4, hand(SIMPLE, partner=1)),
    ("a simple game with the caller's own ace at 3 players", 3, hand(SIMPLE, partner=1)),
    (
        "a forcee simple alone at 3 players",
        3,
        hand(SIMPLE, contract="forcee_simple", called=..., partner=...),
    ),
    ("a forcee partout alone", 4, hand(SOLO, contract="forcee_partout")),
    (
        "a forcee partout with a called king",
        4,
        hand(SIMPLE, contract="forcee_partout", called={"rank": "king", "suit": "spades"}),
    ),
    ("a tout alone", 4, TOUT),
    (
        "a tout with a called ace",
        5,
        hand(TOUT, called={"rank": "ace", "suit": "hearts"}, partner=4),
    ),
    ("null called card and partner", 4, hand(SOLO, called=None, partner=None, matadores=None)),
    ("an incidental tout with exactly five tricks", 4, hand(SOLO, tricks=5, tout_after_five=True)),
    (
        "the most lower matadores with a black suit",
        4,
        hand(SOLO, trump="clubs", matadores={"side": "defenders", "lower": 6}),
    ),
    (
        "the most lower matadores with a red suit at 5 players",
        5,
        hand(SOLO, trump="hearts", matadores={"side": "defenders", "lower": 9}),
    ),
    (
        "the most lower matadores of a partner side with a red suit at 5 players",
        5,
        hand(SIMPLE, partner=3, matadores={"side": "declarers", "lower": 9}),
    ),
    (
        "five lower matadores held by a lone declarer",
        4,
        hand(SOLO, trump="hearts", matadores={"side": "declarers", "lower": 5}),
    ),
    ("eight tricks on a solo played on after five", 4, hand(SOLO, tricks=8, tout_after_five=True)),
    ("eight tricks on a tout", 4, hand(TOUT, tricks=8)),
    (
        "an unannounced void by the caller of a partner game",
        4,
        hand(SIMPLE, errors=[{"kind": "unannounced_void", "seat": 1}]),
    ),
    ("sixteen errors", 4, hand(SOLO, errors=[{"kind": "revoke", "seat": 1}] * 16)),
    ("a forfeit", 3, {"kind": "forfeit", "seat": 2}),
    ("a misdeal", 5, {"kind": "misdeal"}),
]


@pytest.mark.parametrize(
    ("case", "players", "raw"), GOOD_HANDS, ids=[case[0] for case in GOOD_HANDS]
)
def test_valid_hands_are_accepted_and_written_back_normalized(
    case: str, players: int, raw: dict[str, Any]
) -> None:
    parsed = AMERICAN.parse_hand(raw, players, OPTIONS)
    written = parsed.to_dict()
    json.dumps(written)
    assert AMERICAN.parse_hand(written, players, OPTIONS) == parsed
    for key, value in raw.items():
        assert written[key] == value, key


def test_a_played_hand_is_written_back_with_its_defaults_filled_in() -> None:
    assert AMERICAN.parse_hand(SOLO, 4, OPTIONS).to_dict() == {
        "kind": "played",
        "contract": "solo",
        "trump": "clubs",
        "declarer": 0,
        "tricks": 6,
        "called": None,
        "partner": None,
        "tout_after_five": False,
        "matadores": None,
        "errors": [],
    }
    assert AMERICAN.parse_hand({"kind": "misdeal"}, 4, OPTIONS).to_dict() == {"kind": "misdeal"}


def test_parsed_hands_are_values_built_from_enums() -> None:
    parsed = AMERICAN.parse_hand(
        hand(
            SIMPLE,
            matadores={"side": "declarers", "lower": 2},
            errors=[{"kind": "revoke", "seat": 0}],
        ),
        4,
        OPTIONS,
    )
    assert parsed == PlayedHand(
        Contract.SIMPLE,
        Suit.HEARTS,
        1,
        5,
        CalledCard(Rank.ACE, Suit.DIAMONDS),
        3,
        False,
        Matadores(Side.DECLARERS, 2),
        (HandError(ErrorKind.REVOKE, 0),),
    )
    with pytest.raises(AttributeError):
        parsed.tricks = 8  # type: ignore[misc]


def test_the_fast_builders_make_exactly_what_the_constructors_make() -> None:
    state = make_state(7, Suit.HEARTS, 2, False, True)
    assert state == AmericanState(7, Suit.HEARTS, 2, False, True)
    assert hash(state) == hash(AmericanState(7, Suit.HEARTS, 2, False, True))
    args = (Contract.TOUT, Suit.SPADES, 2, 8, CalledCard(Rank.KING, Suit.CLUBS), 0, False, None, ())
    assert make_played_hand(*args) == PlayedHand(*args)
    assert repr(make_played_hand(*args)) == repr(PlayedHand(*args))


def test_the_fast_settlement_builder_still_checks_the_invariants() -> None:
    state = AmericanState()
    args = (
        "won",
        True,
        8,
        (Transfer(1, 0, 8, Reason.GAME),),
        (8, -8, 0),
        0,
        0,
        "clubs",
        "clubs",
        1,
        ("Seat 0 wins",),
        state,
    )
    assert make_settlement(*args) == Settlement(*args)
    unbalanced = (*args[:4], (8, -7, 0), *args[5:])
    with pytest.raises(SettlementInvariantError):
        make_settlement(*unbalanced)
    negative = (*args[:3], (Transfer(1, 0, -8, Reason.GAME),), (-8, 8, 0), *args[5:])
    with pytest.raises(SettlementInvariantError):
        make_settlement(*negative)


def test_messages_stay_short_whatever_size_of_value_is_sent() -> None:
    huge = hand(SOLO, tricks=10**5000, contract="solo")
    assert "a number that large" in violation(huge).message
    long_name = violation(hand(SOLO, contract="x" * 10_000)).message
    assert len(long_name) < 200


def test_a_mapping_that_is_not_a_dict_is_read_like_one() -> None:
    from types import MappingProxyType

    assert AMERICAN.parse_hand(MappingProxyType(SOLO), 4, OPTIONS) == AMERICAN.parse_hand(
        SOLO, 4, OPTIONS
    )


# --- options --------------------------------------------------------------------------------

BAD_OPTIONS = [
    ({"stakes": 2}, "options.stakes"),
    ({"stake": -1}, "options.stake"),
    ({"stake": 10_001}, "options.stake"),
    ({"stake": True}, "options.stake"),
    ({"stake": "2"}, "options.stake"),
    ({"stake": 2.0}, "options.stake"),
    ({"stake": None}, "options.stake"),
    ({"stamm": 0}, "options.stamm"),
    ({"stamm": 16.5}, "options.stamm"),
    ({"couleur": "stars"}, "options.couleur"),
    ({"couleur": 1}, "options.couleur"),
    ({"couleur_policy": "sometimes"}, "options.couleur_policy"),
    ({"bete_on_lost_solo": "never"}, "options.bete_on_lost_solo"),
    ({"matadores": "nobody"}, "options.matadores"),
    ({"incidental_tout": "triple"}, "options.incidental_tout"),
    ([("stake", 2)], "options"),
    ("stake=2", "options"),
]


@pytest.mark.parametrize(("raw", "field"), BAD_OPTIONS, ids=[f for _, f in BAD_OPTIONS])
def test_bad_options_are_refused_naming_the_option(raw: Any, field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.parse_options(raw)
    assert list(caught.value.errors) == [field]


def test_an_unknown_option_says_so() -> None:
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.parse_options({"stake": 2, "jokers": True})
    assert caught.value.errors == {"options.jokers": ["unknown option"]}


def test_a_bad_choice_lists_the_allowed_values() -> None:
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.parse_options({"couleur_policy": "sometimes"})
    assert "fixed, first_won" in caught.value.message


@pytest.mark.parametrize("raw", [None, {}])
def test_no_options_means_the_defaults(raw: Any) -> None:
    options = AMERICAN.parse_options(raw)
    assert options == AmericanOptions()
    assert options.to_dict() == {
        "stake": 2,
        "stamm": 16,
        "couleur": "clubs",
        "couleur_policy": "fixed",
        "bete_on_lost_solo": "any",
        "matadores": "either_side",
        "incidental_tout": "double",
    }


def test_options_are_read_and_written_back() -> None:
    raw = {
        "stake": 0,
        "stamm": 10_000,
        "couleur": "diamonds",
        "couleur_policy": "first_won",
        "bete_on_lost_solo": "couleur_only",
        "matadores": "declaring_side",
        "incidental_tout": "literal",
    }
    options = AMERICAN.parse_options(raw)
    assert options.to_dict() == raw
    assert AMERICAN.parse_options(options.to_dict()) == options


# --- state ----------------------------------------------------------------------------------

BAD_STATES = [
    ({"pool": -1}, "state.pool"),
    ({"pool": "3"}, "state.pool"),
    ({"pool": True}, "state.pool"),
    ({"pool": 3.0}, "state.pool"),
    ({"couleur": "stars"}, "state.couleur"),
    ({"dealer": 4}, "state.dealer"),
    ({"dealer": -1}, "state.dealer"),
    ({"dealer": "0"}, "state.dealer"),
    ({"stake_due": "yes"}, "state.stake_due"),
    ({"stake_due": 1}, "state.stake_due"),
    ({"first_game_won": None}, "state.first_game_won"),
    ({"balance": 3}, "state.balance"),
    ([1, 2], "state"),
]


@pytest.mark.parametrize(("raw", "field"), BAD_STATES, ids=[f for _, f in BAD_STATES])
def test_bad_states_are_refused_naming_the_field(raw: Any, field: str) -> None:
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.parse_state(raw, 4, OPTIONS)
    assert list(caught.value.errors) == [field]


def test_missing_state_keys_take_a_fresh_tables_values() -> None:
    options = AMERICAN.parse_options({"couleur": "hearts"})
    assert AMERICAN.parse_state(None, 4, options) == AmericanState(0, Suit.HEARTS, 0, True, False)
    assert AMERICAN.parse_state({"pool": 12, "dealer": 3}, 4, options) == AmericanState(
        12, Suit.HEARTS, 3, True, False
    )
    state = AMERICAN.parse_state(
        {"pool": 1, "couleur": "spades", "dealer": 2, "stake_due": False, "first_game_won": True},
        3,
        options,
    )
    assert state.to_dict() == {
        "pool": 1,
        "couleur": "spades",
        "dealer": 2,
        "stake_due": False,
        "first_game_won": True,
    }


def test_options_and_states_built_from_stored_strings_hold_enum_members() -> None:
    built = AmericanOptions(
        couleur="hearts",
        couleur_policy="first_won",  # type: ignore[arg-type]
        incidental_tout="literal",
    )  # type: ignore[arg-type]
    assert built == AMERICAN.parse_options(
        {"couleur": "hearts", "couleur_policy": "first_won", "incidental_tout": "literal"}
    )
    assert AmericanState(3, "spades") == AmericanState(3, Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        AmericanState(3, "roses")  # type: ignore[arg-type]


def test_a_fresh_table_starts_with_an_empty_pool_and_its_first_dealer() -> None:
    options = AMERICAN.parse_options({"couleur": "diamonds"})
    assert AMERICAN.initial_state(5, options, 4) == AmericanState(0, Suit.DIAMONDS, 4, True, False)
    with pytest.raises(RuleViolation) as caught:
        AMERICAN.initial_state(4, options, 4)
    assert list(caught.value.errors) == ["first_dealer"]


# --- purity ------------------------------------------------------------------------------------


def test_the_rules_package_imports_nothing_of_flask_sqlalchemy_or_marshmallow() -> None:
    # A plain ``import service.rules`` (and of every module in it, the variants' packages
    # included), as any caller would.
    code = """
import json, pkgutil, sys
import service.rules
for module in pkgutil.walk_packages(service.rules.__path__, "service.rules."):
    __import__(module.name)
banned = {"flask", "sqlalchemy", "marshmallow", "flask_smorest", "werkzeug"}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in banned)))
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(done.stdout) == []
