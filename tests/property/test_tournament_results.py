"""A tournament table's result (``rules.tournament_results``): it counts exactly when the
series is complete, no dispute is open, and the director or two players other than the scorer
confirmed; the console lists the tables by what needs the director, each state before the next."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules import RuleViolation
from service.rules.tournament_results import (
    SCORER_SEAT,
    STATES,
    TableResult,
    check_confirming_seat,
    console_order,
)

RESULTS = st.builds(
    TableResult,
    played=st.integers(0, 12),
    limit=st.none() | st.integers(1, 12),
    closed=st.booleans(),
    confirmed_by=st.frozensets(st.integers(1, 4), max_size=4),
    director=st.booleans(),
    open_disputes=st.integers(0, 2),
    idle_minutes=st.floats(0, 120),
)


@given(RESULTS)
def test_a_result_counts_exactly_when_complete_undisputed_and_confirmed(
    result: TableResult,
) -> None:
    complete = result.closed or (result.limit is not None and result.played >= result.limit)
    others = result.confirmed_by - {SCORER_SEAT}
    expected = complete and not result.open_disputes and (result.director or len(others) >= 2)
    assert result.confirmed is expected
    state = result.state()
    assert (state == "confirmed") is expected
    assert (state == "disputed") is (result.open_disputes > 0)
    if state in ("stale", "playing"):
        assert not complete


@given(st.lists(RESULTS, max_size=30), st.integers(1, 60))
def test_the_console_lists_each_state_before_the_next(
    results: list[TableResult], stale: int
) -> None:
    tables = list(enumerate(results, start=1))
    order = console_order(tables, stale)
    assert sorted(order) == [number for number, _ in tables]  # each table once
    ranks = [STATES.index(results[number - 1].state(stale)) for number in order]
    assert ranks == sorted(ranks)


@pytest.mark.parametrize("seat", [SCORER_SEAT, -1, 4])
def test_the_scorer_and_a_seat_beyond_the_table_cannot_confirm(seat: int) -> None:
    with pytest.raises(RuleViolation) as refused:
        check_confirming_seat(seat, 4)
    assert refused.value.field == "seat"


def test_another_seated_player_may_confirm() -> None:
    assert [check_confirming_seat(seat, 4) for seat in (1, 2, 3)] == [1, 2, 3]
