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
- Strings in URL paths are 1 to 64 characters (``bound_path_strings``, before the routes).
- ``TRUSTED_PROXIES`` (env ``SOLO_TRUSTED_PROXIES``): how many reverse proxies in front set
  ``X-Forwarded-For``/``-Proto``; the client address (and so the rate limits) follow them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import secrets
import sys
import time
from datetime import UTC, datetime
from typing import Any

from flask import Flask, Response, g, request
from werkzeug.routing import Map, UnicodeConverter

REQUEST_ID_HEADER = "X-Request-Id"
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
DOCS_ENDPOINT = "api-docs.openapi_swagger_ui"
# Answers that carry a token shown once: no cache may keep a copy.
TOKEN_ENDPOINTS = frozenset({"clubs.Clubs", "tables.Tables"})

# Every string in a URL path (ids: 32 characters) is 1 to 64 characters unless its rule says
# otherwise; flask-smorest writes the bound into the OpenAPI document as maxLength.
PATH_SEGMENT_MAX = 64

ACCESS_LOGGER = "solo.access"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)

log = logging.getLogger(ACCESS_LOGGER)


def request_id() -> str:
    """The current request's id (made on first use, should a hook run before ours)."""
    rid = g.get("request_id")
    if rid is None:
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        rid = incoming if REQUEST_ID_PATTERN.fullmatch(incoming) else secrets.token_hex(16)
        g.request_id = rid
    return str(rid)


def csp_with_inline_scripts(html: bytes) -> str:
    """The strict policy, plus the SHA-256 of each inline script of ``html`` (the docs page)."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode("ascii") + "'"
        for script in _INLINE_SCRIPT.findall(html)
    ]
    directives = dict(CSP_DIRECTIVES)
    directives["script-src"] = " ".join(["'self'", *hashes])
    return "; ".join(f"{k} {v}" for k, v in directives.items())


def _start() -> None:
    g.request_started = time.perf_counter()
    request_id()


def _finish(response: Response) -> Response:
    headers = response.headers
    if request.endpoint == DOCS_ENDPOINT and response.status_code == 200:
        # flask-smorest renders this page from its own template: its one inline script is
        # allowed by hash, never by 'unsafe-inline'.
        headers["Content-Security-Policy"] = csp_with_inline_scripts(response.get_data())
    else:
        headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Frame-Options"] = "DENY"
    if request.endpoint in TOKEN_ENDPOINTS and response.status_code == 201:
        headers["Cache-Control"] = "no-store"
    headers[REQUEST_ID_HEADER] = request_id()
    _log_access(response)
    return response


def _log_access(response: Response) -> None:
    if not log.isEnabledFor(logging.INFO):
        return
    started = g.get("request_started")
    duration = (time.perf_counter() - started) * 1000 if started is not None else None
    entry: dict[str, Any] = {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "event": "access",
        "method": request.method,
        "path": request.path,
        "status": response.status_code,
        "duration_ms": None if duration is None else round(duration, 2),
        "request_id": request_id(),
        "remote_addr": request.remote_addr,
    }
    log.info(json.dumps(entry, ensure_ascii=True, separators=(",", ":")))


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

    CORS(app, resources={r"/api/*": {"origins": origins}}, supports_credentials=False,
         allow_headers=["Authorization", "Content-Type", "If-Match", "If-None-Match",
                        "Idempotency-Key", REQUEST_ID_HEADER],
         expose_headers=["ETag", "Retry-After", "Idempotent-Replayed", "X-Pagination",
                         REQUEST_ID_HEADER],
         max_age=600)


def _configure_proxies(app: Flask) -> None:
    hops = int(app.config.get("TRUSTED_PROXIES") or 0)
    if hops > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


class BoundedString(UnicodeConverter):
    """``<name>`` and ``<string:name>``: at most ``PATH_SEGMENT_MAX`` characters by default,
    none of them a control character; any other segment matches no route (404) and never
    reaches a view or the database."""

    def __init__(self, map: Map, minlength: int = 1, maxlength: int | None = PATH_SEGMENT_MAX,
                 length: int | None = None) -> None:
        super().__init__(map, minlength, maxlength, length)
        # No control characters either (PostgreSQL refuses a NUL in any query parameter).
        self.regex = self.regex.replace("[^/]", "[^/\\x00-\\x1f\\x7f]", 1)


def bound_path_strings(app: Flask) -> None:
    """Call before any route is added: rules pick their converters when they are added."""
    app.url_map.converters["default"] = BoundedString
    app.url_map.converters["string"] = BoundedString


def init_app(app: Flask) -> None:
    """Register before ``limits.init_app``: Flask runs ``after_request`` hooks in reverse, so
    these headers and the access line come last and see the final answer."""
    app.before_request(_start)
    app.after_request(_finish)
    _configure_access_log(app)
    _configure_cors(app)
    _configure_proxies(app)
