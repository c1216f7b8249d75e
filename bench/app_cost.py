"""What a request costs inside the app, without gunicorn or a network: the service's WSGI app
and the bare one (bench/bare_app.py) called directly, side by side.

    .venv/bin/python -m bench.app_cost [--requests 3000] [--pg URL]

Builds each request's WSGI environ, calls the app and reads its body, best of three rounds;
prints microseconds a request (the cost of building the environ taken off) and the ratio to
the bare endpoint of the same kind. The gap between bench/http.py's ratios and these is what
gunicorn, the sockets and wrk add to both. SQLite in a temp dir unless --pg; the access log is
on and written to /dev/null, the rate limits are on.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.app_cost")

from werkzeug.test import EnvironBuilder  # noqa: E402

from bench.bare_app import app as bare_app  # noqa: E402
from tests.support import ApiClient, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
PREVIEW = json.dumps({"variant": "american", "players": 4, "hand": SOLO})

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def environ(
    path: str, method: str = "GET", headers: dict[str, str] | None = None, body: str | None = None
) -> dict[str, Any]:
    return EnvironBuilder(
        path=path,
        method=method,
        headers=headers or {},
        data=body,
        content_type="application/json" if body else None,
    ).get_environ()


def microseconds(app: WsgiApp, make_environ: Callable[[], dict[str, Any]], n: int) -> float:
    def start_response(*_: Any) -> None:
        return None

    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(n):
            body = app(make_environ(), start_response)
            for _chunk in body:
                pass
            close = getattr(body, "close", None)
            if close is not None:
                close()
        best = min(best, (time.perf_counter() - started) / n * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    service = migrated_app(
        args.pg, Path(tempfile.mkdtemp()), RATELIMIT_ENABLED=True, ACCESS_LOG=True
    )
    access = logging.getLogger("solo.access")
    access.setLevel(logging.INFO)
    access.handlers[:] = [logging.StreamHandler(open(os.devnull, "w"))]  # noqa: SIM115
    access.propagate = False
    api = ApiClient(service.test_client())
    table = api.table()
    api.record(table, SOLO)
    auth = {"Authorization": f"Bearer {table['table_token']}"}
    path = f"/api/v1/tables/{table['id']}"
    etag = api.client.get(path, headers=auth).headers["ETag"]

    n = args.requests
    building = microseconds(lambda env, start: [], lambda: environ("/item"), n)
    bare_get = microseconds(bare_app, lambda: environ("/item"), n) - building
    bare_post = microseconds(bare_app, lambda: environ("/echo", "POST", body=PREVIEW), n) - building
    cases = [
        ("read a table", lambda: environ(path, headers=auth), bare_get),
        ("read, 304", lambda: environ(path, headers={**auth, "If-None-Match": etag}), bare_get),
        (
            "preview",
            lambda: environ("/api/v1/settlements/preview", "POST", body=PREVIEW),
            bare_post,
        ),
    ]
    print(f"{'request':16} {'µs':>7} {'bare µs':>8} {'bare/service':>12}")
    for name, make, bare in cases:
        cost = microseconds(service, make, n) - building
        print(f"{name:16} {cost:7.0f} {bare:8.0f} {bare / cost:12.2f}")


if __name__ == "__main__":
    main()
