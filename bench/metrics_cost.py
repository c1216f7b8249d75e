"""What the operator's metrics cost a request: each request with the metrics' counting on (every
answer counted and timed by the envelope, ``metrics.observe_request``) and off, in interleaved
rounds on one app, called directly (no gunicorn, no sockets, as bench/app_cost.py does).

    .venv/bin/python -m bench.metrics_cost [--requests 2000] [--rounds 9] [--pg URL]
                                           [--one-process]

The counters are kept as under gunicorn (prometheus-client's multiprocess mode: each value in
a file of this process in ``PROMETHEUS_MULTIPROC_DIR``, a temporary one), unless
``--one-process`` (the process's own registry, as without gunicorn). The rate limits are off;
the access log is on and written to /dev/null, as in production. Every answer's status is
counted, and the run fails on any that is not 2xx (304 for the poll with its ETag): a bench of
refusals measures refusals. Prints, per request, the median of the rounds with the counting on
and off (µs), their difference, and the difference as a share of the request; then the
counting alone (``observe_request`` called in a loop: the figure a busy machine disturbs
least), and what a scrape of ``/metrics`` costs.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.metrics_cost")

# Before prometheus_client is first imported (by the service's modules below): its values go to
# files only if the directory is set then, as gunicorn.conf.py sets it for the workers.
if "--one-process" not in sys.argv:
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="bench-metrics-")

from bench.app_cost import environ  # noqa: E402
from service.middleware import security  # noqa: E402
from tests.support import ApiClient, migrated_app, reset_postgres  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
METRICS_TOKEN = "bench-metrics"


def not_counted(*_args: Any) -> None:
    """The envelope's counting, off."""


def round_of(
    service: Any, make: Callable[[], dict[str, Any]], n: int, statuses: Counter[int]
) -> float:
    """Microseconds a request over ``n`` requests (environs built before the clock starts)."""
    environs = [make() for _ in range(n)]

    def start_response(status: str, *_: Any) -> None:
        statuses[int(status[:3])] += 1

    started = time.perf_counter()
    for env in environs:
        body = service(env, start_response)
        for _chunk in body:
            pass
        close = getattr(body, "close", None)
        if close is not None:
            close()
    return (time.perf_counter() - started) / n * 1e6


def counting_alone(counting: Callable[..., None], n: int) -> float:
    """Microseconds a call of the envelope's counting, for a read of a table."""
    env = {"solo.endpoint": "tables.Table", "REQUEST_METHOD": "GET"}
    started = time.perf_counter()
    for _ in range(n):
        counting(env, 200, started)
    return (time.perf_counter() - started) / n * 1e6


def check(name: str, statuses: Counter[int], allowed: set[int]) -> None:
    bad = {status: count for status, count in statuses.items() if status not in allowed}
    if bad:
        sys.exit(f"{name}: answers {dict(statuses)}, not only {sorted(allowed)}; figures void")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument(
        "--one-process", action="store_true", help="no multiprocess mode (no gunicorn)"
    )
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if args.pg:
        reset_postgres(args.pg)
    service = migrated_app(
        args.pg,
        Path(tempfile.mkdtemp()),
        ACCESS_LOG=True,
        RATELIMIT_ENABLED=False,
        METRICS_TOKEN=METRICS_TOKEN,
    )
    access = logging.getLogger("solo.access")
    access.setLevel(logging.INFO)
    access.handlers[:] = [logging.StreamHandler(open(os.devnull, "w"))]  # noqa: SIM115
    access.propagate = False
    api = ApiClient(service.test_client())
    table = api.table()
    for _ in range(3):
        api.record(table, SOLO)
    auth = {"Authorization": f"Bearer {table['table_token']}"}
    path = f"/api/v1/tables/{table['id']}"
    polled = {"If-None-Match": api.client.get(path, headers=auth).headers["ETag"]}
    cases: list[tuple[str, Callable[[], dict[str, Any]], set[int]]] = [
        ("poll, 304 (early)", lambda: environ(path, headers={**auth, **polled}), {304}),
        ("read a table", lambda: environ(path, headers=auth), {200}),
        ("read its hands", lambda: environ(f"{path}/hands", headers=auth), {200}),
        ("liveness", lambda: environ("/healthz"), {200}),
    ]
    counting = security.observe_request
    print(
        f"{'PostgreSQL' if args.pg else 'SQLite'}, "
        f"{'one process' if args.one_process else 'multiprocess mode (as under gunicorn)'}; "
        f"median of {args.rounds} rounds of {args.requests} requests, on and off interleaved"
    )
    print(f"{'request':20} {'on µs':>8} {'off µs':>8} {'cost µs':>8} {'share':>7}")
    for name, make, allowed in cases:
        statuses: Counter[int] = Counter()
        found: dict[bool, list[float]] = {True: [], False: []}
        for number in range(args.rounds + 1):  # the first round of each warms it up
            for on in (True, False) if number % 2 else (False, True):
                security.observe_request = counting if on else not_counted
                took = round_of(service, make, args.requests, statuses)
                if number:
                    found[on].append(took)
        security.observe_request = counting
        check(name, statuses, allowed)
        on, off = statistics.median(found[True]), statistics.median(found[False])
        print(f"{name:20} {on:8.1f} {off:8.1f} {on - off:8.1f} {(on - off) / off:7.1%}")
    alone = statistics.median(counting_alone(counting, args.requests) for _ in range(args.rounds))
    print(f"the counting alone (observe_request, a read's labels): {alone:.1f} µs a request")
    scrape: Counter[int] = Counter()
    headers = {"Authorization": f"Bearer {METRICS_TOKEN}"}
    took = statistics.median(
        round_of(service, lambda: environ("/metrics", headers=headers), 20, scrape)
        for _ in range(5)
    )
    check("/metrics", scrape, {200})
    print(f"a scrape of /metrics: {took / 1000:.2f} ms")


if __name__ == "__main__":
    main()
