"""Validators for the reads a program polls (a season's standings, the club, its export), and
the headers of a deprecated parameter.

``conditional``: the answer's ETag is a digest of its body (Werkzeug's ``add_etag``), weak
(``W/"…"``): it changes whenever a byte of the content does, by construction, and is the same
for the gzip and Brotli codings the compression layer may give the same content (which keeps
ETags as they are, see docs/delivery.md), so weak is what it honestly is. ``If-None-Match``
(weak comparison, RFC 9110) then gets a 304 without a body. It saves the bytes on the wire,
not the work: the answer is made before it is compared.

``deprecated``: RFC 9745 ``Deprecation`` (a structured date, ``@<epoch seconds>``), RFC 8594
``Sunset`` (an HTTP date) and a ``Link`` to what replaces it (``rel="successor-version"``) on
every answer to a request that used a deprecated parameter; docs/api.md has the policy and
docs/api-changelog.md the dates.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from typing import Any, cast

from flask import Response, current_app, request
from werkzeug.http import http_date

from ..json_text import canonical_text

CONTENT_ETAG = {
    "schema": {"type": "string"},
    "description": 'A weak entity tag (`W/"…"`), a digest of the content: send it as '
    "`If-None-Match` for a 304 while nothing changed.",
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "The ETag last seen; 304 (no body) while the content is the same.",
}


def conditional(view: Callable[..., Any] | None = None, *, ignoring: tuple[str, ...] = ()) -> Any:
    """The view's 200s with a weak content ETag, and a 304 for an ``If-None-Match`` naming it
    (see the module docstring). ``ignoring``: members of a JSON answer left out of the digest,
    the moment it was made (the export's ``exported_at``): two answers that differ only there
    are the same content, which a weak tag says."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @wraps(view)
        def validated(*args: Any, **kwargs: Any) -> Response:
            response = current_app.make_response(view(*args, **kwargs))
            if response.status_code != 200:
                return response
            if ignoring:
                content = {k: v for k, v in response.get_json().items() if k not in ignoring}
                canonical = canonical_text(content)
                response.set_etag(hashlib.sha256(canonical.encode()).hexdigest(), weak=True)
            else:
                response.add_etag(weak=True)
            return cast(Response, response.make_conditional(request))

        return validated

    return decorate if view is None else decorate(view)


@dataclass(frozen=True, slots=True)
class Deprecation:
    """A deprecated parameter: since when, until when it is kept, and what replaces it."""

    since: datetime
    sunset: datetime

    def headers(self, successor: str) -> dict[str, str]:
        return {
            "Deprecation": f"@{int(self.since.timestamp())}",
            "Sunset": http_date(self.sunset),
            "Link": f'<{successor}>; rel="successor-version"',
        }


STANDINGS_FORMAT = Deprecation(
    since=datetime(2026, 12, 1, tzinfo=UTC), sunset=datetime(2027, 6, 1, tzinfo=UTC)
)
"""``getStandings``'s ``format``: ``getStandingsCsv`` replaces ``format=csv`` (and leaving
``format`` out replaces ``format=json``)."""

DEPRECATION_HEADERS = {
    "Deprecation": {
        "schema": {"type": "string", "pattern": "^@[0-9]+$"},
        "description": "RFC 9745: sent when the request used a deprecated parameter; the "
        "moment it was deprecated (`@<seconds since 1970>`).",
    },
    "Sunset": {
        "schema": {"type": "string"},
        "description": "RFC 8594: with `Deprecation`, the HTTP date after which the "
        "deprecated parameter may stop working.",
    },
    "Link": {
        "schema": {"type": "string"},
        "description": 'With `Deprecation`: `<…>; rel="successor-version"`, the request '
        "to make instead.",
    },
}
