"""Running a club's league: its players (rename, retire), its tokens (rotate the admin token,
the read-only viewer token, revoke a table's link), the list of its tables, and a player's
sittings with the rating after each. Who may read what is ``league.reader_scope``'s
(docs/league.md)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from ... import rules
from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339, utcnow
from ...persistence.league import RatingHistoryRow, SeasonRow
from ...persistence.table_keeping import ClubRow, PlayerRow, SeatRow, TableRow, TokenRow
from ...rules import RuleViolation
from ..auth import (
    Principal,
    issue_token,
    issue_token_row,
    require_club_admin,
    revoke_own_token,
    revoke_tokens,
)
from ..clubs import get_club, player_view
from ..errors import Conflict, Forbidden, NameTaken, NotFound, TableClosed, conflict_on_duplicate
from ..locking import begin_write, get_table
from ..outbox import record_change
from ..webhooks.subscriptions import disable_webhooks_of
from .ratings import shown_rating
from .seasons import reader_scope, require_club_reader, require_player_reader

# --- players -------------------------------------------------------------------------------


def update_player(
    principal: Principal, player_id: str, name: str | None, retired: bool | None
) -> dict[str, Any]:
    """Rename a player and/or retire him (or bring him back) (admin token). A retired player
    keeps his history, standings and statistics; he is not listed for new tables, and a table
    cannot be opened with him."""
    player = db.session.get(PlayerRow, player_id)
    if player is None:
        raise NotFound(N_("No player %(player)s."), values={"player": repr(player_id)})
    require_club_admin(principal, player.club_id)
    with conflict_on_duplicate(f"The club already has a player called {name!r}.", NameTaken):
        if name is not None and name != player.name:
            player.name = name
            # Every view of his tables shows the name: a new version of each, so that no
            # rendered view (keyed by version) or phone polling by ETag keeps the old one.
            db.session.execute(
                update(TableRow)
                .where(
                    TableRow.id.in_(select(SeatRow.table_id).where(SeatRow.player_id == player_id))
                )
                .values(version=TableRow.version + 1)
            )
            record_change(player.club_id, "player.renamed", player=player.id)
        if retired is not None and retired != (player.retired_at is not None):
            player.retired_at = utcnow() if retired else None
        db.session.commit()
    db.session.refresh(player)
    return player_view(player)


# --- tokens --------------------------------------------------------------------------------


# A club's named read-only tokens that work at once (a bound on what one club can pile up).
MAX_VIEWER_TOKENS = 50


def rotate_admin_token(principal: Principal, club_id: str) -> dict[str, Any]:
    """A new admin token for the club; the one used (and any other) stops working at once.
    Only the current admin token rotates: an old one is refused (401 token-revoked), so a
    leaked token cannot take the club back once its owner rotated."""
    begin_write()  # SQLite: one writer from here, so two rotations cannot both pass
    get_club(principal, club_id)
    revoke_own_token(principal)
    revoke_tokens(TokenRow.club_id == club_id, TokenRow.kind == "admin")
    token = issue_token("admin", club_id)
    db.session.commit()
    return {"club_id": club_id, "kind": "admin", "token": token}


_LINK = (TokenRow.kind == "viewer", TokenRow.name.is_(None))


def new_viewer_token(principal: Principal, club_id: str) -> dict[str, Any]:
    """The club's read-only link (its one unnamed viewer token), made anew: the previous link
    (if any) stops working; the named read-only tokens are not touched."""
    get_club(principal, club_id)
    revoke_tokens(TokenRow.club_id == club_id, *_LINK)
    token = issue_token("viewer", club_id)
    db.session.commit()
    return {"club_id": club_id, "kind": "viewer", "token": token}


def revoke_viewer_token(principal: Principal, club_id: str) -> None:
    """Revoke the club's read-only link (the named read-only tokens stay)."""
    get_club(principal, club_id)
    if not revoke_tokens(TokenRow.club_id == club_id, *_LINK):
        raise NotFound(N_("The club has no read-only token to revoke."))
    db.session.commit()


def _viewer_token_view(row: TokenRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "club_id": row.club_id,
        "kind": row.kind,
        "name": row.name,
        "created_at": rfc3339(row.created_at),
        "last_used_at": rfc3339(row.last_used_at),
    }


# The kinds of the club's named tokens: read-only, or a program's (reads the same, and manages
# the webhooks it makes).
NAMED_KINDS = ("viewer", "program")


def create_viewer_token(
    principal: Principal, club_id: str, name: str, kind: str = "viewer"
) -> dict[str, Any]:
    """A new named token of the club (admin token), beside the others: read-only (a
    noticeboard, an importer) or a ``program``'s (a bot that also keeps webhooks of its own).
    Shown this once only."""
    begin_write()  # SQLite: the count below and the insert in one writer's turn
    get_club(principal, club_id)
    live = db.session.scalar(
        select(func.count())
        .select_from(TokenRow)
        .where(
            TokenRow.club_id == club_id,
            TokenRow.kind.in_(NAMED_KINDS),
            TokenRow.name.is_not(None),
            TokenRow.revoked_at.is_(None),
        )
    )
    if (live or 0) >= MAX_VIEWER_TOKENS:
        raise Conflict(
            N_("The club holds %(count)s read-only tokens already; revoke one first."),
            values={"count": MAX_VIEWER_TOKENS},
        )
    row, token = issue_token_row(kind, club_id, name=name)
    with conflict_on_duplicate(
        N_("The club already has a read-only token called %(name)s."),
        NameTaken,
        values={"name": repr(name)},
    ):
        db.session.commit()
    return {**_viewer_token_view(row), "token": token}


def list_viewer_tokens(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's working read-only and program tokens, oldest first: kind, name (none for
    the read-only link), when made, when last used (to the minute). Never the token nor its
    digest."""
    get_club(principal, club_id)
    rows = db.session.scalars(
        select(TokenRow)
        .where(TokenRow.club_id == club_id, TokenRow.kind.in_(NAMED_KINDS))
        .where(TokenRow.revoked_at.is_(None))
        .order_by(TokenRow.created_at, TokenRow.id)
    )
    return [_viewer_token_view(row) for row in rows]


def revoke_viewer_token_by_id(principal: Principal, club_id: str, token_id: str) -> None:
    """Revoke one read-only or program token of the club (admin token); the others keep
    working. A program's webhooks are turned off with its token, in the same transaction."""
    get_club(principal, club_id)
    if not revoke_tokens(
        TokenRow.id == token_id, TokenRow.club_id == club_id, TokenRow.kind.in_(NAMED_KINDS)
    ):
        raise NotFound(
            N_("The club has no working read-only token %(token)s."),
            values={"token": repr(token_id)},
        )
    disable_webhooks_of(club_id, token_id)
    db.session.commit()


def _admin_table(principal: Principal, table_id: str) -> TableRow:
    table = get_table(table_id)
    require_club_admin(principal, table.club_id)
    return table


def revoke_table_token(principal: Principal, table_id: str) -> None:
    """Revoke the table's token (admin token): its shared link stops working."""
    _admin_table(principal, table_id)
    if not revoke_tokens(TokenRow.table_id == table_id):
        raise Conflict(
            N_(
                "The table has no working token to revoke (revoked already, or the "
                "table was imported and never given one)."
            )
        )
    db.session.commit()


def new_table_token(principal: Principal, table_id: str) -> dict[str, Any]:
    """A new token (a new shared link) for an open table; the old one stops working."""
    table = _admin_table(principal, table_id)
    if table.status == "closed":
        raise TableClosed(N_("The table is closed: it needs no new link."))
    revoke_tokens(TokenRow.table_id == table_id)
    token = issue_token("table", table.club_id, table_id)
    db.session.commit()
    return {"table_id": table_id, "table_token": token}


# --- a club's tables -----------------------------------------------------------------------


def club_tables(
    principal: Principal,
    club_id: str,
    status: str | None,
    season_id: str | None,
    page: int,
    page_size: int,
) -> tuple[list[dict[str, Any]], int]:
    """The club's tables, newest first, one page, and how many match (admin or read-only
    token)."""
    if db.session.get(ClubRow, club_id) is None:
        raise NotFound(N_("No club %(club)s."), values={"club": repr(club_id)})
    require_club_reader(principal, club_id)
    conditions = [TableRow.club_id == club_id]
    if status is not None:
        conditions.append(TableRow.status == status)
    if season_id is not None:
        season = db.session.get(SeasonRow, season_id)
        if season is None or season.club_id != club_id:
            raise RuleViolation(
                "season_id", "no season %(season)s in this club", season=repr(season_id)
            )
        conditions.append(TableRow.season_id == season_id)
    total = db.session.scalar(select(func.count()).select_from(TableRow).where(*conditions))
    tables = db.session.scalars(
        select(TableRow)
        .where(*conditions)
        .order_by(TableRow.created_at.desc(), TableRow.id.desc())
        .offset((page - 1) * page_size)
        .limit(page_size)
    ).all()
    return [_table_summary(t) for t in tables], int(total or 0)


def _table_summary(table: TableRow) -> dict[str, Any]:
    return {
        "id": table.id,
        "name": table.name,
        "variant": table.variant,
        "units": rules.get_variant(table.variant).units,
        "status": table.status,
        "season_id": table.season_id,
        "created_at": rfc3339(table.created_at),
        "closed_at": rfc3339(table.closed_at),
        "players": [
            {"seat": s.seat, "player_id": s.player_id, "name": s.name} for s in table.seats
        ],
        "hands": table.hands_played,
        "balances": [s.balance for s in table.seats],
    }


# --- a player's sittings -------------------------------------------------------------------


def player_sittings(principal: Principal, player_id: str, season_id: str | None) -> dict[str, Any]:
    """Every sitting of the player, oldest first: his net at it and, for a closed sitting of
    a season, his season rating (``mu - 3*sigma``) after it. The charts of the player page."""
    player = db.session.get(PlayerRow, player_id)
    if player is None:
        raise NotFound(N_("No player %(player)s."), values={"player": repr(player_id)})
    require_player_reader(principal, player)
    scope = reader_scope(principal, player.club_id)
    if scope is not None:
        if scope.season_id is None or season_id not in (None, scope.season_id):
            raise Forbidden(N_("A table's token reads only the season its table plays in."))
        season_id = scope.season_id
    query = (
        select(
            TableRow,
            SeatRow.balance,
            RatingHistoryRow.mu,
            RatingHistoryRow.sigma,
            RatingHistoryRow.sitting,
        )
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .outerjoin(
            RatingHistoryRow,
            (RatingHistoryRow.table_id == TableRow.id) & (RatingHistoryRow.player_id == player_id),
        )
        .where(SeatRow.player_id == player_id)
        .order_by(TableRow.created_at, TableRow.id)
    )
    if season_id is not None:
        query = query.where(TableRow.season_id == season_id)
    sittings = [
        {
            "table_id": table.id,
            "table_name": table.name,
            "variant": table.variant,
            "units": rules.get_variant(table.variant).units,
            "season_id": table.season_id,
            "status": table.status,
            "created_at": rfc3339(table.created_at),
            "closed_at": rfc3339(table.closed_at),
            "hands": table.hands_played,
            "net": balance,
            "rated_sitting": rated,
            "mu": mu,
            "sigma": sigma,
            "rating": shown_rating(mu, sigma),
        }
        for table, balance, mu, sigma, rated in db.session.execute(query)
    ]
    return {"player_id": player.id, "name": player.name, "sittings": sittings}
