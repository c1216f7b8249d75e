"""The requests answered before Flask: a table's poll, a page of its hands, its stream's ticket
and its stream's opening, when this worker can give Flask's answer alone.

They are the requests a table sends most (the pad's sheet reads its hands), or all at once
after a restart, and Flask's request
context and the ORM's session cost several times the answer itself (``bench.app_cost``, figures
in docs/architecture.md). Here each is answered as plain WSGI, by the very functions Flask's view
answers it with, only with reads on a connection this worker's thread keeps out of the pool
(``table_versions.PinnedVersionReader``, lenient: a failed read answers None):

- the route is Flask's (``app.url_map``: its endpoints ``tables.Table``, ``tables.Hands``,
  ``live.TableEvents`` and ``live.TableStreamTickets``), and Flask takes the one matched here for
  any request that goes on to it (``RoutedRequestContext``);
- the rate limits count the request as Flask's hook does, once (``RateLimits.admit``), and its
  answer carries the headers Flask's hooks give it: ``RateLimit-Policy`` and ``RateLimit``
  (``RateLimits.answered``), ``Content-Language`` and ``Vary`` (``i18n.say_the_language``);
- the token is checked by ``auth.authenticate`` (a stream's ticket by ``live.ticket_principal``),
  the table looked up by ``tables.table_version``;
- the answer is the view's own (``answers.py``): ``poll_answer`` (a 304, or the body already
  rendered at the current version in the client's language: ``rendered.py``),
  ``hands_answer`` (a 304, or the page read by ``hands.hand_page`` on the pinned connection,
  every hand of it already rendered in the client's language, with the view's ``X-Pagination``
  and ``Link``: ``schemas/paging.py``'s ``pagination_headers``; its ``page`` and
  ``page_size`` loaded by the view's schema, ``PAGE_QUERY``),
  ``live.mint_ticket`` and ``ticket_answer``, ``held_opening`` and ``stream_answer`` (a fresh
  stream, one that missed nothing of its table, or one naming an id its club never had).

Whatever refuses — a refused limit, no, unknown or revoked token, a missing or forbidden table, a
body or a hand not yet rendered, page arguments the view's schema refuses (or any other query
argument, or one given twice), events to send on resuming, a failed read, a cross-origin
request (CORS is Flask's), HEAD, a ticket request with a body or an ``Idempotency-Key``, a
stream without the worker's hub (the tests' client) — sends the request on to Flask unchanged,
which answers as it always would (the limits' word already given, not counted twice). So this
path only ever gives the answer Flask would give (``tests/api/test_early_answers.py`` compares
every header and body, with the limits on), and the envelope (``security.py``) adds the same
headers and access line to both. ``FAST_READS = False`` turns the polls and the lists of hands
off, ``FAST_STREAMS = False`` the tickets and openings, ``TABLE_VERSION_FEED = False`` the
version feed (on PostgreSQL: a poll naming the version this worker last heard of needs no
version query, ``services/version_feed.py``). A write through this worker to a route of a
table makes the feed forget the table, so the worker's next poll of it asks the database.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import lru_cache, partial
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, Response
from flask.ctx import RequestContext
from marshmallow import ValidationError
from sqlalchemy import bindparam, func, select
from werkzeug.exceptions import HTTPException

from ..i18n import negotiate, say_the_language
from ..metrics import ENDPOINT_ENVIRON
from ..persistence.outbox import ChangeEventRow
from ..rules import RuleViolation
from ..schemas.live import StreamQuerySchema
from ..schemas.paging import PAGE_QUERY, pagination_headers
from ..services import live
from ..services.auth import TOKEN_BY_ID, TokenFacts, authenticate
from ..services.errors import ServiceError
from ..services.hands import hand_page
from ..services.live_feed import feed_for as change_feed_for
from ..services.outbox import LAST_SEQ
from ..services.table_versions import PinnedVersionReader, TokenFactsRow, can_pin, reader_for
from ..services.tables import table_version
from ..services.version_feed import VersionFeed
from ..services.version_feed import feed_for as version_feed_for
from .answers import (
    STREAMS_ENVIRON_KEY,
    hands_answer,
    held_opening,
    poll_answer,
    stream_answer,
    ticket_answer,
)
from .limits import EXTENSION as LIMITS_EXTENSION
from .limits import RateLimits, client_address
from .rendered import rendered_hands_of, rendered_views_of
from .security import StartResponse, WsgiApp

log = logging.getLogger(__name__)

POLL = "tables.Table"
HANDS = "tables.Hands"
OPENING = "live.TableEvents"
TICKET = "live.TableStreamTickets"
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_STREAM_QUERY = StreamQuerySchema()
_PAGE_ARGUMENTS = frozenset({"page", "page_size"})

# The table's first event after an id (None: it missed nothing); a resumed stream that missed
# some is Flask's to send.
_events = ChangeEventRow.__table__.c
TABLE_EVENT_AFTER = select(func.min(_events.seq)).where(
    _events.club_id == bindparam("club_id"),
    _events.table_id == bindparam("table_id"),
    _events.seq > bindparam("after"),
)


ROUTE_ENVIRON = "solo.route"
"""The WSGI environ's key of the route ``EarlyAnswers`` matched (the rule and its arguments),
which Flask's request context then takes instead of matching the path again
(``RoutedRequestContext``): matched twice, the route cost a hand about 10 µs more."""


class RoutedRequestContext(RequestContext):
    """Flask's request context, its route the one ``EarlyAnswers`` matched, if it did."""

    def match_request(self) -> None:
        routed = self.request.environ.pop(ROUTE_ENVIRON, None)
        if routed is None:
            super().match_request()
            return
        self.request.url_rule, self.request.view_args = routed


class Declined(Exception):
    """Flask answers this request."""


Handler = Callable[[dict[str, Any], str, str], Response]


class PinnedStreamReads:
    """A stream opening's reads (``live.StreamReads``) on the pinned connection; declined
    when it has events to send (Flask reads and sends them) or a read fails."""

    def __init__(self, reader: PinnedVersionReader) -> None:
        self.reader = reader

    def club_last(self, club_id: str) -> int:
        found = self.reader.read_one(LAST_SEQ, club_id=club_id)
        if found is None:
            raise Declined
        return int(found[0])

    def events_after(
        self, club_id: str, after: int, limit: int, table_id: str | None
    ) -> list[dict[str, Any]]:
        missed = self.reader.read_one(
            TABLE_EVENT_AFTER, club_id=club_id, table_id=table_id, after=after
        )
        if missed is None or missed[0] is not None:
            raise Declined
        return []


class EarlyAnswers:
    """WSGI middleware: the polls, tickets and openings this worker can answer alone."""

    def __init__(
        self,
        app: WsgiApp,
        flask_app: Flask,
        engine: Any,
        polls: bool,
        streams: bool,
        feed: VersionFeed | None = None,
    ) -> None:
        self.app = app
        self.routes = flask_app.url_map.bind("localhost")
        self.config = flask_app.config
        self.json = flask_app.json
        self.engine = engine
        self.reader = reader_for(engine)
        self.flask_app = flask_app
        self.rendered = rendered_views_of(flask_app)
        self.limits: RateLimits = flask_app.extensions[LIMITS_EXTENSION]
        self.feed = feed
        self.changes = change_feed_for(engine)
        self.stream_reads = PinnedStreamReads(self.reader)
        self.handlers: dict[tuple[str, str], Handler] = {}
        if polls:
            self.handlers[("GET", POLL)] = self.poll
            self.handlers[("GET", HANDS)] = self.hands
        if streams:
            self.handlers[("GET", OPENING)] = self.open
            self.handlers[("POST", TICKET)] = self.ticket

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        method = environ.get("REQUEST_METHOD") or ""
        path = environ.get("PATH_INFO") or ""
        try:
            rule, arguments = self.routes.match(path, method, return_rule=True)
        except HTTPException:  # no route, another method, a redirect: Flask's to answer
            return self.app(environ, start_response)
        endpoint = rule.endpoint
        environ[ENDPOINT_ENVIRON] = endpoint  # the metrics' route, whoever answers
        if path.isascii():  # as Flask reads it (it decodes a WSGI path's bytes as UTF-8)
            environ[ROUTE_ENVIRON] = (rule, dict(arguments))
        handler = self.handlers.get((method, endpoint))
        if handler is not None and "HTTP_ORIGIN" not in environ:
            response = self.answer(handler, environ, endpoint, arguments["table_id"])
            if response is not None:
                return response(environ, start_response)
        elif self.feed is not None and method in _WRITES and "table_id" in arguments:
            try:
                return self.app(environ, start_response)  # committed by its return
            finally:
                self.feed.forget(arguments["table_id"])
        return self.app(environ, start_response)

    def answer(
        self, handler: Handler, environ: dict[str, Any], endpoint: str, table_id: str
    ) -> Response | None:
        """Flask's answer, with the headers its hooks give it; None to let Flask answer."""
        if self.limits.admit(environ, endpoint) is not None:
            return None  # Flask answers the 429 (counted once, here)
        language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"))
        try:
            response = handler(environ, table_id, language)
        except (Declined, ServiceError, RuleViolation, ValidationError):
            return None  # Flask answers: the refusal, or what it alone can
        except Exception:  # a bug or a failure here: Flask answers, and reports its own
            log.warning("an early answer failed; Flask answers", exc_info=True)
            return None
        say_the_language(response, environ.get("PATH_INFO") or "", language)
        for name, value in self.limits.answered(environ, response.status_code):
            response.headers[name] = value
        return response

    def _principal_of(self, environ: dict[str, Any]) -> Any:
        return authenticate(environ.get("HTTP_AUTHORIZATION"), self.reader.read_token, self.engine)

    def _token_by_id(self, token_id: str) -> TokenFacts | None:
        found = self.reader.read_one(TOKEN_BY_ID, token_id=token_id)
        return None if found is None else TokenFactsRow(*found)

    def poll(self, environ: dict[str, Any], table_id: str, language: str) -> Response:
        """``GET /tables/{id}``: a 304, or the body already rendered."""
        who = self._principal_of(environ)
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        feed = self.feed
        if feed is not None and if_none_match:
            known = feed.current(table_id)
            # Only the exact ETag heard last: any other may be newer than what was heard.
            if known is not None and if_none_match == f'"{known.version}"':
                row = table_version(who, table_id, lambda _: known)
                answer = poll_answer(table_id, row.version, if_none_match, self.rendered, language)
                if answer is not None:
                    return answer
        mark = 0 if feed is None else feed.mark()
        row = table_version(who, table_id, self.reader.read)
        if feed is not None:
            feed.read_from_database(row, mark)
        answer = poll_answer(table_id, row.version, if_none_match, self.rendered, language)
        if answer is None:
            raise Declined  # not rendered yet at this version: Flask renders it
        return answer

    def hands(self, environ: dict[str, Any], table_id: str, language: str) -> Response:
        """``GET /tables/{id}/hands``: a 304, or a page whose every hand is already rendered
        in ``language`` (each row read as the rendering was made from: ``RenderedHands``)."""
        number, size, arguments = page_arguments(environ.get("QUERY_STRING") or "")
        who = self._principal_of(environ)
        page = hand_page(who, table_id, number, size, self._pinned_rows)
        answer = hands_answer(
            page,
            environ.get("HTTP_IF_NONE_MATCH"),
            rendered_hands_of(self.flask_app),  # (looked up each time: a bench drops it)
            language,
            None,
        )
        if answer is None:
            raise Declined  # a hand not rendered in this language: Flask renders it
        # request.path, as the view's Link gives it: an existing table's path is ASCII.
        path = "/" + (environ.get("PATH_INFO") or "").lstrip("/")
        answer.headers.update(pagination_headers(number, size, page.total, path, dict(arguments)))
        return answer

    def _pinned_rows(self, statement: Any, parameters: Mapping[str, Any]) -> list[Any]:
        found = self.reader.read_rows(statement, parameters)
        if found is None:
            raise Declined
        return found

    def ticket(self, environ: dict[str, Any], table_id: str, language: str) -> Response:
        """``POST /tables/{id}/events/tickets``, a bare one (a body, or an ``Idempotency-Key``
        whose answer Flask keeps, is Flask's)."""
        if (
            "HTTP_IDEMPOTENCY_KEY" in environ
            or environ.get("CONTENT_LENGTH") not in (None, "", "0")
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            raise Declined
        read: dict[str, TokenFacts] = {}  # the token's row, read once for both

        def token(digest: str) -> TokenFacts | None:
            row = self.reader.read_token(digest)
            if row is not None:
                read[row.id] = row
            return row

        who = authenticate(environ.get("HTTP_AUTHORIZATION"), token, self.engine)
        target = live.followed(who, table_id, None, self.reader.read)
        path = f"/api/v1/tables/{table_id}/events"
        return ticket_answer(self.json, live.mint_ticket(who, target, path, read.get))

    def open(self, environ: dict[str, Any], table_id: str, language: str) -> Response:
        """``GET /tables/{id}/events``, held by the worker's hub."""
        hub = environ.get(STREAMS_ENVIRON_KEY)
        if hub is None or not self.changes.ready(0.0):
            raise Declined  # (Flask waits for the feed to listen)
        query = parse_qs(environ.get("QUERY_STRING") or "", keep_blank_values=True)
        if any(len(values) != 1 for values in query.values()) or set(query) - {"ticket", "after"}:
            raise Declined
        arguments = _STREAM_QUERY.load({name: values[0] for name, values in query.items()})
        ticket = arguments.get("ticket")
        if ticket is not None:
            who = live.ticket_principal(ticket, environ["PATH_INFO"], self._token_by_id)
        else:
            who = self._principal_of(environ)
        target = live.followed(who, table_id, None, self.reader.read)
        after = live.resume_after(environ.get("HTTP_LAST_EVENT_ID"), arguments.get("after"))
        address = client_address(environ)
        spend = None if ticket is None else partial(live.spend_ticket, ticket, self.engine)
        opening = held_opening(
            hub, self.changes, who, target, after, self.config, address, self.stream_reads, spend
        )
        return stream_answer(opening)


@lru_cache(maxsize=256)
def page_arguments(query_string: str) -> tuple[int, int, tuple[tuple[str, str], ...]]:
    """A page of a list's ``page`` and ``page_size``, as the view's schema loads them from the
    query (``schemas/paging.py``'s ``PAGE_QUERY``), and the arguments as given (the ``Link``
    repeats them in their order). Refused (``ValidationError``: Flask answers the 422), or
    Declined for any other argument or one given twice (what the view's ``Link`` would repeat
    of them is Flask's to write). Kept per query string: a sheet asks the same few, and
    loading them cost about as much as the page's answer."""
    query = parse_qs(query_string, keep_blank_values=True)
    if any(len(values) != 1 for values in query.values()) or set(query) - _PAGE_ARGUMENTS:
        raise Declined
    arguments = tuple((name, values[0]) for name, values in query.items())
    paging = PAGE_QUERY.load(dict(arguments))
    return paging.page, paging.page_size, arguments


def init_app(app: Flask, engine: Any) -> None:
    """Call after ``limits.init_app`` and before ``security.init_app`` (whose envelope must
    wrap this)."""
    app.config.setdefault("FAST_READS", True)
    app.config.setdefault("FAST_STREAMS", True)
    app.config.setdefault("TABLE_VERSION_FEED", True)
    polls, streams = bool(app.config["FAST_READS"]), bool(app.config["FAST_STREAMS"])
    if not (polls or streams) or not can_pin(engine):
        return  # an in-memory SQLite database is not shared by a second connection
    feed = version_feed_for(engine, app.config["TABLE_VERSION_FEED"]) if polls else None
    app.wsgi_app = EarlyAnswers(  # type: ignore[method-assign]
        app.wsgi_app, app, engine, polls, streams, feed
    )
    app.request_context = partial(RoutedRequestContext, app)  # type: ignore[method-assign]
