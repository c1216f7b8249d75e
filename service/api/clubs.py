"""Clubs and their players."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from flask_smorest import Blueprint

from ..schemas.clubs import (
    ClubCreatedSchema,
    ClubCreateSchema,
    ClubSchema,
    PlayerCreateSchema,
    PlayerSchema,
)
from ..schemas.league_admin import PlayersQuerySchema
from ..services import clubs
from .auth import BEARER, principal

blp = Blueprint("clubs", __name__, url_prefix="/api/v1/clubs", description="Clubs and players")


@blp.route("")
class Clubs(MethodView):
    @blp.arguments(ClubCreateSchema())
    @blp.response(201, ClubCreatedSchema)
    @blp.alt_response(422, description="The name is missing or too long.")
    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """Create a club; its admin token is in the answer, this once only."""
        return clubs.create_club(body["name"])


@blp.route("/<string:club_id>")
class Club(MethodView):
    @blp.response(200, ClubSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    def get(self, club_id: str) -> dict[str, Any]:
        """Show a club (admin or read-only token)."""
        return clubs.club_view(clubs.read_club(principal(), club_id))


@blp.route("/<string:club_id>/players")
class Players(MethodView):
    @blp.arguments(PlayersQuerySchema(), location="query")
    @blp.response(200, PlayerSchema(many=True))
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    def get(self, query: dict[str, Any], club_id: str) -> list[dict[str, Any]]:
        """List the club's players by name (admin or read-only token); retired ones only
        with `include_retired=true`."""
        return clubs.list_players(principal(), club_id, query["include_retired"])

    @blp.arguments(PlayerCreateSchema())
    @blp.response(201, PlayerSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin token.")
    @blp.alt_response(404, description="No such club.")
    @blp.alt_response(409, description="The club has a player of that name.")
    @blp.alt_response(422, description="The name is missing or too long.")
    @blp.doc(security=BEARER)
    def post(self, body: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Add a player to the club (admin token)."""
        return clubs.add_player(principal(), club_id, body["name"])
