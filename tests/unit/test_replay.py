"""``rules.replay``: a table's hands settled in order, state in, settled hands out."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules import VARIANTS
from service.rules.american import AMERICAN
from service.rules.replay import RECORDED, VOID, HandRefused, HandToSettle, replay
from service.rules.spanish import SPANISH

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
SIMPLE = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 0,
    "tricks": 4,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 2,
}
# Stored before the Decision that eight tricks need tout_after_five.
EIGHT_WITHOUT_FLAG = {"contract": "solo", "trump": "clubs", "declarer": 2, "tricks": 8}


def fresh(variant: Any = AMERICAN, players: int = 4, options: Any = None) -> tuple[Any, Any]:
    opts = variant.parse_options(options)
    return opts, variant.initial_state(players, opts, 0)


def test_each_hand_starts_from_the_state_the_one_before_left() -> None:
    options, state = fresh()
    hands = [HandToSettle(i, RECORDED, h) for i, h in enumerate((SOLO, SIMPLE, SOLO))]
    replayed = replay(AMERICAN, 4, options, state, hands)
    assert [h.key for h in replayed.hands] == [0, 1, 2]
    assert replayed.hands[0].state_before == state.to_dict()
    for before, after in zip(replayed.hands, replayed.hands[1:], strict=False):
        assert after.state_before == before.state_after
    one_by_one = state
    totals = [0] * 4
    for hand in (SOLO, SIMPLE, SOLO):
        settlement = AMERICAN.settle(4, options, one_by_one, AMERICAN.parse_hand(hand, 4, options))
        totals = [t + d for t, d in zip(totals, settlement.deltas, strict=True)]
        one_by_one = settlement.state_after
    assert replayed.totals == tuple(totals)
    assert replayed.played == 3
    assert replayed.hands[-1].state_after == one_by_one.to_dict()


def test_a_void_hand_moves_nothing_and_passes_the_state_on() -> None:
    options, state = fresh()
    hands = [HandToSettle("a", RECORDED, SOLO), HandToSettle("b", VOID, SIMPLE)]
    replayed = replay(AMERICAN, 4, options, state, hands)
    void = replayed.hands[1]
    assert void.settlement is None and void.record == SIMPLE
    assert void.state_after == void.state_before == replayed.hands[0].state_after
    assert replayed.played == 1


def test_a_stored_hand_is_read_as_taken_a_new_record_meets_every_check() -> None:
    options, state = fresh()
    stored = replay(AMERICAN, 4, options, state, [HandToSettle(0, RECORDED, EIGHT_WITHOUT_FLAG)])
    settled = stored.hands[0]
    assert settled.record == EIGHT_WITHOUT_FLAG  # kept as stored
    assert settled.settlement is not None
    flagged = {**EIGHT_WITHOUT_FLAG, "tout_after_five": True}
    as_tout = AMERICAN.settle(4, options, state, AMERICAN.parse_hand(flagged, 4, options))
    assert settled.settlement.deltas == as_tout.deltas
    with pytest.raises(HandRefused) as refused:
        replay(
            AMERICAN,
            4,
            options,
            state,
            [HandToSettle(0, RECORDED, EIGHT_WITHOUT_FLAG, stored=False)],
        )
    assert refused.value.violation is not None
    assert refused.value.violation.field == "hand.tout_after_five"


def test_the_run_stops_at_the_first_stored_hand_that_starts_as_before() -> None:
    options, state = fresh()
    first = replay(AMERICAN, 4, options, state, [HandToSettle(0, RECORDED, SOLO)])
    after_first = first.hands[0].state_after
    hands = [
        HandToSettle(0, RECORDED, SOLO, stored=False),
        HandToSettle(1, RECORDED, SIMPLE, state_before=after_first),
    ]
    replayed = replay(AMERICAN, 4, options, state, hands, stop_when_unchanged=True)
    assert [h.key for h in replayed.hands] == [0]


def test_a_hand_after_the_session_ended_is_refused_naming_its_position() -> None:
    options, state = fresh(SPANISH, 4, {"target_hands": 1})
    hand = {"contract": "solo", "trump": "hearts", "declarer": 0, "tricks": 6}
    with pytest.raises(HandRefused) as refused:
        replay(SPANISH, 4, options, state, [HandToSettle(k, RECORDED, hand) for k in "xy"])
    assert (refused.value.key, refused.value.position, refused.value.violation) == ("y", 1, None)


def test_a_refused_hand_names_its_key_and_the_rules_reason() -> None:
    options, state = fresh()
    bad = {**SOLO, "tricks": 9}
    with pytest.raises(HandRefused) as refused:
        replay(
            AMERICAN,
            4,
            options,
            state,
            [HandToSettle("ok", RECORDED, SOLO), HandToSettle("bad", RECORDED, bad)],
        )
    assert refused.value.key == "bad" and refused.value.position == 1
    assert refused.value.violation is not None and refused.value.violation.field == "hand.tricks"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_no_hands_leave_the_state_and_the_totals_as_they_were(name: str) -> None:
    variant = VARIANTS[name]
    players = variant.player_counts[0]
    options, state = fresh(variant, players)
    replayed = replay(variant, players, options, state, [], totals=(3,) * players, played=2)
    assert (replayed.hands, replayed.totals, replayed.played) == ((), (3,) * players, 2)
