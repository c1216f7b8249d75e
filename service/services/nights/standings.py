"""A club night's standings, read live from its tables (docs/league.md, "The club night").

Each player's result in a series is his balance at the table the series' draw gave him: chips
for a chip game, the game's own score for a point game, counted from every current hand as
the tables keep it. The total is the sum of his series. Ranked by the total, then by the
series he won (first at his table, a tie counting for each; a table with no hand yet has no
winner), then by his best series (of those with a hand); players equal on all three share a
rank. A night with a rate adds each player's money (``money``, its players in the standings'
order). A chip game's pool shared out at a table's close is part of its players' money: each
result says the chips of its share (``pool_share``), each line their sum (``pool_chips``), so
that chips plus pool chips are what the money counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ... import rules
from ...persistence.nights import ClubNightRow
from ...rules.tournament import TIE_BREAKS, shared_ranks
from ..auth import Principal
from ..tables import pool_at_close
from .money import night_money
from .nights import night_tables, night_view, readable_night


@dataclass
class _Line:
    player_id: str
    name: str
    results: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(r["result"] for r in self.results.values())

    @property
    def pool_chips(self) -> int:
        return sum(r["pool_share"] for r in self.results.values())

    @property
    def series_won(self) -> int:
        return sum(1 for r in self.results.values() if r["place"] == 1)

    @property
    def best(self) -> int | None:
        return max((r["result"] for r in self.results.values() if r["hands"]), default=None)

    def strength(self) -> tuple[int, int, int]:
        best = self.best
        return (self.total, self.series_won, best if best is not None else 0)


def places(balances: list[int], hands_played: int) -> list[int | None]:
    """Each seat's place at its table, 1 the highest balance; equal balances share a place.
    A table that has played no hand has no places yet (None): nobody has won it."""
    if not hands_played:
        return [None] * len(balances)
    return [1 + sum(1 for other in balances if other > mine) for mine in balances]


def night_standings(principal: Principal, night_id: str) -> dict[str, Any]:
    """The night with each table's progress and the players' standings, as of now."""
    return standings_of(readable_night(principal, night_id))


def standings_of(night: ClubNightRow) -> dict[str, Any]:
    """``night_standings`` of a night already read (the export shows each night's money)."""
    view = night_view(night)
    lines: dict[str, _Line] = {
        p["player_id"]: _Line(p["player_id"], p["name"]) for p in view["players"]
    }
    for link, table in night_tables(night.id):
        balances = [s.balance for s in table.seats]
        _, shares = pool_at_close(table)
        seated = zip(table.seats, places(balances, table.hands_played), shares, strict=True)
        for seat, place, share in seated:
            line = lines.setdefault(seat.player_id, _Line(seat.player_id, seat.name))
            line.results[link.series] = {
                "series": link.series,
                "table": link.number,
                "result": seat.balance,
                "place": place,
                "hands": table.hands_played,
                "pool_share": share,
            }
    ordered = sorted(
        lines.values(),
        key=lambda line: (*(-v for v in line.strength()), line.name, line.player_id),
    )
    money = night_money(night)
    cents = {p["player_id"]: p["cents"] for p in money["players"]} if money else {}
    standings = []
    ranks = shared_ranks([line.strength() for line in ordered])
    for line, rank in zip(ordered, ranks, strict=True):
        standings.append(
            {
                "rank": rank,
                "player_id": line.player_id,
                "name": line.name,
                "total": line.total,
                "pool_chips": line.pool_chips,
                "series_won": line.series_won,
                "best": line.best,
                "cents": cents.get(line.player_id, 0) if money else None,
                "series": [line.results.get(s["number"]) for s in view["series"]],
            }
        )
    if money:
        # Each player's money in the standings' order, as the board and the admin show it.
        order = {line["player_id"]: index for index, line in enumerate(standings)}
        money["players"].sort(key=lambda p: order.get(p["player_id"], len(order)))
    for series in view["series"]:
        for table in series["tables"]:
            table["done"] = table["status"] == "closed" or (
                table["hands_limit"] is not None and table["hands_played"] >= table["hands_limit"]
            )
    return {
        "night": view,
        "units": rules.get_variant(night.variant).units,
        "tie_breaks": list(TIE_BREAKS["result"]),
        "standings": standings,
        "money": money,
    }
