"""The fewest cash transfers that clear a sitting's balances."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from service.rules.settle_up import fewest_transfers, split_pool


def _brute_force_minimum(amounts: list[int]) -> int:
    nonzero = [a for a in amounts if a]
    n = len(nonzero)

    def groups(items: tuple[int, ...]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = 1
        for size in range(0, len(rest)):
            for combo in combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in combo) == 0:
                    remaining = tuple(r for i, r in enumerate(rest) if i not in combo)
                    if sum(remaining) == 0 and remaining:
                        best = max(best, 1 + groups(remaining))
        return best

    return n - groups(tuple(nonzero)) if n else 0


balances_strategy = st.lists(st.integers(-200, 200), min_size=2, max_size=6).map(
    lambda xs: [*xs[:-1], -sum(xs[:-1])]
)


@given(balances_strategy)
def test_transfers_clear_every_balance_with_positive_integer_amounts(amounts):
    parties = list(enumerate(amounts))
    transfers = fewest_transfers(parties)
    net = list(amounts)
    for payer, payee, chips in transfers:
        assert isinstance(chips, int) and chips > 0 and payer != payee
        net[payer] += chips
        net[payee] -= chips
    assert net == [0] * len(amounts)


@given(balances_strategy)
def test_the_number_of_transfers_is_the_minimum(amounts):
    transfers = fewest_transfers(list(enumerate(amounts)))
    assert len(transfers) == _brute_force_minimum(amounts)


@given(balances_strategy)
def test_settle_up_is_deterministic(amounts):
    parties = list(enumerate(amounts))
    assert fewest_transfers(parties) == fewest_transfers(parties)


def test_two_pairs_settle_with_two_transfers_not_three():
    assert len(fewest_transfers([(0, 5), (1, -5), (2, 7), (3, -7)])) == 2


def test_the_pool_is_a_party_like_a_seat():
    assert fewest_transfers([(0, -4), (1, -6), ("pool", 10)]) == [(1, "pool", 6), (0, "pool", 4)]


def test_split_gives_the_remainder_to_the_lowest_seats():
    assert split_pool(14, 4) == [4, 4, 3, 3]
    assert split_pool(0, 3) == [0, 0, 0]
