"""A player's statistics: career and per season, read from the aggregates."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...i18n.marks import N_
from ...persistence.league import (
    COUNTERS,
    PlayerCareerContractRow,
    PlayerCareerRow,
    SeasonPlayerContractRow,
    SeasonPlayerRow,
    SeasonRatingRow,
    SeasonRow,
)
from ...persistence.table_keeping import PlayerRow
from ..auth import Principal
from ..errors import NotFound
from .ratings import shown_rating
from .seasons import reader_scope, require_player_reader
from .standings import per_100_hands


def _win_rate(won: int, declared: int) -> float | None:
    return round(won / declared, 4) if declared else None


def _with_rates(counters: Mapping[str, int]) -> dict[str, Any]:
    shown: dict[str, float | None] = {c: counters[c] for c in COUNTERS}
    shown["net_per_100_hands"] = per_100_hands(counters["net"], counters["hands"])
    shown["win_rate"] = _win_rate(counters["won"], counters["declared"])
    return shown


def _contract_mix(rows: Iterable[Any]) -> list[dict[str, Any]]:
    mix = [
        {
            "contract": r.contract,
            "declared": r.declared,
            "won": r.won,
            "lost": r.lost,
            "win_rate": _win_rate(r.won, r.declared),
        }
        for r in rows
        if r.declared
    ]
    return sorted(mix, key=lambda m: (-m["declared"], m["contract"]))


def _counters_of(row: Any) -> dict[str, int]:
    return {c: getattr(row, c) for c in COUNTERS}


def player_stats(principal: Principal, player_id: str) -> dict[str, Any]:
    """A player's career per variant and each of his seasons, with the contract mix and win
    rates (games won as declarer over games declared). A table's token reads its own season
    only (docs/league.md): no career, no other season (none at all for a table of no
    season)."""
    player = db.session.get(PlayerRow, player_id)
    if player is None:
        raise NotFound(N_("No player %(player)s."), values={"player": repr(player_id)})
    require_player_reader(principal, player)
    scope = reader_scope(principal, player.club_id)
    if scope is not None:
        return {
            "player_id": player.id,
            "name": player.name,
            "club_id": player.club_id,
            "career": [],
            "seasons": _seasons(player_id, scope.season_id) if scope.season_id else [],
        }
    career_mix: dict[str, list[Any]] = {}
    for row in db.session.scalars(
        select(PlayerCareerContractRow).where(PlayerCareerContractRow.player_id == player_id)
    ):
        career_mix.setdefault(row.variant, []).append(row)
    career = [
        {
            "variant": row.variant,
            "units": rules.get_variant(row.variant).units,
            **_with_rates(_counters_of(row)),
            "contracts": _contract_mix(career_mix.get(row.variant, [])),
        }
        for row in db.session.scalars(
            select(PlayerCareerRow)
            .where(PlayerCareerRow.player_id == player_id, PlayerCareerRow.hands > 0)
            .order_by(PlayerCareerRow.variant)
        )
    ]
    return {
        "player_id": player.id,
        "name": player.name,
        "club_id": player.club_id,
        "career": career,
        "seasons": _seasons(player_id),
    }


def _seasons(player_id: str, only: str | None = None) -> list[dict[str, Any]]:
    """The player's record in each season he played in (``only``: in that one alone)."""
    mix_query = select(SeasonPlayerContractRow).where(
        SeasonPlayerContractRow.player_id == player_id
    )
    conditions = [SeasonPlayerRow.player_id == player_id, SeasonPlayerRow.hands > 0]
    if only is not None:
        mix_query = mix_query.where(SeasonPlayerContractRow.season_id == only)
        conditions.append(SeasonPlayerRow.season_id == only)
    season_mix: dict[str, list[Any]] = {}
    for season_row in db.session.scalars(mix_query):
        season_mix.setdefault(season_row.season_id, []).append(season_row)
    seasons = []
    for totals, season, mu, sigma, rated in db.session.execute(
        select(
            SeasonPlayerRow,
            SeasonRow,
            SeasonRatingRow.mu,
            SeasonRatingRow.sigma,
            SeasonRatingRow.sittings,
        )
        .join(SeasonRow, SeasonRow.id == SeasonPlayerRow.season_id)
        .outerjoin(
            SeasonRatingRow,
            (SeasonRatingRow.season_id == SeasonPlayerRow.season_id)
            & (SeasonRatingRow.player_id == SeasonPlayerRow.player_id),
        )
        .where(*conditions)
        .order_by(SeasonRow.created_at, SeasonRow.id)
    ):
        seasons.append(
            {
                "season_id": season.id,
                "name": season.name,
                "variant": season.variant,
                "units": rules.get_variant(season.variant).units,
                **_with_rates(_counters_of(totals)),
                "rating": shown_rating(mu, sigma),
                "rated_sittings": rated or 0,
                "contracts": _contract_mix(season_mix.get(season.id, [])),
            }
        )
    return seasons
