"""Properties every American Solo settlement has, whatever the valid hand and table."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from service.rules import preview
from service.rules.american import AMERICAN
from service.rules.base import POOL, RuleViolation, Settlement
from tests.strategies import american_cases, american_hands, american_tables, corrupt_hand


def settle(
    players: int, options: dict[str, Any], state: dict[str, Any], hand: dict[str, Any]
) -> Settlement:
    opts = AMERICAN.parse_options(options)
    return AMERICAN.settle(
        players,
        opts,
        AMERICAN.parse_state(state, players, opts),
        AMERICAN.parse_hand(hand, players, opts),
    )


@given(american_cases())
def test_chips_are_neither_made_nor_lost_and_the_pool_never_goes_negative(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    settlement = settle(*case)
    assert settlement.pool_before is not None and settlement.pool_after is not None
    assert sum(settlement.deltas) + settlement.pool_after - settlement.pool_before == 0
    pool = settlement.pool_before
    for transfer in settlement.transfers:  # in the order they are paid
        if transfer.source == POOL:
            pool -= transfer.chips
        if transfer.target == POOL:
            pool += transfer.chips
        assert pool >= 0
    assert pool == settlement.pool_after == settlement.state_after.pool


@given(american_cases())
def test_every_transfer_moves_a_positive_amount_between_two_different_parties(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    players = case[0]
    settlement = settle(*case)
    parties = {POOL, *range(players)}
    for transfer in settlement.transfers:
        assert type(transfer.chips) is int and transfer.chips > 0
        assert transfer.source != transfer.target
        assert transfer.source in parties and transfer.target in parties
    assert len(settlement.deltas) == players


@given(american_cases())
def test_transfers_come_in_the_rulebooks_order(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    order = {"stake": 0, "game": 1, "stamm": 2, "bete": 3}
    reasons = [order[t.reason.value] for t in settle(*case).transfers]
    assert reasons == sorted(reasons)


@given(american_cases())
def test_settling_the_same_input_twice_gives_the_same_settlement(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    first, second = settle(*case), settle(*case)
    assert first.to_dict() == second.to_dict()
    assert first.state_after == second.state_after
    assert preview("american", *case).to_dict() == first.to_dict()


@given(american_cases())
def test_a_parsed_hand_written_back_reads_as_the_same_hand(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    players, _options, _state, raw = case
    hand = AMERICAN.parse_hand(raw, players, None)
    assert AMERICAN.parse_hand(hand.to_dict(), players, None) == hand


@given(american_cases())
def test_a_redeal_keeps_the_dealer_and_a_played_hand_passes_the_deal_left(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    players, options, state, hand = case
    settlement = settle(*case)
    dealer = state.get("dealer", 0)
    if hand.get("kind", "played") == "played":
        assert settlement.result in ("won", "lost")
        assert settlement.value is not None and settlement.value > 0
        assert settlement.next_dealer == (dealer + 1) % players
        assert settlement.state_after.stake_due is True
    else:
        assert (settlement.result, settlement.value, settlement.in_couleur) == (None, None, None)
        assert settlement.next_dealer == dealer
        assert settlement.state_after.stake_due is False
        assert settlement.couleur_after == settlement.couleur_before
    assert settlement.explanation and all(settlement.explanation)


def rotate_hand(hand: dict[str, Any], r: int, players: int) -> dict[str, Any]:
    def seat(s: int | None) -> int | None:
        return None if s is None else (s + r) % players

    out = dict(hand)
    for field in ("declarer", "partner", "seat"):
        if field in out:
            out[field] = seat(out[field])
    if out.get("errors"):
        out["errors"] = [{**e, "seat": seat(e["seat"])} for e in out["errors"]]
    return out


@given(american_cases(), st.integers(1, 4))
def test_renumbering_the_seats_renumbers_the_settlement(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]], r: int
) -> None:
    players, options, state, hand = case
    r %= players
    moved_state = {**state, "dealer": (state.get("dealer", 0) + r) % players}
    original = settle(players, options, state, hand)
    moved = settle(players, options, moved_state, rotate_hand(hand, r, players))

    def party(p: int | str) -> int | str:
        return p if p == POOL else (int(p) + r) % players

    assert [moved.deltas[(s + r) % players] for s in range(players)] == list(original.deltas)
    # A lone game's payments are listed by ascending seat, which a rotation may reorder:
    # the transfers are the same multiset, and their reasons come in the same order.
    assert Counter(
        (party(t.source), party(t.target), t.chips, t.reason) for t in original.transfers
    ) == Counter(moved.transfers)
    assert [t.reason for t in original.transfers] == [t.reason for t in moved.transfers]
    assert moved.next_dealer == (original.next_dealer + r) % players
    assert (moved.result, moved.value, moved.in_couleur) == (
        original.result,
        original.value,
        original.in_couleur,
    )
    assert (moved.pool_after, moved.couleur_after) == (original.pool_after, original.couleur_after)


@given(american_tables(), st.data())
def test_a_whole_evening_keeps_balances_and_pool_summing_to_zero(
    table: tuple[int, dict[str, Any], dict[str, Any]], data: st.DataObject
) -> None:
    players, raw_options, _state = table
    options = AMERICAN.parse_options(raw_options)
    state = AMERICAN.initial_state(players, options)
    balances = [0] * players
    hands = data.draw(st.lists(american_hands(players, raw_options), max_size=12))
    for raw in hands:
        settlement = AMERICAN.settle(
            players, options, state, AMERICAN.parse_hand(raw, players, options)
        )
        assert settlement.pool_before == state.pool
        balances = [b + d for b, d in zip(balances, settlement.deltas, strict=True)]
        state = settlement.state_after
        assert sum(balances) + state.pool == 0
        assert state.pool >= 0


@given(st.sampled_from((3, 4, 5)).flatmap(lambda n: st.tuples(st.just(n), corrupt_hand(n))))
def test_a_corrupted_hand_is_refused_with_a_rule_violation_naming_a_hand_field(
    case: tuple[int, Any],
) -> None:
    players, raw = case
    try:
        AMERICAN.parse_hand(raw, players, None)
    except RuleViolation as error:
        assert error.errors
        assert all(field == "hand" or field.startswith("hand.") for field in error.errors)
    else:
        raise AssertionError(f"accepted a corrupted hand: {raw!r}")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=16,
)
hand_fields = st.sampled_from(
    [
        "kind",
        "contract",
        "trump",
        "declarer",
        "tricks",
        "called",
        "partner",
        "tout_after_five",
        "matadores",
        "errors",
        "seat",
    ]
)
near_hands = st.dictionaries(hand_fields, json_values, max_size=10) | json_values


@given(st.sampled_from((3, 4, 5)), json_values, json_values, near_hands)
def test_anything_a_client_sends_is_settled_or_refused_with_a_rule_violation(
    players: int, options: Any, state: Any, hand: Any
) -> None:
    try:
        preview("american", players, options, state, hand)
    except RuleViolation as error:
        assert error.errors
        assert all(field.split(".")[0] in ("options", "state", "hand") for field in error.errors)
