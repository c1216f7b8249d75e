"""A tournament's public results over HTTP, no token: the JSON read (``getPublicResults``) and
the page that follows it live (``/results/<public_id>``, a shell whose script polls the JSON).

Both are made to be cached by the shipped nginx (deploy/nginx.conf, docs/scaling.md): the read
says ``Cache-Control: public, max-age=1, stale-while-revalidate=…`` to browsers and, to nginx
alone, ``X-Accel-Expires: @<this second>`` (valid until the second ends), so that however many
follow a tournament, the service makes its results about once a second, and a follower sees a
hand within its poll period and a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint as PageBlueprint
from flask import Flask, Response
from flask.views import MethodView

from ..i18n import gettext, translations
from ..i18n.marks import N_, Nn_
from ..json_text import answer_text
from ..rules.tournament import display_name
from ..schemas.public_results import (
    DisplayNamesQuerySchema,
    DisplayNamesSchema,
    PublicResultsSchema,
)
from ..services import public_results
from .caching import CONTENT_ETAG, conditional
from .night_pages import _language, _pad_text, _shell
from .openapi import operation
from .paging import Blueprint

POLL_SECONDS = 0.75
"""How often the page asks (with ``If-None-Match``). A hand reaches a follower after the rest of
nginx's second (its copy's life), the making of the next copy and the rest of the follower's
period: U(0, 1 s) + U(0, 0.75 s) + the making, whose p99 is 1.63 s plus the making (with 1 s it
would be 1.86 s plus the making: no room under the 2 s of issue 42). docs/scaling.md."""
STALE_SECONDS = 5

blp = Blueprint(
    "public_results",
    __name__,
    url_prefix="/api/v1",
    description="A tournament's public results",
)

CACHE_CONTROL = {
    "schema": {"type": "string"},
    "description": "`public, max-age=1, stale-while-revalidate=5`: any cache may keep it a second.",
}


def cached_a_second(view: Callable[..., Any]) -> Callable[..., Any]:
    """A public answer's caching: a second for browsers and shared caches; for nginx
    (``X-Accel-Expires``, which it keeps to itself) until the current second ends, so that
    its copy is at most a second old whenever it was made."""

    @wraps(view)
    def cached(*args: Any, **kwargs: Any) -> Response:
        response: Response = view(*args, **kwargs)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = (
                f"public, max-age=1, stale-while-revalidate={STALE_SECONDS}"
            )
            response.headers["X-Accel-Expires"] = f"@{int(time.time())}"
        return response

    return cached


@blp.route("/public/results/<string:public_id>")
class PublicResults(MethodView):
    @cached_a_second
    @conditional
    @blp.response(
        200, PublicResultsSchema, headers={"ETag": CONTENT_ETAG, "Cache-Control": CACHE_CONTROL}
    )
    @blp.alt_response(304, description="Not modified since the ETag given.")
    @blp.alt_response(404, description="No results published at this address (or taken back).")
    @operation(
        "getPublicResults",
        "Tournaments",
        "No token: the address is the tournament's `public_id`, published by its director "
        "(`updateTournament` with `public_results`). Names as each entrant chose "
        "(`display`); no contacts, clubs or ids. Cacheable for a second.",
    )
    def get(self, public_id: str) -> dict[str, Any]:
        """A tournament's public results: the standings per series and in total, each table's
        progress in the current series, the prize places if shown."""
        return public_results.public_results(public_id)


@blp.route("/public/display-names")
class DisplayNames(MethodView):
    @blp.arguments(DisplayNamesQuerySchema(), location="query")
    @blp.response(200, DisplayNamesSchema)
    @operation("previewDisplayNames", "Tournaments")
    def get(self, query: dict[str, Any]) -> dict[str, str]:
        """A name as the public results would show it each way (`display`): what the
        registration page previews. No token."""
        return {way: display_name(query["name"], way) for way in ("full", "initial")}


# --- the page -------------------------------------------------------------------------------

bp = PageBlueprint("public_pages", __name__)

# The page's words, worded by its script (static/nights/results.js) as the admin screen's are:
# the shell gives them in the request's language, keyed by their English.
WORDS = (
    N_("Results"),
    N_("Standings"),
    N_("Rank"),
    N_("Player"),
    N_("S%(number)s"),
    N_("Total"),
    N_("Prize"),
    N_("Tables"),
    N_("Table %(number)s"),
    N_("done"),
    N_("%(played)s of %(hands)s hands"),
    N_("last hand %(time)s"),
    N_("withdrawn"),
    N_("Series %(number)s of %(planned)s"),
    N_("Waiting for the first draw."),
    N_("The tournament is over: final standings."),
    N_("Updated %(time)s"),
    N_("No connection: showing the last standings."),
    N_("These results are not published (any more)."),
)
HANDS = Nn_("%(played)s hand", "%(played)s hands")


@bp.get("/results/<string:public_id>")
def page(public_id: str) -> Response:
    """The public results page's shell (no token): its script polls ``getPublicResults``."""
    language = _language()
    words: dict[str, Any] = {_pad_text(m): _pad_text(gettext(m, language)) for m in WORDS}
    catalog, (one, other) = translations(language), HANDS
    # Its plural forms by CLDR's categories, as the pad's tn reads them (night_pages does too).
    words[_pad_text(one)] = {
        "one": _pad_text(catalog.ngettext(one, other, 1)),
        "other": _pad_text(catalog.ngettext(one, other, 2)),
    }
    return _shell(
        language,
        gettext(N_("Results"), language),
        "results",
        {
            "results": f"/api/v1/public/results/{public_id}",
            "every": str(POLL_SECONDS),
            "words": answer_text(words),
        },
        gettext(N_("Loading the standings…"), language),
    )


def register(app: Flask) -> None:
    app.register_blueprint(bp)
