"""Spanish Solo, German Solo and Solo 66: the worked examples, every refusal of bad input with
its JSON path, and Spanish Solo's session targets.

The modules are imported directly; ``service.rules.preview`` is exercised too, once the three
variants are registered there.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import service.rules
from service.i18n import explain, explain_session
from service.rules.base import RuleViolation, SessionOutcome, Settlement, Variant
from service.rules.german import GERMAN
from service.rules.solo66 import SOLO66, possible_points
from service.rules.spanish import SPANISH

VARIANTS: dict[str, Variant] = {"spanish": SPANISH, "german": GERMAN, "solo66": SOLO66}
DATA = Path(__file__).resolve().parent.parent / "data" / "settlements.json"
EXAMPLES = [h for h in json.loads(DATA.read_text())["hands"] if h["variant"] in VARIANTS]


def example_id(example: dict[str, Any]) -> str:
    return f"{EXAMPLES.index(example)}-{example['name']}"


def settle(variant: Variant, players: int, options: Any, state: Any, hand: Any) -> Settlement:
    n = variant.check_players(players)
    opts = variant.parse_options(options)
    return variant.settle(
        n, opts, variant.parse_state(state, n, opts), variant.parse_hand(hand, n, opts)
    )


def assert_matches(settlement: Settlement, expected: dict[str, Any]) -> None:
    got = settlement.to_dict()
    for key, value in expected.items():
        assert got[key] == value, f"{key}: got {got[key]!r}, expected {value!r}"


def violation(call: Any, *args: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args)
    return caught.value


# --- the worked examples --------------------------------------------------------------------


def test_the_worked_examples_cover_all_three_variants() -> None:
    assert {e["variant"] for e in EXAMPLES} == set(VARIANTS)


def test_every_example_of_the_file_is_run_here_or_with_the_american_ones() -> None:
    """Each worked hand is run by this module or by test_american_examples (which takes the
    American hands and every table sequence): an example of another game would be run by
    neither, so it fails here."""
    examples = json.loads(DATA.read_text())
    assert {e["variant"] for e in examples["hands"]} <= {*VARIANTS, "american"}
    assert {t["variant"] for t in examples["tables"]} <= {"american"}


RULEBOOK = DATA.parents[2].parent / "shared" / "rules" / "examples" / "settlements.json"


@pytest.mark.skipif(not RULEBOOK.exists(), reason="no rulebook (shared/) beside the repository")
def test_the_examples_are_the_rulebooks_own_copy() -> None:
    """tests/data/settlements.json is the rulebook's examples, byte for byte: a new Decision's
    examples are copied in, not left behind."""
    assert DATA.read_bytes() == RULEBOOK.read_bytes()


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_each_worked_example_settles_exactly_as_expected_through_its_module(
    example: dict[str, Any],
) -> None:
    variant = VARIANTS[example["variant"]]
    settlement = settle(
        variant, example["players"], example["options"], example["state"], example["hand"]
    )
    assert_matches(settlement, example["expected"])


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_each_worked_example_settles_exactly_as_expected_through_preview(
    example: dict[str, Any],
) -> None:
    settlement = service.rules.preview(
        example["variant"],
        example["players"],
        example["options"],
        example["state"],
        example["hand"],
    )
    assert_matches(settlement, example["expected"])


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_each_worked_example_explains_every_step_in_plain_lines(example: dict[str, Any]) -> None:
    variant = VARIANTS[example["variant"]]
    settlement = settle(
        variant, example["players"], example["options"], example["state"], example["hand"]
    )
    assert len(explain(settlement.explanation)) >= 3
    assert all(
        isinstance(line, str) and line and "\n" not in line
        for line in explain(settlement.explanation)
    )
    assert explain(settlement.explanation)[-1] == f"Seat {settlement.next_dealer + 1} deals next"


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_a_normalized_hand_record_reads_back_to_the_same_hand(example: dict[str, Any]) -> None:
    variant = VARIANTS[example["variant"]]
    n = example["players"]
    options = variant.parse_options(example["options"])
    hand = variant.parse_hand(example["hand"], n, options)
    normalized = hand.to_dict()
    assert json.loads(json.dumps(normalized)) == normalized
    assert variant.parse_hand(normalized, n, options) == hand
    assert variant.parse_options(options.to_dict()) == options


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_settle_accepts_raw_json_as_well_as_parsed_values(example: dict[str, Any]) -> None:
    variant = VARIANTS[example["variant"]]
    raw = variant.settle(example["players"], example["options"], example["state"], example["hand"])
    parsed = settle(
        variant, example["players"], example["options"], example["state"], example["hand"]
    )
    assert raw == parsed


@pytest.mark.parametrize("example", EXAMPLES, ids=example_id)
def test_the_state_after_a_hand_passes_the_deal_to_the_left(example: dict[str, Any]) -> None:
    variant = VARIANTS[example["variant"]]
    settlement = settle(
        variant, example["players"], example["options"], example["state"], example["hand"]
    )
    dealer = example["state"].get("dealer", 0)
    assert settlement.next_dealer == (dealer + 1) % example["players"]
    state_after = settlement.state_after.to_dict()
    assert state_after.pop("dealer") == settlement.next_dealer
    # German Solo carries the preferred suit in force too: the option's, when it is a suit.
    if example["variant"] == "german":
        assert state_after == {"couleur": example["options"].get("preferred_suit")}
    else:
        assert state_after == {}


def test_the_three_variants_are_registered_after_american() -> None:
    names = list(service.rules.VARIANTS)
    assert names[0] == "american"
    assert names[1:] == ["spanish", "german", "solo66"]
    assert all(service.rules.get_variant(name) is VARIANTS[name] for name in VARIANTS)


# --- units, pool and couleur ------------------------------------------------------------------


def test_spanish_scores_points_with_its_fixed_colour_and_no_pool() -> None:
    s = settle(
        SPANISH,
        4,
        {"couleur": "diamonds"},
        None,
        {"contract": "solo", "trump": "diamonds", "declarer": 3, "tricks": 6},
    )
    assert (s.transfers, s.pool_before, s.pool_after) == ((), None, None)
    assert (s.couleur_before, s.couleur_after, s.in_couleur) == ("diamonds", "diamonds", True)
    assert s.deltas == (0, 0, 0, 8)
    assert s.to_dict()["pool"] is None


def test_german_scores_points_without_pool_or_couleur() -> None:
    s = settle(
        GERMAN, 4, None, None, {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 5}
    )
    assert (s.transfers, s.pool_before, s.couleur_before, s.couleur_after) == ((), None, None, None)
    assert (s.result, s.value, s.in_couleur, s.deltas) == ("won", 6, False, (6, 0, 0, 0))


def test_solo66_moves_chips_between_seats_without_a_pool() -> None:
    s = settle(
        SOLO66,
        5,
        {"stake": 3},
        {"dealer": 4},
        {"soloist": 0, "trump": "clubs", "soloist_points": 66},
    )
    assert (s.pool_before, s.pool_after, s.couleur_before, s.in_couleur) == (None,) * 4
    assert [t.to_dict() for t in s.transfers] == [
        {"from": seat, "to": 0, "chips": 3, "reason": "game"} for seat in (1, 2, 3, 4)
    ]
    assert (s.deltas, s.value, s.next_dealer) == ((12, -3, -3, -3, -3), 3, 0)


# --- Spanish Solo rules -----------------------------------------------------------------------

SIMPLE = {
    "contract": "simple",
    "trump": "hearts",
    "declarer": 1,
    "called": {"rank": "ace", "suit": "spades"},
    "partner": 3,
    "tricks": 5,
}


@pytest.mark.parametrize(
    ("contract", "couleur", "value"),
    [
        ("simple", "clubs", 2),
        ("simple", "hearts", 4),
        ("solo", "clubs", 4),
        ("solo", "hearts", 8),
        ("tout", "clubs", 16),
        ("tout", "hearts", 32),
    ],
)
def test_spanish_contract_values_double_in_colour(contract: str, couleur: str, value: int) -> None:
    hand: dict[str, Any] = {"contract": contract, "trump": "hearts", "declarer": 0, "tricks": 8}
    if contract == "simple":
        hand.update(called={"rank": "ace", "suit": "clubs"}, partner=2)
    s = settle(SPANISH, 4, {"couleur": couleur}, None, hand)
    assert s.value == value


@pytest.mark.parametrize(
    ("contract", "tricks", "result"),
    [
        ("simple", 4, "lost"),
        ("simple", 5, "won"),
        ("solo", 4, "lost"),
        ("solo", 5, "won"),
        ("tout", 7, "lost"),
        ("tout", 8, "won"),
    ],
)
def test_spanish_targets_are_five_tricks_or_all_eight_for_a_tout(
    contract: str, tricks: int, result: str
) -> None:
    hand: dict[str, Any] = {
        "contract": contract,
        "trump": "spades",
        "declarer": 2,
        "tricks": tricks,
    }
    if contract == "simple":
        hand.update(called={"rank": "ace", "suit": "clubs"}, partner=0)
    assert settle(SPANISH, 4, None, None, hand).result == result


def test_a_spanish_simple_may_call_the_ace_of_trumps() -> None:
    hand = {**SIMPLE, "called": {"rank": "ace", "suit": "hearts"}}
    assert settle(SPANISH, 4, None, None, hand).deltas == (0, 2, 0, 2)


def test_a_revoke_by_an_opponent_makes_the_spanish_declaring_side_win() -> None:
    hand = {**SIMPLE, "tricks": 0, "errors": [{"kind": "revoke", "seat": 2}]}
    s = settle(SPANISH, 4, None, None, hand)
    assert (s.result, s.deltas) == ("won", (0, 2, 0, 2))
    assert "Seat 3 revoked" in explain(s.explanation)[1]  # seat 2 of the API, seat 3 for people


def test_a_revoke_by_the_partner_makes_the_spanish_declaring_side_lose() -> None:
    hand = {**SIMPLE, "tricks": 8, "errors": [{"kind": "revoke", "seat": 3}]}
    assert settle(SPANISH, 4, None, None, hand).deltas == (0, -2, 0, -2)


def test_the_first_revoke_recorded_decides_the_game() -> None:
    hand = {**SIMPLE, "errors": [{"kind": "revoke", "seat": 1}, {"kind": "revoke", "seat": 0}]}
    assert settle(SPANISH, 4, None, None, hand).result == "lost"
    hand = {**SIMPLE, "errors": [{"kind": "revoke", "seat": 0}, {"kind": "revoke", "seat": 1}]}
    assert settle(SPANISH, 4, None, None, hand).result == "won"


def test_a_forced_simple_scores_like_any_simple() -> None:
    forced = settle(SPANISH, 4, None, None, {**SIMPLE, "forced": True})
    plain = settle(SPANISH, 4, None, None, SIMPLE)
    assert (forced.deltas, forced.value) == (plain.deltas, plain.value)
    assert "Forced" in explain(forced.explanation)[0]


def test_a_spanish_hand_is_normalized_with_its_defaults() -> None:
    hand = SPANISH.parse_hand(
        {"contract": "tout", "trump": "clubs", "declarer": 0, "tricks": 8},
        4,
        SPANISH.parse_options(None),
    )
    assert hand.to_dict() == {
        "kind": "played",
        "contract": "tout",
        "trump": "clubs",
        "declarer": 0,
        "called": None,
        "partner": None,
        "tricks": 8,
        "forced": False,
        "errors": [],
    }


# --- German Solo rules ------------------------------------------------------------------------

FRAGE = {
    "contract": "frage",
    "trump": "hearts",
    "declarer": 1,
    "called": {"rank": "ace", "suit": "spades"},
    "partner": 2,
    "tricks": 5,
}


@pytest.mark.parametrize(
    ("contract", "base"), [("force", 1), ("frage", 2), ("grossfrage", 3), ("solo", 6)]
)
def test_german_base_values_read_solo_as_six(contract: str, base: int) -> None:
    hand: dict[str, Any] = {**FRAGE, "contract": contract}
    if contract == "solo":
        del hand["called"], hand["partner"]
    assert settle(GERMAN, 4, None, None, hand).value == base


@pytest.mark.parametrize(
    ("flags", "tricks", "value", "result"),
    [
        ({"stopped_after_five": True}, 5, 4, "won"),
        ({"continued_after_five": True}, 8, 6, "won"),
        ({"continued_after_five": True}, 7, 6, "lost"),
        ({"tout_announced": True}, 8, 8, "won"),
        ({"tout_announced": True}, 5, 8, "lost"),
        ({"matadors_together": True}, 5, 4, "won"),
        ({"matadors_together": True, "tout_announced": True}, 8, 10, "won"),
        ({}, 4, 2, "lost"),
    ],
)
def test_german_bonuses_add_to_the_base_and_tout_needs_all_eight(
    flags: dict[str, bool], tricks: int, value: int, result: str
) -> None:
    s = settle(GERMAN, 4, None, None, {**FRAGE, **flags, "tricks": tricks})
    assert (s.value, s.result) == (value, result)
    sign = 1 if result == "won" else -1
    assert s.deltas == (0, sign * value, sign * value, 0)


def test_the_preferred_suit_doubles_the_whole_german_value() -> None:
    hand = {**FRAGE, "stopped_after_five": True, "matadors_together": True}
    s = settle(GERMAN, 4, {"preferred_suit": "hearts"}, None, hand)
    assert (s.value, s.in_couleur) == (12, True)
    assert explain(s.explanation)[1] == (
        "Value: base 2 + prime 2 + matadors together 2 = 6, doubled "
        "for the preferred suit hearts = 12"
    )
    other = settle(GERMAN, 4, {"preferred_suit": "clubs"}, None, hand)
    assert (other.value, other.in_couleur) == (6, False)


def test_a_frage_may_call_a_king() -> None:
    hand = {**FRAGE, "called": {"rank": "king", "suit": "clubs"}}
    assert settle(GERMAN, 4, None, None, hand).deltas == (0, 2, 2, 0)


def test_a_revoke_by_a_german_opponent_makes_the_declaring_party_win() -> None:
    hand = {**FRAGE, "tricks": 1, "errors": [{"kind": "revoke", "seat": 3}]}
    assert settle(GERMAN, 4, None, None, hand).deltas == (0, 2, 2, 0)
    hand = {**FRAGE, "tricks": 7, "errors": [{"kind": "revoke", "seat": 1}]}
    assert settle(GERMAN, 4, None, None, hand).deltas == (0, -2, -2, 0)


# --- Solo 66 rules ----------------------------------------------------------------------------


def test_solo66_defenders_with_66_beat_the_soloist() -> None:
    s = settle(SOLO66, 5, None, None, {"soloist": 0, "trump": "spades", "soloist_points": 65})
    assert (s.result, s.deltas) == ("lost", (-4, 1, 1, 1, 1))


def test_a_drawn_solo66_game_moves_nothing() -> None:
    s = settle(
        SOLO66,
        5,
        {"stake": 5},
        None,
        {"soloist": 1, "trump": "spades", "soloist_points": 65, "defender_points": 65},
    )
    assert (s.result, s.transfers, s.deltas, s.value) == ("drawn", (), (0,) * 5, 0)


def test_a_solo66_hand_without_trump_is_normalized_without_points() -> None:
    hand = SOLO66.parse_hand(
        {"trump": None, "last_trick": 4, "soloist": None}, 5, SOLO66.parse_options({})
    )
    assert hand.to_dict() == {
        "kind": "played",
        "soloist": None,
        "trump": None,
        "soloist_points": None,
        "defender_points": None,
        "last_trick": 4,
    }


def test_solo66_defender_points_default_to_the_rest_of_134() -> None:
    hand = SOLO66.parse_hand({"soloist": 3, "trump": "clubs", "soloist_points": 100}, 5, None)
    assert hand.defender_points == 34


def test_every_possible_solo66_pile_is_worth_0_to_134_except_1_and_133() -> None:
    piles = {s for s, _ in possible_points()}
    assert piles == set(range(135)) - {1, 133}
    assert all(112 <= s + d <= 134 for s, d in possible_points())
    assert all((s, 134 - s) in possible_points() for s in piles)


# --- bad input, field by field ----------------------------------------------------------------

SOLO = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 5}
GERMAN_SOLO = {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 5}
SOLO66_GAME = {"soloist": 2, "trump": "hearts", "soloist_points": 71}
NO_TRUMP = {"trump": None, "last_trick": 3}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``base`` with fields changed; a change to ``...`` removes the field."""
    hand = copy.deepcopy(base)
    for key, value in changes.items():
        if value is ...:
            hand.pop(key, None)
        else:
            hand[key] = value
    return hand


def revoke(seat: Any) -> dict[str, Any]:
    return {"kind": "revoke", "seat": seat}


COMMON_BAD_HANDS: list[tuple[str, object, str]] = [
    ("not an object", None, "hand"),
    ("a list", [], "hand"),
    ("a string", "simple", "hand"),
    ("a number", 5, "hand"),
]

SPANISH_BAD_HANDS: list[tuple[str, object, str]] = [
    *COMMON_BAD_HANDS,
    ("an unknown field", with_(SIMPLE, tout_after_five=False), "hand.tout_after_five"),
    ("a misdeal", with_(SIMPLE, kind="misdeal"), "hand.kind"),
    ("a kind that is not a string", with_(SIMPLE, kind=["played"]), "hand.kind"),
    ("no contract", with_(SIMPLE, contract=...), "hand.contract"),
    ("an unknown contract", with_(SIMPLE, contract="grand"), "hand.contract"),
    ("an American contract", with_(SIMPLE, contract="forcee_simple"), "hand.contract"),
    ("no trump", with_(SIMPLE, trump=...), "hand.trump"),
    ("a null trump", with_(SIMPLE, trump=None), "hand.trump"),
    ("an unknown suit", with_(SIMPLE, trump="stars"), "hand.trump"),
    ("no declarer", with_(SIMPLE, declarer=...), "hand.declarer"),
    ("a declarer off the table", with_(SIMPLE, declarer=4), "hand.declarer"),
    ("a negative declarer", with_(SIMPLE, declarer=-1), "hand.declarer"),
    ("a bool declarer", with_(SIMPLE, declarer=True), "hand.declarer"),
    ("a float declarer", with_(SIMPLE, declarer=1.0), "hand.declarer"),
    ("a string declarer", with_(SIMPLE, declarer="1"), "hand.declarer"),
    ("a huge declarer", with_(SIMPLE, declarer=10**100), "hand.declarer"),
    ("no tricks", with_(SIMPLE, tricks=...), "hand.tricks"),
    ("nine tricks", with_(SIMPLE, tricks=9), "hand.tricks"),
    ("negative tricks", with_(SIMPLE, tricks=-1), "hand.tricks"),
    ("float tricks", with_(SIMPLE, tricks=5.0), "hand.tricks"),
    ("null tricks", with_(SIMPLE, tricks=None), "hand.tricks"),
    ("a called king", with_(SIMPLE, called={"rank": "king", "suit": "spades"}), "hand.called.rank"),
    ("a called card without rank", with_(SIMPLE, called={"suit": "spades"}), "hand.called.rank"),
    (
        "a called card of no suit",
        with_(SIMPLE, called={"rank": "ace", "suit": "x"}),
        "hand.called.suit",
    ),
    (
        "a called card with extra keys",
        with_(SIMPLE, called={"rank": "ace", "suit": "spades", "seat": 3}),
        "hand.called.seat",
    ),
    ("a called card as a string", with_(SIMPLE, called="ace of spades"), "hand.called"),
    ("a simple without a called card", with_(SIMPLE, called=...), "hand.called"),
    ("a simple with a null called card", with_(SIMPLE, called=None), "hand.called"),
    ("a simple without a partner", with_(SIMPLE, partner=...), "hand.partner"),
    ("a partner off the table", with_(SIMPLE, partner=4), "hand.partner"),
    (
        "a solo with a called card",
        with_(SOLO, called={"rank": "ace", "suit": "hearts"}),
        "hand.called",
    ),
    ("a solo with a partner", with_(SOLO, partner=2), "hand.partner"),
    ("a forced solo", with_(SOLO, forced=True), "hand.forced"),
    ("a forced tout", with_(SOLO, contract="tout", tricks=8, forced=True), "hand.forced"),
    ("forced as a string", with_(SIMPLE, forced="yes"), "hand.forced"),
    ("forced as a number", with_(SIMPLE, forced=1), "hand.forced"),
    ("forced as null", with_(SIMPLE, forced=None), "hand.forced"),
    ("errors as an object", with_(SIMPLE, errors={"kind": "revoke"}), "hand.errors"),
    ("errors as null", with_(SIMPLE, errors=None), "hand.errors"),
    ("seventeen errors", with_(SIMPLE, errors=[revoke(0)] * 17), "hand.errors"),
    ("an error that is a string", with_(SIMPLE, errors=["revoke"]), "hand.errors.0"),
    (
        "an unknown error kind",
        with_(SIMPLE, errors=[{"kind": "renege", "seat": 1}]),
        "hand.errors.0.kind",
    ),
    (
        "an American error kind",
        with_(SIMPLE, errors=[{"kind": "exposed_card", "seat": 1}]),
        "hand.errors.0.kind",
    ),
    ("an error without a seat", with_(SIMPLE, errors=[{"kind": "revoke"}]), "hand.errors.0.seat"),
    (
        "an error by a seat off the table",
        with_(SIMPLE, errors=[revoke(0), revoke(4)]),
        "hand.errors.1.seat",
    ),
    (
        "an error with extra keys",
        with_(SIMPLE, errors=[{**revoke(0), "trick": 3}]),
        "hand.errors.0.trick",
    ),
]

GERMAN_BAD_HANDS: list[tuple[str, object, str]] = [
    *COMMON_BAD_HANDS,
    ("an unknown field", with_(FRAGE, forced=True), "hand.forced"),
    ("a forfeit", with_(FRAGE, kind="forfeit"), "hand.kind"),
    ("an unknown contract", with_(FRAGE, contract="mediateur"), "hand.contract"),
    ("a Spanish contract", with_(FRAGE, contract="simple"), "hand.contract"),
    ("no trump", with_(FRAGE, trump=...), "hand.trump"),
    ("a declarer off the table", with_(FRAGE, declarer=7), "hand.declarer"),
    ("ten tricks", with_(FRAGE, tricks=10), "hand.tricks"),
    ("bool tricks", with_(FRAGE, tricks=False), "hand.tricks"),
    ("a frage without a called card", with_(FRAGE, called=...), "hand.called"),
    ("a frage without a partner", with_(FRAGE, partner=None), "hand.partner"),
    ("a frage partnered with the declarer", with_(FRAGE, partner=1), "hand.partner"),
    (
        "a frage calling the ace of trumps",
        with_(FRAGE, called={"rank": "ace", "suit": "hearts"}),
        "hand.called.suit",
    ),
    (
        "a frage calling a queen",
        with_(FRAGE, called={"rank": "queen", "suit": "clubs"}),
        "hand.called.rank",
    ),
    (
        "a grossfrage calling a king",
        with_(FRAGE, contract="grossfrage", called={"rank": "king", "suit": "clubs"}),
        "hand.called.rank",
    ),
    (
        "a grossfrage calling the trump suit",
        with_(FRAGE, contract="grossfrage", called={"rank": "ace", "suit": "hearts"}),
        "hand.called.suit",
    ),
    (
        "a force calling a king",
        with_(FRAGE, contract="force", called={"rank": "king", "suit": "clubs"}),
        "hand.called.rank",
    ),
    ("a force without a partner", with_(FRAGE, contract="force", partner=...), "hand.partner"),
    (
        "a solo with a called card",
        with_(GERMAN_SOLO, called={"rank": "ace", "suit": "hearts"}),
        "hand.called",
    ),
    ("a solo with a partner", with_(GERMAN_SOLO, partner=1), "hand.partner"),
    (
        "stopped and went on",
        with_(FRAGE, stopped_after_five=True, continued_after_five=True),
        "hand.continued_after_five",
    ),
    (
        "stopped and announced tout",
        with_(FRAGE, stopped_after_five=True, tout_announced=True),
        "hand.tout_announced",
    ),
    (
        "went on and announced tout",
        with_(FRAGE, tricks=8, continued_after_five=True, tout_announced=True),
        "hand.tout_announced",
    ),
    (
        "stopped after four tricks",
        with_(FRAGE, tricks=4, stopped_after_five=True),
        "hand.stopped_after_five",
    ),
    (
        "went on without the first five",
        with_(FRAGE, tricks=3, continued_after_five=True),
        "hand.continued_after_five",
    ),
    ("a flag as a string", with_(FRAGE, tout_announced="no"), "hand.tout_announced"),
    ("matadors as a number", with_(FRAGE, matadors_together=1), "hand.matadors_together"),
    (
        "an unknown error kind",
        with_(FRAGE, errors=[{"kind": "lead_out_of_turn", "seat": 0}]),
        "hand.errors.0.kind",
    ),
    ("an error seat as a float", with_(FRAGE, errors=[revoke(2.0)]), "hand.errors.0.seat"),
    ("seventeen errors", with_(FRAGE, errors=[revoke(3)] * 17), "hand.errors"),
]

SOLO66_BAD_HANDS: list[tuple[str, object, str]] = [
    *COMMON_BAD_HANDS,
    ("an unknown field", with_(SOLO66_GAME, tricks=3), "hand.tricks"),
    ("errors, which Solo 66 does not record", with_(SOLO66_GAME, errors=[]), "hand.errors"),
    ("a misdeal", with_(SOLO66_GAME, kind="misdeal"), "hand.kind"),
    ("no trump field at all", with_(SOLO66_GAME, trump=...), "hand.trump"),
    ("an unknown suit", with_(SOLO66_GAME, trump="acorns"), "hand.trump"),
    ("no soloist", with_(SOLO66_GAME, soloist=...), "hand.soloist"),
    ("a null soloist", with_(SOLO66_GAME, soloist=None), "hand.soloist"),
    ("a soloist off the table", with_(SOLO66_GAME, soloist=5), "hand.soloist"),
    ("no soloist points", with_(SOLO66_GAME, soloist_points=...), "hand.soloist_points"),
    ("too many soloist points", with_(SOLO66_GAME, soloist_points=135), "hand.soloist_points"),
    ("negative soloist points", with_(SOLO66_GAME, soloist_points=-1), "hand.soloist_points"),
    ("fractional soloist points", with_(SOLO66_GAME, soloist_points=70.5), "hand.soloist_points"),
    ("soloist points as a string", with_(SOLO66_GAME, soloist_points="71"), "hand.soloist_points"),
    ("a pile worth 1 point", with_(SOLO66_GAME, soloist_points=1), "hand.soloist_points"),
    ("a pile worth 133 points", with_(SOLO66_GAME, soloist_points=133), "hand.soloist_points"),
    ("defender points as a bool", with_(SOLO66_GAME, defender_points=True), "hand.defender_points"),
    (
        "points adding up to more than 134",
        with_(SOLO66_GAME, defender_points=64),
        "hand.defender_points",
    ),
    (
        "points adding up to less than 112",
        with_(SOLO66_GAME, soloist_points=60, defender_points=51),
        "hand.defender_points",
    ),
    (
        "a kitty worth exactly 1 point",
        with_(SOLO66_GAME, defender_points=62),
        "hand.defender_points",
    ),
    ("a last trick with a trump", with_(SOLO66_GAME, last_trick=2), "hand.last_trick"),
    ("no last trick without trump", with_(NO_TRUMP, last_trick=...), "hand.last_trick"),
    ("a last trick off the table", with_(NO_TRUMP, last_trick=5), "hand.last_trick"),
    ("a soloist without trump", with_(NO_TRUMP, soloist=1), "hand.soloist"),
    ("soloist points without trump", with_(NO_TRUMP, soloist_points=70), "hand.soloist_points"),
    ("defender points without trump", with_(NO_TRUMP, defender_points=70), "hand.defender_points"),
]


def case_id(case: tuple[str, object, str]) -> str:
    return case[0]


@pytest.mark.parametrize(
    ("what", "hand", "field"), SPANISH_BAD_HANDS, ids=[c[0] for c in SPANISH_BAD_HANDS]
)
def test_a_bad_spanish_hand_is_refused_naming_its_field(
    what: str, hand: object, field: str
) -> None:
    error = violation(SPANISH.parse_hand, hand, 4, SPANISH.parse_options(None))
    assert error.field == field, error
    assert error.errors == {field: [error.message]}


@pytest.mark.parametrize(
    ("what", "hand", "field"), GERMAN_BAD_HANDS, ids=[c[0] for c in GERMAN_BAD_HANDS]
)
def test_a_bad_german_hand_is_refused_naming_its_field(what: str, hand: object, field: str) -> None:
    error = violation(GERMAN.parse_hand, hand, 4, GERMAN.parse_options(None))
    assert error.field == field, error


@pytest.mark.parametrize(
    ("what", "hand", "field"), SOLO66_BAD_HANDS, ids=[c[0] for c in SOLO66_BAD_HANDS]
)
def test_a_bad_solo66_hand_is_refused_naming_its_field(what: str, hand: object, field: str) -> None:
    error = violation(SOLO66.parse_hand, hand, 5, SOLO66.parse_options(None))
    assert error.field == field, error


@pytest.mark.parametrize(
    ("variant", "hand", "field"),
    [
        ("spanish", SIMPLE, "hand.declarer"),
        ("german", FRAGE, "hand.declarer"),
        ("solo66", SOLO66_GAME, "hand.soloist"),
    ],
)
def test_a_bad_hand_is_refused_through_preview_too(
    variant: str, hand: dict[str, Any], field: str
) -> None:
    bad = with_(hand, **{field.removeprefix("hand."): 9})
    error = violation(
        service.rules.preview, variant, VARIANTS[variant].player_counts[0], None, None, bad
    )
    assert error.field == field


BAD_OPTIONS: list[tuple[str, object, str]] = [
    ("spanish", [], "options"),
    ("spanish", "clubs", "options"),
    ("spanish", {"colour": "clubs"}, "options.colour"),
    ("spanish", {"stake": 2}, "options.stake"),
    ("spanish", {"couleur": "stars"}, "options.couleur"),
    ("spanish", {"couleur": None}, "options.couleur"),
    ("spanish", {"target_hands": 0}, "options.target_hands"),
    ("spanish", {"target_hands": 1.5}, "options.target_hands"),
    ("spanish", {"target_hands": True}, "options.target_hands"),
    ("spanish", {"target_hands": 10_001}, "options.target_hands"),
    ("spanish", {"target_score": -5}, "options.target_score"),
    ("spanish", {"target_score": "50"}, "options.target_score"),
    ("german", {"couleur": "clubs"}, "options.couleur"),
    ("german", {"preferred_suit": "stars"}, "options.preferred_suit"),
    ("german", {"preferred_suit": 1}, "options.preferred_suit"),
    ("solo66", {"stake": 0}, "options.stake"),
    ("solo66", {"stake": 10_001}, "options.stake"),
    ("solo66", {"stake": True}, "options.stake"),
    ("solo66", {"stake": 1.0}, "options.stake"),
    ("solo66", {"stake": "1"}, "options.stake"),
    ("solo66", {"stake": None}, "options.stake"),
    ("solo66", {"stake": 10**100}, "options.stake"),
    ("solo66", {"pool_at_close": "carry"}, "options.pool_at_close"),
]


@pytest.mark.parametrize(("variant", "options", "field"), BAD_OPTIONS)
def test_a_bad_option_is_refused_naming_its_field(
    variant: str, options: object, field: str
) -> None:
    error = violation(VARIANTS[variant].parse_options, options)
    assert error.field == field, error


@pytest.mark.parametrize(
    ("variant", "options", "expected"),
    [
        ("spanish", None, {"couleur": "clubs", "target_hands": None, "target_score": None}),
        (
            "spanish",
            {"target_hands": None, "target_score": 100},
            {"couleur": "clubs", "target_hands": None, "target_score": 100},
        ),
        ("german", None, {"preferred_suit": None, "mediateur": False, "deck": 32}),
        (
            "german",
            {"preferred_suit": None},
            {"preferred_suit": None, "mediateur": False, "deck": 32},
        ),
        (
            "german",
            {"preferred_suit": "first_won", "mediateur": True, "deck": 24},
            {"preferred_suit": "first_won", "mediateur": True, "deck": 24},
        ),
        ("solo66", None, {"stake": 1}),
        ("solo66", {"stake": 10_000}, {"stake": 10_000}),
    ],
)
def test_options_take_the_rulebook_defaults(
    variant: str, options: Any, expected: dict[str, Any]
) -> None:
    assert VARIANTS[variant].parse_options(options).to_dict() == expected
    assert VARIANTS[variant].parse_options({}).to_dict().keys() == expected.keys()


BAD_STATES: list[tuple[str, object, str]] = [
    ("spanish", [], "state"),
    ("spanish", {"dealer": 4}, "state.dealer"),
    ("spanish", {"dealer": True}, "state.dealer"),
    ("spanish", {"dealer": None}, "state.dealer"),
    ("spanish", {"pool": 0}, "state.pool"),
    ("german", {"dealer": "0"}, "state.dealer"),
    ("german", {"couleur": "stars"}, "state.couleur"),
    ("german", {"couleur": 1}, "state.couleur"),
    ("german", {"pool": 0}, "state.pool"),
    ("solo66", {"dealer": 5}, "state.dealer"),
    ("solo66", {"dealer": -1}, "state.dealer"),
]


@pytest.mark.parametrize(("variant", "state", "field"), BAD_STATES)
def test_a_bad_state_is_refused_naming_its_field(variant: str, state: object, field: str) -> None:
    v = VARIANTS[variant]
    n = v.player_counts[0]
    error = violation(v.parse_state, state, n, v.parse_options(None))
    assert error.field == field, error


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_missing_state_or_dealer_is_a_fresh_table_dealt_by_seat_0(variant: str) -> None:
    v = VARIANTS[variant]
    n = v.player_counts[0]
    fresh = {"dealer": 0, "couleur": None} if variant == "german" else {"dealer": 0}
    assert v.parse_state(None, n, None).to_dict() == fresh
    assert v.parse_state({}, n, None).to_dict() == fresh
    assert v.parse_state({"dealer": n - 1}, n, None).dealer == n - 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_fresh_table_is_dealt_by_its_first_dealer(variant: str) -> None:
    v = VARIANTS[variant]
    n = v.player_counts[0]
    assert v.initial_state(n, v.parse_options(None), 2).dealer == 2
    assert v.initial_state(n, v.parse_options(None)).dealer == 0
    assert violation(v.initial_state, n, None, n).field == "first_dealer"


@pytest.mark.parametrize(
    ("variant", "players"),
    [
        ("spanish", 3),
        ("spanish", 5),
        ("german", 5),
        ("solo66", 4),
        ("solo66", True),
        ("german", 4.0),
        ("solo66", None),
    ],
)
def test_a_table_of_the_wrong_size_is_refused(variant: str, players: object) -> None:
    v = VARIANTS[variant]
    assert violation(v.check_players, players).field == "players"
    assert violation(v.parse_hand, {}, players, None).field == "players"


# --- Spanish session targets -------------------------------------------------------------------


def outcome(options: Any, totals: tuple[int, ...], hands: int) -> SessionOutcome | None:
    return SPANISH.session_outcome(SPANISH.parse_options(options), totals, hands)


def test_a_spanish_session_without_targets_never_ends() -> None:
    assert outcome(None, (100, 0, -50, 8), 500) is None


def test_a_spanish_session_is_not_over_before_its_target_hands() -> None:
    result = outcome({"target_hands": 10}, (8, -4, 0, 2), 9)
    assert result is not None
    assert (result.over, result.winners) == (False, ())


def test_a_spanish_session_ends_after_its_target_hands_with_the_highest_total_winning() -> None:
    result = outcome({"target_hands": 10}, (8, -4, 12, 2), 10)
    assert result is not None
    assert (result.over, result.winners) == (True, (2,))
    assert (
        explain_session(result.reason)
        == "10 of 10 hands played; seat 3 won with the highest total, 12"
    )


def test_a_spanish_session_ends_when_a_total_exceeds_the_target_score() -> None:
    result = outcome({"target_score": 30}, (32, 4, -8, 0), 3)
    assert result is not None
    assert (result.over, result.winners) == (True, (0,))
    # The seed's "exceeds a certain point threshold": reaching the target is not enough.
    going_on = outcome({"target_score": 30}, (30, 4, -8, 0), 3)
    assert going_on is not None
    assert (going_on.over, going_on.winners) == (False, ())
    assert (
        explain_session(going_on.reason)
        == "3 hands played; no total above the target score of 30 yet"
    )
    assert (
        explain_session(result.reason)
        == "seat 1 went past the target score of 30; seat 1 won with the highest total, 32"
    )
    assert (
        explain_session(result.reason, "de")
        == "über dem Punkteziel von 30: Platz 1; Sieg mit dem höchsten Stand, 32: Platz 1"
    )


def test_the_answer_names_every_winner_of_a_shared_highest_total() -> None:
    result = outcome({"target_score": 10}, (12, 12, 4, -8), 6)
    assert result is not None
    assert (result.over, result.winners) == (True, (0, 1))
    assert explain_session(result.reason).endswith(
        "seat 1 and seat 2 won with the highest total, 12"
    )


def test_tied_highest_totals_share_the_spanish_session() -> None:
    result = outcome({"target_hands": 2}, (4, 4, -4, -4), 2)
    assert result is not None
    assert result.winners == (0, 1)


@pytest.mark.parametrize(
    ("totals", "hands", "over"),
    [
        ((17, 2, 0, -2), 5, True),
        ((16, 2, 0, -2), 5, False),
        ((10, 2, 0, -2), 20, True),
        ((10, 2, 0, -2), 19, False),
        ((17, 2, 0, -2), 20, True),
    ],
)
def test_either_spanish_target_ends_the_session(
    totals: tuple[int, ...], hands: int, over: bool
) -> None:
    result = outcome({"target_hands": 20, "target_score": 16}, totals, hands)
    assert result is not None
    assert result.over is over
    assert result.winners == ((0,) if over else ())


def test_a_spanish_session_of_losers_is_won_by_the_least_negative_total() -> None:
    result = outcome({"target_hands": 3}, (-8, -2, -4, -6), 3)
    assert result is not None
    assert result.winners == (1,)


@pytest.mark.parametrize("variant", ["german", "solo66"])
def test_german_and_solo66_sessions_have_no_targets(variant: str) -> None:
    v = VARIANTS[variant]
    assert v.session_outcome(v.parse_options(None), (0,) * v.player_counts[0], 1000) is None


# --- describe ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_describe_lists_the_options_and_defaults_the_module_accepts(variant: str) -> None:
    v = VARIANTS[variant]
    described = v.describe()
    assert json.loads(json.dumps(described)) == described
    assert (described["name"], described["title"], described["units"]) == (v.name, v.title, v.units)
    assert described["players"] == list(v.player_counts)
    defaults = v.parse_options(None).to_dict()
    assert {o["name"]: o["default"] for o in described["options"]} == defaults
    assert all(o["description"] and o["type"] for o in described["options"])
    assert described["suits"] == ["clubs", "spades", "hearts", "diamonds"]
    fields = {f["name"] for f in described["hand_fields"]}
    normalized = v.parse_hand(EXAMPLES_BY_VARIANT[variant], v.player_counts[0], None).to_dict()
    assert fields == set(normalized)


EXAMPLES_BY_VARIANT = {e["variant"]: e["hand"] for e in reversed(EXAMPLES)}


def test_describe_gives_the_spanish_and_german_contract_values() -> None:
    spanish = {
        c["name"]: (c["in_suit"], c["in_couleur"], c["target"])
        for c in SPANISH.describe()["contracts"]
    }
    assert spanish == {"simple": (2, 4, 5), "solo": (4, 8, 5), "tout": (16, 32, 8)}
    german = {c["name"]: c["base"] for c in GERMAN.describe()["contracts"]}
    assert german == {"force": 1, "frage": 2, "grossfrage": 3, "mediateur": 4, "solo": 6}
    assert [k["name"] for k in SPANISH.describe()["error_kinds"]] == ["revoke"]
    assert [k["name"] for k in GERMAN.describe()["error_kinds"]] == ["revoke"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "1 hand played; no total above the target score of 30 yet"),
        ("de", "1 Spiel gespielt"),
        ("es", "1 mano jugada"),
    ],
)
def test_one_hand_played_is_one_hand_in_every_language(language: str, said: str) -> None:
    going_on = outcome({"target_score": 30}, (3, -1, -2, 0), 1)
    assert going_on is not None
    assert explain_session(going_on.reason, language).startswith(said)
