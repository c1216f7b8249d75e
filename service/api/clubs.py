"""Clubs and their players."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.views import MethodView
from werkzeug.routing import Map

from ..middleware.security import BoundedString
from ..schemas.clubs import (
    ClubCreatedSchema,
    ClubCreateSchema,
    ClubSchema,
    ClubUpdateSchema,
    PlayerCreateSchema,
    PlayerSchema,
)
from ..schemas.league_admin import PlayersQuerySchema
from ..services import clubs
from .auth import BEARER, principal
from .caching import CONTENT_ETAG, conditional
from .openapi import operation
from .paging import Answer, Blueprint


class ClubIdConverter(BoundedString):
    """A club id in ``/clubs/<club_id>``: any bounded segment but ``import``."""

    def __init__(self, map: Map, *args: Any, **kwargs: Any) -> None:
        super().__init__(map, *args, **kwargs)
        self.regex = "(?!import(?![^/]))" + self.regex


def register_converters(app: Flask) -> None:
    """Before the routes: rules pick their converters when they are added. (The document
    shows it as any bounded string, as flask-smorest does a UnicodeConverter's.)"""
    app.url_map.converters["club_id"] = ClubIdConverter


blp = Blueprint("clubs", __name__, url_prefix="/api/v1/clubs", description="Clubs and players")


@blp.route("")
class Clubs(MethodView):
    @blp.arguments(ClubCreateSchema())
    @blp.response(201, ClubCreatedSchema)
    @blp.alt_response(422, description="The name is missing or too long, or a bad currency.")
    @operation(
        "createClub",
        "Clubs",
        "Needs no token. The answer carries the club's admin token, shown once: it can do "
        "everything in the club.",
    )
    def post(self, body: dict[str, Any]) -> Answer:
        """Create a club; its admin token is in the answer, this once only."""
        club = clubs.create_club(body["name"], body["currency"])
        return club, 201, {"Location": f"{request.path}/{club['id']}"}


# `/clubs/import` is an operation of its own (POST): no club is called "import", so that
# `GET /clubs/import` is a 405 with `Allow: POST`, not a search for such a club.
@blp.route("/<club_id:club_id>")
class Club(MethodView):
    @conditional
    @blp.response(200, ClubSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    @operation(
        "getClub",
        "Clubs",
        "The club's name and when it was made.",
    )
    def get(self, club_id: str) -> dict[str, Any]:
        """Show a club (admin or read-only token)."""
        return clubs.club_view(clubs.read_club(principal(), club_id))

    @blp.arguments(ClubUpdateSchema())
    @blp.response(200, ClubSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin token.")
    @blp.alt_response(404, description="No such club.")
    @blp.alt_response(422, description="Not an ISO 4217 currency code.")
    @blp.doc(security=BEARER)
    @operation(
        "updateClub",
        "Clubs",
        "Tables that already have a rate keep its currency.",
    )
    def patch(self, body: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Set the club's currency (admin token): the one new table rates are in by default."""
        return clubs.set_currency(principal(), club_id, body["currency"])


@blp.route("/<string:club_id>/players")
class Players(MethodView):
    @blp.arguments(PlayersQuerySchema(), location="query")
    @blp.response(200, PlayerSchema(many=True))
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    @operation(
        "listPlayers",
        "Players",
        "Every player of the club, by name.",
    )
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
    @blp.alt_response(422, description="The name is missing or too long, or a bad currency.")
    @blp.doc(security=BEARER)
    @operation(
        "addPlayer",
        "Players",
        "Player names are unique within a club (409 otherwise).",
    )
    def post(self, body: dict[str, Any], club_id: str) -> Answer:
        """Add a player to the club (admin token)."""
        player = clubs.add_player(principal(), club_id, body["name"])
        return player, 201, {"Location": f"/api/v1/players/{player['id']}/stats"}
