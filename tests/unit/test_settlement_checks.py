"""A settlement refuses to exist when it would make, lose or misdirect chips."""

from __future__ import annotations

import pytest

from service.rules.base import POOL, Reason, Settlement, SettlementInvariantError, Transfer


def settlement(transfers, deltas, pool=(10, 10)):
    return Settlement(
        "won",
        False,
        4,
        tuple(transfers),
        tuple(deltas),
        pool[0],
        pool[1],
        "clubs",
        "clubs",
        1,
        ("line",),
        None,
    )


def test_a_balanced_settlement_is_accepted():
    made = settlement(
        [Transfer(0, POOL, 2, Reason.STAKE), Transfer(1, 0, 4, Reason.GAME)],
        [2, -4, 0],
        pool=(0, 2),
    )
    assert made.deltas == (2, -4, 0)


@pytest.mark.parametrize(
    ("transfers", "deltas", "pool"),
    [
        ([Transfer(1, 0, 0, Reason.GAME)], [0, 0, 0], (0, 0)),  # nothing moved
        ([Transfer(1, 0, -3, Reason.GAME)], [-3, 3, 0], (0, 0)),  # negative
        ([Transfer(1, 0, True, Reason.GAME)], [1, -1, 0], (0, 0)),  # a bool is no chip count
        ([Transfer(1, 1, 3, Reason.GAME)], [0, 0, 0], (0, 0)),  # to itself
        ([Transfer(POOL, POOL, 3, Reason.STAMM)], [0, 0, 0], (3, 3)),  # pool to pool
        ([Transfer(7, 0, 3, Reason.GAME)], [3, 0, 0], (0, 0)),  # no such seat
        ([Transfer(1, 0, 3, Reason.GAME)], [3, -2, 0], (0, 0)),  # deltas disagree
        ([Transfer(0, POOL, 2, Reason.STAKE)], [-2, 0, 0], (0, 5)),  # pool disagrees
    ],
)
def test_a_settlement_that_does_not_add_up_refuses_to_exist(transfers, deltas, pool):
    with pytest.raises(SettlementInvariantError):
        settlement(transfers, deltas, pool)
