"""What an operator watches: the service's metrics in Prometheus's format (``prometheus-client``).

The metrics (their names are what docs/operations.md's alerts use):

- ``solo_http_requests_total{route,method,status}`` and
  ``solo_http_request_duration_seconds{route,method}`` (a histogram): every answer, the ones
  made before Flask included, counted by the envelope (``middleware/security.py``). ``route``
  is the endpoint's name (``tables.Table``, ``tables.Hands`` …), never the path: its ids would
  make a series per table; ``none`` for a path no route takes.
- ``solo_hands_recorded_total``: hands recorded (committed; a replay of an Idempotency-Key is
  not counted again).
- ``solo_streams_open``: the event streams the workers hold (or are opening).
- ``solo_stream_starts_skipped_total``: stream openings and tickets a worker did not run
  because their client had gone while they waited (``stream_hub.OpeningQueue``): phones that
  gave their streams up after a restart, before the worker came to them.
- ``solo_webhook_deliveries_total{outcome}`` (``delivered``, ``failed``, ``refused``) from the
  deliverer, and ``solo_webhook_backlog_events``: the events the enabled webhooks have yet to
  be sent (read from the database when ``/metrics`` is scraped).
- ``solo_rate_limited_total{limit}``: requests refused by a rate limit (``writes``,
  ``unchanged-writes``, ``reads-phone`` …).
- ``solo_database_errors_total{kind}``: requests answered 503 because the database could not do
  the work (``busy``: a lock, a timeout, the pool; ``down``: the connection, the server, the
  disk); ``solo_redis_errors_total``: failed calls to the rate limits' Redis.
- ``solo_sqlite_writer_lock_wait_seconds`` (a histogram): how long an SQLite writer waited for
  the writer's turn (``database.SqliteConnection.take_writer_lock``).

Across gunicorn's workers (and the deliverer beside them) the counts are added up by
``prometheus-client``'s multiprocess mode: each process writes its values into files in
``PROMETHEUS_MULTIPROC_DIR``, which ``gunicorn.conf.py`` makes (and empties) when the server
starts, and ``/metrics`` reads them all. Without that directory (the tests, ``flask run``) the
process's own registry answers.

``/metrics`` (``api/metrics.py``) is not public: it answers only a request with
``Authorization: Bearer`` and the ``METRICS_TOKEN`` (env ``SOLO_METRICS_TOKEN``); without
that setting it answers 404, as a path that does not exist. It is never rate limited per
address (a scraper polls it from one), and is not in the OpenAPI document (it is the
operator's, not the API's).
"""

from __future__ import annotations

import time
from typing import Any

from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter(
    "solo_http_requests_total",
    "HTTP requests answered, by route (endpoint name), method and status.",
    ["route", "method", "status"],
)
LATENCY = Histogram(
    "solo_http_request_duration_seconds",
    "Time from a request's arrival in the app to its answer's head, by route and method.",
    ["route", "method"],
    buckets=(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
HANDS_RECORDED = Counter("solo_hands_recorded_total", "Hands recorded (committed).")
STREAMS_OPEN = Gauge(
    "solo_streams_open",
    "Event streams held open (or being opened) by the workers.",
    multiprocess_mode="livesum",
)
STREAM_STARTS_SKIPPED = Counter(
    "solo_stream_starts_skipped_total",
    "Stream openings and tickets not run because their client had gone while they waited.",
)
WEBHOOK_DELIVERIES = Counter(
    "solo_webhook_deliveries_total",
    "Webhook delivery attempts, by outcome: delivered (2xx), failed, refused (address).",
    ["outcome"],
)
WEBHOOK_BACKLOG = Gauge(
    "solo_webhook_backlog_events",
    "Events the enabled webhooks have yet to be sent (as of the last scrape).",
    multiprocess_mode="mostrecent",
)
RATE_LIMITED = Counter(
    "solo_rate_limited_total", "Requests refused by a rate limit, by limit.", ["limit"]
)
DATABASE_ERRORS = Counter(
    "solo_database_errors_total",
    "Requests answered 503 because the database could not do the work, by kind (busy, down).",
    ["kind"],
)
REDIS_ERRORS = Counter(
    "solo_redis_errors_total", "Failed or timed-out calls to the rate limits' Redis."
)
WRITER_LOCK_WAIT = Histogram(
    "solo_sqlite_writer_lock_wait_seconds",
    "How long an SQLite writer waited for the writer's turn.",
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)

# The environ key a request's endpoint is noted under when it is answered before Flask.
ENDPOINT_ENVIRON = "solo.endpoint"


# Each (route, method, status)'s counter and histogram, as ``labels()`` answers them: looked up
# here, ``labels()`` (its checks, its lock) is not paid on every request again; it was nearly
# half of the counting's cost (bench.metrics_cost, docs/performance.md). As many entries as
# the metrics have series.
_SERIES: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe_request(environ: dict[str, Any], status: int, started: float) -> None:
    """Count one answer (the envelope calls this once per request)."""
    route = environ.get(ENDPOINT_ENVIRON)
    if route is None:
        flask_request = environ.get("werkzeug.request")
        route = getattr(flask_request, "endpoint", None) or "none"
    method = environ.get("REQUEST_METHOD") or ""
    series = _SERIES.get((route, method, status))
    if series is None:
        series = _SERIES[(route, method, status)] = (
            REQUESTS.labels(route, method, str(status)),
            LATENCY.labels(route, method),
        )
    count, latency = series
    count.inc()
    latency.observe(time.perf_counter() - started)
