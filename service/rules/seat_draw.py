"""The seat draw of a club night's series: pure, seeded and reproducible.

``table_sizes`` splits the players present into tables the game allows, as close to its
preferred size as the count permits (4 where the game can be played by 4, else the allowed
size nearest to it): the fewest seats away from that size in all, then the fewest tables
(10 players of American Solo sit 5 + 5, not 4 + 3 + 3; 11 sit 4 + 4 + 3). ``draw`` seats
them: the same players, sizes, history and seed give the same draw on any machine
(``random.Random`` with an integer seed is reproducible across platforms and versions).

Over several series the draw avoids seating players together again: among a fixed number of
seeded candidate draws, each improved by swapping players between tables while that lowers
the repeats, it keeps the one with the fewest repeated tablemates (each pair counted by how
often it already sat together). The first candidate is the naive draw (a plain shuffle of the
same seed), so the draw is never worse than it.

Nothing here imports Flask or SQLAlchemy: it takes and returns plain values.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

PREFERRED_SIZE = 4
CANDIDATES = 24
MAX_SWAP_PASSES = 8

Pair = frozenset[str]


class DrawRefused(ValueError):
    """No tables of the sizes the game allows seat exactly this many players."""

    def __init__(self, players: int, allowed: Sequence[int]) -> None:
        super().__init__(f"{players} players cannot be seated at tables of {list(allowed)}")
        self.players = players
        self.allowed = tuple(allowed)


@dataclass(frozen=True, slots=True)
class DrawnTable:
    """One table of a draw: its players in the order of play, and who deals first."""

    number: int
    seats: tuple[str, ...]
    first_dealer: int


@dataclass(frozen=True, slots=True)
class Draw:
    seed: int
    tables: tuple[DrawnTable, ...]
    repeats: int
    """Pairs of tablemates who already sat together, counted by how often they did."""


def table_sizes(players: int, allowed: Iterable[int]) -> tuple[int, ...]:
    """The table sizes for ``players``, largest first: the fewest seats away from the
    preferred size (4, or the allowed size nearest to it) in all, then the fewest tables.
    DrawRefused if no sum of allowed sizes makes ``players``."""
    sizes = sorted(set(allowed))
    if players <= 0 or not sizes:
        raise DrawRefused(players, sizes)
    preferred = min(sizes, key=lambda s: (abs(s - PREFERRED_SIZE), -s))
    best: tuple[int, ...] | None = None
    best_key: tuple[int, int] | None = None
    others = [s for s in sizes if s != preferred]

    def fill(left: int, kinds: list[int], chosen: list[int]) -> None:
        nonlocal best, best_key
        if not kinds:
            if left == 0:
                key = (sum(abs(s - preferred) for s in chosen), len(chosen))
                if best_key is None or key < best_key:
                    best, best_key = tuple(sorted(chosen, reverse=True)), key
            return
        size, rest = kinds[0], kinds[1:]
        for count in range(left // size + 1):
            fill(left - count * size, rest, chosen + [size] * count)

    fill(players, [preferred, *others], [])
    if best is None:
        raise DrawRefused(players, sizes)
    return best


def pair_history(tables: Iterable[Sequence[str]]) -> Counter[Pair]:
    """How often each pair of players sat at one table (the draws of earlier series)."""
    counts: Counter[Pair] = Counter()
    for seats in tables:
        counts.update(frozenset(p) for p in combinations(seats, 2))
    return counts


def repeats(tables: Iterable[Sequence[str]], history: Mapping[Pair, int]) -> int:
    """The repeated tablemates of ``tables``: each pair weighted by its earlier meetings."""
    return sum(history.get(frozenset(p), 0) for seats in tables for p in combinations(seats, 2))


def _split(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _cost_with(player: str, mates: Iterable[str], history: Mapping[Pair, int]) -> int:
    return sum(history.get(frozenset((player, m)), 0) for m in mates if m != player)


def _improve(tables: list[list[str]], history: Mapping[Pair, int]) -> None:
    """Swap players between tables while a swap lowers the repeats (first improvement)."""
    for _ in range(MAX_SWAP_PASSES):
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    x, y = tables[a][i], tables[b][j]
                    before = _cost_with(x, tables[a], history) + _cost_with(y, tables[b], history)
                    after = _cost_with(y, (p for p in tables[a] if p != x), history) + (
                        _cost_with(x, (p for p in tables[b] if p != y), history)
                    )
                    if after < before:
                        tables[a][i], tables[b][j] = y, x
                        improved = True
        if not improved:
            return


def naive_draw(players: Sequence[str], allowed: Iterable[int], seed: int) -> list[list[str]]:
    """A plain shuffle of ``seed`` cut into tables: what the draw is never worse than."""
    sizes = table_sizes(len(players), allowed)
    order = sorted(players)
    random.Random(seed).shuffle(order)
    return _split(order, sizes)


def draw(
    players: Sequence[str],
    allowed: Iterable[int],
    seed: int,
    history: Mapping[Pair, int] | None = None,
) -> Draw:
    """Seat ``players`` (ids, each once) at tables of the ``allowed`` sizes, avoiding the
    pairs of ``history``. The seating in each table and its first dealer are drawn too."""
    if len(set(players)) != len(players):
        raise ValueError("a player is present only once")
    history = history or {}
    sizes = table_sizes(len(players), allowed)
    rng = random.Random(seed)
    order = sorted(players)
    best: list[list[str]] | None = None
    best_cost = 0
    for candidate in range(CANDIDATES):
        shuffled = list(order)
        rng.shuffle(shuffled)
        tables = _split(shuffled, sizes)
        if candidate:  # the first stays the naive draw, as it is
            _improve(tables, history)
        cost = repeats(tables, history)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    # The order of play at each table and its first dealer, drawn after the tables.
    drawn = []
    for number, seats in enumerate(best, start=1):
        rng.shuffle(seats)
        drawn.append(DrawnTable(number, tuple(seats), rng.randrange(len(seats))))
    return Draw(seed, tuple(drawn), best_cost)
