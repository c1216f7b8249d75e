"""Running a club's league over HTTP: players (rename, retire), tokens (rotate the admin token,
the read-only viewer token, a table's link), the club's tables and a player's sittings.

Who may read what is documented in docs/league.md: the admin token reads and writes the club;
the read-only (viewer) tokens — the club's link and its named ones — read everything of the
club (seasons, standings, tables and their hands, player statistics, the export) and write
nothing; a table's token reads its own table, and, while that is open,
its season's standings and the seated players' statistics.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from ..schemas.clubs import PlayerSchema
from ..schemas.league_admin import (
    ClubTablesQuerySchema,
    IssuedTokenSchema,
    IssuedViewerTokenSchema,
    NewTableTokenSchema,
    PlayerSittingsSchema,
    PlayerUpdateSchema,
    SittingsQuerySchema,
    TableSummarySchema,
    ViewerTokenCreateSchema,
    ViewerTokenSchema,
)
from ..services.league import admin as league_admin
from .auth import documents_token, principal
from .openapi import operation
from .paging import Blueprint

blp = Blueprint(
    "league_admin",
    __name__,
    url_prefix="/api/v1",
    description="Running the club: players, tokens, the club's tables, a player's "
    "sittings and rating history",
)


_auth_doc = partial(documents_token, blp)


@blp.route("/players/<string:player_id>")
class Player(MethodView):
    @blp.arguments(PlayerUpdateSchema())
    @blp.response(200, PlayerSchema)
    @blp.alt_response(409, description="The club has another player of that name.")
    @blp.alt_response(422, description="A blank or too long name, or nothing to change.")
    @_auth_doc("Not the admin token of the player's club.", "No such player.")
    @operation("updatePlayer", "Players")
    def patch(self, body: dict[str, Any], player_id: str) -> dict[str, Any]:
        """Rename, retire or bring back a player (admin token).

        A retired player keeps his history, standings and statistics; the players' list
        leaves him out and a new table cannot seat him (422 naming the seat)."""
        return league_admin.update_player(
            principal(), player_id, body.get("name"), body.get("retired")
        )


@blp.route("/clubs/<string:club_id>/admin-token")
class AdminToken(MethodView):
    @blp.response(201, IssuedTokenSchema)
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("rotateAdminToken", "Clubs")
    def post(self, club_id: str) -> dict[str, Any]:
        """Rotate the club's admin token: the answer carries the new one, this once only; the
        old one stops working at once, on every worker and instance.

        Only the current admin token rotates: an old one gets 401
        (`urn:solo:problem:token-revoked`)."""
        return league_admin.rotate_admin_token(principal(), club_id)


@blp.route("/clubs/<string:club_id>/viewer-token")
class ViewerToken(MethodView):
    @blp.response(201, IssuedTokenSchema)
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("createViewerToken", "Clubs")
    def post(self, club_id: str) -> dict[str, Any]:
        """Make the club's read-only link anew (admin token), for a noticeboard or a TV.

        It reads everything of the club (tables, hands, standings, statistics, the export)
        and writes nothing. Shown this once only; the previous link stops working (the named
        read-only tokens of `…/viewer-tokens` do not)."""
        return league_admin.new_viewer_token(principal(), club_id)

    @blp.response(204)
    @_auth_doc("Not this club's admin token.", "No such club, or it has no read-only token.")
    @operation("revokeViewerToken", "Clubs")
    def delete(self, club_id: str) -> Response:
        """Revoke the club's read-only link (admin token); the named read-only tokens stay."""
        league_admin.revoke_viewer_token(principal(), club_id)
        return Response(status=204)


@blp.route("/clubs/<string:club_id>/viewer-tokens")
class ViewerTokens(MethodView):
    @blp.arguments(ViewerTokenCreateSchema())
    @blp.response(201, IssuedViewerTokenSchema)
    @blp.alt_response(
        409,
        description="A working read-only token of the club has that name, or the club holds "
        "the most it may.",
    )
    @blp.alt_response(422, description="A blank or too long name.")
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("createNamedViewerToken", "Clubs")
    def post(self, body: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Make a named token for a program (admin token): it reads everything of the club;
        with `kind: program` it also manages the webhooks it makes, and writes nothing else.

        The club may hold several; each is revoked on its own (a program's webhooks are
        turned off with it). Shown this once only."""
        return league_admin.create_viewer_token(principal(), club_id, body["name"], body["kind"])

    @blp.response(200, ViewerTokenSchema(many=True))
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("listViewerTokens", "Clubs")
    def get(self, club_id: str) -> list[dict[str, Any]]:
        """The club's working read-only and program tokens (admin token), oldest first: kind,
        name, when made, when last used (to within a minute). Never the token itself."""
        return league_admin.list_viewer_tokens(principal(), club_id)


@blp.route("/clubs/<string:club_id>/viewer-tokens/<string:token_id>")
class ViewerTokenById(MethodView):
    @blp.response(204)
    @_auth_doc("Not this club's admin token.", "No such club, or no working read-only token of it.")
    @operation("revokeNamedViewerToken", "Clubs")
    def delete(self, club_id: str, token_id: str) -> Response:
        """Revoke one read-only token (admin token); it stops working at once, everywhere.
        The club's other tokens keep working."""
        league_admin.revoke_viewer_token_by_id(principal(), club_id, token_id)
        return Response(status=204)


@blp.route("/tables/<string:table_id>/token")
class TableToken(MethodView):
    @blp.response(201, NewTableTokenSchema)
    @blp.alt_response(409, description="The table is closed.")
    @_auth_doc("Not the admin token of the table's club.", "No such table.")
    @operation("renewTableToken", "Tables")
    def post(self, table_id: str) -> dict[str, Any]:
        """Give an open table a new token, a new shared link (admin token); the old one stops
        working."""
        return league_admin.new_table_token(principal(), table_id)

    @blp.response(204)
    @blp.alt_response(
        409,
        description="The table has no working token (already revoked, or "
        "an imported table never given one).",
    )
    @_auth_doc("Not the admin token of the table's club.", "No such table.")
    @operation("revokeTableToken", "Tables")
    def delete(self, table_id: str) -> Response:
        """Revoke the table's token (admin token): its shared link stops working, and a phone
        that uses it is told so (401, `urn:solo:problem:token-revoked`)."""
        league_admin.revoke_table_token(principal(), table_id)
        return Response(status=204)


@blp.route("/clubs/<string:club_id>/tables")
class ClubTables(MethodView):
    @blp.arguments(ClubTablesQuerySchema(), location="query")
    @blp.response(200, TableSummarySchema(many=True))
    @blp.paginate()
    @blp.alt_response(
        422, description="A bad `status`, or `season_id` names no season of the club."
    )
    @_auth_doc("Not this club's admin or read-only token.", "No such club.")
    @operation("listClubTables", "Tables")
    def get(
        self, query: dict[str, Any], club_id: str, pagination_parameters: PaginationParameters
    ) -> list[dict[str, Any]]:
        """The club's tables, newest first (admin or read-only token; paged).

        Each with its players in seat order, hands played and balances."""
        items, total = league_admin.club_tables(
            principal(),
            club_id,
            query["status"],
            query["season_id"],
            pagination_parameters.page,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = total
        return items


@blp.route("/players/<string:player_id>/sittings")
class PlayerSittings(MethodView):
    @blp.arguments(SittingsQuerySchema(), location="query")
    @blp.response(200, PlayerSittingsSchema)
    @_auth_doc("Not a token that reads this player.", "No such player.")
    @operation("listPlayerSittings", "Players")
    def get(self, query: dict[str, Any], player_id: str) -> dict[str, Any]:
        """A player's sittings, oldest first: his net at each and his season rating after
        each closed sitting of a season (the rating history; `season_id` narrows it).

        Admin or read-only token; a table's token while its table is open, for the players
        seated at it and its season only."""
        return league_admin.player_sittings(principal(), player_id, query["season_id"])
