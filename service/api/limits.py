"""Limits on what one client may send: rate limits (Flask-Limiter) and a guard on JSON bodies.

Rate limits, each a Flask-Limiter rate string (``"30 per minute"``; an empty string turns that
limit off), set in the config or the environment (``SOLO_`` + the key):

- ``RATELIMIT_AUTH_FAILURES``: failed token checks (answers 401 to a request that sent an
  ``Authorization`` header) per client address. Once spent, every request of that address
  that sends one is refused until the window moves on, good token or not.
- ``RATELIMIT_CLUB_CREATION``: ``POST /api/v1/clubs`` per client address.
- ``RATELIMIT_WRITES_PER_TOKEN``: POST, PUT, PATCH and DELETE per bearer token (counted under a
  digest of the token, never the token itself).

Past a limit the answer is a 429 problem with ``Retry-After`` (``api/errors.py``). The counters
live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: per worker process, so with N
workers a client may get up to N times a limit; ``redis://host:6379`` shares them). If that
storage fails, the limits fall back to memory rather than failing the request. ``RATELIMIT_
ENABLED`` turns all of it off; it is off by default when the app is ``TESTING``, so only the
tests that set it see limits.

The body guard answers 413 for a body over ``MAX_CONTENT_LENGTH`` (64 KiB), chunked ones
included (Werkzeug would silently cut those short), and 400 for a JSON body that Python's
parser cannot take safely (nested deeper than ``MAX_JSON_DEPTH``, or an integer of over 4300
digits), before any view parses it; a string holding NUL (``\\u0000``, which the databases
cannot store) is a 422 naming its field.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from typing import Any

from flask import Flask, current_app, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnprocessableEntity

from ..services.auth import bearer_token

EXTENSION = "solo-limiter"
MAX_JSON_DEPTH = 32
WRITE_METHODS = ("post", "put", "patch", "delete")
# Both make a new club (and its admin token) without a token: creating one, importing one.
CLUB_CREATION_ENDPOINTS = ("clubs.Clubs", "league.ClubImport")

DEFAULTS: dict[str, Any] = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_STRATEGY": "moving-window",
    "RATELIMIT_SWALLOW_ERRORS": True,
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_AUTH_FAILURES": "30 per minute",
    "RATELIMIT_CLUB_CREATION": "10 per hour",
    "RATELIMIT_WRITES_PER_TOKEN": "60 per minute",
}


# --- what each limit counts ------------------------------------------------------------------

def _presents_a_token() -> bool:
    """A request that offers credentials, to any endpoint (those added later included): only
    these can guess at tokens, so only these count towards, and are refused by, the limit on
    failed token checks. A request with none is answered 401 and moves nothing."""
    return "Authorization" in request.headers


def token_key() -> str:
    """The writes-per-token counter's key: a digest of the token, never the token itself."""
    token = bearer_token(request.headers.get("Authorization")) or ""
    return "token-" + hashlib.sha256(b"solo-rate-limit:" + token.encode()).hexdigest()[:32]


def _limits(config: Any) -> list[ApplicationLimit]:
    return [
        ApplicationLimit(
            config["RATELIMIT_AUTH_FAILURES"], key_function=get_remote_address,
            scope="auth-failures", exempt_when=lambda: not _presents_a_token(),
            deduct_when=lambda response: response.status_code == 401,
            error_message="Too many failed token checks from this address."),
        ApplicationLimit(
            config["RATELIMIT_CLUB_CREATION"], key_function=get_remote_address,
            scope="club-creation", methods=["post"],
            exempt_when=lambda: request.endpoint not in CLUB_CREATION_ENDPOINTS,
            error_message="Too many clubs created from this address."),
        ApplicationLimit(
            config["RATELIMIT_WRITES_PER_TOKEN"], key_function=token_key,
            scope="writes", methods=list(WRITE_METHODS),
            exempt_when=lambda: bearer_token(request.headers.get("Authorization")) is None,
            error_message="Too many changes with this token."),
    ]


def retry_after_seconds(default: int = 60) -> int:
    """Seconds until the limit this request broke lets a request through again."""
    limiter = current_app.extensions.get(EXTENSION)
    current = limiter.current_limit if limiter is not None else None
    if current is None:
        return default
    try:
        reset_at = float(current.window[0])
    except Exception:  # the storage failed between the check and now
        return default
    return max(1, math.ceil(reset_at - time.time()))


# --- the JSON guard --------------------------------------------------------------------------

def json_depth_over(value: Any, limit: int) -> bool:
    """True when ``value`` nests objects/arrays more than ``limit`` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _guard_body() -> None:
    if request.method.lower() not in WRITE_METHODS:
        return
    if request.content_length is None and request.environ.get("wsgi.input_terminated"):
        # A chunked body: Werkzeug stops reading at the limit without a word (the JSON then
        # looks truncated: 400). Whatever is left past the limit makes it a 413.
        limit = request.max_content_length
        data = request.get_data(cache=True)
        if limit is not None and len(data) >= limit and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    if not request.is_json:
        return
    data = request.get_data(cache=True)  # over MAX_CONTENT_LENGTH: 413, as it should be
    if not data:
        return
    try:
        value = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return  # not JSON: the view's parser answers 400 as it always has
    except RecursionError:
        raise BadRequest(f"The request body is nested more than {MAX_JSON_DEPTH} levels "
                         "deep.") from None
    except ValueError:  # an integer of more digits than Python converts
        raise BadRequest("The request body holds a number with too many digits.") from None
    if json_depth_over(value, MAX_JSON_DEPTH):
        raise BadRequest(f"The request body is nested more than {MAX_JSON_DEPTH} levels deep.")
    if b"\\u0000" in data:  # JSON can only carry NUL escaped; no field takes one
        nul_paths = _paths_with_nul(value)
        if nul_paths:
            error = UnprocessableEntity()
            error.data = {"messages": {"json": {
                path: ["Must not contain the NUL character (\\u0000)."] for path in nul_paths}}}
            raise error


def _paths_with_nul(value: Any) -> list[str]:
    """The JSON paths (``hand.called.rank``, ``seats.2``) of strings or keys holding a NUL,
    which neither SQLite's ``length()`` nor PostgreSQL's text can take."""
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack and len(found) < 10:
        item, path = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                found.append(path or "body")
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = f"{path}.{key}" if path else str(key)
                if "\x00" in key:
                    found.append(child_path.replace("\x00", "\\u0000"))
                stack.append((child, child_path.replace("\x00", "\\u0000")))
        elif isinstance(item, list):
            stack.extend((child, f"{path}.{i}" if path else str(i))
                         for i, child in enumerate(item))
    return sorted(found)


# --- wiring and documentation ----------------------------------------------------------------

def init_app(app: Flask) -> None:
    """Call after ``security.init_app``. One Limiter per app: tests build several apps."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    limiter = Limiter(get_remote_address, application_limits=_limits(app.config))
    limiter.init_app(app)
    app.extensions[EXTENSION] = limiter
    app.before_request(_guard_body)  # after the rate limits: refuse cheaply first


def _problem(spec: Any, description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/problem+json": {
                "schema": spec.components.get_ref("schema", "Problem")}}}


def document(spec: Any) -> None:
    """Add to the OpenAPI document what every operation shares: 400 and 413 where there is a
    body, 429 with ``Retry-After`` where a rate limit applies (and X-Pagination as the JSON it
    is). Call after the blueprints."""
    pagination = spec.components.headers.get("PAGINATION")
    if pagination is not None and "schema" in pagination:
        # flask-smorest sends X-Pagination as a JSON text: say so, rather than an object in
        # OpenAPI's default `simple` header style.
        pagination["content"] = {"application/json": {"schema": pagination.pop("schema")}}
    for path, operations in spec._paths.items():
        for method, operation in operations.items():
            if method not in ("get", "put", "post", "delete", "patch"):
                continue
            responses = operation.setdefault("responses", {})
            if "requestBody" in operation:
                responses.setdefault("400", _problem(
                    spec, f"The body is not JSON, is nested more than {MAX_JSON_DEPTH} levels "
                          "deep or holds a number with too many digits."))
                responses.setdefault("413", _problem(spec, "The body is larger than 64 KiB."))
            if operation.get("security") or (path, method) == ("/api/v1/clubs", "post"):
                limited = _problem(spec, "Too many requests (failed token checks or club "
                                         "creations from this address, or changes with this "
                                         "token); try again after `Retry-After` seconds.")
                limited["headers"] = {"Retry-After": {
                    "description": "Seconds to wait before trying again.",
                    "schema": {"type": "integer", "minimum": 1}}}
                responses.setdefault("429", limited)
