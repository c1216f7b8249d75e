"""Limits on what one client may send: rate limits (the ``limits`` library) and a guard on JSON
bodies.

Rate limits, each a rate string of the ``limits`` library (``"30 per minute"``, several joined
by ``;``; an empty string turns that limit off), set in the config or the environment
(``SOLO_`` + the key):

- ``RATELIMIT_AUTH_FAILURES``: failed token checks (answers 401 to a request that sent an
  ``Authorization`` header) per client address. Once spent, every request of that address
  that sends one is refused until the window moves on, good token or not.
- ``RATELIMIT_CLUB_CREATION``: ``POST /api/v1/clubs`` (and ``/clubs/import``) per client address.
- ``RATELIMIT_WRITES_PER_TOKEN``: POST, PUT, PATCH and DELETE per bearer token (counted under a
  digest of the token, never the token itself).

Past a limit the answer is a 429 problem with ``Retry-After`` (``api/errors.py``). The counters
live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: per worker process, so with N
workers a client may get up to N times a limit; ``redis://host:6379`` shares them), counted by
``RATELIMIT_STRATEGY`` (``moving-window``); ``RATELIMIT_KEY_PREFIX`` names a Redis storage's keys
(``LIMITS`` by default; give each service its own where several share one Redis). If that
storage fails, the limits count in memory
for a while rather than failing the request. ``RATELIMIT_ENABLED`` turns all of it off; it is
off by default when the app is ``TESTING``, so only the tests that set it see limits.

The Flask side is these few hooks rather than Flask-Limiter: that extension resolved and parsed
every limit again on every request, which cost more than the rest of a table read
(bench/profile.py); here the limits are parsed once, when the app is made.

The body guard answers 413 for a body over ``MAX_CONTENT_LENGTH`` (64 KiB), chunked ones
included (Werkzeug would silently cut those short), and 400 for a JSON body that Python's
parser cannot take safely (nested deeper than ``MAX_JSON_DEPTH``, or an integer of over 4300
digits), before any view parses it; a string holding NUL (``\\u0000``, which the databases
cannot store) is a 422 naming its field.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, Response, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import STRATEGIES, RateLimiter
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnprocessableEntity

from ..i18n import described
from ..i18n.marks import N_
from ..rules import Phrase
from ..services.auth import bearer_token

EXTENSION = "solo-rate-limits"
MAX_JSON_DEPTH = 32
WRITE_METHODS = ("post", "put", "patch", "delete")
_WRITE_METHODS_UPPER = frozenset(m.upper() for m in WRITE_METHODS)
# Both make a new club (and its admin token) without a token: creating one, importing one.
CLUB_CREATION_ENDPOINTS = ("clubs.Clubs", "league.ClubImport")
# After the storage fails, count in memory this long before trying it again.
STORAGE_RETRY_SECONDS = 30.0

DEFAULTS: dict[str, Any] = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_STRATEGY": "moving-window",
    "RATELIMIT_AUTH_FAILURES": "30 per minute",
    "RATELIMIT_CLUB_CREATION": "10 per hour",
    "RATELIMIT_WRITES_PER_TOKEN": "60 per minute",
}

log = logging.getLogger("solo.limits")


class RateLimited(Exception):
    """A request past one of the limits; ``retry_after`` seconds until it would pass."""

    def __init__(self, description: str, retry_after: int) -> None:
        super().__init__(description)
        self.description = description
        self.retry_after = retry_after


@dataclass(frozen=True)
class _Limit:
    scope: str
    items: tuple[RateLimitItem, ...]
    message: str


def token_key(token: str) -> str:
    """The writes-per-token counter's key: a digest of the token, never the token itself."""
    return "token-" + hashlib.sha256(b"solo-rate-limit:" + token.encode()).hexdigest()[:32]


def client_address(environ: dict[str, Any]) -> str:
    """The address the per-address limits count under (after any trusted proxy fix)."""
    return environ.get("REMOTE_ADDR") or "127.0.0.1"


def _client_address() -> str:
    return client_address(request.environ)


class RateLimits:
    """The three limits of one app, their counters and the hooks that apply them."""

    def __init__(self, config: Any) -> None:
        self.enabled = bool(config["RATELIMIT_ENABLED"])
        uri = config["RATELIMIT_STORAGE_URI"]
        prefix = config.get("RATELIMIT_KEY_PREFIX")
        options = {"key_prefix": str(prefix)} if prefix and uri.startswith("redis") else {}
        self.storage = cast(Storage, storage_from_string(uri, **options))
        self.fallback = MemoryStorage()
        if config["RATELIMIT_STRATEGY"] not in STRATEGIES:
            raise ConfigurationError(f"RATELIMIT_STRATEGY must be one of {sorted(STRATEGIES)}")
        self.strategy = STRATEGIES[config["RATELIMIT_STRATEGY"]]
        self._limiter: RateLimiter = self.strategy(self.storage)
        self._fallback_limiter: RateLimiter = self.strategy(self.fallback)
        self._storage_failed_at: float | None = None

        def limit(key: str, scope: str, message: str) -> _Limit:
            rates = config[key]
            return _Limit(scope, tuple(parse_many(rates)) if rates else (), message)

        self.auth_failures = limit(
            "RATELIMIT_AUTH_FAILURES",
            "auth-failures",
            N_("Too many failed token checks from this address."),
        )
        self.club_creation = limit(
            "RATELIMIT_CLUB_CREATION",
            "club-creation",
            N_("Too many clubs created from this address."),
        )
        self.writes = limit(
            "RATELIMIT_WRITES_PER_TOKEN", "writes", N_("Too many changes with this token.")
        )

    # --- counting, with the in-memory fallback ----------------------------------------------

    def _call(self, method: str, item: RateLimitItem, *keys: str) -> Any:
        failed_at = self._storage_failed_at
        if failed_at is None or time.monotonic() - failed_at > STORAGE_RETRY_SECONDS:
            try:
                result = getattr(self._limiter, method)(item, *keys)
                self._storage_failed_at = None
                return result
            except Exception:  # the storage is down: never fail the request for it
                log.warning(
                    "rate limit storage failed; counting in memory for %d s",
                    STORAGE_RETRY_SECONDS,
                    exc_info=True,
                )
                self._storage_failed_at = time.monotonic()
        return getattr(self._fallback_limiter, method)(item, *keys)

    def _refuse(self, limit: _Limit, item: RateLimitItem, *keys: str) -> RateLimited:
        try:
            reset_at = float(self._call("get_window_stats", item, *keys).reset_time)
            retry = max(1, math.ceil(reset_at - time.time()))
        except Exception:  # pragma: no cover - both storages failing at once
            retry = int(item.get_expiry())
        log.info("rate limit %s (%s) exceeded", limit.scope, item)
        return RateLimited(limit.message, retry)

    def _spent(self, limit: _Limit, key: str, count: bool) -> RateLimitItem | None:
        """The first of ``limit``'s rates that ``key`` has spent, or None; ``count`` the
        request as one more (``hit``), or only look (``test``: failed token checks count after
        the answer)."""
        for item in limit.items:
            if not self._call("hit" if count else "test", item, limit.scope, key):
                return item
        return None

    def _enforce(self, limit: _Limit, key: str, count: bool = True) -> None:
        """Refuse the request if ``limit`` is spent for ``key``."""
        item = self._spent(limit, key, count)
        if item is not None:
            raise self._refuse(limit, item, limit.scope, key)

    def token_checks_allowed(self, address: str) -> bool:
        """Whether ``address`` may still have a token checked (only looks, counts nothing):
        the fast reads ask this and leave a refused request to the hooks."""
        return not self.enabled or self._spent(self.auth_failures, address, count=False) is None

    # --- the hooks ---------------------------------------------------------------------------

    def before_request(self) -> None:
        if not self.enabled:
            return
        authorization = request.headers.get("Authorization")
        if authorization is not None:  # only requests offering credentials can guess tokens
            self._enforce(self.auth_failures, _client_address(), count=False)
        if request.method not in _WRITE_METHODS_UPPER:
            return
        if request.method == "POST" and request.endpoint in CLUB_CREATION_ENDPOINTS:
            self._enforce(self.club_creation, _client_address())
        token = bearer_token(authorization)
        if token is not None:
            self._enforce(self.writes, token_key(token))

    def after_request(self, response: Response) -> Response:
        if self.enabled and response.status_code == 401 and "Authorization" in request.headers:
            address = _client_address()
            for item in self.auth_failures.items:
                self._call("hit", item, self.auth_failures.scope, address)
        return response

    def reset(self) -> None:
        """Forget every count (tests)."""
        self.storage.reset()
        self.fallback.reset()


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


_TOO_DEEP = Phrase(
    "The request body is nested more than %(depth)s levels deep.", depth=MAX_JSON_DEPTH
)


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
        raise described(BadRequest(), _TOO_DEEP) from None
    except ValueError:  # an integer of more digits than Python converts
        raise BadRequest(N_("The request body holds a number with too many digits.")) from None
    if json_depth_over(value, MAX_JSON_DEPTH):
        raise described(BadRequest(), _TOO_DEEP)
    bad: dict[str, list[str]] = {}
    if b"\\u0000" in data:  # JSON can only carry NUL escaped; no field takes one
        for path in _paths_with(value, _has_nul):
            bad.setdefault(path, []).append("Must not contain the NUL character (\\u0000).")
    if SURROGATE_ESCAPE.search(data):  # a lone one cannot be stored (nor sent as UTF-8)
        for path in _paths_with(value, _has_lone_surrogate):
            bad.setdefault(path, []).append(
                "Must not contain a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)."
            )
    if bad:
        error = UnprocessableEntity()
        # flask-smorest's error handler reads ``data``, which its abort() sets the same way
        error.data = {"messages": {"json": bad}}  # type: ignore[attr-defined]
        raise error


# json.loads joins a surrogate pair into its one character: any surrogate left is alone.
SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_nul(text: str) -> bool:
    return "\x00" in text


def _has_lone_surrogate(text: str) -> bool:
    return _LONE_SURROGATE.search(text) is not None


def _shown(text: str) -> str:
    """A key as a path can show it: NUL and lone surrogates as their JSON escapes."""
    text = text.replace("\x00", "\\u0000")
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _paths_with(value: Any, bad: Any) -> list[str]:
    """The JSON paths (``hand.called.rank``, ``seats.2``) of strings or keys for which
    ``bad(text)`` holds: a NUL, which neither SQLite's ``length()`` nor PostgreSQL's text can
    take, or a lone surrogate, which no UTF-8 encoder takes."""
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack and len(found) < 10:
        item, path = stack.pop()
        if isinstance(item, str):
            if bad(item):
                found.append(path or "body")
        elif isinstance(item, dict):
            for key, child in item.items():
                child_path = _shown(f"{path}.{key}" if path else str(key))
                if bad(key):
                    found.append(child_path)
                stack.append((child, child_path))
        elif isinstance(item, list):
            stack.extend((child, f"{path}.{i}" if path else str(i)) for i, child in enumerate(item))
    return sorted(found)


# --- wiring and documentation ----------------------------------------------------------------


def init_app(app: Flask) -> None:
    """One set of counters per app (tests build several), in ``app.extensions``."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_ENABLED", not app.testing)
    limits = RateLimits(app.config)
    app.extensions[EXTENSION] = limits
    app.before_request(limits.before_request)
    app.after_request(limits.after_request)
    app.before_request(_guard_body)  # after the rate limits: refuse cheaply first


def _problem(spec: Any, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {
            "application/problem+json": {"schema": spec.components.get_ref("schema", "Problem")}
        },
    }


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
                responses.setdefault(
                    "400",
                    _problem(
                        spec,
                        f"The body is not JSON, is nested more than {MAX_JSON_DEPTH} levels "
                        "deep or holds a number with too many digits.",
                    ),
                )
                responses.setdefault("413", _problem(spec, "The body is larger than 64 KiB."))
            if operation.get("security") or (path, method) == ("/api/v1/clubs", "post"):
                limited = _problem(
                    spec,
                    "Too many requests (failed token checks or club "
                    "creations from this address, or changes with this "
                    "token); try again after `Retry-After` seconds.",
                )
                limited["headers"] = {
                    "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {"type": "integer", "minimum": 1},
                    }
                }
                responses.setdefault("429", limited)
