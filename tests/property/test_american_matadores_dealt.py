"""The matadores no deal can give are refused (the rulebook's Decision, counting the cards it
names), and every count a deal can give is taken: for any valid hand, each bound is exact."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.american import AMERICAN
from service.rules.base import RuleViolation
from tests.strategies import american_cases, american_hands, max_lower, most_lower_dealt

played_hands = st.sampled_from((3, 4, 5)).flatmap(
    lambda n: st.tuples(st.just(n), american_hands(n).filter(lambda h: "contract" in h))
)


SUITS = ("clubs", "spades", "hearts", "diamonds")


def reshaped(
    hand: dict[str, Any], players: int, contract: str, rank: str, partner: int
) -> dict[str, Any]:
    """``hand`` (valid) as a ``contract`` calling a card of ``rank`` held by ``partner``,
    still valid whatever its matadores: a call of a plain suit, the incidental tout set with
    eight tricks, no void left in a lone game."""
    off_trump = next(s for s in SUITS if s != hand["trump"])
    out = {**hand, "contract": contract, "called": {"rank": rank, "suit": off_trump}}
    out["partner"] = hand["declarer"] if players == 3 else partner
    out.pop("matadores", None)
    if hand["tricks"] == 8:
        out["tout_after_five"] = True
    lone = out["partner"] == hand["declarer"]
    out["errors"] = [
        e for e in hand.get("errors", []) if not (lone and e["kind"] == "unannounced_void")
    ]
    return out


def refused_field(players: int, hand: dict[str, Any]) -> str | None:
    """The field the hand is refused on, or None when it is taken."""
    try:
        AMERICAN.parse_hand(hand, players, None)
    except RuleViolation as error:
        return error.field
    return None


def own_called(hand: dict[str, Any]) -> str | None:
    called = hand.get("called")
    if called is None or hand.get("partner") != hand["declarer"]:
        return None
    return str(called["rank"])


@given(
    played_hands,
    st.sampled_from(("simple", "forcee_simple", "forcee_partout", "tout")),
    st.data(),
)
def test_a_lone_declarer_holding_his_own_called_card_has_fewer_cards_for_lower_matadores(
    case: tuple[int, dict[str, Any]], contract: str, data: st.DataObject
) -> None:
    players, valid = case
    rank = data.draw(st.sampled_from(("ace", "king")))
    hand = reshaped(valid, players, contract, rank, valid["declarer"])
    if contract == "tout":
        hand.pop("tout_after_five", None)
    bound = 4 if rank == "ace" else 1
    assert most_lower_dealt(hand, players, "declarers") == bound
    taken = data.draw(st.integers(0, bound))
    assert (
        refused_field(players, {**hand, "matadores": {"side": "declarers", "lower": taken}}) is None
    )
    too_many = data.draw(st.integers(bound + 1, max_lower(hand["trump"], players)))
    refused = {**hand, "matadores": {"side": "declarers", "lower": too_many}}
    assert refused_field(players, refused) == "hand.matadores.lower"


@given(played_hands, st.sampled_from(("forcee_simple", "forcee_partout")), st.data())
def test_the_defenders_of_a_forcee_never_hold_the_three_higher_matadores(
    case: tuple[int, dict[str, Any]], contract: str, data: st.DataObject
) -> None:
    players, valid = case
    hand = reshaped(valid, players, contract, "ace", data.draw(st.integers(0, players - 1)))
    assert refused_field(players, hand) is None
    lower = data.draw(st.integers(0, max_lower(hand["trump"], players)))
    refused = {**hand, "matadores": {"side": "defenders", "lower": lower}}
    assert refused_field(players, refused) == "hand.matadores.side"


@given(played_hands, st.data())
def test_the_defenders_of_a_king_call_hold_no_lower_matadores(
    case: tuple[int, dict[str, Any]], data: st.DataObject
) -> None:
    players, valid = case
    hand = reshaped(valid, players, "simple", "king", data.draw(st.integers(0, players - 1)))
    taken = {**hand, "matadores": {"side": "defenders", "lower": 0}}
    assert refused_field(players, taken) is None
    lower = data.draw(st.integers(1, max_lower(hand["trump"], players)))
    refused = {**hand, "matadores": {"side": "defenders", "lower": lower}}
    assert refused_field(players, refused) == "hand.matadores.lower"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        # A forcée simple: the forced caller holds the called ace; defenders' matadores.
        (
            {
                "contract": "forcee_simple",
                "trump": "clubs",
                "declarer": 3,
                "tricks": 5,
                "called": {"rank": "ace", "suit": "hearts"},
                "partner": 1,
                "matadores": {"side": "defenders", "lower": 0},
            },
            "hand.matadores.side",
        ),
        # A solo-ranked simple beside the caller's own ace: five lower cannot be.
        (
            {
                "contract": "simple",
                "trump": "hearts",
                "declarer": 0,
                "tricks": 6,
                "called": {"rank": "ace", "suit": "spades"},
                "partner": 0,
                "matadores": {"side": "declarers", "lower": 5},
            },
            "hand.matadores.lower",
        ),
        # The caller of his own king holds the four aces: two lower cannot be.
        (
            {
                "contract": "simple",
                "trump": "hearts",
                "declarer": 0,
                "tricks": 6,
                "called": {"rank": "king", "suit": "spades"},
                "partner": 0,
                "matadores": {"side": "declarers", "lower": 2},
            },
            "hand.matadores.lower",
        ),
        # A king call: the trump ace is the caller's, so the defenders hold no lower ones.
        (
            {
                "contract": "simple",
                "trump": "diamonds",
                "declarer": 0,
                "tricks": 3,
                "called": {"rank": "king", "suit": "spades"},
                "partner": 2,
                "matadores": {"side": "defenders", "lower": 1},
            },
            "hand.matadores.lower",
        ),
    ],
)
def test_the_rulebooks_impossible_matadores_are_refused_naming_the_field(
    hand: dict[str, Any], field: str
) -> None:
    assert refused_field(4, hand) == field


@given(american_cases(), st.sampled_from(("simple", "forcee_simple")))
def test_a_game_whose_called_ace_is_the_callers_own_settles_as_a_solo(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]], contract: str
) -> None:
    """The rulebook's "ranks in value as a solo", for a simple and (its Decision) for a forcée
    simple: value, payments, stamm, bêtes and the next state are a solo's."""
    players, options, state, valid = case
    if "contract" not in valid:
        return
    off_trump = next(s for s in SUITS if s != valid["trump"])
    solo: dict[str, Any] = {
        key: valid[key] for key in ("trump", "declarer", "tricks") if key in valid
    }
    solo["contract"] = "solo"
    solo["tout_after_five"] = valid["tricks"] == 8 or (
        bool(valid.get("tout_after_five")) and valid["tricks"] >= 5
    )
    solo["errors"] = [e for e in valid.get("errors", []) if e["kind"] != "unannounced_void"]
    held = valid.get("matadores")
    if held and not (held["side"] == "defenders" and contract == "forcee_simple"):
        solo["matadores"] = {**held, "lower": min(held["lower"], 4)}
    own = {**solo, "contract": contract, "called": {"rank": "ace", "suit": off_trump}}
    own["partner"] = valid["declarer"]
    opts = AMERICAN.parse_options(options)
    at = AMERICAN.parse_state(state, players, opts)
    as_own = AMERICAN.settle(players, opts, at, AMERICAN.parse_hand(own, players, opts))
    as_solo = AMERICAN.settle(players, opts, at, AMERICAN.parse_hand(solo, players, opts))
    assert (as_own.value, as_own.result, as_own.transfers, as_own.deltas) == (
        as_solo.value,
        as_solo.result,
        as_solo.transfers,
        as_solo.deltas,
    )
    assert as_own.state_after == as_solo.state_after
