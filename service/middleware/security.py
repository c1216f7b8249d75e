"""What every response carries for safety, and the structured access log.

- Security headers on every response: a strict Content-Security-Policy (the Swagger UI page at
  ``/docs`` may also run its one inline script, allowed by its SHA-256 and nothing else),
  ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``, ``X-Frame-Options:
  DENY``; ``Cache-Control: no-store`` on the answers that carry a new token.
- A request id: a sane incoming ``X-Request-Id`` (1-128 of ``[A-Za-z0-9._-]``) is kept, anything
  else is replaced by a fresh one; either way it is echoed in ``X-Request-Id`` and logged.
- One JSON line per request on the ``solo.access`` logger, to stdout (``ACCESS_LOG`` false
  turns it off; a testing app keeps it off and unhandled, for pytest's caplog to turn on):
  time, method, path (never the query string), status, duration, request id, client address.
  Nothing from the headers or the body is logged, so no token can reach the log.
- CORS only when ``CORS_ORIGINS`` (env ``SOLO_CORS_ORIGINS``) names origins; off otherwise.
  When on, every answer carries ``Vary: Origin`` (merged into its ``Vary``).
- Strings in URL paths are 1 to 64 characters (``bound_path_strings``, before the routes).
- ``TRUSTED_PROXIES`` (env ``SOLO_TRUSTED_PROXIES``): the addresses or networks of the reverse
  proxies in front (``127.0.0.1``, ``10.0.0.0/8``), as werkzeug's ProxyFix or gunicorn's
  ``forwarded_allow_ips`` name them: ``X-Forwarded-For``/``-Proto`` are believed only from such
  a peer, and the client address (and so the rate limits) follow them.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import logging
import re
import secrets
import sys
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, request
from werkzeug.routing import Map, UnicodeConverter
from werkzeug.wsgi import get_path_info

from ..json_text import answer_text
from ..logs import request_id_of
from ..metrics import observe_request

REQUEST_ID_HEADER = "X-Request-Id"
REQUEST_ID_ENVIRON = "solo.request_id"
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,128}")

CSP_DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "img-src": "'self' data:",
    "style-src": "'self'",
    "script-src": "'self'",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}
CONTENT_SECURITY_POLICY = "; ".join(f"{k} {v}" for k, v in CSP_DIRECTIVES.items())
HARDENING_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
DOCS_ENDPOINT = "api-docs.openapi_swagger_ui"
# Answers that carry a token shown once: no cache may keep a copy.
TOKEN_ENDPOINTS = frozenset(
    {
        "clubs.Clubs",
        "tables.Tables",
        "league_admin.AdminToken",
        "league_admin.ViewerToken",
        "league_admin.ViewerTokens",
        "league_admin.TableToken",
    }
)

# Every string in a URL path (ids: 32 characters) is 1 to 64 characters unless its rule says
# otherwise; flask-smorest writes the bound into the OpenAPI document as maxLength.
PATH_SEGMENT_MAX = 64

ACCESS_LOGGER = "solo.access"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)

log = logging.getLogger(ACCESS_LOGGER)

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def request_id() -> str:
    """The current request's id (set by the envelope; made here for a request that did not
    pass through it, as a test's request context)."""
    environ = request.environ
    rid = environ.get(REQUEST_ID_ENVIRON)
    if rid is None:
        rid = environ[REQUEST_ID_ENVIRON] = _request_id(environ)
    return str(rid)


def _request_id(environ: dict[str, Any]) -> str:
    incoming = environ.get("HTTP_X_REQUEST_ID", "")
    return incoming if REQUEST_ID_PATTERN.fullmatch(incoming) else secrets.token_hex(16)


def csp_with_inline_scripts(html: bytes) -> str:
    """The strict policy, plus the SHA-256 of each inline script of ``html`` (the docs page)."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode("ascii") + "'"
        for script in _INLINE_SCRIPT.findall(html)
    ]
    directives = dict(CSP_DIRECTIVES)
    directives["script-src"] = " ".join(["'self'", *hashes])
    return "; ".join(f"{k} {v}" for k, v in directives.items())


class Envelope:
    """WSGI middleware around the Flask app: the request id, the headers every answer carries
    and the access line, for every answer, the ones made before Flask (``early.py``)
    included. Out here the headers are a few list appends and the line is written once the
    status is known; in Flask hooks the same cost several times as much on every request."""

    def __init__(
        self,
        app: WsgiApp,
        answer_error: Callable[[BaseException], WsgiApp] | None = None,
        vary_origin: bool = False,
    ) -> None:
        self.app = app
        # The error layer's answer to an exception that escaped the app (api/errors.py).
        self.answer_error = answer_error
        # With CORS on, an answer depends on the request's Origin (its Access-Control-* are
        # there or not): every answer says so, or a cache could hand a browser another's.
        self.vary_origin = vary_origin

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        started = time.perf_counter()
        rid = environ[REQUEST_ID_ENVIRON] = _request_id(environ)
        with request_id_of(rid):  # every log line written for the request carries it
            return self._answer(environ, start_response, started, rid)

    def _answer(
        self, environ: dict[str, Any], start_response: StartResponse, started: float, rid: str
    ) -> Any:
        statuses: list[str] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            # A view may set its own policy (the docs page); every other answer has ours.
            if not any(name.lower() == "content-security-policy" for name, _ in headers):
                headers.append(("Content-Security-Policy", CONTENT_SECURITY_POLICY))
            headers.extend(HARDENING_HEADERS)
            headers.append((REQUEST_ID_HEADER, rid))
            if self.vary_origin:
                _vary_on_origin(headers)
            statuses.append(status)
            return start_response(status, headers, exc_info)

        try:
            body = self.app(environ, start)
        except Exception as error:  # escaped Flask (a teardown): the error layer answers
            if self.answer_error is None:
                raise
            exc_info = sys.exc_info()  # a second start_response carries it (PEP 3333)
            body = self.answer_error(error)(
                environ, lambda status, headers, _info=None: start(status, headers, exc_info)
            )
        if statuses:
            status = int(statuses[-1][:3])
            observe_request(environ, status, started)
            if log.isEnabledFor(logging.INFO):
                _log_access(environ, status, started, rid)
        return body


def _vary_on_origin(headers: list[tuple[str, str]]) -> None:
    """Add ``Origin`` to the answer's ``Vary`` (one field, merged), unless it is there."""
    for index, (name, value) in enumerate(headers):
        if name.lower() == "vary":
            fields = [part.strip().lower() for part in value.split(",")]
            if "origin" not in fields and "*" not in fields:
                headers[index] = (name, f"{value}, Origin")
            return
    headers.append(("Vary", "Origin"))


def _log_access(environ: dict[str, Any], status: int, started: float, rid: str) -> None:
    """One JSON line, handed to the logger's handlers without the caller lookup ``log.info``
    makes. That halves what the line costs, which is a tenth of a poll's time in the app (the
    line's record carries no file or line number: it says where it comes from by its logger's
    name)."""
    now = datetime.now(UTC).isoformat(timespec="milliseconds").removesuffix("+00:00")
    line = answer_text(
        {
            "ts": f"{now}Z",
            "event": "access",
            "method": environ.get("REQUEST_METHOD"),
            "path": "/" + get_path_info(environ).lstrip("/"),  # never the query string
            "status": status,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "request_id": rid,
            "remote_addr": environ.get("REMOTE_ADDR"),
        }
    )
    log.handle(log.makeRecord(log.name, logging.INFO, "", 0, line, (), None))


def _finish(response: Response) -> Response:
    """What depends on the endpoint: the docs page's policy, no caching of new tokens."""
    if request.endpoint == DOCS_ENDPOINT and response.status_code == 200:
        # flask-smorest renders this page from its own template: its one inline script is
        # allowed by hash, never by 'unsafe-inline'.
        response.headers["Content-Security-Policy"] = csp_with_inline_scripts(response.get_data())
    elif request.endpoint in TOKEN_ENDPOINTS and response.status_code == 201:
        response.headers["Cache-Control"] = "no-store"
    return response


def _configure_access_log(app: Flask) -> None:
    """``ACCESS_LOG`` (default: on, but off when testing) switches the access lines."""
    if app.testing:
        if log.level == logging.NOTSET:  # leave a level a test has set (caplog) alone
            log.setLevel(logging.INFO if app.config.get("ACCESS_LOG") else logging.WARNING)
        return  # no handler: pytest's caplog reads the records
    log.setLevel(logging.INFO if app.config.get("ACCESS_LOG", True) else logging.WARNING)
    if log.handlers:
        return  # a second app in the same process adds no second handler
    handler = logging.StreamHandler(sys.stdout)
    handler.setFormatter(logging.Formatter("%(message)s"))
    log.addHandler(handler)
    log.propagate = False


def cors_origins(app: Flask) -> list[str]:
    raw = app.config.get("CORS_ORIGINS") or []
    if isinstance(raw, str):
        raw = raw.split(",")
    return [str(origin).strip() for origin in raw if str(origin).strip()]


def _configure_cors(app: Flask) -> None:
    origins = cors_origins(app)
    if not origins:
        return
    from flask_cors import CORS

    CORS(
        app,
        resources={r"/api/*": {"origins": origins}},
        supports_credentials=False,
        allow_headers=[
            "Authorization",
            "Content-Type",
            "If-Match",
            "If-None-Match",
            "Idempotency-Key",
            REQUEST_ID_HEADER,
        ],
        expose_headers=[
            "ETag",
            "Retry-After",
            "RateLimit",
            "RateLimit-Policy",
            "Idempotent-Replayed",
            "Dry-Run",
            "X-Pagination",
            REQUEST_ID_HEADER,
        ],
        max_age=600,
    )


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(value: Any) -> tuple[Network, ...]:
    """``TRUSTED_PROXIES``: the proxies' addresses or networks, comma-separated (``127.0.0.1``,
    ``10.0.0.0/8,::1``) or a list; empty (or ``0``) trusts none. A count of hops (the old
    setting) is refused: it trusted whoever connected, so anyone reaching the service directly
    could name any address."""
    if value is None or value == "" or value == 0 or value == "0":
        return ()
    if isinstance(value, int) or str(value).strip().isdigit():  # bool is an int too
        raise ValueError(
            "TRUSTED_PROXIES names the proxies' addresses or networks (127.0.0.1, "
            f"10.0.0.0/8), not a count of them: {value!r}"
        )
    parts = value.split(",") if isinstance(value, str) else [str(part) for part in value]
    try:
        return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in parts if p.strip())
    except ValueError as error:
        raise ValueError(f"TRUSTED_PROXIES: {error}") from None


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class TrustedProxies:
    """WSGI middleware: the client's address from ``X-Forwarded-For`` (and the scheme from
    ``X-Forwarded-Proto``), believed only when the peer is one of the trusted proxies. The
    client is the rightmost address of the header that is not a trusted proxy's (each proxy
    appends the one it was reached from; anything left of that the client may have written
    itself). From any other peer both headers are ignored: its own address is the client's."""

    def __init__(self, app: WsgiApp, networks: tuple[Network, ...]) -> None:
        self.app = app
        self.networks = networks

    def trusts(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return address is not None and any(address in network for network in self.networks)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        peer = environ.get("REMOTE_ADDR") or ""
        if self.trusts(_address(peer)):
            forwarded = environ.get("HTTP_X_FORWARDED_FOR")
            if forwarded:
                client = peer
                for hop in reversed(forwarded.split(",")):
                    address = _address(hop)
                    if address is None:
                        break  # garbage: stop at the last proxy that said something sane
                    client = str(address)
                    if not self.trusts(address):
                        break
                environ["solo.proxy_peer"] = peer
                environ["REMOTE_ADDR"] = client
            scheme = (environ.get("HTTP_X_FORWARDED_PROTO") or "").split(",")[-1].strip()
            if scheme in ("http", "https"):
                environ["wsgi.url_scheme"] = scheme
        return self.app(environ, start_response)


def _configure_proxies(app: Flask) -> None:
    networks = trusted_networks(app.config.get("TRUSTED_PROXIES"))
    if networks:
        app.wsgi_app = TrustedProxies(app.wsgi_app, networks)  # type: ignore[method-assign]


class BoundedString(UnicodeConverter):
    """``<name>`` and ``<string:name>``: at most ``PATH_SEGMENT_MAX`` characters by default,
    none of them a control character; any other segment matches no route (404) and never
    reaches a view or the database."""

    def __init__(
        self,
        map: Map,
        minlength: int = 1,
        maxlength: int | None = PATH_SEGMENT_MAX,
        length: int | None = None,
    ) -> None:
        super().__init__(map, minlength, maxlength, length)
        # No control characters either (PostgreSQL refuses a NUL in any query parameter).
        self.regex = self.regex.replace("[^/]", "[^/\\x00-\\x1f\\x7f]", 1)


def bound_path_strings(app: Flask) -> None:
    """Call before any route is added: rules pick their converters when they are added."""
    app.url_map.converters["default"] = BoundedString
    app.url_map.converters["string"] = BoundedString


def init_app(app: Flask, answer_error: Callable[[BaseException], WsgiApp] | None = None) -> None:
    """Call after anything else that wraps ``app.wsgi_app`` (the early answers): the envelope
    goes around them, and the proxy fix around the envelope, so the access line and the rate
    limits see the client's address. ``answer_error``: the error layer's answer to whatever
    escapes Flask."""
    app.after_request(_finish)
    app.wsgi_app = Envelope(  # type: ignore[method-assign]
        app.wsgi_app, answer_error, vary_origin=bool(cors_origins(app))
    )
    _configure_access_log(app)
    _configure_cors(app)
    _configure_proxies(app)
