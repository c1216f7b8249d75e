"""What a request costs inside the app, without gunicorn or a network: each request answered
before Flask against the same request through Flask (the same service with its early answers
off, on the same database), and the bare app (bench/bare_app.py), called directly side by side.

    .venv/bin/python -m bench.app_cost [--requests 1000] [--rounds 7] [--pg URL] [--profile CASE]

Builds each request's WSGI environ, calls the app and reads its body, best of the rounds (the
apps' rounds interleaved);
prints microseconds a request (the cost of building the environ taken off). SQLite in a temp
dir unless --pg; the access log is on and written to /dev/null. The rate limits are on (their
hooks' cost is part of Flask's path) with rates far above what the bench sends, so that no
limit answers its requests: every answer's status is counted, and the run fails on any that is
not 2xx or 304 (a bench of refusals measures refusals). A stream's opening is made with a
stand-in for the worker's hub (``StandInHub``), which holds nothing. The hands list is a page
of an evening's 40 hands, as the pad's sheet reads it, each app's Flask having rendered them
once. ``--profile CASE`` prints
cProfile's top functions of that case instead (answered early; ``--through-flask``: by Flask).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.app_cost")

from werkzeug.test import EnvironBuilder  # noqa: E402

from bench.bare_app import app as bare_app  # noqa: E402
from bench.tables import random_hand  # noqa: E402
from tests.support import ApiClient, make_app, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
PREVIEW = json.dumps({"variant": "american", "players": 4, "hand": SOLO})
# Far above the bench's requests (--rounds of --requests per case and app).
UNREACHED = "100000000 per minute"
LIMITS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_READS_PER_ADDRESS": UNREACHED,
    "RATELIMIT_READS_PER_TOKEN": UNREACHED,
    "RATELIMIT_READS_PER_PHONE": UNREACHED,
    "RATELIMIT_UNCHANGED_WRITES_PER_PHONE": UNREACHED,
    "RATELIMIT_WRITES_PER_TOKEN": UNREACHED,
}
EARLY_OFF = {"FAST_READS": False, "FAST_STREAMS": False}
STREAMS_KEY = "solo.streams"  # stream_hub.STREAMS_ENVIRON_KEY

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class StandInHub:
    """The worker's hub as a stream's opening uses it: every reservation granted, nothing
    held."""

    def reserve(self, limits: dict[str, int]) -> tuple[str, ...]:
        return tuple(limits)

    def release(self, keys: tuple[str, ...]) -> None:
        pass

    def hold(self, *_args: Any) -> None:
        pass

    def publish(self, *_args: Any) -> None:
        pass

    def revoke(self, _token_id: str) -> None:
        pass


HUB = StandInHub()


def environ(
    path: str,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: str | None = None,
    hub: bool = False,
) -> dict[str, Any]:
    made = EnvironBuilder(
        path=path,
        method=method,
        headers=headers or {},
        data=body,
        content_type="application/json" if body else None,
    ).get_environ()
    if hub:
        made[STREAMS_KEY] = HUB
    return made


class Statuses(Counter[int]):
    """The statuses of every answer, by app and case."""

    def start_response(self, status: str, *_: Any) -> None:
        self[int(status.split(" ", 1)[0])] += 1


def microseconds(
    app: WsgiApp, make_environ: Callable[[], dict[str, Any]], n: int, statuses: Statuses
) -> float:
    """One round: microseconds a request, over ``n`` requests."""
    started = time.perf_counter()
    for _ in range(n):
        body = app(make_environ(), statuses.start_response)
        for _chunk in body:
            pass
        close = getattr(body, "close", None)
        if close is not None:
            close()
    return (time.perf_counter() - started) / n * 1e6


def best(
    apps: list[WsgiApp],
    make_environ: Callable[[], dict[str, Any]],
    n: int,
    rounds: int,
    statuses: list[Statuses],
) -> list[float]:
    """Each app's best round, the apps' rounds interleaved (a shared machine's load falls on
    both alike)."""
    found = [float("inf")] * len(apps)
    for _ in range(rounds):
        for i, app in enumerate(apps):
            found[i] = min(found[i], microseconds(app, make_environ, n, statuses[i]))
    return found


def check(name: str, statuses: Statuses) -> None:
    bad = {s: c for s, c in statuses.items() if not (200 <= s < 300 or s == 304)}
    if bad:
        sys.exit(f"{name}: answers other than 2xx/304 {dict(statuses)}; the figures are void")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument(
        "--profile", help="a case's name: profile it (with --through-flask: Flask's)"
    )
    parser.add_argument("--through-flask", action="store_true")
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    service = migrated_app(args.pg, Path(tempfile.mkdtemp()), ACCESS_LOG=True, **LIMITS)
    flask_only = make_app(
        {
            "TESTING": True,
            "ACCESS_LOG": True,
            "SQLALCHEMY_DATABASE_URI": service.config["SQLALCHEMY_DATABASE_URI"],
            **LIMITS,
            **EARLY_OFF,
        }
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
    events = f"{path}/events"
    etag = api.client.get(path, headers=auth).headers["ETag"]
    for app in (service, flask_only):  # the first opening waits for the worker's change feed
        app(environ(events, headers=auth, hub=True), Statuses().start_response)
    sheet = api.table()  # an evening's sheet: 40 hands, as the pad reads it
    rng = random.Random(5)
    for _ in range(40):
        assert api.record(sheet, random_hand(rng)).status_code == 201
    sheet_auth = {"Authorization": f"Bearer {sheet['table_token']}"}
    hands = f"/api/v1/tables/{sheet['id']}/hands?page=1&page_size=40"
    for app in (service, flask_only):  # each app's Flask renders the hands once
        app(environ(hands, headers=sheet_auth), Statuses().start_response)

    cases: list[tuple[str, Callable[[], dict[str, Any]], str]] = [
        ("read a table", lambda: environ(path, headers=auth), "get"),
        ("read, 304", lambda: environ(path, headers={**auth, "If-None-Match": etag}), "get"),
        (
            "preview",
            lambda: environ("/api/v1/settlements/preview", "POST", body=PREVIEW),
            "post",
        ),
        ("stream ticket", lambda: environ(f"{events}/tickets", "POST", headers=auth), "post"),
        ("stream opening", lambda: environ(events, headers=auth, hub=True), "get"),
        ("hands list, 40", lambda: environ(hands, headers=sheet_auth), "get"),
    ]
    n = args.requests
    if args.profile:
        make = next(m for name, m, _ in cases if name == args.profile)
        profiler = cProfile.Profile()
        statuses = Statuses()
        profiled = flask_only if args.through_flask else service
        profiler.runcall(best, [profiled], make, n, args.rounds, [statuses])
        check(args.profile, statuses)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        return
    nothing = Statuses()
    building = best([lambda env, start: []], lambda: environ("/item"), n, args.rounds, [nothing])
    bare = {
        "get": best([bare_app], lambda: environ("/item"), n, args.rounds, [nothing])[0],
        "post": best(
            [bare_app], lambda: environ("/echo", "POST", body=PREVIEW), n, args.rounds, [nothing]
        )[0],
    }
    print(f"{'request':16} {'early µs':>9} {'Flask µs':>9} {'Flask/early':>11} {'bare µs':>8}")
    for name, make, kind in cases:
        statuses = [Statuses(), Statuses()]
        early, through_flask = (
            cost - building[0]
            for cost in best([service, flask_only], make, n, args.rounds, statuses)
        )
        check(f"{name} (early)", statuses[0])
        check(f"{name} (Flask)", statuses[1])
        print(
            f"{name:16} {early:9.0f} {through_flask:9.0f} {through_flask / early:11.2f} "
            f"{bare[kind] - building[0]:8.0f}   {dict(statuses[0])} / {dict(statuses[1])}"
        )


if __name__ == "__main__":
    main()
