"""Table streams opened before Flask.

After a restart or a power cut at a club night every phone opens its table's stream at once:
thousands of openings. Each is a request on a worker's thread, and through Flask (routing,
hooks, the ORM session, two queries, the answer) it took that thread for a millisecond or
more, and the writes queued behind them. The usual opening is answered here instead, as WSGI,
with three short reads on a pinned connection (``table_versions.PinnedVersionReader``), and
behind the service's worker its connection is handed to the worker's event loop
(``stream_hub.StreamHub``) like Flask's:

- ``GET /api/v1/tables/{id}/events`` with a bearer token (``Authorization``) or a stream ticket
  (``ticket``), and optionally ``after`` or ``Last-Event-ID``;
- the token is live (as ``fast_reads``: not revoked, no use to note) or the ticket opens this
  stream; the address may still have tokens checked and is within the read limits (counted
  here, once); the token reaches the table;
- the worker's change feed listens already, and the token and the address are within their
  streams (``hub.reserve``);
- the stream is fresh (its ``ready`` event), resumes with nothing of its table missed (the
  ``retry:`` line alone), or names an id the club never had (``reload``).

Before each opening the score pad mints a stream ticket (``POST /api/v1/tables/{id}/events/
tickets``, its token as a bearer: EventSource cannot send one): through Flask that cost a
thread 2-3 ms, several times the opening, and after a restart every phone mints one. The bare
ticket request (no query, body, ``Idempotency-Key`` or ``Origin``) is answered here too: the
address may still have tokens checked, the token is within its write limit (counted here, once:
``RateLimits.count_token_write``), live and reaches the table; the answer is Flask's
(``ticket_body``).

Anything else — another path or query, a failed check, events to send on resuming, a HEAD,
a cross-origin request, no worker's hub (the tests' client) — goes on to Flask unchanged, which
answers as it always would. So this path only ever gives an answer Flask would have given
(``tests/api/test_fast_streams.py`` compares them); like the fast polls it carries no
``RateLimit`` headers.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs

from flask import Flask
from sqlalchemy import bindparam, func, select

from ..i18n import language_headers, negotiate
from ..persistence.outbox import ChangeCursorRow, ChangeEventRow
from ..persistence.table_keeping import TokenRow
from ..services import live
from ..services.auth import (
    TOKEN_COLUMNS,
    Principal,
    digest_of,
    live_principal,
    may_read_table,
    use_is_due,
)
from ..services.live_feed import feed_for
from ..services.table_versions import PinnedVersionReader, TokenFactsRow, can_pin
from .limits import EXTENSION as LIMITS_EXTENSION
from .limits import RateLimits, client_address
from .security import StartResponse, WsgiApp

TABLE_EVENTS_PATH = re.compile(r"/api/v1/tables/([0-9a-f]{32})/events\Z")
TABLE_TICKETS_PATH = re.compile(r"/api/v1/tables/([0-9a-f]{32})/events/tickets\Z")
STREAMS_ENVIRON_KEY = "solo.streams"  # stream_hub.STREAMS_ENVIRON_KEY
_MAX_EVENT_ID = 2**31 - 1
_MAX_TICKET = 512  # schemas.live.StreamQuerySchema's bound

_cursors = ChangeCursorRow.__table__.c
_events = ChangeEventRow.__table__.c
TOKEN_BY_ID = select(*TOKEN_COLUMNS).where(TokenRow.id == bindparam("token_id"))
CLUB_LAST = select(func.coalesce(func.max(_cursors.last_seq), 0)).where(
    _cursors.club_id == bindparam("club_id")
)
# The table's first event after an id (None: it missed nothing).
TABLE_EVENT_AFTER = select(func.min(_events.seq)).where(
    _events.club_id == bindparam("club_id"),
    _events.table_id == bindparam("table_id"),
    _events.seq > bindparam("after"),
)
HEADERS = [
    ("Content-Type", "text/event-stream; charset=utf-8"),
    ("Cache-Control", "no-store"),
    ("X-Accel-Buffering", "no"),
]


def event_id(raw: str) -> int | None:
    """A well-formed event id (digits, at most ``_MAX_EVENT_ID``), or None."""
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 10 or int(raw) > _MAX_EVENT_ID:
        return None
    return int(raw)


class FastStreamOpenings:
    """WSGI middleware: the table streams this worker can open alone, opened here."""

    def __init__(
        self, app: WsgiApp, flask_app: Flask, reader: PinnedVersionReader, limits: RateLimits
    ) -> None:
        self.app = app
        self.config = flask_app.config
        self.reader = reader
        self.limits = limits
        self.feed = feed_for(reader.engine)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        if environ.get("REQUEST_METHOD") == "POST":
            match = TABLE_TICKETS_PATH.match(environ.get("PATH_INFO") or "")
            ticket = None if match is None else self.ticket(environ, match.group(1))
            if ticket is not None:
                start_response(
                    "201 CREATED",
                    [
                        ("Content-Type", "application/json"),
                        ("Content-Length", str(len(ticket))),
                        ("Cache-Control", "no-store"),
                        *self._language(environ),
                    ],
                )
                return [ticket]
            return self.app(environ, start_response)
        hub = environ.get(STREAMS_ENVIRON_KEY)
        if (
            hub is not None
            and environ.get("REQUEST_METHOD") == "GET"
            and "HTTP_ORIGIN" not in environ
        ):
            match = TABLE_EVENTS_PATH.match(environ.get("PATH_INFO") or "")
            if match is not None and self.open(environ, hub, match.group(1)):
                start_response("200 OK", [*HEADERS, *self._language(environ)])
                return iter([environ.pop(_BODY)])
        return self.app(environ, start_response)

    def _language(self, environ: dict[str, Any]) -> list[tuple[str, str]]:
        return language_headers(negotiate(environ.get("HTTP_ACCEPT_LANGUAGE")))

    def open(self, environ: dict[str, Any], hub: Any, table_id: str) -> bool:
        """Open the stream (its first bytes in the environ, the hub told to hold it), or
        False to let Flask answer."""
        query = parse_qs(environ.get("QUERY_STRING") or "", keep_blank_values=True)
        if any(len(values) != 1 for values in query.values()) or set(query) - {"ticket", "after"}:
            return False
        after = self._after(environ, query)
        if after is False:
            return False
        principal = self._principal(environ, query.get("ticket", [None])[0])
        if principal is None or not self.feed.ready(0.0):
            return False  # (Flask waits for the feed to listen)
        row = self.reader.read(table_id)
        if row is None or not may_read_table(principal, row):
            return False
        keys = hub.reserve(
            {
                f"token:{principal.token_id}": int(
                    self.config.get("LIVE_STREAMS_PER_TOKEN", live.DEFAULT_STREAMS_PER_TOKEN)
                ),
                f"address:{client_address(environ)}": int(
                    self.config.get("LIVE_STREAMS_PER_ADDRESS", live.DEFAULT_STREAMS_PER_ADDRESS)
                ),
            }
        )
        if keys is None:
            return False  # Flask answers the 429
        self.feed.attach(hub.publish)
        try:
            opening = self._opening(live.Followed(row.club_id, row.id, row.version), after)
        except BaseException:
            hub.release(keys)
            raise
        if opening is None:
            hub.release(keys)
            return False
        body, last_id = opening
        hub.hold(row.club_id, row.id, last_id, keys)
        environ[_BODY] = body
        return True

    def ticket(self, environ: dict[str, Any], table_id: str) -> bytes | None:
        """The table stream's ticket (``POST …/events/tickets``, the body Flask answers), or
        None to let Flask answer. After a restart every pad mints one before its opening: in
        Flask (the ORM's table and token, the schema) it cost a thread 2-3 ms, several times
        the opening itself. Only a bare request: no query, body, Idempotency-Key or Origin."""
        if (
            environ.get("QUERY_STRING")
            or "HTTP_ORIGIN" in environ
            or "HTTP_IDEMPOTENCY_KEY" in environ
            or environ.get("CONTENT_LENGTH") not in (None, "", "0")
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return None
        digest = digest_of(environ.get("HTTP_AUTHORIZATION"))
        if digest is None or not self.limits.token_checks_allowed(client_address(environ)):
            return None
        if not self.limits.count_token_write(environ):
            return None  # past the write limit: Flask answers the 429 (counted once, here)
        token = self.reader.read_token(digest)
        principal = live_principal(token, digest)
        if principal is None or token is None or use_is_due(token):
            return None  # unknown, revoked, a failed read, a use to note: Flask answers
        row = self.reader.read(table_id)
        if row is None or not may_read_table(principal, row):
            return None
        return ticket_body(token.id, token.token_hash, f"/api/v1/tables/{row.id}/events")

    def _after(self, environ: dict[str, Any], query: dict[str, list[str]]) -> int | None | bool:
        """The id to resume after (None: a fresh stream), or False for Flask to answer (a bad
        one, named there). ``Last-Event-ID`` wins over ``after``, as in Flask's view."""
        raw = (environ.get("HTTP_LAST_EVENT_ID") or "").strip()
        if not raw:
            if "after" not in query:
                return None
            raw = query["after"][0]
        found = event_id(raw)
        return False if found is None else found

    def _principal(self, environ: dict[str, Any], ticket: str | None) -> Principal | None:
        if not self.limits.count_read(environ):
            return None  # past a read limit: Flask answers the 429 (counted once, here)
        if ticket is not None:
            token_id = live.ticket_token_id(ticket) if len(ticket) <= _MAX_TICKET else None
            found = token_id and self.reader.read_one(TOKEN_BY_ID, token_id=token_id)
            row = TokenFactsRow(*found) if found else None
            if row is None or row.revoked_at is not None:
                return None
            if not live.ticket_opens(ticket, row.token_hash, environ.get("PATH_INFO") or ""):
                return None
            return Principal(row.id, row.kind, row.club_id, row.table_id)
        digest = digest_of(environ.get("HTTP_AUTHORIZATION"))
        if digest is None or not self.limits.token_checks_allowed(client_address(environ)):
            return None
        token = self.reader.read_token(digest)
        principal = live_principal(token, digest)
        if principal is None or token is None or use_is_due(token):
            return None  # unknown, revoked, a failed read, a use to note: Flask answers
        return principal

    def _opening(self, target: live.Followed, after: int | None) -> tuple[bytes, int] | None:
        """The stream's first bytes and the last id they cover, as ``live.open_stream`` gives
        them, when they need no events; None for Flask to answer. The club's last number is
        read before the table's events, as there."""
        found = self.reader.read_one(CLUB_LAST, club_id=target.club_id)
        if found is None:
            return None
        club_last = int(found[0])
        if after is None:
            return live.ready_opening(target, club_last), club_last
        if after > club_last:
            return live.reload_opening(target, club_last, "unknown-id"), club_last
        missed = self.reader.read_one(
            TABLE_EVENT_AFTER, club_id=target.club_id, table_id=target.table_id, after=after
        )
        if missed is None or missed[0] is not None:
            return None  # a failed read, or events to send: Flask reads and sends them
        return live.RETRY, club_last


_BODY = "solo.fast_streams.body"


def ticket_body(token_id: str, token_hash: str, path: str) -> bytes:
    """``live.mint_ticket``'s answer as Flask's JSON gives it (the schema's order, compact, a
    final newline), from the token's row read here instead of the ORM's."""
    answer = live.ticket_for(token_id, token_hash, path)
    return json.dumps(answer, separators=(",", ":")).encode() + b"\n"


def init_app(app: Flask, engine: Any) -> None:
    """Call after ``limits.init_app`` and before ``security.init_app`` (whose envelope must
    wrap this)."""
    app.config.setdefault("FAST_STREAMS", True)
    if not app.config["FAST_STREAMS"] or not can_pin(engine):
        return
    app.wsgi_app = FastStreamOpenings(  # type: ignore[method-assign]
        app.wsgi_app, app, PinnedVersionReader(engine), app.extensions[LIMITS_EXTENSION]
    )
