"""Table polls answered before Flask.

Phones at a table poll ``GET /api/v1/tables/{id}`` between hands, mostly with
``If-None-Match``; it is the most frequent request by far. When this worker can already
answer it, it does so here, as WSGI, without Flask's request context, routing and hooks:

- the token's row, read now by its digest on the pinned connection, is not revoked
  (``auth.live_principal``: a revocation committed anywhere is refused by the next poll) and
  needs no note of its use (``auth.use_is_due``: Flask notes it);
- its client address may still have tokens checked (the failed-token rate limit), and it is
  within the read limits, counted here (once: Flask's hook finds the count done); these
  answers carry no RateLimit headers, a refused one goes on to Flask, whose 429 does;
- the table exists and the token reaches it (one indexed query on a pinned connection,
  ``PinnedVersionReader``; on PostgreSQL, a poll naming the version this worker last heard of
  needs no version query: ``services/version_feed.py``);
- and the answer is a 304 (the ETag matches, by Werkzeug's rules) or a 200 whose body is
  already rendered at the current version in the client's language (``rendered.py``), with
  the ``Content-Language`` and ``Vary: Accept-Language`` Flask gives it.

Anything else — no, unknown or revoked token, a refused address, a missing or forbidden table,
a body not yet rendered, a query string, a cross-origin request (CORS is Flask's), HEAD, a failing
connection — goes on to Flask unchanged, which answers as it always would. So this path only
ever gives an answer Flask would have given (``tests/api/test_fast_reads.py`` compares them),
and the envelope (``security.py``) adds the same headers and access line to both.
``FAST_READS = False`` turns it off, ``TABLE_VERSION_FEED = False`` the feed alone. A write to a
table through this worker (any other method on its paths) makes the feed forget the table, so
the worker's next poll of it asks the database.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask
from werkzeug.http import parse_etags

from ..i18n import language_headers, negotiate
from ..services.auth import digest_of, live_principal, may_read_table, use_is_due
from ..services.table_versions import PinnedVersionReader, can_pin
from ..services.version_feed import VersionFeed, feed_for
from .limits import EXTENSION as LIMITS_EXTENSION
from .limits import RateLimits, client_address
from .rendered import RenderedViews, rendered_views_of
from .security import StartResponse, WsgiApp

# Table ids are 32 hex digits; any other segment is Flask's to answer (404 and all).
TABLE_PATH = re.compile(r"/api/v1/tables/([0-9a-f]{32})\Z")
# A table's own path or any below it (its hands, its closing): where a write may change it.
TABLE_PATHS = re.compile(r"/api/v1/tables/([0-9a-f]{32})(?:/|\Z)")

Answer = tuple[str, list[tuple[str, str]], bytes]


class FastTableReads:
    """WSGI middleware: the table polls this worker can answer alone, answered here."""

    def __init__(
        self,
        app: WsgiApp,
        reader: PinnedVersionReader,
        rendered: RenderedViews,
        limits: RateLimits,
        feed: VersionFeed | None = None,
    ) -> None:
        self.app = app
        self.reader = reader
        self.rendered = rendered
        self.limits = limits
        self.feed = feed

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        method = environ.get("REQUEST_METHOD")
        if method == "GET" and not environ.get("QUERY_STRING") and "HTTP_ORIGIN" not in environ:
            match = TABLE_PATH.match(environ.get("PATH_INFO") or "")
            answer = None if match is None else self.answer(environ, match.group(1))
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body] if body else []
        elif self.feed is not None and method not in ("GET", "HEAD", "OPTIONS"):
            match = TABLE_PATHS.match(environ.get("PATH_INFO") or "")
            if match is not None:
                try:
                    return self.app(environ, start_response)  # committed by its return
                finally:
                    self.feed.forget(match.group(1))
        return self.app(environ, start_response)

    def answer(self, environ: dict[str, Any], table_id: str) -> Answer | None:
        """The status, headers and body Flask would answer, or None to let Flask answer."""
        digest = digest_of(environ.get("HTTP_AUTHORIZATION"))
        if digest is None:
            return None
        if not self.limits.count_read(environ):
            return None  # past a read limit: Flask answers the 429 (counted once, here)
        if not self.limits.token_checks_allowed(client_address(environ)):
            return None
        token = self.reader.read_token(digest)
        principal = live_principal(token, digest)
        if principal is None or token is None or use_is_due(token):
            return None  # unknown, revoked, a failed read, a use to note: Flask answers
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        feed = self.feed
        if feed is not None and if_none_match:
            known = feed.current(table_id)
            # Only the exact ETag heard last: any other may be newer than what was heard.
            if (
                known is not None
                and if_none_match == f'"{known.version}"'
                and may_read_table(principal, known)
            ):
                return "304 NOT MODIFIED", [("ETag", if_none_match)], b""
        mark = 0 if feed is None else feed.mark()
        row = self.reader.read(table_id)
        if row is None or not may_read_table(principal, row):
            return None
        if feed is not None:
            feed.read_from_database(row, mark)
        etag = f'"{row.version}"'
        # A phone sends back the ETag it was given: that exact text needs no parsing.
        if if_none_match and (
            if_none_match == etag or parse_etags(if_none_match).contains(str(row.version))
        ):
            return "304 NOT MODIFIED", [("ETag", etag)], b""
        language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
        body = self.rendered.get(table_id, row.version, language)
        if body is None:
            return None
        return (
            "200 OK",
            [
                ("ETag", etag),
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(body))),
                *language_headers(language),
            ],
            body,
        )


def init_app(app: Flask, engine: Any) -> None:
    """Call after ``limits.init_app`` and before ``security.init_app`` (whose envelope must
    wrap this)."""
    app.config.setdefault("FAST_READS", True)
    app.config.setdefault("TABLE_VERSION_FEED", True)
    if not app.config["FAST_READS"] or not can_pin(engine):
        return  # an in-memory SQLite database is not shared by a second connection
    app.wsgi_app = FastTableReads(  # type: ignore[method-assign]
        app.wsgi_app,
        PinnedVersionReader(engine),
        rendered_views_of(app),
        app.extensions[LIMITS_EXTENSION],
        feed_for(engine, app.config["TABLE_VERSION_FEED"]),
    )
