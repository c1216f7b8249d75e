"""Media types in and out: a body that is not JSON is 415, an ``Accept`` the service cannot
meet is 406 (RFC 9110 §15.5.16, §15.5.7), both problems naming what to send instead.

Only the API's own paths (``/api/…``, ``/healthz``) are checked: the pad, the docs page and
the OpenAPI document answer in their own types. An answer is JSON everywhere, or CSV where an
operation says so (a season's standings, a table's settle-up, a night's standings and
settle-up, a tournament's ranking list), or server-sent events (the streams); a problem is
``application/problem+json``, which an ``Accept`` of JSON takes as well.
"""

from __future__ import annotations

from flask import Flask, request
from werkzeug.exceptions import NotAcceptable, UnsupportedMediaType

from ..i18n import described
from ..rules import Phrase

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
JSON = "application/json"
# What an endpoint answers in, by endpoint name, where that is not JSON alone.
ANSWERS = {
    "league.Standings": [JSON, "text/csv"],
    "league.StandingsCsv": ["text/csv"],
    "tables.SettleUpCsv": ["text/csv"],
    "nights.StandingsCsv": ["text/csv"],
    "nights.NightSettleUpCsv": ["text/csv"],
    "tournaments.RankingCsv": ["text/csv"],
    "live.TableEvents": ["text/event-stream"],
    "live.ClubEvents": ["text/event-stream"],
}


def _api_path(path: str) -> bool:
    return path.startswith("/api/") or path in ("/healthz", "/readyz")


def _has_body() -> bool:
    if request.content_length:
        return True
    # A chunked body: no length to tell by (the body guard has read it if it was JSON).
    return bool(request.environ.get("wsgi.input_terminated")) and bool(request.get_data(cache=True))


def check_media_types() -> None:
    if not _api_path(request.path):
        return
    if request.method in BODY_METHODS and not request.is_json and _has_body():
        sent = request.mimetype or "no Content-Type"
        raise described(
            UnsupportedMediaType(),
            Phrase(
                "The body must be JSON, sent with `Content-Type: %(json)s` (this one came with "
                "%(sent)s).",
                json=JSON,
                sent=sent if request.mimetype else Phrase("no Content-Type"),
            ),
        )
    accept = request.accept_mimetypes
    if request.headers.get("Accept") and accept:
        offers = [*ANSWERS.get(request.endpoint or "", [JSON]), "application/problem+json"]
        if accept.best_match(offers) is None:
            raise described(
                NotAcceptable(),
                Phrase(
                    "This operation answers %(offers)s; the `Accept` header allows neither "
                    "(%(accept)s).",
                    offers=" or ".join(o for o in offers if o != "application/problem+json"),
                    accept=request.headers["Accept"][:200],
                ),
            )


def register(app: Flask) -> None:
    app.before_request(check_media_types)
