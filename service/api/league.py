"""The club league: seasons, standings (JSON or CSV), player statistics, export and import.

Reading a season, its standings and a player's statistics needs the club's admin or read-only
(viewer) token, or the token of one of its open tables, which reads its own season and the
players seated at it (docs/league.md); creating seasons and exporting need the admin token.
Importing needs no token, like creating a club: it makes a new club and answers its new admin
token.

The import body may be up to ``IMPORT_MAX_CONTENT_LENGTH`` bytes (16 MiB by default); every
other request keeps the app's ``MAX_CONTENT_LENGTH`` (64 KiB).
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast
from urllib.parse import urlencode

from flask import Response, current_app, request
from flask.views import MethodView
from marshmallow import ValidationError

from ..i18n import current_language
from ..rules import RuleViolation
from ..schemas.json_numbers import loads
from ..schemas.league import (
    ClubExportSchema,
    ImportedClubSchema,
    PlayerStatsSchema,
    SeasonCreateSchema,
    SeasonSchema,
    StandingsCsvQuerySchema,
    StandingsQuerySchema,
    StandingsSchema,
)
from ..services import backup, league
from .auth import documents_token, principal
from .caching import (
    CONTENT_ETAG,
    DEPRECATION_HEADERS,
    STANDINGS_FORMAT,
    conditional,
)
from .errors import flatten_messages
from .openapi import operation
from .paging import Answer, Blueprint

blp = Blueprint(
    "league",
    __name__,
    url_prefix="/api/v1",
    description="Club league: seasons, standings, player statistics, ratings, export and import",
)

IMPORT_MAX_BYTES = 16 * 1024 * 1024
IMPORT_ENDPOINT = "league.ClubImport"
CSV_TYPE = "text/csv"
# The CSV standings as the OpenAPI document describes them (in both operations that send them).
CSV_ROWS = (
    "The rows as CSV (RFC 4180): a header of the row keys in their JSON order, then one "
    "line per row; null is an empty field."
)
CSV_FILENAME = '`attachment; filename="standings-<season_id>.csv"`.'


class InvalidExport(RuleViolation):
    """An import body that is not JSON, not complete, or not a club export."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        field, messages = next(iter(errors.items()))
        super().__init__(field, messages[0])
        self.errors = errors


def read_export(raw: bytes) -> dict[str, Any]:
    """The import body as a checked export document, or InvalidExport (422) naming the
    fields; a body that does not parse (a truncated file) is a bad file too, so 422, not
    400."""
    try:
        document = loads(raw)
    except (ValueError, RecursionError):
        raise InvalidExport({"body": ["The file is not complete JSON (truncated?)."]}) from None
    try:
        loaded: dict[str, Any] = ClubExportSchema().load(document)
    except ValidationError as error:
        raise InvalidExport(flatten_messages(error.messages)) from None
    return loaded


@blp.url_value_preprocessor
def _import_size_limit(endpoint: str | None, _values: Any) -> None:
    # URL value preprocessors run before every before_request hook, so the import's larger
    # limit already holds when a hook reads the body.
    if endpoint == IMPORT_ENDPOINT:
        request.max_content_length = current_app.config.get(
            "IMPORT_MAX_CONTENT_LENGTH", IMPORT_MAX_BYTES
        )


_auth_doc = partial(
    documents_token,
    blp,
    "Not a token that reads this (docs/league.md).",
    unauthorized="No or bad token.",
)
"""Document the bearer token and its 401, 403 and 404 answers."""


def _wants_csv(format_: str | None) -> bool:
    if format_ is not None:
        return format_ == "csv"
    best = request.accept_mimetypes.best_match(["application/json", CSV_TYPE])
    return best == CSV_TYPE


@blp.route("/clubs/<string:club_id>/seasons")
class Seasons(MethodView):
    @blp.response(200, SeasonSchema(many=True))
    @_auth_doc("No such club.")
    @operation(
        "listSeasons",
        "Seasons",
        "Newest first.",
    )
    def get(self, club_id: str) -> list[dict[str, Any]]:
        """List the club's seasons, newest first (admin or read-only token; an open table's
        token sees its own season)."""
        return league.list_seasons(principal(), club_id)

    @blp.arguments(SeasonCreateSchema())
    @blp.response(201, SeasonSchema)
    @blp.alt_response(409, description="The club has a season of that name.")
    @blp.alt_response(422, description="Unknown variant, or the season ends before it starts.")
    @_auth_doc("No such club.")
    @operation(
        "createSeason",
        "Seasons",
        "Season names are unique within a club (409 otherwise).",
    )
    def post(self, body: dict[str, Any], club_id: str) -> Answer:
        """Start a season of one variant (admin token); tables join it with `season_id`."""
        season = league.create_season(
            principal(), club_id, body["name"], body["variant"], body["starts_on"], body["ends_on"]
        )
        return season, 201, {"Location": f"/api/v1/seasons/{season['id']}"}


@blp.route("/seasons/<string:season_id>")
class Season(MethodView):
    @blp.response(200, SeasonSchema)
    @_auth_doc("No such season.")
    @operation(
        "getSeason",
        "Seasons",
        "Its variant, units and dates.",
    )
    def get(self, season_id: str) -> dict[str, Any]:
        """Show a season (admin or read-only token, or an open table's token of it)."""
        return league.get_season(principal(), season_id)


@blp.route("/seasons/<string:season_id>/standings")
class Standings(MethodView):
    @conditional
    @blp.arguments(StandingsQuerySchema(), location="query")
    @blp.response(200, StandingsSchema)
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.doc(
        responses={
            "200": {
                "description": "OK",
                "headers": {"ETag": CONTENT_ETAG, **DEPRECATION_HEADERS},
                # JSON only: a client generated for it never meets CSV (the deprecated ways to
                # ask for CSV here answer as getStandingsCsv does, outside this document).
                "content": {"application/json": {"schema": StandingsSchema}},
            }
        }
    )
    @blp.alt_response(422, description="A bad date or `min_hands`, or `to` before `from`.")
    @_auth_doc("No such season.")
    @operation("getStandings", "Standings")
    def get(self, query: dict[str, Any], season_id: str) -> Any:
        """The season's standings, ranked by net result (admin or read-only token, or an open
        table's token of the season).

        Ties are broken by more games won as declarer, then fewer lost; rows still equal share
        a rank. Read from aggregates kept as hands change. The same rows as CSV:
        `getStandingsCsv` (the deprecated `format=csv`, and `Accept: text/csv`, still answer
        them here, as that operation does, until the Sunset)."""
        answer = league.standings(
            principal(), season_id, query["date_from"], query["date_to"], query["min_hands"]
        )
        if query["format"] is None:
            return answer if not _wants_csv(None) else _csv(answer, season_id)
        # The deprecated ``format``: answered as before, with what to ask for instead.
        args = {k: v for k, v in request.args.items(multi=True) if k != "format"}
        csv = query["format"] == "csv"
        successor = f"{request.path}.csv" if csv else request.path
        if args:
            successor += "?" + urlencode(args)
        headers = STANDINGS_FORMAT.headers(successor)
        if csv:
            response = _csv(answer, season_id)
            response.headers.update(headers)
            return response
        return answer, 200, headers


@blp.route("/seasons/<string:season_id>/standings.csv")
class StandingsCsv(MethodView):
    @conditional
    @blp.arguments(StandingsCsvQuerySchema(), location="query")
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.doc(
        responses={
            "200": {
                "description": "The standings as CSV.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": CSV_FILENAME,
                    },
                    "ETag": CONTENT_ETAG,
                },
                "content": {CSV_TYPE: {"schema": {"type": "string", "description": CSV_ROWS}}},
            }
        }
    )
    @blp.alt_response(422, description="A bad date or `min_hands`, or `to` before `from`.")
    @_auth_doc("No such season.")
    @operation("getStandingsCsv", "Standings")
    def get(self, query: dict[str, Any], season_id: str) -> Any:
        """The season's standings as CSV (RFC 4180), for a spreadsheet.

        The rows of `getStandings`, one line each. An operation of its own, answering only
        `text/csv`, so that a client generated for JSON never meets CSV."""
        answer = league.standings(
            principal(), season_id, query["date_from"], query["date_to"], query["min_hands"]
        )
        return _csv(answer, season_id)


def _csv(answer: dict[str, Any], season_id: str) -> Response:
    return Response(
        league.standings_csv(answer["rows"], current_language()),
        mimetype=CSV_TYPE,
        headers={"Content-Disposition": f'attachment; filename="standings-{season_id}.csv"'},
    )


@blp.route("/players/<string:player_id>/stats")
class PlayerStats(MethodView):
    @blp.response(200, PlayerStatsSchema)
    @_auth_doc("No such player.")
    @operation("getPlayerStats", "Players")
    def get(self, player_id: str) -> dict[str, Any]:
        """A player's career and seasons (admin or read-only token, or the token of an open
        table he sits at).

        The career has one entry per variant; each entry and each season shows the counts, the
        contract mix, win rates and, for seasons, the rating."""
        return league.player_stats(principal(), player_id)


@blp.route("/clubs/<string:club_id>/export")
class ClubExport(MethodView):
    @conditional(ignoring=("exported_at",))
    @blp.response(
        200,
        ClubExportSchema,
        headers={
            "Content-Disposition": {
                "schema": {"type": "string"},
                "description": '`attachment; filename="club-<club_id>.json"`.',
            },
            "ETag": CONTENT_ETAG,
        },
    )
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc("No such club.")
    @operation("exportClub", "Backup")
    def get(self, club_id: str) -> Response:
        """Export the club's full backup (admin or read-only token).

        Players, seasons, tables and every hand record with all its revisions;
        `POST /api/v1/clubs/import` restores it."""
        response = cast(
            Response, current_app.json.response(backup.export_club(principal(), club_id))
        )
        response.headers["Content-Disposition"] = f'attachment; filename="club-{club_id}.json"'
        return response


@blp.route("/clubs/import")
class ClubImport(MethodView):
    @blp.response(201, ImportedClubSchema)
    @blp.doc(
        requestBody={
            "required": True,
            "description": "A club's export document, up to 16 MiB.",
            "content": {"application/json": {"schema": ClubExportSchema}},
        }
    )
    @blp.alt_response(
        400,
        description="The JSON nests deeper than the app allows or holds "
        "a number with too many digits.",
    )
    @blp.alt_response(413, description="The file is larger than 16 MiB.")
    @blp.alt_response(
        422,
        description="The file is not JSON, is truncated, or is not a "
        "consistent club export; nothing is imported.",
    )
    @operation("importClub", "Backup")
    def post(self) -> Any:
        """Import a club's export into a new club (no token needed).

        Everything gets new ids; every hand is settled again and checked against the balances
        in the file. All or nothing. The answer carries the new club's admin token, this once
        only."""
        answer = backup.import_club(read_export(request.get_data()))
        return (
            answer,
            201,
            {"Cache-Control": "no-store", "Location": f"/api/v1/clubs/{answer['id']}"},
        )
