"""Club nights over HTTP: start one under its club, change who is present, draw each series
(which opens its tables), read the night and its live standings, close it.

The club's admin token writes; its read-only tokens (and the token of a table of the night)
read. docs/league.md, "The club night", says the rules; the pages that show a night (the big
screen, the table cards) are in ``night_pages.py``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, request
from flask.views import MethodView

from ..i18n import current_language
from ..i18n.marks import N_
from ..schemas.nights import (
    DrawnSeriesSchema,
    DrawSchema,
    LengthenedSeriesSchema,
    NightCloseSchema,
    NightCreateSchema,
    NightHistorySchema,
    NightMoneySchema,
    NightRateSchema,
    NightSchema,
    NightStandingsSchema,
    PresenceSchema,
    SeriesLengthSchema,
)
from ..services import nights
from ..services.errors import NotFound
from .auth import documents_token, principal
from .caching import CONTENT_ETAG, conditional
from .openapi import operation
from .paging import Answer, Blueprint

blp = Blueprint(
    "nights",
    __name__,
    url_prefix="/api/v1",
    description="Club nights: several tables in series, a seat draw per series, standings",
)


_auth_doc = partial(documents_token, blp)


READERS = "Not this club's admin or read-only token, nor a token of one of the night's tables."


@blp.route("/clubs/<string:club_id>/nights")
class Nights(MethodView):
    @blp.response(200, NightSchema(many=True))
    @_auth_doc("Not this club's admin or read-only token.", "No such club.")
    @operation("listNights", "Nights")
    def get(self, club_id: str) -> list[dict[str, Any]]:
        """The club's nights, newest first (admin or read-only token)."""
        return nights.list_nights(principal(), club_id)

    @blp.arguments(NightCreateSchema())
    @blp.response(201, NightSchema)
    @blp.alt_response(
        409, description="A new player's name was given to the club by another request meanwhile."
    )
    @blp.alt_response(
        422,
        description="A field is wrong: an unknown, retired or repeated player, a new player's "
        "name the club has, a season of another club or game, a count out of range.",
    )
    @_auth_doc("Not this club's admin token.", "No such club.")
    @operation("startNight", "Nights")
    def post(self, body: dict[str, Any], club_id: str) -> Answer:
        """Start a club night of one game with the players present (admin token).

        New players are added to the club on the spot. Nothing is drawn yet: draw the first
        series with `POST /api/v1/nights/{night_id}/series`."""
        night = nights.start_night(
            principal(),
            club_id,
            body["name"],
            body["variant"],
            body["players"],
            body["new_players"],
            body["hands_per_series"],
            body["series"],
            body["season_id"],
            body["rate"],
            body["fee_basis"],
        )
        return night, 201, {"Location": f"/api/v1/nights/{night['id']}"}


@blp.route("/nights/<string:night_id>")
class Night(MethodView):
    @conditional
    @blp.response(200, NightSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc(READERS, "No such night.")
    @operation("getNight", "Nights")
    def get(self, night_id: str) -> dict[str, Any]:
        """A club night: its players, their presence, its rate, each series' draw and tables."""
        return nights.get_night(principal(), night_id)

    @blp.arguments(NightRateSchema())
    @blp.response(200, NightSchema)
    @blp.alt_response(422, description="A bad rate (the field is named).")
    @_auth_doc("Not the admin token of the night's club.", "No such night.")
    @operation("updateNight", "Nights")
    def patch(self, body: dict[str, Any], night_id: str) -> dict[str, Any]:
        """Change the night's rate (admin token), open or closed: kept in the night's history;
        each table of the night that still carries the previous rate takes the new one (kept
        in the table's history), a table whose players agreed another rate keeps it."""
        return nights.change_rate(principal(), night_id, body["rate"])


@blp.route("/nights/<string:night_id>/history")
class NightHistory(MethodView):
    @blp.response(200, NightHistorySchema)
    @_auth_doc(READERS, "No such night.")
    @operation("getNightHistory", "Nights")
    def get(self, night_id: str) -> dict[str, Any]:
        """Every change of the night's rate, oldest first, with who and when."""
        return nights.night_history(principal(), night_id)


NO_MONEY = N_(
    "The club night plays for no money: give it a rate with PATCH /api/v1/nights/%(night)s."
)


@blp.route("/nights/<string:night_id>/settle-up")
class NightSettleUp(MethodView):
    @blp.response(200, NightMoneySchema)
    @_auth_doc(READERS, "No such night, or the night has no rate.")
    @operation(
        "getNightSettleUp",
        "Nights",
        "Integers in cents with the currency code; `final` once the night is closed.",
    )
    def get(self, night_id: str) -> dict[str, Any]:
        """The night's settle-up in money: each player's money over all the night's tables,
        the fewest payments that clear it, the table fees apart (docs/rules.md)."""
        money = nights.night_settle_up(principal(), night_id)
        if money is None:
            raise NotFound(NO_MONEY, values={"night": night_id})
        return money


@blp.route("/nights/<string:night_id>/settle-up.csv")
class NightSettleUpCsv(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The night's settle-up as CSV.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": '`attachment; filename="night-settle-up-<night_id>.csv"`.',
                    }
                },
                "content": {
                    "text/csv": {
                        "schema": {
                            "type": "string",
                            "description": "RFC 4180, a header line, then one line per row: "
                            + ", ".join(f"`{c}`" for c in nights.NIGHT_SETTLE_UP_COLUMNS)
                            + ". `kind` is `net` (each player's money; `pool` for the pool "
                            "the club keeps), `payment` or `fee`; `cents` in the minor unit "
                            "of `currency`.",
                        }
                    }
                },
            }
        }
    )
    @_auth_doc(READERS, "No such night, or the night has no rate.")
    @operation(
        "getNightSettleUpCsv",
        "Nights",
        "The rows of `getNightSettleUp`, one line each; money in cents with its currency.",
    )
    def get(self, night_id: str) -> Response:
        """The night's settle-up as CSV, for a spreadsheet in the reader's language
        (`Accept-Language`): English is RFC 4180 with the columns' names; German and Spanish
        separate cells with `;`, write a decimal comma and name the columns in their words."""
        body = nights.night_settle_up_csv(principal(), night_id, current_language())
        if body is None:
            raise NotFound(NO_MONEY, values={"night": night_id})
        return Response(
            body,
            mimetype="text/csv",
            headers={
                "Content-Disposition": f'attachment; filename="night-settle-up-{night_id}.csv"'
            },
        )


@blp.route("/nights/<string:night_id>/standings.csv")
class StandingsCsv(MethodView):
    @blp.doc(
        responses={
            "200": {
                "description": "The night's standings (and money) as CSV.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": '`attachment; filename="night-<night_id>.csv"`.',
                    }
                },
                "content": {
                    "text/csv": {
                        "schema": {
                            "type": "string",
                            "description": "A header line, then one line per player in the "
                            "standings' order: `rank`, `player_id`, `name`, `series_1` … (each "
                            "series' result), `total`; a night with a rate adds `pool_chips`, "
                            "`money` and `fees` (amounts of `currency`, such as `-0.15`) and "
                            "`currency`. In English, commas and a decimal point; in German and "
                            "Spanish (`Accept-Language`), semicolons, a decimal comma and the "
                            "columns in their words. Whole numbers stay whole; text that a "
                            "spreadsheet would run as a formula starts with `'`.",
                        }
                    }
                },
            }
        }
    )
    @_auth_doc(READERS, "No such night.")
    @operation("getNightStandingsCsv", "Nights")
    def get(self, night_id: str) -> Response:
        """The night's standings and money as CSV, for a spreadsheet in the reader's language."""
        body = nights.night_standings_csv(principal(), night_id, current_language())
        return Response(
            body,
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="night-{night_id}.csv"'},
        )


@blp.route("/nights/<string:night_id>/presence")
class Presence(MethodView):
    @blp.arguments(PresenceSchema())
    @blp.response(200, NightSchema)
    @blp.alt_response(
        409, description="The night is closed, or a new player's name was taken meanwhile."
    )
    @blp.alt_response(422, description="An unknown or retired player, or one listed twice.")
    @_auth_doc("Not the admin token of the night's club.", "No such night.")
    @operation("changePresence", "Nights")
    def patch(self, body: dict[str, Any], night_id: str) -> dict[str, Any]:
        """Late arrivals and early leavers (admin token): the next draw seats those present."""
        return nights.change_presence(
            principal(), night_id, body["arrived"], body["new_players"], body["left"]
        )


@blp.route("/nights/<string:night_id>/series")
class Series(MethodView):
    @blp.arguments(DrawSchema())
    @blp.response(201, DrawnSeriesSchema)
    @blp.alt_response(
        409,
        description="The night is closed, all its series are drawn, or a table of the "
        "previous series has not played its hands (`urn:solo:problem:night-tables-pending`).",
    )
    @blp.alt_response(
        422,
        description="No tables of the sizes the game allows seat the players present "
        "(field `present`), or the seed is out of range.",
    )
    @_auth_doc("Not the admin token of the night's club.", "No such night.")
    @operation("drawSeries", "Nights")
    def post(self, body: dict[str, Any], night_id: str) -> Answer:
        """Draw the next series (admin token): close the previous series' tables, seat the
        players present at new tables, avoiding earlier tablemates.

        The same players, history and `seed` give the same draw. Each table's link: `POST
        /api/v1/tables/{table_id}/token`, or the cards page `/nights/{night_id}/cards`."""
        series = nights.draw_series(principal(), night_id, body["seed"], body["early"])
        return series, 201, {"Location": f"{request.path.rsplit('/', 1)[0]}"}


@blp.route("/nights/<string:night_id>/series/<int:number>")
class SeriesLength(MethodView):
    @blp.arguments(SeriesLengthSchema())
    @blp.response(200, LengthenedSeriesSchema)
    @blp.alt_response(
        409, description="The night is closed, or the series' tables (or the table) are closed."
    )
    @blp.alt_response(
        422,
        description="`hands` fewer than a table has played, or `table` not of the series.",
    )
    @_auth_doc("Not the admin token of the night's club.", "No such night, or no such series.")
    @operation("setSeriesLength", "Nights")
    def patch(self, body: dict[str, Any], night_id: str, number: int) -> dict[str, Any]:
        """Lengthen (or shorten) a series, set its clock or end it (admin token): its open
        tables, or only its table `table`, play `hands` hands in all, are to end at `ends_at`,
        or (`end`) play no hand beyond those recorded. A table refuses a hand beyond its
        series' length (`urn:solo:problem:series-over`) until then."""
        return nights.change_series(principal(), night_id, number, **body)


@blp.route("/nights/<string:night_id>/close")
class Close(MethodView):
    @blp.arguments(NightCloseSchema())
    @blp.response(200, NightSchema)
    @blp.alt_response(
        409,
        description="The night is closed already, or a table has not played its series' "
        "hands (`urn:solo:problem:night-tables-pending`; `early: true` closes anyway).",
    )
    @_auth_doc("Not the admin token of the night's club.", "No such night.")
    @operation("closeNight", "Nights")
    def post(self, body: dict[str, Any], night_id: str) -> dict[str, Any]:
        """Close the night and its open tables (admin token)."""
        return nights.close_night(principal(), night_id, body["early"])


@blp.route("/nights/<string:night_id>/standings")
class Standings(MethodView):
    @conditional
    @blp.response(200, NightStandingsSchema, headers={"ETag": CONTENT_ETAG})
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @_auth_doc(READERS, "No such night.")
    @operation("getNightStandings", "Nights")
    def get(self, night_id: str) -> dict[str, Any]:
        """The night's standings, live from its tables' hands, and each table's progress.

        Poll it with `If-None-Match`: a 304 while nothing changed."""
        return nights.night_standings(principal(), night_id)
