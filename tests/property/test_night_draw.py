"""Properties of a club night's seat draw (rules/seat_draw.py), for every game's allowed
table sizes: every present player seated exactly once per series, never at a size the game
refuses, the same seed giving the same draw, and repeated tablemates never more than a naive
draw of the same seed would give."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from service.rules import VARIANTS
from service.rules.seat_draw import (
    DrawRefused,
    draw,
    naive_draw,
    pair_history,
    repeats,
    table_sizes,
)

ALLOWED = sorted({tuple(v.player_counts) for v in VARIANTS.values()})
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def players(count: int) -> list[str]:
    return [f"p{i:03d}" for i in range(count)]


def seatable(allowed: tuple[int, ...], count: int) -> bool:
    try:
        table_sizes(count, allowed)
    except DrawRefused:
        return False
    return True


@st.composite
def nights(draw_, max_players: int = 40):
    """A game's sizes, the players present in each of 1-4 series (some come, some go), and
    the seeds of the draws."""
    allowed = draw_(st.sampled_from(ALLOWED))
    pool = players(max_players)
    series = []
    for _ in range(draw_(st.integers(min_value=1, max_value=4))):
        count = draw_(st.integers(min_value=3, max_value=max_players))
        assume(seatable(allowed, count))
        present = draw_(st.permutations(pool))[:count]
        series.append((present, draw_(SEEDS)))
    return allowed, series


@given(nights())
def test_every_present_player_sits_once_per_series_at_a_size_the_game_allows(night):
    allowed, series = night
    earlier: list[tuple[str, ...]] = []
    for present, seed in series:
        result = draw(present, allowed, seed, pair_history(earlier))
        seated = Counter(p for t in result.tables for p in t.seats)
        assert seated == Counter(present)
        assert all(len(t.seats) in allowed for t in result.tables)
        assert all(0 <= t.first_dealer < len(t.seats) for t in result.tables)
        assert [t.number for t in result.tables] == list(range(1, len(result.tables) + 1))
        earlier += [t.seats for t in result.tables]


@given(nights())
def test_the_same_seed_gives_the_same_draw(night):
    allowed, series = night
    earlier: list[tuple[str, ...]] = []
    for present, seed in series:
        history = pair_history(earlier)
        first = draw(present, allowed, seed, history)
        # The order the players are listed in does not matter either.
        assert draw(list(reversed(present)), allowed, seed, history) == first
        earlier += [t.seats for t in first.tables]


@given(nights())
def test_repeated_tablemates_are_never_more_than_a_naive_draws(night):
    allowed, series = night
    earlier: list[tuple[str, ...]] = []
    for present, seed in series:
        history = pair_history(earlier)
        result = draw(present, allowed, seed, history)
        assert result.repeats == repeats([t.seats for t in result.tables], history)
        assert result.repeats <= repeats(naive_draw(present, allowed, seed), history)
        earlier += [t.seats for t in result.tables]


@given(st.sampled_from(ALLOWED), st.integers(min_value=0, max_value=120))
def test_table_sizes_seat_everyone_or_refuse_only_what_no_sizes_make(allowed, count):
    reachable = {0}
    for _ in range(count):
        reachable |= {r + s for r in reachable for s in allowed if r + s <= count}
    if count in reachable and count > 0:
        sizes = table_sizes(count, allowed)
        assert sum(sizes) == count and all(s in allowed for s in sizes)
    else:
        with pytest.raises(DrawRefused):
            table_sizes(count, allowed)


def test_four_where_it_can_then_the_nearest_sizes_the_game_allows():
    american = (3, 4, 5)
    assert table_sizes(8, american) == (4, 4)
    assert table_sizes(9, american) == (5, 4)
    assert table_sizes(10, american) == (5, 5)
    assert table_sizes(11, american) == (4, 4, 3)
    assert table_sizes(6, american) == (3, 3)
    assert table_sizes(10, (5,)) == (5, 5)
    with pytest.raises(DrawRefused):
        table_sizes(6, (4,))


def test_a_second_series_of_eight_repeats_only_the_pairs_it_must():
    # 8 players at two tables of 4, twice: at best each new table takes two players of each
    # earlier one, so one pair of each meets again: 2 a table, 4 in all.
    present = players(8)
    first = draw(present, (4,), 11)
    second = draw(present, (4,), 12, pair_history(t.seats for t in first.tables))
    assert second.repeats == 4
