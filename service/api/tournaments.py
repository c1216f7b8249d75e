"""Open tournaments over HTTP: created under their host club, registered for through a public
link, their entrants checked in and withdrawn by the director, their series drawn (the club
night's draw), their standings, prize list and the host's cash sheet.

The host club's admin token runs it; its read-only tokens read the tournament and its
standings; the registration link's token only registers. docs/tournaments.md says the rules.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, request
from flask.views import MethodView

from ..i18n import current_language
from ..schemas.nights import DrawSchema
from ..schemas.tournaments import (
    EntrantCreateSchema,
    EntrantQuerySchema,
    EntrantSchema,
    EntrantUpdateSchema,
    PrizesSchema,
    RegistrationSchema,
    TournamentCreateSchema,
    TournamentDrawnSeriesSchema,
    TournamentSchema,
    TournamentStandingsSchema,
    TournamentUpdateSchema,
)
from ..services import tournaments
from .auth import documents_token, principal
from .caching import CONTENT_ETAG, conditional
from .idempotency import scoped_by
from .openapi import operation
from .paging import Answer, Blueprint

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api/v1",
    description="Open tournaments: registration, check-in, series, prizes and the cash sheet",
)

_auth_doc = partial(documents_token, blp)

ADMIN = "Not the admin token of the host club."
READERS = "Not the host club's admin or read-only token."
NO_TOURNAMENT = "No such tournament."
NO_PLACE = "No place is free to check in (`no-place-free`); nothing stored."


@blp.route("/clubs/<string:club_id>/tournaments")
class Tournaments(MethodView):
    @blp.arguments(TournamentCreateSchema())
    @blp.response(201, TournamentSchema)
    @blp.alt_response(
        422,
        description="A field is wrong: a game, table size, option or prize table it names "
        "(`prizes.2.per_mille`), a count out of range.",
    )
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("createTournament", "Tournaments")
    def post(self, body: dict[str, Any], club_id: str) -> Answer:
        """Create an open tournament hosted by the club (admin token).

        It plays as a club night of the club (`night_id`); its registration link is open.
        Registration: `POST /api/v1/tournaments/{tournament_id}/registrations` with the
        answer's `registration_token`."""
        created = tournaments.create_tournament(principal(), club_id, body)
        return created, 201, {"Location": f"/api/v1/tournaments/{created['id']}"}

    @blp.response(200, TournamentSchema(many=True))
    @_auth_doc("Not this club's admin or read-only token.", "No such club.")
    @operation("listTournaments", "Tournaments")
    def get(self, club_id: str) -> list[dict[str, Any]]:
        """The club's tournaments, the newest first (admin or read-only token)."""
        return tournaments.list_tournaments(principal(), club_id)


@blp.route("/tournaments/<string:tournament_id>")
class Tournament(MethodView):
    @conditional
    @blp.response(200, TournamentSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc(READERS, NO_TOURNAMENT)
    @operation("getTournament", "Tournaments")
    def get(self, tournament_id: str) -> dict[str, Any]:
        """A tournament: its game, series, money, registration and its entrants' counts."""
        return tournaments.get_tournament(principal(), tournament_id)

    @blp.arguments(TournamentUpdateSchema())
    @blp.response(200, TournamentSchema)
    @blp.alt_response(
        422,
        description="A field is wrong, the cap is below the places held, or a game's "
        "setting changes after the first draw (the field is named).",
    )
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation("updateTournament", "Tournaments")
    def patch(self, body: dict[str, Any], tournament_id: str) -> dict[str, Any]:
        """Change the tournament (admin token); a cap raised moves the waiting list up."""
        return tournaments.update_tournament(principal(), tournament_id, body)


def _registering(tournament_id: str) -> str:
    return tournaments.registration_scope(tournament_id, request.headers.get("Authorization"))


@blp.route("/tournaments/<string:tournament_id>/registrations")
class Registrations(MethodView):
    @scoped_by(_registering)
    @blp.arguments(RegistrationSchema())
    @blp.response(201, EntrantSchema)
    @blp.alt_response(401, description="Not the tournament's registration link.")
    @blp.alt_response(404, description=NO_TOURNAMENT)
    @blp.alt_response(409, description="Registration is closed (`registration-closed`).")
    @blp.alt_response(422, description="A field is wrong (named).")
    @blp.alt_response(429, description="Too many requests; try again after `Retry-After` seconds.")
    @operation("register", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str) -> Answer:
        """Register for the tournament through its public link: its `registration_token` as
        the bearer token, no club's.

        A place while the cap allows, else the waiting list (`waiting_position`)."""
        entrant = tournaments.register(tournament_id, request.headers.get("Authorization"), body)
        location = f"/api/v1/tournaments/{tournament_id}/entrants/{entrant['id']}"
        return entrant, 201, {"Location": location}


@blp.route("/tournaments/<string:tournament_id>/entrants")
class Entrants(MethodView):
    @blp.arguments(EntrantQuerySchema(), location="query")
    @blp.response(200, EntrantSchema(many=True))
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation("listEntrants", "Tournaments")
    def get(self, query: dict[str, Any], tournament_id: str) -> list[dict[str, Any]]:
        """The entrants in the order they registered, with contacts (admin token)."""
        return tournaments.list_entrants(principal(), tournament_id, query["status"])

    @blp.arguments(EntrantCreateSchema())
    @blp.response(201, EntrantSchema)
    @blp.alt_response(409, description=NO_PLACE)
    @blp.alt_response(422, description="A field is wrong, or the player has entered already.")
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation("addEntrant", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str) -> Answer:
        """Enter a player (admin token): a host club's player or a guest; `check_in` for a
        late entry on the day."""
        entry = {k: body[k] for k in ("name", "club", "contact", "display")}
        entrant = tournaments.add_entrant(
            principal(), tournament_id, entry, body["player_id"], body["check_in"]
        )
        return entrant, 201, {"Location": f"{request.path}/{entrant['id']}"}


@blp.route("/tournaments/<string:tournament_id>/entrants/<string:entrant_id>")
class Entrant(MethodView):
    @blp.arguments(EntrantUpdateSchema())
    @blp.response(200, EntrantSchema)
    @blp.alt_response(409, description=NO_PLACE)
    @_auth_doc(ADMIN, "No such tournament or entrant.")
    @operation("changeEntrant", "Tournaments")
    def patch(self, body: dict[str, Any], tournament_id: str, entrant_id: str) -> dict[str, Any]:
        """Check an entrant in, take it back, or withdraw the entry (admin token): one call each.

        A withdrawal from a place moves the first waiting up; the next draw leaves it out."""
        return tournaments.change_entrant(principal(), tournament_id, entrant_id, body["status"])


@blp.route("/tournaments/<string:tournament_id>/series")
class TournamentSeries(MethodView):
    @blp.arguments(DrawSchema())
    @blp.response(201, TournamentDrawnSeriesSchema)
    @blp.alt_response(
        409,
        description="Closed, all series drawn, or a table has not played its hands "
        "(`night-tables-pending`).",
    )
    @blp.alt_response(
        422, description="The players checked in fit no tables of its sizes (`present`)."
    )
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation("drawTournamentSeries", "Tournaments")
    def post(self, body: dict[str, Any], tournament_id: str) -> Answer:
        """Draw the next series (admin token): the club night's draw of the players checked
        in, at tables of the tournament's sizes, avoiding earlier tablemates; the same
        `seed` and players give the same draw. Cards: `/nights/{night_id}/cards`."""
        series = tournaments.draw_series(principal(), tournament_id, body["seed"], body["early"])
        return series, 201, {"Location": f"/api/v1/nights/{series['night_id']}"}


@blp.route("/tournaments/<string:tournament_id>/standings")
class TournamentStandings(MethodView):
    @conditional
    @blp.response(200, TournamentStandingsSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc(READERS, NO_TOURNAMENT)
    @operation("getTournamentStandings", "Tournaments")
    def get(self, tournament_id: str) -> dict[str, Any]:
        """The standings, live from the tables: each entrant's series, total and rank by
        the named tie-breaks."""
        return tournaments.tournament_standings(principal(), tournament_id)


@blp.route("/tournaments/<string:tournament_id>/prizes")
class Prizes(MethodView):
    @blp.response(200, PrizesSchema)
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation(
        "getTournamentPrizes",
        "Tournaments",
        "Integers in cents of `currency`; `final` once closed.",
    )
    def get(self, tournament_id: str) -> dict[str, Any]:
        """The prize list as the standings stand and the host's cash sheet: fees taken,
        prizes paid, what remains (admin token)."""
        return tournaments.prizes_and_cash(principal(), tournament_id)


@blp.route("/tournaments/<string:tournament_id>/ranking.csv")
class RankingCsv(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The ranking list with its prizes as CSV.",
                "content": {
                    "text/csv": {
                        "schema": {
                            "type": "string",
                            "description": "A line per entrant in the standings' order: "
                            "`rank`, `name`, `club`, `series_1` … (as the scoring counts), "
                            "`total`, `prize` (an amount, `12.50`), `currency`; in German and "
                            "Spanish semicolons, a decimal comma and their words, as "
                            "`getNightStandingsCsv`.",
                        }
                    }
                },
            }
        }
    )
    @_auth_doc(ADMIN, NO_TOURNAMENT)
    @operation("getTournamentRankingCsv", "Tournaments")
    def get(self, tournament_id: str) -> Response:
        """The ranking list and its prizes as CSV, for a spreadsheet in the reader's language."""
        body = tournaments.ranking_csv(principal(), tournament_id, current_language())
        name = f"tournament-{tournament_id}.csv"
        return Response(
            body,
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
