"""Clubs and their players."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..i18n.marks import N_
from ..persistence.columns import rfc3339
from ..persistence.table_keeping import ClubRow, PlayerRow
from .auth import Principal, issue_token, new_id, require_club_admin
from .errors import Forbidden, NameTaken, NotFound, conflict_on_duplicate


def club_view(club: ClubRow) -> dict[str, Any]:
    return {
        "id": club.id,
        "name": club.name,
        "currency": club.currency,
        "created_at": rfc3339(club.created_at),
    }


def player_view(player: PlayerRow) -> dict[str, Any]:
    return {
        "id": player.id,
        "name": player.name,
        "retired": player.retired_at is not None,
        "retired_at": rfc3339(player.retired_at),
    }


def create_club(name: str, currency: str = "EUR") -> dict[str, Any]:
    """A new club and its admin token, which is shown this once only; ``currency`` (ISO 4217)
    is what its tables' rates are in unless they name another."""
    club = ClubRow(id=new_id(), name=name, currency=currency)
    db.session.add(club)
    db.session.flush()
    token = issue_token("admin", club.id)
    db.session.commit()
    return {**club_view(club), "admin_token": token}


def get_club(principal: Principal, club_id: str) -> ClubRow:
    """The club, for its admin token (Forbidden for any other)."""
    club = db.session.get(ClubRow, club_id)
    if club is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    require_club_admin(principal, club_id)
    return club


def set_currency(principal: Principal, club_id: str, currency: str) -> dict[str, Any]:
    """The club's currency (admin token): what a new table's rate is in unless it names
    another; tables that already have a rate keep theirs."""
    club = get_club(principal, club_id)
    club.currency = currency
    db.session.commit()
    return club_view(club)


def read_club(principal: Principal, club_id: str) -> ClubRow:
    """The club, for its admin token or its read-only (viewer, program) tokens."""
    club = db.session.get(ClubRow, club_id)
    if club is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    if not principal.reads_club(club_id):
        raise Forbidden(N_("This needs the club's admin token or its read-only token."))
    return club


def add_player(principal: Principal, club_id: str, name: str) -> dict[str, Any]:
    get_club(principal, club_id)
    player = PlayerRow(id=new_id(), club_id=club_id, name=name)
    db.session.add(player)
    with conflict_on_duplicate(
        N_("The club already has a player called %(name)s."), NameTaken, values={"name": repr(name)}
    ):
        db.session.commit()
    return player_view(player)


def list_players(
    principal: Principal, club_id: str, include_retired: bool = False
) -> list[dict[str, Any]]:
    """The club's players by name (admin or read-only token); the retired ones only with
    ``include_retired`` (the list a new table's seats are chosen from leaves them out)."""
    read_club(principal, club_id)
    query = select(PlayerRow).where(PlayerRow.club_id == club_id)
    if not include_retired:
        query = query.where(PlayerRow.retired_at.is_(None))
    rows = db.session.scalars(query.order_by(PlayerRow.name, PlayerRow.id))
    return [player_view(p) for p in rows]
