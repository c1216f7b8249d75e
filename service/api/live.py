"""Live changes: the club's ``/changes`` feed (for programs that pull), and the streams of a
table and of a club (server-sent events) with their tickets (docs/api.md#live-changes).

A stream's answer is made here like any other; behind the service's worker
(``service/http_worker.py``, its streams ``service/stream_hub.py``) the view then asks the
worker's loop to keep the connection, and the thread is free. Elsewhere (another server, the
tests' client) the answer ends after what it has, and the client reconnects with
``Last-Event-ID`` (the ``retry:`` it was given)."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, current_app, request
from flask.views import MethodView

from ..extensions import db
from ..middleware.answers import (
    EVENT_STREAM,
    STREAMS_ENVIRON_KEY,
    held_opening,
    stream_answer,
    ticket_answer,
)
from ..middleware.limits import client_address
from ..schemas.live import (
    ChangesPageSchema,
    ChangesQuerySchema,
    StreamHeadersSchema,
    StreamQuerySchema,
    StreamTicketSchema,
)
from ..services import live
from ..services.live_feed import feed_for
from .auth import BEARER, principal
from .openapi import operation
from .paging import Blueprint

blp = Blueprint("live", __name__, url_prefix="/api/v1", description="Live changes")

# How long a stream's opening waits for this worker's feed to listen (its first stream only).
FEED_READY_SECONDS = 5.0

STREAM_RESPONSES = {
    "200": {
        "description": "Server-sent events (`text/event-stream`), held open: one event per "
        "change, `id:` its id; `ready` and `reload` events; heartbeat comments; a last "
        "`revoked` event when the token it was opened with (or its ticket's) is revoked. A "
        "ticket opens its stream once. See the API guide, *Live changes*.",
        "content": {
            EVENT_STREAM: {
                "schema": {
                    "description": "One server-sent event: `data` is an event's JSON "
                    "(`Event`), for `ready` and `reload` the stream's position, for `revoked` "
                    'why it ends (`{"reason": "token-revoked"}`).',
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "pattern": "^[0-9]+$"},
                        "event": {
                            "type": "string",
                            "enum": ["message", "ready", "reload", "revoked"],
                        },
                        "data": {"type": "string", "contentMediaType": "application/json"},
                        "retry": {"type": "integer", "minimum": 0},
                    },
                }
            }
        },
    },
    "401": {"$ref": "#/components/responses/UNAUTHORIZED"},
    "403": {"$ref": "#/components/responses/FORBIDDEN"},
    "404": {"$ref": "#/components/responses/NOT_FOUND"},
    "429": {"$ref": "#/components/responses/TOO_MANY_REQUESTS"},
}
TICKET_AUTH: list[dict[str, list[str]]] = [*BEARER, {}]


def _stream(query: dict[str, Any], table_id: str | None, club_id: str | None) -> Response:
    ticket = query.get("ticket")
    who = live.ticket_principal(ticket, request.path) if ticket else principal()
    target = live.followed(who, table_id, club_id)
    after = live.resume_after(request.headers.get("Last-Event-ID"), query.get("after"))
    hub: Any = request.environ.get(STREAMS_ENVIRON_KEY)
    feed = feed_for(db.engine)
    # A ticket is spent last: an opening refused before leaves it unspent.
    spend = partial(live.spend_ticket, ticket, db.engine) if ticket else None
    if hub is not None and feed.ready(FEED_READY_SECONDS):
        address = client_address(request.environ)
        config = current_app.config
        opening = held_opening(
            hub, feed, who, target, after, config, address, live.SESSION_READS, spend
        )
    else:
        opening = live.open_stream(target, after)
        if spend is not None:
            spend()
    return stream_answer(opening)


def _ticket(table_id: str | None, club_id: str | None, path: str) -> Any:
    who = principal()
    target = live.followed(who, table_id, club_id)
    return ticket_answer(current_app.json, live.mint_ticket(who, target, path))


@blp.route("/clubs/<string:club_id>/changes")
class Changes(MethodView):
    @blp.arguments(ChangesQuerySchema(), location="query")
    @blp.response(200, ChangesPageSchema)
    @blp.alt_response(
        409,
        description="`cursor-ahead`: `after` is past the club's last event: reload.",
    )
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    @operation("listClubChanges", "Live")
    def get(self, query: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Every change of the club in order, a page at a time after the cursor `after`
        (admin, read-only or program token). The event ids are the streams' ids."""
        return live.read_changes(principal(), club_id, query["after"], query["limit"])


@blp.route("/tables/<string:table_id>/events")
class TableEvents(MethodView):
    # Documented as arguments (not ``doc(parameters=…)``, whose list would replace the
    # query's): ``ticket``, ``after`` and ``Last-Event-ID`` all reach the document.
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.doc(responses=STREAM_RESPONSES, security=TICKET_AUTH)
    @operation("streamTableEvents", "Live")
    def get(self, query: dict[str, Any], _headers: dict[str, Any], table_id: str) -> Response:
        """Follow the table's changes as server-sent events (any token that may read it, or
        a stream ticket of one in `ticket`)."""
        return _stream(query, table_id, None)


@blp.route("/clubs/<string:club_id>/events")
class ClubEvents(MethodView):
    # Documented as arguments (not ``doc(parameters=…)``, whose list would replace the
    # query's): ``ticket``, ``after`` and ``Last-Event-ID`` all reach the document.
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.doc(responses=STREAM_RESPONSES, security=TICKET_AUTH)
    @operation("streamClubEvents", "Live")
    def get(self, query: dict[str, Any], _headers: dict[str, Any], club_id: str) -> Response:
        """Follow every change of the club as server-sent events (admin or read-only token,
        or a stream ticket of one in `ticket`)."""
        return _stream(query, None, club_id)


@blp.route("/tables/<string:table_id>/events/tickets")
class TableStreamTickets(MethodView):
    @blp.response(201, StreamTicketSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="This token may not read the table.")
    @blp.alt_response(404, description="No such table.")
    @blp.doc(security=BEARER)
    @operation("mintTableStreamTicket", "Live")
    def post(self, table_id: str) -> Any:
        """A ticket that opens the table's stream for a minute, for `EventSource` (which
        cannot send `Authorization`): the token itself never goes into a URL."""
        return _ticket(table_id, None, f"/api/v1/tables/{table_id}/events")


@blp.route("/clubs/<string:club_id>/events/tickets")
class ClubStreamTickets(MethodView):
    @blp.response(201, StreamTicketSchema)
    @blp.alt_response(401, description="No or bad token.")
    @blp.alt_response(403, description="Not this club's admin or read-only token.")
    @blp.alt_response(404, description="No such club.")
    @blp.doc(security=BEARER)
    @operation("mintClubStreamTicket", "Live")
    def post(self, club_id: str) -> Any:
        """A ticket that opens the club's stream for a minute (as the table's)."""
        return _ticket(None, club_id, f"/api/v1/clubs/{club_id}/events")
