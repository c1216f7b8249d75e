"""A tournament's tables' results over HTTP: the table's phones confirm its series or dispute
a hand; the director resolves disputes, reads the console of the current series' tables, and
moves players or seats substitutes between series. docs/tournaments.md says the rules."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import request
from flask.views import MethodView

from ..middleware.answers import STREAMS_ENVIRON_KEY
from ..schemas.tournament_results import (
    ConfirmationSchema,
    ConsoleQuerySchema,
    ConsoleSchema,
    DisputeCreateSchema,
    DisputeSchema,
    ResolutionSchema,
    SeatEntrantSchema,
    TableResultSchema,
)
from ..services import tournament_results as results
from ..services.table_results import Streams
from .auth import documents_token, principal
from .caching import CONTENT_ETAG, conditional
from .openapi import operation
from .paging import Answer, Blueprint

blp = Blueprint(
    "tournament_results",
    __name__,
    url_prefix="/api/v1",
    description="A tournament's tables' results: confirmations, disputes, the director's console",
)

_auth_doc = partial(documents_token, blp)

PHONE = "Not the table's own token nor the host club's admin token."
ADMIN = "Not the admin token of the host club."
NO_TABLE = "No such tournament, or no such table of it."


def _streams() -> Streams | None:
    hub: Any = request.environ.get(STREAMS_ENVIRON_KEY)
    return None if hub is None else hub.held


@blp.route("/tournaments/<string:tournament_id>/tables/<string:table_id>/confirmations")
class Confirmations(MethodView):
    @blp.response(200, TableResultSchema)
    @_auth_doc(PHONE, NO_TABLE)
    @operation("getTableResult", "Tournaments")
    def get(self, tournament_id: str, table_id: str) -> dict[str, Any]:
        """The table's result as its phones show it."""
        return results.result_for_table(principal(), tournament_id, table_id, _streams())

    @blp.arguments(ConfirmationSchema())
    @blp.response(200, TableResultSchema)
    @blp.alt_response(409, description="`series-not-complete` or `result-disputed`.")
    @blp.alt_response(422, description="A field is wrong (named).")
    @_auth_doc(PHONE, NO_TABLE)
    @operation("confirmResult", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str, table_id: str) -> dict[str, Any]:
        """Confirm the table's complete series: a seat other than the scorer's, or the director.

        Two players or the director make it count; a change of the hands voids them."""
        return results.confirm(principal(), tournament_id, table_id, body["seat"], _streams())


@blp.route("/tournaments/<string:tournament_id>/tables/<string:table_id>/disputes")
class Disputes(MethodView):
    @blp.arguments(DisputeCreateSchema())
    @blp.response(201, DisputeSchema)
    @blp.alt_response(409, description="`result-disputed`.")
    @blp.alt_response(422, description="A field is wrong (named).")
    @_auth_doc(PHONE, NO_TABLE)
    @operation("disputeHand", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str, table_id: str) -> Answer:
        """Dispute a hand: the table's result waits for the director."""
        created = results.dispute(principal(), tournament_id, table_id, body)
        return created, 201, {"Location": f"{request.path}/{created['id']}"}


@blp.route("/tournaments/<string:tournament_id>/disputes/<string:dispute_id>/resolution")
class Resolution(MethodView):
    @blp.arguments(ResolutionSchema())
    @blp.response(200, TableResultSchema)
    @blp.alt_response(409, description="`dispute-closed`, or the hand is void already.")
    @blp.alt_response(422, description="A field is wrong (named).")
    @_auth_doc(ADMIN, "No such tournament or dispute.")
    @operation("resolveDispute", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str, dispute_id: str) -> dict[str, Any]:
        """Resolve a dispute: correct or void the hand (as `correctHand`), or reject it."""
        return results.resolve(principal(), tournament_id, dispute_id, body, _streams())


@blp.route("/tournaments/<string:tournament_id>/console")
class Console(MethodView):
    @conditional
    @blp.arguments(ConsoleQuerySchema(), location="query")
    @blp.response(200, ConsoleSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc(ADMIN, "No such tournament.")
    @operation("getTournamentConsole", "Tournaments")
    def get(self, query: dict[str, Any], tournament_id: str) -> dict[str, Any]:
        """The current series' tables, what needs the director first (admin token)."""
        return results.console(principal(), tournament_id, _streams(), query["stale_minutes"])


@blp.route("/tournaments/<string:tournament_id>/seats")
class Seats(MethodView):
    @blp.arguments(SeatEntrantSchema())
    @blp.response(200, ConsoleSchema)
    @blp.alt_response(409, description="`series-started`.")
    @blp.alt_response(422, description="A field is wrong (named).")
    @_auth_doc(ADMIN, "No such tournament.")
    @operation("seatEntrant", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str) -> dict[str, Any]:
        """Move an entrant, or seat a substitute for a withdrawn one, before the first hand."""
        return results.seat_entrant(principal(), tournament_id, body, _streams())
