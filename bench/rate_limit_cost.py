"""What the rate limits cost on the poll path: a 304 ``GET /tables/{id}`` with ``If-None-Match``
answered before Flask (``middleware/early.py``), with the limits off and on (the read limits
counted per address and per token, and the ``RateLimit-Policy``/``RateLimit`` headers every
answer carries), in the same run.

    .venv/bin/python -m bench.rate_limit_cost [--tables 300] [--rounds 5] [--pg URL]

The WSGI app is called directly (no gunicorn, no sockets), as in bench/token_check.py; the
counters are in memory (``memory://``, the default). Prints microseconds a poll (median of the
warm rounds) and the ratios to the poll with the limits off.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.rate_limit_cost")

from bench.app_cost import environ  # noqa: E402
from service.middleware.limits import EXTENSION  # noqa: E402
from tests.support import ApiClient, migrated_app, reset_postgres  # noqa: E402

# Far above what the rounds send: nothing is refused, every poll is counted.
UNREACHED = {"RATELIMIT_READS_PER_ADDRESS": "10000000 per hour"}


def poll_round(service: Any, polls: list[tuple[str, dict[str, str]]]) -> float:
    """Microseconds a poll, each table once (environs built before the clock starts)."""
    environs = [environ(path, headers=h) for path, h in polls]
    statuses: list[str] = []

    def start_response(status: str, *_: Any) -> None:
        statuses.append(status)

    started = time.perf_counter()
    for env in environs:
        body = service(env, start_response)
        for _chunk in body:
            pass
    elapsed = (time.perf_counter() - started) / len(environs) * 1e6
    assert all(s.startswith("304") for s in statuses), set(statuses)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if args.pg:
        reset_postgres(args.pg)
    # One app, its limits switched off and on between the rounds (two apps in one process on
    # one PostgreSQL do not both answer: see tests/support.py's migrated_app).
    service = migrated_app(args.pg, Path(tempfile.mkdtemp()), RATELIMIT_ENABLED=True, **UNREACHED)
    limits = service.extensions[EXTENSION]
    limits.enabled = False  # while the tables are made
    api = ApiClient(service.test_client())
    polls = []
    for _ in range(args.tables):
        table = api.table()
        headers = {
            "Authorization": f"Bearer {table['table_token']}",
            "If-None-Match": f'"{table["version"]}"',  # its ETag, without polling it first
        }
        polls.append((f"/api/v1/tables/{table['id']}", headers))
    results = {}
    for name, enabled in (("limits off", False), ("limits on, with headers", True)):
        limits.enabled = enabled
        poll_round(service, polls)  # warm: every token polled once
        results[name] = statistics.median(poll_round(service, polls) for _ in range(args.rounds))
    base = results["limits off"]
    database = "PostgreSQL" if args.pg else "SQLite"
    print(f"{database}, {args.tables} tables, a 304 poll each per round (median of {args.rounds})")
    print(f"{'poll (304, early)':24} {'µs':>7} {'/ limits off':>13}")
    for name, value in results.items():
        print(f"{name:24} {value:7.0f} {value / base:13.2f}")


if __name__ == "__main__":
    main()
