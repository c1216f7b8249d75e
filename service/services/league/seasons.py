"""Seasons, and who may read a club's league (the reader's scope)."""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339
from ...persistence.league import (
    SeasonRow,
)
from ...persistence.table_keeping import ClubRow, PlayerRow, TableRow
from ...rules import RuleViolation
from ..auth import Principal, new_id
from ..clubs import get_club
from ..errors import Forbidden, NameTaken, NotFound, conflict_on_duplicate
from ..outbox import record_change


def season_view(season: SeasonRow) -> dict[str, Any]:
    return {
        "id": season.id,
        "club_id": season.club_id,
        "name": season.name,
        "variant": season.variant,
        "units": rules.get_variant(season.variant).units,
        "starts_on": None if season.starts_on is None else season.starts_on.isoformat(),
        "ends_on": None if season.ends_on is None else season.ends_on.isoformat(),
        "created_at": rfc3339(season.created_at),
    }


class TableScope(NamedTuple):
    """What a table's token may read of its club's league: its season, its seated players."""

    season_id: str | None
    player_ids: frozenset[str]


def reader_scope(principal: Principal, club_id: str) -> TableScope | None:
    """Who may read the club's league (``docs/league.md``): its admin and read-only (viewer,
    program) tokens all of it (None: no limit); a table's token, while its table is open, only its
    own season and the players seated at it (the phones at the table show the standings);
    anyone else, and a closed table's token, nothing (Forbidden)."""
    if principal.club_id != club_id:
        raise Forbidden(
            N_(
                "This needs a token of this club: its admin or read-only token, or "
                "the token of one of its open tables."
            )
        )
    if principal.reads_club(club_id):
        return None
    table = db.session.get(TableRow, principal.table_id)
    if table is None or table.status != "open":
        raise Forbidden(N_("A table's token reads the league only while its table is open."))
    return TableScope(table.season_id, frozenset(s.player_id for s in table.seats))


def require_club_reader(principal: Principal, club_id: str) -> None:
    """The club's admin or read-only token (a table's token reads less: ``reader_scope``)."""
    if reader_scope(principal, club_id) is not None:
        raise Forbidden(N_("A table's token reads only its own season and seated players."))


def require_player_reader(principal: Principal, player: PlayerRow) -> None:
    scope = reader_scope(principal, player.club_id)
    if scope is not None and player.id not in scope.player_ids:
        raise Forbidden(N_("A table's token reads only the players seated at its table."))


def create_season(
    principal: Principal,
    club_id: str,
    name: str,
    variant_name: str,
    starts_on: date | None,
    ends_on: date | None,
) -> dict[str, Any]:
    """A new season of one variant in the club (admin token)."""
    get_club(principal, club_id)
    variant = rules.get_variant(variant_name)
    if starts_on is not None and ends_on is not None and ends_on < starts_on:
        raise RuleViolation("ends_on", "must not be before starts_on")
    season = SeasonRow(
        id=new_id(),
        club_id=club_id,
        name=name,
        variant=variant.name,
        starts_on=starts_on,
        ends_on=ends_on,
    )
    db.session.add(season)
    record_change(club_id, "season.created", season=season.id)
    with conflict_on_duplicate(
        N_("The club already has a season called %(name)s."), NameTaken, values={"name": repr(name)}
    ):
        db.session.commit()
    return season_view(season)


def list_seasons(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's seasons, newest first (a table's token sees its own season only)."""
    if db.session.get(ClubRow, club_id) is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    scope = reader_scope(principal, club_id)
    query = select(SeasonRow).where(SeasonRow.club_id == club_id)
    if scope is not None:
        query = query.where(SeasonRow.id == scope.season_id)
    rows = db.session.scalars(query.order_by(SeasonRow.created_at.desc(), SeasonRow.id))
    return [season_view(s) for s in rows]


def readable_season(principal: Principal, season_id: str) -> SeasonRow:
    season = db.session.get(SeasonRow, season_id)
    if season is None:
        raise NotFound(N_("No season %(season)s."), values={"season": repr(season_id)})
    scope = reader_scope(principal, season.club_id)
    if scope is not None and scope.season_id != season.id:
        raise Forbidden(N_("A table's token reads only the season its table plays in."))
    return season


def get_season(principal: Principal, season_id: str) -> dict[str, Any]:
    return season_view(readable_season(principal, season_id))


def check_season_for_table(club_id: str, variant_name: str, season_id: str | None) -> None:
    """A table may join a season of its own club and variant; RuleViolation on ``season_id``."""
    if season_id is None:
        return
    season = db.session.get(SeasonRow, season_id)
    if season is None or season.club_id != club_id:
        raise RuleViolation(
            "season_id", "no season %(season)s in this club", season=repr(season_id)
        )
    if season.variant != variant_name:
        raise RuleViolation(
            "season_id",
            "the season is played in %(variant)s, not %(other)s",
            variant=season.variant,
            other=variant_name,
        )
