"""A season's standings, read from the aggregates, and their spreadsheet-safe CSV."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from sqlalchemy import and_, false, func, or_, select

from ... import rules
from ...extensions import db
from ...i18n import gettext
from ...i18n.marks import N_
from ...persistence.league import (
    COUNTERS,
    SeasonPlayerPeriodRow,
    SeasonPlayerRow,
    SeasonRatingRow,
)
from ...persistence.table_keeping import PlayerRow
from ...rules import RuleViolation
from .. import spreadsheet
from ..auth import Principal
from .periods import covering
from .ratings import shown_rating
from .seasons import readable_season

STANDING_COLUMNS: tuple[str, ...] = (
    "rank",
    "player_id",
    "name",
    "sittings",
    "hands",
    "net",
    "net_per_100_hands",
    "declared",
    "won",
    "lost",
    "solos_won",
    "touts_won",
    "betes_paid",
    "stamms_drawn",
    "errors",
    "rating",
)


def per_100_hands(net: int, hands: int) -> float | None:
    return round(net * 100 / hands, 2) if hands else None


TIE_BREAKS = ("net", "won", "fewer_lost")
"""A season's order, named in its answer: the net, then more games won as declarer, then
fewer lost (a club night's is its own: ``services.nights.standings``)."""


def _rank_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort by net, then more games won as declarer, then fewer lost; ties share a rank."""

    def strength(row: Mapping[str, Any]) -> tuple[int, int, int]:
        return (row["net"], row["won"], -row["lost"])

    rows.sort(key=lambda r: (*(-v for v in strength(r)), r["name"], r["player_id"]))
    previous: tuple[int, int, int] | None = None
    rank = 0
    for position, row in enumerate(rows, start=1):
        if strength(row) != previous:
            rank, previous = position, strength(row)
        row["rank"] = rank
    return [{column: row[column] for column in STANDING_COLUMNS} for row in rows]


def standings(
    principal: Principal,
    season_id: str,
    date_from: date | None = None,
    date_to: date | None = None,
    min_hands: int = 0,
) -> dict[str, Any]:
    """The season's ranked rows, read from the aggregates; with ``date_from``/``date_to``,
    only sittings opened on those days (inclusive) count. Players with fewer than
    ``min_hands`` hands (and those with none) are left out."""
    season = readable_season(principal, season_id)
    if date_from is not None and date_to is not None and date_to < date_from:
        raise RuleViolation("to", "must not be before from")
    least = max(min_hands, 1)
    rating = (SeasonRatingRow.mu, SeasonRatingRow.sigma)
    rating_join = (SeasonRatingRow.season_id == season_id) & (
        SeasonRatingRow.player_id == PlayerRow.id
    )
    if date_from is None and date_to is None:
        source = SeasonPlayerRow
        query = (
            select(PlayerRow.id, PlayerRow.name, *(getattr(source, c) for c in COUNTERS), *rating)
            .join(source, source.player_id == PlayerRow.id)
            .where(source.season_id == season_id, source.hands >= least)
        )
    else:
        # Whole days, months and years that cover the range: a bounded number of rows a
        # player, however many hands or days the season holds (services/league/periods.py).
        periods = SeasonPlayerPeriodRow
        runs = covering(date_from or date.min, date_to or date.max)
        conditions = [
            periods.season_id == season_id,
            or_(
                false(),
                *(
                    and_(periods.span == run.span, periods.starts_on.between(run.first, run.last))
                    for run in runs
                ),
            ),
        ]
        summed = (
            select(periods.player_id, *(func.sum(getattr(periods, c)).label(c) for c in COUNTERS))
            .where(*conditions)
            .group_by(periods.player_id)
            .having(func.sum(periods.hands) >= least)
            .subquery()
        )
        query = select(
            PlayerRow.id, PlayerRow.name, *(summed.c[c] for c in COUNTERS), *rating
        ).join(summed, summed.c.player_id == PlayerRow.id)
    query = query.outerjoin(SeasonRatingRow, rating_join)
    rows = []
    for found in db.session.execute(query):
        row = dict(zip(("player_id", "name", *COUNTERS), found[: 2 + len(COUNTERS)], strict=True))
        for column in COUNTERS:
            row[column] = int(row[column])  # SUM() may come back as Decimal on PostgreSQL
        row["net_per_100_hands"] = per_100_hands(row["net"], row["hands"])
        row["rating"] = shown_rating(found.mu, found.sigma)
        rows.append(row)
    return {
        "season_id": season.id,
        "variant": season.variant,
        "units": rules.get_variant(season.variant).units,
        "from": None if date_from is None else date_from.isoformat(),
        "to": None if date_to is None else date_to.isoformat(),
        "min_hands": min_hands,
        "tie_breaks": list(TIE_BREAKS),
        "rows": _rank_rows(rows),
    }


# The columns in German and Spanish words (English keeps the API's names, which programs read).
_COLUMN_WORDS = {
    "rank": N_("Rank"),
    "player_id": N_("Player id"),
    "name": N_("Name"),
    "sittings": N_("Tables played"),
    "hands": N_("Hands"),
    "net": N_("Net"),
    "net_per_100_hands": N_("Net per 100 hands"),
    "declared": N_("Declared"),
    "won": N_("Won"),
    "lost": N_("Lost"),
    "solos_won": N_("Solos won"),
    "touts_won": N_("Touts won"),
    "betes_paid": N_("Bêtes paid"),
    "stamms_drawn": N_("Stamms drawn"),
    "errors": N_("Errors"),
    "rating": N_("Rating"),
}


def standings_csv(rows: Iterable[Mapping[str, Any]], language: str = "en") -> str:
    """The standings as CSV in ``language`` (``spreadsheet.csv_text``): a header of
    ``STANDING_COLUMNS`` (in English their names, else their words), then one line per row;
    None is empty, whole numbers whole, formulas neutralised."""
    header = (
        list(STANDING_COLUMNS)
        if language == "en"
        else [gettext(_COLUMN_WORDS[c], language) for c in STANDING_COLUMNS]
    )
    return spreadsheet.csv_text(
        header, ([row[c] for c in STANDING_COLUMNS] for row in rows), language
    )
