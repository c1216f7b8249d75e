"""What checking a token costs on the poll path: a 304 ``GET /tables/{id}`` with
``If-None-Match``, warm (each token polled before) and cold (each token's first poll, as after
a restart), against the bare app's ``GET /item`` (bench/bare_app.py) in the same run.

    .venv/bin/python -m bench.token_check [--tables 300] [--rounds 5] [--pg URL]

The service's WSGI app is called directly (no gunicorn, no sockets), as in bench/app_cost.py.
Each round polls every table once with its own table token; the first round is the cold one.
Prints microseconds a poll (median of the warm rounds, and the cold round) and the ratios to
the bare GET. SQLite in a temp dir unless --pg (whose public schema is dropped).
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
    sys.exit("Run from the project root: .venv/bin/python -m bench.token_check")

from bench.app_cost import environ, microseconds  # noqa: E402
from bench.bare_app import app as bare_app  # noqa: E402
from tests.support import ApiClient, migrated_app, reset_postgres  # noqa: E402


def poll_round(service: Any, polls: list[dict[str, str]], path_of: list[str]) -> float:
    """Microseconds a poll, each table once (environs built before the clock starts)."""
    environs = [environ(p, headers=h) for p, h in zip(path_of, polls, strict=True)]
    statuses: list[str] = []

    def start_response(status: str, *_: Any) -> None:
        statuses.append(status)

    started = time.perf_counter()
    for env in environs:
        body = service(env, start_response)
        for _chunk in body:
            pass
        close = getattr(body, "close", None)
        if close is not None:
            close()
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
    service = migrated_app(args.pg, Path(tempfile.mkdtemp()), RATELIMIT_ENABLED=False)
    api = ApiClient(service.test_client())
    polls: list[dict[str, str]] = []
    paths: list[str] = []
    for _ in range(args.tables):
        table = api.table()
        path = f"/api/v1/tables/{table['id']}"
        # The ETag without polling the table with its own token (that would warm it).
        etag = f'"{table["version"]}"'
        polls.append({"Authorization": f"Bearer {table['table_token']}", "If-None-Match": etag})
        paths.append(path)
    bare = microseconds(bare_app, lambda: environ("/item"), 3000)
    cold = poll_round(service, polls, paths)
    warm = statistics.median(poll_round(service, polls, paths) for _ in range(args.rounds))
    database = "PostgreSQL" if args.pg else "SQLite"
    print(f"{database}, {args.tables} tables, one table token each")
    print(f"{'poll (304)':22} {'µs':>7} {'bare GET µs':>12} {'poll/bare':>10}")
    print(f"{'warm (median round)':22} {warm:7.0f} {bare:12.0f} {warm / bare:10.2f}")
    print(f"{'cold (first round)':22} {cold:7.0f} {bare:12.0f} {cold / bare:10.2f}")
    print(f"cold/warm {cold / warm:.2f}")


if __name__ == "__main__":
    main()
