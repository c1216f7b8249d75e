"""Properties of the money at the end of a sitting (``service.rules.money``), and the
rulebook's worked examples of its rounding and its two ways of settling point games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.base import Party, RuleViolation
from service.rules.money import Rate, exact_amounts, settle_in_money

rates = st.builds(
    Rate,
    cents=st.integers(0, 500),
    per=st.integers(1, 20),
    currency=st.sampled_from(["EUR", "CHF", "JPY", "USD"]),
    table_fee_cents=st.integers(0, 1000),
    point_settlement=st.sampled_from(["pairs", "average"]),
)


@st.composite
def chip_balances(draw: st.DrawFn) -> list[tuple[Party, int]]:
    """Seats' chips and perhaps the pool's, summing to zero as a chip table's do."""
    players = draw(st.integers(3, 5))
    seats = draw(st.lists(st.integers(-500, 500), min_size=players, max_size=players))
    parties: list[tuple[Party, int]] = list(enumerate(seats))
    if draw(st.booleans()):
        parties.append(("pool", -sum(seats)))
    else:
        parties[-1] = (players - 1, seats[-1] - sum(seats))
    return parties


point_scores = st.integers(3, 5).flatmap(
    lambda n: st.lists(st.integers(-300, 300), min_size=n, max_size=n).map(
        lambda scores: list(enumerate(scores))
    )
)

tables = st.one_of(
    st.tuples(st.just("chips"), chip_balances()), st.tuples(st.just("points"), point_scores)
)


@given(tables, rates)
def test_the_money_sums_to_zero_in_cents_and_the_transfers_clear_it(
    table: tuple[str, list[tuple[Party, int]]], rate: Rate
) -> None:
    units, balances = table
    money = settle_in_money(balances, units, rate)
    assert sum(cents for _, cents in money.nets) == 0
    assert all(type(cents) is int for _, cents in money.nets)
    left = dict(money.nets)
    for payer, payee, cents in money.transfers:
        assert cents > 0 and payer != payee
        left[payer] += cents
        left[payee] -= cents
    assert set(left.values()) <= {0}


@given(tables, rates)
def test_every_amount_is_less_than_a_cent_from_its_exact_value(
    table: tuple[str, list[tuple[Party, int]]], rate: Rate
) -> None:
    units, balances = table
    money = settle_in_money(balances, units, rate)
    for (party, exact), (same, cents) in zip(
        exact_amounts(balances, units, rate), money.nets, strict=True
    ):
        assert party == same
        assert abs(cents - exact) < 1


@given(tables, rates)
def test_the_same_balances_give_the_same_money(
    table: tuple[str, list[tuple[Party, int]]], rate: Rate
) -> None:
    units, balances = table
    assert settle_in_money(balances, units, rate) == settle_in_money(list(balances), units, rate)


@given(tables, rates)
def test_every_seat_pays_the_fee_and_the_pool_none(
    table: tuple[str, list[tuple[Party, int]]], rate: Rate
) -> None:
    units, balances = table
    fees = settle_in_money(balances, units, rate).fees
    seats = [p for p, _ in balances if p != "pool"]
    assert fees == (tuple((s, rate.table_fee_cents) for s in seats) if rate.table_fee_cents else ())


@given(point_scores, st.integers(1, 100))
def test_settling_in_pairs_is_settling_against_the_average_times_the_players(
    scores: list[tuple[Party, int]], cents: int
) -> None:
    pairs = exact_amounts(scores, "points", Rate(cents, 1, "EUR", point_settlement="pairs"))
    average = exact_amounts(scores, "points", Rate(cents, 1, "EUR", point_settlement="average"))
    for (_, paired), (_, averaged) in zip(pairs, average, strict=True):
        assert paired == len(scores) * averaged


def test_four_players_at_ten_cents_a_point_settle_each_pair_s_difference() -> None:
    # Anna 36, Bernd 20, Carla 12, Dieter 0: Anna gets 16 + 24 + 36 = 76 points' worth.
    money = settle_in_money(
        [(0, 36), (1, 20), (2, 12), (3, 0)], "points", Rate(10, 1, "EUR", point_settlement="pairs")
    )
    assert money.nets == ((0, 760), (1, 120), (2, -200), (3, -680))
    assert money.transfers == ((3, 0, 680), (2, 1, 120), (2, 0, 80))


def test_against_the_average_a_third_of_a_cent_goes_to_the_largest_fraction_first() -> None:
    # Scores 10, 0, 0 at one cent a point: the average is 10/3; exact amounts 6⅔, −3⅓, −3⅓.
    # Rounded down: 6, −4, −4 leave 2 cents; the fractions cut off are ⅔, ⅔, ⅔: seats 0, 1.
    money = settle_in_money(
        [(0, 10), (1, 0), (2, 0)], "points", Rate(1, 1, "EUR", point_settlement="average")
    )
    assert money.nets == ((0, 7), (1, -3), (2, -4))
    assert [
        exact
        for _, exact in exact_amounts(
            [(0, 10), (1, 0), (2, 0)], "points", Rate(1, 1, "EUR", point_settlement="average")
        )
    ] == [Fraction(20, 3), Fraction(-10, 3), Fraction(-10, 3)]


def test_half_a_cent_a_chip_rounds_the_odd_chip() -> None:
    money = settle_in_money([(0, 3), (1, -1), (2, -2)], "chips", Rate(1, 2, "EUR"))
    # Exact 1½, −½, −1: rounded down 1, −1, −1; the cent left goes to seat 0 (fraction ½,
    # seat 1's is ½ too: the lower seat first).
    assert money.nets == ((0, 2), (1, -1), (2, -1))


def test_no_rate_moves_no_money_but_the_fees() -> None:
    money = settle_in_money([(0, 5), (1, -5), (2, 0)], "chips", Rate(0, 1, "EUR", 200))
    assert money.transfers == ()
    assert money.fees == ((0, 200), (1, 200), (2, 200))


@pytest.mark.parametrize(
    ("field", "rate"),
    [
        ("rate.cents", {"cents": -1}),
        ("rate.per", {"per": 0}),
        ("rate.table_fee_cents", {"table_fee_cents": -5}),
        ("rate.point_settlement", {"point_settlement": "each"}),
        ("rate.currency", {"currency": "eur"}),
    ],
)
def test_a_bad_rate_names_its_field(field: str, rate: dict[str, object]) -> None:
    values: dict[str, object] = {"cents": 10, "per": 1, "currency": "EUR", **rate}
    with pytest.raises(RuleViolation) as refused:
        Rate(**values)  # type: ignore[arg-type]
    assert field in refused.value.errors
