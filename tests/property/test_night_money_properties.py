"""Properties of a club night's money (``service.rules.money.settle_night_in_money``): over
any tables of a night, each in whole cents, the night's amounts sum to zero in cents, every
payment is positive and they clear the amounts, each player's amount is the sum of his tables'
own settle-ups, and the fees are each player's tables' fees, apart."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from service.rules.base import Party
from service.rules.money import TableMoney, settle_in_money, settle_night_in_money
from tests.property.test_money_properties import chip_balances, point_scores, rates

PLAYERS = 12  # the night's players, numbered 0 … 11


@st.composite
def nights(draw: st.DrawFn) -> tuple[str, list[TableMoney]]:
    """One to six tables of one game and one currency, each seating distinct players of the
    night, each with a rate (the night's, or one its players agreed)."""
    units = draw(st.sampled_from(["chips", "points"]))
    rate = draw(rates.map(lambda r: replace(r, currency="EUR")))
    count = draw(st.integers(1, 6))
    tables = []
    for _ in range(count):
        balances = draw(chip_balances() if units == "chips" else point_scores)
        seats = sum(1 for party, _ in balances if party != "pool")
        players = draw(
            st.lists(st.integers(0, PLAYERS - 1), min_size=seats, max_size=seats, unique=True)
        )
        own = draw(st.one_of(st.just(rate), rates.map(lambda r: replace(r, currency="EUR"))))
        tables.append(TableMoney(tuple(balances), tuple(players), own))
    return units, tables


@given(nights())
def test_a_nights_money_sums_to_zero_in_cents_and_its_positive_payments_clear_it(
    night: tuple[str, list[TableMoney]],
) -> None:
    units, tables = night
    money = settle_night_in_money(tables, units, "EUR")
    assert money.currency == "EUR"
    assert sum(cents for _, cents in money.nets) == 0
    assert all(type(cents) is int for _, cents in money.nets)
    left: dict[Party, int] = dict(money.nets)
    for payer, payee, cents in money.transfers:
        assert type(cents) is int and cents > 0 and payer != payee
        left[payer] += cents
        left[payee] -= cents
    assert set(left.values()) <= {0}
    # Fewer payments than parties owed or owing (each payment settles at least one of them).
    assert len(money.transfers) <= max(sum(1 for _, c in money.nets if c) - 1, 0)


@given(nights())
def test_each_players_money_and_fees_are_the_sums_of_his_tables(
    night: tuple[str, list[TableMoney]],
) -> None:
    units, tables = night
    expected: dict[Party, int] = {}
    fees: dict[int, int] = {}
    for table in tables:
        settled = settle_in_money(table.balances, units, table.rate)
        for party, cents in settled.nets:
            key: Party = party if party == "pool" else table.players[party]
            expected[key] = expected.get(key, 0) + cents
        for seat, cents in settled.fees:
            fees[table.players[seat]] = fees.get(table.players[seat], 0) + cents
    money = settle_night_in_money(tables, units, "EUR")
    assert dict(money.nets) == expected
    assert dict(money.fees) == fees
    assert all(cents > 0 for _, cents in money.fees)


@given(nights(), st.integers(0, 10_000))
def test_a_fee_per_night_is_charged_once_to_each_player_who_played(
    night: tuple[str, list[TableMoney]], fee: int
) -> None:
    units, tables = night
    money = settle_night_in_money(tables, units, "EUR", "night", fee)
    played = {player for table in tables for player in table.players}
    assert dict(money.fees) == ({player: fee for player in played} if fee else {})
    # The fee is apart: the players' money is the same whatever it is charged for.
    assert money.nets == settle_night_in_money(tables, units, "EUR").nets


@given(nights())
def test_a_fee_per_table_is_shared_by_its_players_to_the_cent(
    night: tuple[str, list[TableMoney]],
) -> None:
    units, tables = night
    money = settle_night_in_money(tables, units, "EUR", "table")
    # Every table's fee is charged in full, no cent more or less, and the shares of one
    # table differ by a cent at most.
    assert sum(cents for _, cents in money.fees) == sum(t.rate.table_fee_cents for t in tables)
    for table in tables:
        seats = len(table.players)
        low, high = table.rate.table_fee_cents // seats, -(-table.rate.table_fee_cents // seats)
        assert high - low <= 1
    assert all(type(cents) is int and cents > 0 for _, cents in money.fees)
