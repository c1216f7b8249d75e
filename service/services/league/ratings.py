"""Ratings: one openskill (Plackett-Luce) update per closed sitting of a season, replayed in
order when a closed sitting changes; shown as ``mu - 3*sigma``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, select
from sqlalchemy import insert as core_insert
from sqlalchemy.dialects import postgresql, sqlite

from ...extensions import db
from ...persistence.league import (
    RatingHistoryRow,
    SeasonRatingRow,
    SeasonRow,
)
from ...persistence.table_keeping import SeatRow, TableRow

RATING_MODEL = PlackettLuce()
RATING_DECIMALS = 2


def competition_ranks(scores: Sequence[int]) -> list[int]:
    """Standard competition ranks ("1224"), highest score first; equal scores share a rank."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def _rate_sitting(
    ratings: dict[str, tuple[float, float, int]],
    players: Sequence[str],
    balances: Sequence[int],
    table_id: str,
    history: list[dict[str, Any]],
) -> None:
    """Rate one sitting into ``ratings``, and append each player's new rating to
    ``history`` (rows of ``season_rating_history`` without the season)."""
    teams = []
    for player in players:
        mu, sigma, _ = ratings.get(player, (RATING_MODEL.mu, RATING_MODEL.sigma, 0))
        teams.append([RATING_MODEL.rating(mu=mu, sigma=sigma)])
    ranks: list[float] = list(competition_ranks(balances))
    rated = RATING_MODEL.rate(teams, ranks=ranks)
    for player, [rating] in zip(players, rated, strict=True):
        sitting = ratings.get(player, (0, 0, 0))[2] + 1
        ratings[player] = (rating.mu, rating.sigma, sitting)
        history.append(
            {
                "player_id": player,
                "sitting": sitting,
                "table_id": table_id,
                "mu": rating.mu,
                "sigma": rating.sigma,
            }
        )


def _lock_season(season_id: str) -> None:
    """Serialise rating updates of one season (PostgreSQL; SQLite writers are serial)."""
    db.session.execute(select(SeasonRow.id).where(SeasonRow.id == season_id).with_for_update())


def _store_ratings(
    season_id: str,
    ratings: Mapping[str, tuple[float, float, int]],
    history: Sequence[Mapping[str, Any]],
) -> None:
    """Write ratings over whatever the season's rows held for these players, and add the
    rows of their history."""
    if history:
        db.session.execute(
            core_insert(RatingHistoryRow), [{"season_id": season_id, **row} for row in history]
        )
    rows = [
        {"season_id": season_id, "player_id": p, "mu": mu, "sigma": sigma, "sittings": n}
        for p, (mu, sigma, n) in sorted(ratings.items())
    ]
    if not rows:
        return
    dialect = db.session.connection().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(SeasonRatingRow).values(rows)
    statement = statement.on_conflict_do_update(
        index_elements=["season_id", "player_id"],
        set_={name: statement.excluded[name] for name in ("mu", "sigma", "sittings")},
    )
    db.session.execute(statement)


def sitting_closed(table: TableRow) -> None:
    """Rate a sitting of a season that has just been closed (in the closing transaction)."""
    if table.season_id is None or table.hands_played == 0:
        return
    _lock_season(table.season_id)
    players = [s.player_id for s in table.seats]
    ratings = {
        p: (mu, sigma, n)
        for p, mu, sigma, n in db.session.execute(
            select(
                SeasonRatingRow.player_id,
                SeasonRatingRow.mu,
                SeasonRatingRow.sigma,
                SeasonRatingRow.sittings,
            ).where(
                SeasonRatingRow.season_id == table.season_id, SeasonRatingRow.player_id.in_(players)
            )
        )
    }
    history: list[dict[str, Any]] = []
    _rate_sitting(ratings, players, [s.balance for s in table.seats], table.id, history)
    _store_ratings(table.season_id, ratings, history)


def rebuild_ratings(
    season_id: str, adjusted: Mapping[str, tuple[int, Sequence[int]]] | None = None
) -> None:
    """Replay every closed sitting of the season in the order they were closed.

    ``adjusted`` gives, per table id, hands played and balances by seat to use instead of the
    stored ones (a correction whose balances are not written yet)."""
    _lock_season(season_id)
    adjusted = adjusted or {}
    sittings = db.session.execute(
        select(TableRow.id, TableRow.hands_played)
        .where(TableRow.season_id == season_id, TableRow.status == "closed")
        .order_by(TableRow.closed_at, TableRow.id)
    ).all()
    seats: dict[str, list[tuple[str, int]]] = {}
    for table_id, player_id, balance in db.session.execute(
        select(SeatRow.table_id, SeatRow.player_id, SeatRow.balance)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(TableRow.season_id == season_id, TableRow.status == "closed")
        .order_by(SeatRow.table_id, SeatRow.seat)
    ):
        seats.setdefault(table_id, []).append((player_id, balance))
    ratings: dict[str, tuple[float, float, int]] = {}
    history: list[dict[str, Any]] = []
    for table_id, hands_played in sittings:
        players = [p for p, _ in seats[table_id]]
        balances = [b for _, b in seats[table_id]]
        if table_id in adjusted:
            hands_played, balances = adjusted[table_id][0], list(adjusted[table_id][1])
        if hands_played:
            _rate_sitting(ratings, players, balances, table_id, history)
    db.session.execute(delete(SeasonRatingRow).where(SeasonRatingRow.season_id == season_id))
    db.session.execute(delete(RatingHistoryRow).where(RatingHistoryRow.season_id == season_id))
    _store_ratings(season_id, ratings, history)


def shown_rating(mu: float | None, sigma: float | None) -> float | None:
    """What the standings show: ``mu - 3*sigma``, 2 decimals; None before the first rating."""
    if mu is None or sigma is None:
        return None
    return round(mu - 3 * sigma, RATING_DECIMALS)
