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
  digest of the token, never the token itself) that were *accepted* (answered below 400): a
  write is charged after its answer, so requests that change nothing never spend the allowance
  a table's phones need to record hands. Before the view the allowance is only looked at (a
  spent one refuses); writes answered at once may pass it by the number in flight.
- ``RATELIMIT_UNCHANGED_WRITES_PER_PHONE``: writes with a token that changed nothing — refused
  as malformed or not allowed (400, 403, 404, 405, 413, 415, 422: ``REFUSED_WRITE_STATUSES``),
  or dry runs (``?dry_run=true``) — per *phone*: the token, the client address and the
  ``User-Agent`` together (``phone_key``), so that a broken or hostile phone is stopped (every
  write it sends is refused once its allowance is spent) while the table's other phones, on
  the same Wi-Fi too, record on. Conflicts (409, 412) are not counted: they are phones losing
  an honest race, and change nothing of anyone's allowance.
- ``RATELIMIT_READS_PER_PHONE``, ``RATELIMIT_READS_PER_TOKEN`` and
  ``RATELIMIT_READS_PER_ADDRESS``: GET and HEAD (all but ``/healthz``) per phone (as above), per
  token and per client address, set far above a table's polls, and counted in that order: a
  read refused for its phone spends nothing of its token's or its address's; the fast reads
  count them too (once per request).

Past a limit the answer is a 429 problem with ``Retry-After`` (``api/errors.py``). Every answer
Flask makes to a counted request carries ``RateLimit-Policy`` and ``RateLimit``
(draft-ietf-httpapi-ratelimit-headers: ``"writes";q=60;w=60`` and ``"writes";r=42;t=17``), one
policy per rate of each limit the request was counted under. The answers made before Flask
(``early.py``) are counted and carry them alike: both ask ``RateLimits.admit`` before they
answer and ``RateLimits.answered`` for the headers.

The counters live in ``RATELIMIT_STORAGE_URI`` (``memory://`` by default: per worker process, so
with N workers a client may get up to N times a limit; ``redis://host:6379`` shares them),
counted by ``RATELIMIT_STRATEGY`` (``moving-window``); ``RATELIMIT_KEY_PREFIX`` names a Redis
storage's keys (``LIMITS`` by default; give each service its own where several share one Redis).
Every Redis call is bounded (``RATELIMIT_STORAGE_TIMEOUT``, connecting and reading, no retry);
one that fails opens the ``StoreBreaker``: the limits count in memory, without asking the
storage, for about ``RATELIMIT_STORAGE_RETRY_SECONDS`` (jittered), then one request probes it.
``RateLimits.store`` says which store counts (``/healthz``). ``RATELIMIT_ENABLED`` turns all of
it off; it is off by default when the app is ``TESTING``, so only the tests that set it see
limits.

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
import random
import re
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast
from urllib.parse import parse_qs

from flask import Flask, Response, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import STRATEGIES, RateLimiter
from marshmallow.fields import Boolean
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge, UnprocessableEntity

from ..i18n import described
from ..i18n.marks import N_
from ..metrics import RATE_LIMITED, REDIS_ERRORS
from ..rules import Phrase
from ..schemas.json_numbers import PARSED_BODY, loads, utf8_text
from ..services.auth import bearer_token

EXTENSION = "solo-rate-limits"
MAX_JSON_DEPTH = 32
WRITE_METHODS = ("post", "put", "patch", "delete")
_WRITE_METHODS_UPPER = frozenset(m.upper() for m in WRITE_METHODS)
_READ_METHODS = frozenset({"GET", "HEAD"})
# Monitoring's: never limited (a load balancer polls it from one address).
UNLIMITED_ENDPOINTS = frozenset(
    {"health.healthz", "health.readyz", "metrics"}
)  # api/metrics.ENDPOINT
# The request's environ keys: the limits it was counted under, and its read count.
COUNTED = "solo.rate_limits"
ADMITTED = "solo.rate_limits.admitted"  # admit's word on the request, once given
# Both make a new club (and its admin token) without a token: creating one, importing one.
CLUB_CREATION_ENDPOINTS = ("clubs.Clubs", "league.ClubImport")
# The answers that refuse a write as malformed or not allowed: charged to the phone's own
# allowance, never to the token's (401 counts as a failed token check, 409/412 are races).
# Dry runs change nothing either: the same allowance.
REFUSED_WRITE_STATUSES = frozenset({400, 403, 404, 405, 413, 415, 422})

DEFAULTS: dict[str, Any] = {
    "RATELIMIT_STORAGE_URI": "memory://",
    "RATELIMIT_STRATEGY": "moving-window",
    "RATELIMIT_AUTH_FAILURES": "30 per minute",
    "RATELIMIT_CLUB_CREATION": "10 per hour",
    "RATELIMIT_WRITES_PER_TOKEN": "60 per minute",
    # A phone whose pad sends what the service refuses (an old or broken one, or a hostile
    # one): 30 refusals (or dry runs) a minute, and it is stopped; the table's others write on.
    "RATELIMIT_UNCHANGED_WRITES_PER_PHONE": "30 per minute",
    # A table's phones poll every 3 s: 20 a minute each, 100 for five on one table token, 600
    # for a club room of six such tables behind one address (its Wi-Fi's). Far above both.
    "RATELIMIT_READS_PER_ADDRESS": "1200 per minute",
    "RATELIMIT_READS_PER_TOKEN": "300 per minute",
    # One phone (its token, address and User-Agent): six times its polls, so that a phone
    # gone wild is stopped long before it spends its table's reads.
    "RATELIMIT_READS_PER_PHONE": "120 per minute",
    # Every call to a Redis storage is bounded by this (seconds, connecting and reading);
    # after a failure the storage is left alone about this long (jittered) before a retry.
    "RATELIMIT_STORAGE_TIMEOUT": 0.25,
    "RATELIMIT_STORAGE_RETRY_SECONDS": 10.0,
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

    def policy_name(self, item: RateLimitItem) -> str:
        """The name the RateLimit headers give ``item``: the scope, and its window when the
        limit has several rates."""
        return self.scope if len(self.items) == 1 else f"{self.scope}-{item.get_expiry()}s"

    @cached_property
    def policy(self) -> str:
        """Its part of ``RateLimit-Policy``: every rate (``q`` requests in ``w`` seconds)."""
        return ", ".join(
            f'"{self.policy_name(item)}";q={item.amount};w={item.get_expiry()}'
            for item in self.items
        )


@dataclass
class _Counted:
    """One limit a request was counted (or looked up) under, for its RateLimit headers."""

    limit: _Limit
    key: str
    refused: RateLimitItem | None = None
    retry_after: int = 0
    # A limit only looked up (the failed token checks): its windows as they were looked at,
    # for the headers (unless the answer counts one more).
    windows: list[tuple[RateLimitItem, Any]] | None = None


def token_key(token: str) -> str:
    """The per-token counters' key: a digest of the token, never the token itself."""
    return "token-" + hashlib.sha256(b"solo-rate-limit:" + token.encode()).hexdigest()[:32]


def _dry_run(environ: dict[str, Any]) -> bool:
    """Whether the request asks for a dry run, read as the views' schema reads ``dry_run``."""
    query = environ.get("QUERY_STRING") or ""
    if "dry_run" not in query:
        return False
    return any(value in Boolean.truthy for value in parse_qs(query).get("dry_run", ()))


def phone_key(token: str, environ: dict[str, Any]) -> str:
    """The per-phone counters' key: the token, the client address and the ``User-Agent``
    (phones of one table on one Wi-Fi share the first two), as a digest."""
    agent = environ.get("HTTP_USER_AGENT") or ""
    seen = "\n".join((token, client_address(environ), agent)).encode()
    return "phone-" + hashlib.sha256(b"solo-rate-limit:" + seen).hexdigest()[:32]


def client_address(environ: dict[str, Any]) -> str:
    """The address the per-address limits count under (after a trusted proxy's word)."""
    return environ.get("REMOTE_ADDR") or "127.0.0.1"


class StoreBreaker:
    """Whether the shared counter store may be asked now. After a failure (an error, or no
    answer within the timeout) it is left alone for ``retry_seconds``, jittered by ±50% so
    that the workers do not all try again at one moment; then one request at a time probes
    it (the others keep counting in memory) until one call succeeds."""

    def __init__(self, retry_seconds: float) -> None:
        self.retry_seconds = retry_seconds
        self._lock = threading.Lock()
        self._open_until: float | None = None
        self._probing = False
        self.failure: str | None = None  # why the store is not used, while it is not

    def allows(self) -> bool:
        open_until = self._open_until
        if open_until is None:
            return True
        if time.monotonic() < open_until:
            return False
        with self._lock:
            if self._probing:
                return False
            self._probing = True
            return True

    def succeeded(self) -> None:
        if self._open_until is not None or self._probing:
            with self._lock:
                self._open_until = None
                self._probing = False
                self.failure = None
                log.warning("rate limit storage answers again: counting there")

    def failed(self, error: BaseException) -> None:
        REDIS_ERRORS.inc()
        wait = self.retry_seconds * random.uniform(0.5, 1.5)  # noqa: S311 - jitter, not secrets
        with self._lock:
            self._open_until = time.monotonic() + wait
            self._probing = False
            # Only the kind of failure: /healthz is public, and the error's text names hosts.
            self.failure = type(error).__name__
        log.warning(
            "rate limit storage failed; counting in memory for %.1f s", wait, exc_info=error
        )


def _storage_options(config: Any, uri: str) -> dict[str, Any]:
    """A Redis storage's options: its key prefix, and every call bounded (connecting and
    reading, no retry inside redis-py, whose default retries a timeout three times with a
    backoff of up to 10 s): a Redis that stops answering costs a request at most the timeout,
    and then the breaker keeps the others from waiting on it."""
    if not uri.startswith(("redis", "valkey")):
        return {}
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    timeout = float(config["RATELIMIT_STORAGE_TIMEOUT"])
    options: dict[str, Any] = {
        "socket_connect_timeout": timeout,
        "socket_timeout": timeout,
        "retry": Retry(NoBackoff(), 0),
    }
    prefix = config.get("RATELIMIT_KEY_PREFIX")
    if prefix:
        options["key_prefix"] = str(prefix)
    return options


class SweptMemoryStorage(MemoryStorage):
    """``limits``' memory storage, its expired counters swept at most every ``SWEEP_SECONDS``.

    The library's sweeps every key of the storage 10 ms after any hit, in a new thread each
    time: with a counter per token (5,000 live tables: 5,000 tokens, their reads and writes)
    each sweep took milliseconds of the GIL a hundred times a second, and py-spy put a fifth
    of a worker's samples there while its phones opened their streams. The sweep only frees
    memory: every count already ignores what has expired (``get``, the moving window's times),
    so sweeping less often counts the same.

    ``__schedule_expiry`` is the library's private member (hence pyproject.toml's pin of its
    major version); ``tests/unit/test_library_internals.py`` fails when a release moves it."""

    SWEEP_SECONDS = 1.0

    def __init__(self) -> None:
        self._sweep_lock = threading.Lock()
        self._sweeper: threading.Timer | None = None
        super().__init__()

    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 - the library's own name
        with self._sweep_lock:
            if self._sweeper is None or not self._sweeper.is_alive():
                self._sweeper = threading.Timer(
                    self.SWEEP_SECONDS,
                    self._MemoryStorage__expire_events,  # type: ignore[attr-defined]
                )
                self._sweeper.daemon = True
                self._sweeper.start()


def rate_limit_storage(uri: str, config: Any) -> Storage:
    """The storage of ``RATELIMIT_STORAGE_URI``; ``memory://`` swept less often."""
    if uri == "memory://":
        return SweptMemoryStorage()
    return cast(Storage, storage_from_string(uri, **_storage_options(config, uri)))


class RateLimits:
    """The limits of one app, their counters and the hooks that apply them."""

    def __init__(self, config: Any) -> None:
        self.enabled = bool(config["RATELIMIT_ENABLED"])
        uri = config["RATELIMIT_STORAGE_URI"]
        self.storage = rate_limit_storage(uri, config)
        self.shared = not isinstance(self.storage, MemoryStorage)
        self.fallback = SweptMemoryStorage()
        if config["RATELIMIT_STRATEGY"] not in STRATEGIES:
            raise ConfigurationError(f"RATELIMIT_STRATEGY must be one of {sorted(STRATEGIES)}")
        self.strategy = STRATEGIES[config["RATELIMIT_STRATEGY"]]
        self._limiter: RateLimiter = self.strategy(self.storage)
        self._fallback_limiter: RateLimiter = self.strategy(self.fallback)
        self.breaker = StoreBreaker(float(config["RATELIMIT_STORAGE_RETRY_SECONDS"]))

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
        self.unchanged_writes = limit(
            "RATELIMIT_UNCHANGED_WRITES_PER_PHONE",
            "unchanged-writes",
            N_("Too many requests from this phone that changed nothing."),
        )
        self.reads_per_address = limit(
            "RATELIMIT_READS_PER_ADDRESS",
            "reads-address",
            N_("Too many requests from this address."),
        )
        self.reads_per_phone = limit(
            "RATELIMIT_READS_PER_PHONE", "reads-phone", N_("Too many requests from this phone.")
        )
        self.reads_per_token = limit(
            "RATELIMIT_READS_PER_TOKEN", "reads-token", N_("Too many requests with this token.")
        )

    # --- counting, with the in-memory fallback ----------------------------------------------

    def _call(self, method: str, item: RateLimitItem, *keys: str) -> Any:
        if self.breaker.allows():
            try:
                result = getattr(self._limiter, method)(item, *keys)
            except Exception as error:  # down or hung: never fail (or hold) the request
                self.breaker.failed(error)
            else:
                self.breaker.succeeded()
                return result
        return getattr(self._fallback_limiter, method)(item, *keys)

    def store(self) -> dict[str, str]:
        """Which store counts in this worker, and why (``/healthz``): ``shared`` (Redis
        answers; asked now, within the timeout, unless the breaker is open), ``local`` (this
        worker's memory: configured so, or the shared store failed) or ``off``."""
        if not self.enabled:
            return {"store": "off", "reason": "rate limits are turned off"}
        if not self.shared:
            return {"store": "local", "reason": "configured: memory:// (each worker counts alone)"}
        if self.breaker.allows():
            try:
                answered = bool(self.storage.check())  # a ping, bounded by the timeout
            except Exception:  # pragma: no cover - check() catches its own
                answered = False
            if answered:
                self.breaker.succeeded()
                return {"store": "shared", "reason": "the shared store answers"}
            self.breaker.failed(ConnectionError("the shared store did not answer a ping"))
        return {
            "store": "local",
            "reason": "the shared store failed, counting in memory until it answers again "
            f"({self.breaker.failure})",
        }

    def _refuse(self, counted: _Counted, item: RateLimitItem) -> RateLimited:
        limit, key = counted.limit, counted.key
        try:
            reset_at = float(self._call("get_window_stats", item, limit.scope, key).reset_time)
            retry = max(1, math.ceil(reset_at - time.time()))
        except Exception:  # pragma: no cover - both storages failing at once
            retry = int(item.get_expiry())
        counted.refused, counted.retry_after = item, retry
        RATE_LIMITED.labels(limit.scope).inc()
        log.info("rate limit %s (%s) exceeded", limit.scope, item)
        return RateLimited(limit.message, retry)

    def _spent(self, entry: _Counted, count: bool) -> RateLimitItem | None:
        """The first of the limit's rates that the entry's key has spent, or None; ``count``
        the request as one more (``hit``), or only look (its windows, kept for the headers:
        failed token checks count after the answer)."""
        limit, key = entry.limit, entry.key
        if not count:
            entry.windows = []
        for item in limit.items:
            if count:
                if not self._call("hit", item, limit.scope, key):
                    return item
                continue
            window = self._call("get_window_stats", item, limit.scope, key)
            entry.windows.append((item, window))  # type: ignore[union-attr]
            if window.remaining < 1:
                return item
        return None

    def _enforce(
        self, counted: list[_Counted], limit: _Limit, key: str, count: bool = True
    ) -> RateLimited | None:
        """Count (or look up) the request under ``limit`` for ``key``, noting it in
        ``counted``; the refusal if ``limit`` is spent."""
        if not limit.items:
            return None
        entry = _Counted(limit, key)
        counted.append(entry)
        item = self._spent(entry, count)
        return None if item is None else self._refuse(entry, item)

    def admit(self, environ: dict[str, Any], endpoint: str | None) -> RateLimited | None:
        """Count the request (its environ, and the endpoint Flask routes it to) under every
        limit it falls under, noting each for its RateLimit headers (``answered``); the
        refusal, if one is spent. Once per request: Flask's hook and the answers made before
        Flask (``early.py``) both ask here, and the second asking is told the first's word."""
        if not self.enabled:
            return None
        if ADMITTED in environ:
            admitted: RateLimited | None = environ[ADMITTED]
            return admitted
        counted: list[_Counted] = environ.setdefault(COUNTED, [])
        environ[ADMITTED] = refusal = self._admit(counted, environ, endpoint)
        return refusal

    def _admit(
        self, counted: list[_Counted], environ: dict[str, Any], endpoint: str | None
    ) -> RateLimited | None:
        authorization = environ.get("HTTP_AUTHORIZATION")
        address = client_address(environ)
        if authorization is not None:  # only requests offering credentials can guess tokens
            refusal = self._enforce(counted, self.auth_failures, address, count=False)
            if refusal is not None:
                return refusal
        method = environ.get("REQUEST_METHOD")
        token = bearer_token(authorization)
        if method in _READ_METHODS:
            if endpoint in UNLIMITED_ENDPOINTS:
                return None
            # The phone's own first: reads it is refused spend nothing its table or its
            # Wi-Fi's other phones share.
            refusal = None
            if token is not None:
                refusal = self._enforce(counted, self.reads_per_phone, phone_key(token, environ))
                if refusal is None:
                    refusal = self._enforce(counted, self.reads_per_token, token_key(token))
            if refusal is None:
                refusal = self._enforce(counted, self.reads_per_address, address)
            return refusal
        if method not in _WRITE_METHODS_UPPER:
            return None
        refusal = None
        if method == "POST" and endpoint in CLUB_CREATION_ENDPOINTS:
            refusal = self._enforce(counted, self.club_creation, address)
        if refusal is None and token is not None:
            # Both only looked at: ``answered`` charges the one the answer falls under.
            refusal = self._enforce(
                counted, self.unchanged_writes, phone_key(token, environ), count=False
            )
            if refusal is None:
                refusal = self._enforce(counted, self.writes, token_key(token), count=False)
        return refusal

    def _charge_write(self, environ: dict[str, Any], counted: list[_Counted], status: int) -> None:
        """Charge an answered write with a token to the allowance its answer falls under: an
        accepted one to the token's writes, a refused one or a dry run to the phone's
        unchanged writes."""
        if environ.get(ADMITTED) is not None:
            return  # refused by a limit: charged nothing more
        if status < 400 and not _dry_run(environ):
            limit = self.writes
        elif status < 400 or status in REFUSED_WRITE_STATUSES:
            limit = self.unchanged_writes
        else:
            return
        for entry in counted:
            if entry.limit is limit:
                for item in limit.items:
                    self._call("hit", item, limit.scope, entry.key)
                entry.windows = None  # charged: look again for the headers

    def answered(self, environ: dict[str, Any], status: int) -> list[tuple[str, str]]:
        """The headers an answer of ``status`` to an admitted request carries:
        ``RateLimit-Policy`` and ``RateLimit`` for the limits it was counted under; and a 401
        to a request that sent a token counts as a failed token check. Flask's hook and the
        answers made before Flask both end here."""
        if not self.enabled:
            return []
        counted = environ.get(COUNTED)
        if status == 401 and "HTTP_AUTHORIZATION" in environ:
            address = client_address(environ)
            for item in self.auth_failures.items:
                self._call("hit", item, self.auth_failures.scope, address)
            for entry in counted or ():
                entry.windows = None  # one more failed check: look again
        if not counted:
            return []
        if environ.get("REQUEST_METHOD") in _WRITE_METHODS_UPPER:
            self._charge_write(environ, counted, status)
        policy, state = self.headers(counted)
        return [("RateLimit-Policy", policy), ("RateLimit", state)]

    # --- the hooks ---------------------------------------------------------------------------

    def before_request(self) -> None:
        refusal = self.admit(request.environ, request.endpoint)
        if refusal is not None:
            raise refusal

    def after_request(self, response: Response) -> Response:
        for name, value in self.answered(request.environ, response.status_code):
            response.headers[name] = value
        return response

    def headers(self, counted: list[_Counted]) -> tuple[str, str]:
        """``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers) for
        the limits a request was counted under: every rate of each as a policy (``q`` requests
        in ``w`` seconds), and per limit the rate with the fewest requests left (``r``) and the
        seconds until one more is allowed (``t``; on a refusal the ``Retry-After``)."""
        policies: list[str] = []
        states: list[str] = []
        now = time.time()
        for entry in counted:
            limit = entry.limit
            policies.append(limit.policy)
            if entry.refused is not None:
                name, remaining, reset = limit.policy_name(entry.refused), 0, entry.retry_after
            else:
                name, remaining, reset = self._fewest_left(limit, entry, now)
            states.append(f'"{name}";r={remaining};t={reset}')
        return ", ".join(policies), ", ".join(states)

    def _fewest_left(self, limit: _Limit, entry: _Counted, now: float) -> tuple[str, int, int]:
        best: tuple[str, int, int] | None = None
        for item, stats in entry.windows or self._windows(limit, entry.key):
            if stats is None:  # pragma: no cover - both storages failing at once
                continue
            remaining = max(0, int(stats.remaining))
            reset = max(0, math.ceil(float(stats.reset_time) - now))
            if best is None or remaining < best[1]:
                best = (limit.policy_name(item), remaining, reset)
        return best or (limit.policy_name(limit.items[0]), limit.items[0].amount, 0)

    def _windows(self, limit: _Limit, key: str) -> list[tuple[RateLimitItem, Any]]:
        windows: list[tuple[RateLimitItem, Any]] = []
        for item in limit.items:
            try:
                windows.append((item, self._call("get_window_stats", item, limit.scope, key)))
            except Exception:  # pragma: no cover - both storages failing at once
                windows.append((item, None))
        return windows

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
    # Read as the views' parser reads it when that gives the same text, and kept for it
    # (``PARSED_BODY``): read twice, the body cost a hand about 10 µs more.
    text = utf8_text(data)
    try:
        value = json.loads(data) if text is None else loads(text)
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
    if text is not None:
        request.environ[PARSED_BODY] = value


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


RATELIMIT_HEADERS = {
    "RateLimit-Policy": {
        "description": "The rate limits this request was counted under "
        "(draft-ietf-httpapi-ratelimit-headers): each a quoted name, `q` requests in `w` "
        'seconds, as `"writes";q=60;w=60, "auth-failures";q=30;w=60`. Sent on every answer '
        "of the service's own code (429s included).",
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": "For each limit of `RateLimit-Policy`, the rate with the fewest "
        'requests left: `"writes";r=42;t=17` (42 left, one more in 17 s). On a 429 the '
        "refused limit says `r=0` and `t` equals `Retry-After`.",
        "schema": {"type": "string"},
    },
}


def _rate_limited(path: str, method: str, operation: dict[str, Any]) -> bool:
    """Whether a rate limit counts this operation: every read but the health check, every
    call with a token, and the club creation."""
    if path in ("/healthz", "/readyz"):
        return False
    return (
        method == "get"
        or bool(operation.get("security"))
        or (path, method) in (("/api/v1/clubs", "post"), ("/api/v1/clubs/import", "post"))
    )


def document(spec: Any) -> None:
    """Add to the OpenAPI document what every operation shares: 400 and 413 where there is a
    body, 429 with ``Retry-After`` where a rate limit applies. Call after the blueprints."""
    for name, header in RATELIMIT_HEADERS.items():
        spec.components.header(name, header)
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
            if not _rate_limited(path, method, operation):
                continue
            limited = _problem(
                spec,
                "Too many requests (reads from this phone, address or with this token, "
                "failed token checks or club creations from this address, changes with "
                "this token, or requests from this phone that changed nothing); try again "
                "after `Retry-After` seconds.",
            )
            limited["headers"] = {
                "Retry-After": {
                    "description": "Seconds to wait before trying again.",
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
            responses.setdefault("429", limited)
            for response in responses.values():
                if isinstance(response, dict):
                    headers = response.setdefault("headers", {})
                    headers.setdefault(
                        "RateLimit-Policy", {"$ref": "#/components/headers/RateLimit-Policy"}
                    )
                    headers.setdefault("RateLimit", {"$ref": "#/components/headers/RateLimit"})
