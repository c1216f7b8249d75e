"""Properties of an open tournament's money and scoring (``service.rules.tournament``): the
prizes and the host's cash sheet sum exactly in cents, shares are paid by the largest
remainder, equal ranks split their places' prizes, place points make every table worth the
same; and the worked examples docs/tournaments.md gives."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.base import RuleViolation
from service.rules.tournament import (
    PER_MILLE,
    PLACE_POINTS_TOP,
    Prize,
    cash_sheet,
    display_name,
    parse_prize_table,
    place_points,
    prize_list,
    prizes,
    shared_ranks,
)


@st.composite
def prize_tables(draw: st.DrawFn) -> tuple[Prize, ...]:
    """Up to 12 places, fixed amounts and shares mixed, the shares at most 1000 ‰."""
    places = draw(st.integers(0, 12))
    table, left = [], PER_MILLE
    for _ in range(places):
        if draw(st.booleans()):
            table.append(Prize(cents=draw(st.integers(0, 50_000))))
        else:
            share = draw(st.integers(0, left))
            left -= share
            table.append(Prize(per_mille=share))
    return tuple(table)


fees = st.integers(0, 600).flatmap(lambda n: st.integers(0, 10_000).map(lambda fee: (fee, n)))


@st.composite
def ranks(draw: st.DrawFn) -> list[int]:
    """A ranking's ranks in order (ties shared, "1, 2, 2, 4"), from its strengths."""
    strengths = sorted(draw(st.lists(st.integers(0, 6), max_size=30)), reverse=True)
    return shared_ranks([(s,) for s in strengths])


@given(prize_tables(), fees)
def test_the_shares_are_paid_to_the_cent_and_what_they_leave_is_the_hosts(
    table: tuple[Prize, ...], fee: tuple[int, int]
) -> None:
    entry_fee, paying = fee
    pot = entry_fee * paying
    paid = prizes(table, pot)
    assert all(type(cents) is int and cents >= 0 for cents in paid)
    for prize, cents in zip(table, paid, strict=True):
        if prize.cents is not None:
            assert cents == prize.cents
        else:  # within a cent of its exact share
            exact = Fraction(pot * (prize.per_mille or 0), PER_MILLE)
            assert abs(cents - exact) < 1
    shares = [c for p, c in zip(table, paid, strict=True) if p.per_mille is not None]
    exact_total = Fraction(pot * sum(p.per_mille or 0 for p in table), PER_MILLE)
    # The shares sum to their exact total rounded down: the host keeps less than a cent.
    assert sum(shares) == int(exact_total)
    assert prizes(table, pot) == paid  # deterministic


@given(prize_tables(), fees, ranks(), st.integers(0, 500), st.integers(0, 2000))
def test_the_prize_list_and_the_cash_sheet_sum_exactly(
    table: tuple[Prize, ...],
    fee: tuple[int, int],
    ranking: list[int],
    loss_fee: int,
    lost_games: int,
) -> None:
    entry_fee, paying = fee
    taken = cash_sheet(entry_fee, paying, (), loss_fee, lost_games).taken_cents
    assert taken == entry_fee * paying + loss_fee * lost_games
    paid = prizes(table, taken)
    amounts = prize_list(ranking, paid)
    reached = paid[: len(ranking)]
    assert sum(amounts) == sum(reached)  # every place reached paid, no cent made or lost
    sheet = cash_sheet(entry_fee, paying, amounts, loss_fee, lost_games)
    assert sheet.fees_cents == entry_fee * paying
    assert sheet.losses_cents == loss_fee * lost_games
    assert sheet.fees_cents + sheet.losses_cents == sheet.prizes_cents + sheet.remains_cents
    assert sheet.prizes_cents == sum(amounts)
    # Players sharing a rank get the same to a cent, the better-listed the odd cent.
    for rank in set(ranking):
        group = [a for r, a in zip(ranking, amounts, strict=True) if r == rank]
        assert max(group) - min(group) <= 1
        assert group == sorted(group, reverse=True)
    assert prize_list(ranking, paid) == amounts


def test_a_hundred_percent_of_the_fees_pays_every_cent_by_the_largest_remainder() -> None:
    # 7 players × 10.00 € = 70.00 €; 50 %, 30 %, 20 % → 35.00, 21.00, 14.00.
    table = parse_prize_table([{"per_mille": 500}, {"per_mille": 300}, {"per_mille": 200}])
    assert prizes(table, 7000) == [3500, 2100, 1400]
    # 1.00 € in thirds: 33.33… each; the cent left over goes to the first place.
    thirds = parse_prize_table([{"per_mille": 334}, {"per_mille": 333}, {"per_mille": 333}])
    assert prizes(thirds, 100) == [34, 33, 33]
    # 0.07 € in halves: 3.5 each: one cent to the first (the better place on a tie).
    halves = parse_prize_table([{"per_mille": 500}, {"per_mille": 500}])
    assert prizes(halves, 7) == [4, 3]
    # Half of 0.07 € for one place: 3.5 rounded down, the half cent the host's.
    assert prizes(parse_prize_table([{"per_mille": 500}]), 7) == [3]


def test_two_tied_for_second_split_the_second_and_third_prizes() -> None:
    paid = [5000, 3000, 1001]
    assert prize_list([1, 2, 2, 4], paid) == [5000, 2001, 2000, 0]
    # Fewer players than places: the places nobody reached are not paid.
    assert prize_list([1], paid) == [5000]


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ("nope", "prizes"),
        ([{"cents": 100, "per_mille": 10}], "prizes.0"),
        ([{"cents": -1}], "prizes.0.cents"),
        ([{"per_mille": 600}, {"per_mille": 401}], "prizes.1.per_mille"),
        ([{"percent": 50}], "prizes.0"),
        ([{"per_mille": True}], "prizes.0.per_mille"),
    ],
)
def test_a_bad_prize_table_names_the_place(raw: object, field: str) -> None:
    with pytest.raises(RuleViolation) as refused:
        parse_prize_table(raw)
    assert refused.value.field == field


@given(st.lists(st.integers(-200, 200), min_size=2, max_size=5))
def test_place_points_make_every_table_worth_the_same(results: list[int]) -> None:
    points = place_points(results)
    seats = len(results)
    assert all(type(p) is int for p in points)
    # Every table gives out the same: the points of each place once (24 … 0), whatever ties.
    assert 2 * sum(points) == PLACE_POINTS_TOP * seats
    for mine, my_points in zip(results, points, strict=True):
        for other, other_points in zip(results, points, strict=True):
            assert (mine > other) == (my_points > other_points)


def test_place_points_as_docs_tournaments_md_gives_them() -> None:
    assert place_points([30, 10, -10, -30]) == [24, 16, 8, 0]
    assert place_points([5, 4, 3, 2, 1]) == [24, 18, 12, 6, 0]
    assert place_points([1, 0, -1]) == [24, 12, 0]
    assert place_points([10, 10, -5, -15]) == [20, 20, 8, 0]
    assert place_points([0, 0, 0, 0]) == [12, 12, 12, 12]


def test_the_public_name_is_as_the_player_chose() -> None:
    assert display_name("Anna-Katharina Berger", "initial") == "Anna-Katharina B."
    assert display_name("María García López", "initial") == "María G."
    assert display_name("Anna-Katharina Berger", "full") == "Anna-Katharina Berger"
    assert display_name("Cher", "initial") == "Cher"
