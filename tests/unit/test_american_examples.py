"""American Solo reproduces every worked example of the rulebook exactly.

The examples live in ``tests/data/settlements.json`` (a copy of ``shared/rules/examples``);
their ``expected`` leaves out the explanation, so every other key is compared as it stands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.i18n import explain
from service.rules import VARIANTS, preview
from service.rules.american import AMERICAN
from service.rules.american.model import AmericanState

EXAMPLES = json.loads((Path(__file__).parents[1] / "data" / "settlements.json").read_text())
HANDS = [e for e in EXAMPLES["hands"] if e["variant"] == "american"]
TABLES = [t for t in EXAMPLES["tables"] if t["variant"] == "american"]


def _settle(example: dict[str, Any]) -> dict[str, Any]:
    players = example["players"]
    options = AMERICAN.parse_options(example["options"])
    state = AMERICAN.parse_state(example["state"], players, options)
    hand = AMERICAN.parse_hand(example["hand"], players, options)
    return AMERICAN.settle(players, options, state, hand).to_dict()


def _assert_matches(got: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        assert got[key] == value, f"{key}: got {got[key]!r}, expected {value!r}"


def test_the_examples_hold_american_hands_and_tables() -> None:
    assert len(HANDS) >= 30
    assert len(TABLES) >= 2


def test_american_is_registered_under_its_name() -> None:
    assert VARIANTS["american"] is AMERICAN
    assert AMERICAN.name == "american"
    assert AMERICAN.title == "American Solo"
    assert AMERICAN.units == "chips"
    assert AMERICAN.player_counts == (3, 4, 5)


@pytest.mark.parametrize("example", HANDS, ids=lambda e: e["name"])
def test_every_worked_hand_is_settled_exactly_as_the_rulebook_says(example: dict[str, Any]) -> None:
    _assert_matches(_settle(example), example["expected"])


@pytest.mark.parametrize("example", HANDS, ids=lambda e: e["name"])
def test_the_preview_settles_every_worked_hand_the_same_way(example: dict[str, Any]) -> None:
    settlement = preview(
        "american", example["players"], example["options"], example["state"], example["hand"]
    )
    got = settlement.to_dict()
    _assert_matches(got, example["expected"])
    assert got == _settle(example)


@pytest.mark.parametrize("example", HANDS, ids=lambda e: e["name"])
def test_every_worked_hand_is_explained_in_plain_lines(example: dict[str, Any]) -> None:
    explanation = explain(_settle(example)["explanation"])
    assert explanation, "an explanation has at least one line"
    for line in explanation:
        assert isinstance(line, str) and line and "\n" not in line
        assert line[0].isupper(), line


@pytest.mark.parametrize("sequence", TABLES, ids=lambda t: t["name"])
def test_table_sequences_replay_hand_by_hand_carrying_the_state(sequence: dict[str, Any]) -> None:
    players = sequence["players"]
    options = AMERICAN.parse_options(sequence["options"])
    state = AMERICAN.initial_state(players, options, sequence["first_dealer"])
    balances = [0] * players
    expected_all = sequence["expected"]
    assert len(sequence["hands"]) == len(expected_all["settlements"])
    for number, (raw, expected) in enumerate(
        zip(sequence["hands"], expected_all["settlements"], strict=True), start=1
    ):
        settlement = AMERICAN.settle(
            players, options, state, AMERICAN.parse_hand(raw, players, options)
        )
        got = settlement.to_dict()
        for key, value in expected.items():
            assert got[key] == value, f"hand {number}, {key}"
        balances = [b + d for b, d in zip(balances, settlement.deltas, strict=True)]
        assert isinstance(settlement.state_after, AmericanState)
        assert settlement.state_after.pool == settlement.pool_after
        assert settlement.state_after.dealer == settlement.next_dealer
        state = settlement.state_after
        # The stored state, written out and read back, is the same state.
        assert AMERICAN.parse_state(state.to_dict(), players, options) == state
    assert balances == expected_all["balances"]
    assert sum(balances) + state.pool == 0
    assert state.pool == expected_all["pool"]
    assert state.couleur == expected_all["couleur"]
    assert state.dealer == expected_all["dealer"]


def test_a_redeal_after_a_forfeit_does_not_stake_again_and_keeps_the_dealer() -> None:
    options = AMERICAN.parse_options(None)
    state = AMERICAN.initial_state(4, options, first_dealer=2)
    forfeit = AMERICAN.settle(
        4, options, state, AMERICAN.parse_hand({"kind": "forfeit", "seat": 1}, 4, options)
    )
    assert forfeit.next_dealer == 2
    assert forfeit.state_after.stake_due is False
    redeal = AMERICAN.settle(
        4,
        options,
        forfeit.state_after,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 6}, 4, options
        ),
    )
    assert [t.reason.value for t in redeal.transfers] == ["game", "game", "game"]
    assert redeal.next_dealer == 3
    assert redeal.state_after.stake_due is True


def test_a_bete_is_reckoned_at_the_moment_it_is_paid() -> None:
    # Two defenders' leads out of turn in a partner game: the second bête sees the first.
    options = AMERICAN.parse_options({"stamm": 16})
    state = AMERICAN.parse_state({"pool": 5, "stake_due": False}, 4, options)
    hand = AMERICAN.parse_hand(
        {
            "contract": "simple",
            "trump": "hearts",
            "declarer": 0,
            "tricks": 2,
            "called": {"rank": "ace", "suit": "spades"},
            "partner": 2,
            "errors": [
                {"kind": "lead_out_of_turn", "seat": 1},
                {"kind": "exposed_card", "seat": 3},
            ],
        },
        4,
        options,
    )
    settlement = AMERICAN.settle(4, options, state, hand)
    assert settlement.result == "won"
    betes = [(t.source, t.chips) for t in settlement.transfers if t.reason.value == "bete"]
    assert betes == [(1, 5), (3, 10)]
    assert settlement.pool_after == 20


def test_an_error_after_the_game_was_decided_still_costs_its_bete_but_not_the_game() -> None:
    options = AMERICAN.parse_options(None)
    state = AMERICAN.parse_state({"pool": 40, "stake_due": False}, 4, options)
    hand = AMERICAN.parse_hand(
        {
            "contract": "simple",
            "trump": "hearts",
            "declarer": 0,
            "tricks": 7,
            "called": {"rank": "ace", "suit": "spades"},
            "partner": 2,
            "errors": [{"kind": "revoke", "seat": 3}, {"kind": "play_out_of_turn", "seat": 2}],
        },
        4,
        options,
    )
    settlement = AMERICAN.settle(4, options, state, hand)
    assert settlement.result == "won"  # the defender's revoke decided it first
    assert settlement.transfers[-1].source == 2
    assert settlement.transfers[-1].reason.value == "bete"
    assert settlement.transfers[-1].chips == 16


def test_the_pool_empty_means_no_stamm_and_no_bete_are_listed() -> None:
    options = AMERICAN.parse_options({"stake": 0})
    state = AMERICAN.initial_state(4, options)
    won = AMERICAN.settle(
        4,
        options,
        state,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 6}, 4, options
        ),
    )
    assert [t.reason.value for t in won.transfers] == ["game"] * 3
    lost = AMERICAN.settle(
        4,
        options,
        state,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 1}, 4, options
        ),
    )
    assert [t.reason.value for t in lost.transfers] == ["game"] * 3
    assert lost.pool_after == 0


def test_couleur_stays_with_the_first_won_game_under_first_won() -> None:
    options = AMERICAN.parse_options({"couleur_policy": "first_won"})
    state = AMERICAN.initial_state(4, options)
    first = AMERICAN.settle(
        4,
        options,
        state,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}, 4, options
        ),
    )
    second = AMERICAN.settle(
        4,
        options,
        first.state_after,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "spades", "declarer": 1, "tricks": 5}, 4, options
        ),
    )
    assert (first.couleur_before, first.couleur_after) == ("clubs", "hearts")
    assert (second.couleur_before, second.couleur_after) == ("hearts", "hearts")
    assert second.state_after.first_game_won is True


def test_couleur_never_changes_under_the_fixed_policy() -> None:
    options = AMERICAN.parse_options(None)
    state = AMERICAN.initial_state(4, options)
    settlement = AMERICAN.settle(
        4,
        options,
        state,
        AMERICAN.parse_hand(
            {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}, 4, options
        ),
    )
    assert settlement.couleur_after == "clubs"
    assert settlement.state_after.first_game_won is True


def test_the_explanation_tells_each_step_a_player_wants_to_hear() -> None:
    options = AMERICAN.parse_options(None)
    state = AMERICAN.parse_state({"pool": 9}, 4, options)
    hand = AMERICAN.parse_hand(
        {
            "contract": "simple",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 6,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
            "matadores": {"side": "declarers", "lower": 2},
            "errors": [{"kind": "revoke", "seat": 3}],
        },
        4,
        options,
    )
    lines = explain(AMERICAN.settle(4, options, state, hand).explanation)
    assert lines[0] == "Dealer (seat 1) stakes 2 into the pool"
    assert "Matadores held by the declarers: 1 + 2 lower = 3, so a payment is 7" in lines
    assert "Seat 4 revokes: the defenders lose the game" in lines
    assert lines[-1] == "Seat 2 deals next"  # seats are numbered from 1 for people


def test_settling_the_same_input_twice_gives_equal_settlements() -> None:
    example = HANDS[0]
    assert _settle(example) == _settle(example)


def test_describe_lists_contracts_options_and_kinds_for_forms() -> None:
    described = AMERICAN.describe()
    json.dumps(described)  # it is plain JSON
    assert described["name"] == "american"
    assert described["players"] == [3, 4, 5]
    contracts = {c["name"]: c for c in described["contracts"]}
    assert set(contracts) == {"simple", "forcee_simple", "forcee_partout", "solo", "tout"}
    assert (
        contracts["tout"]["in_suit"],
        contracts["tout"]["in_couleur"],
        contracts["tout"]["target"],
    ) == (16, 32, 8)
    assert contracts["solo"]["calls_partner"] == "none"
    assert contracts["simple"]["calls_partner"] == "required"
    assert [k["name"] for k in described["hand_kinds"]] == ["played", "forfeit", "misdeal"]
    assert {k["name"] for k in described["error_kinds"]} == {
        "revoke",
        "lead_out_of_turn",
        "play_out_of_turn",
        "exposed_card",
        "unannounced_void",
    }
    options = {o["name"]: o for o in described["options"]}
    assert options["stake"]["default"] == 2 and options["stake"]["min"] == 0
    assert options["couleur_policy"]["allowed"] == ["fixed", "first_won"]
    assert all(o["description"] for o in described["options"])
    assert described["suits"] == ["clubs", "spades", "hearts", "diamonds"]
    assert {o["name"]: o["default"] for o in described["options"]} == (
        AMERICAN.parse_options(None).to_dict()
    )
    played = AMERICAN.parse_hand(HANDS[0]["hand"], 4, None).to_dict()
    # The same fields; the description lists them in the order a form asks for them.
    assert sorted(f["name"] for f in described["hand_fields"]) == sorted(played)
    assert AMERICAN.describe() == described
    described["hand_fields"][3]["max_by_players"]["4"] = 99  # a caller's copy to edit
    assert AMERICAN.describe()["hand_fields"][3]["max_by_players"]["4"] == 3


@pytest.mark.parametrize("players", [4, 5])
def test_in_a_partner_game_each_pair_exchanges_the_value_towards_the_winners(players: int) -> None:
    options = AMERICAN.parse_options({"stake": 0})
    state = AMERICAN.initial_state(players, options)
    for declarer in range(players):
        for partner in set(range(players)) - {declarer}:
            for tricks, sign in ((5, 1), (4, -1)):
                hand = AMERICAN.parse_hand(
                    {
                        "contract": "simple",
                        "trump": "hearts",
                        "declarer": declarer,
                        "tricks": tricks,
                        "called": {"rank": "ace", "suit": "clubs"},
                        "partner": partner,
                    },
                    players,
                    options,
                )
                settlement = AMERICAN.settle(players, options, state, hand)
                deltas = settlement.deltas
                assert deltas[declarer] == deltas[partner] == 2 * sign
                defenders = sorted(
                    deltas[s] for s in range(players) if s not in (declarer, partner)
                )
                assert defenders == sorted([-2 * sign] * 2 + [0] * (players - 4))
                # The declarer's pair comes first, with the first opponent to his left.
                first = settlement.transfers[0]
                assert declarer in (first.source, first.target)
                opponent = first.target if first.source == declarer else first.source
                left = [(declarer + k) % players for k in range(1, players)]
                assert opponent == next(s for s in left if s != partner)
