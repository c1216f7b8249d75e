"""What compression costs and saves per answer: each request sent as a browser sends it
(``Accept-Encoding: gzip, deflate, br, zstd``) and without ``Accept-Encoding``, side by side,
through the service's WSGI app called directly (no gunicorn, no network).

    .venv/bin/python -m bench.compression [--requests 2000]

Prints microseconds a request (the best of nine rounds, the two kinds alternating; the cost
of building the environ taken off), the ratio of the compressed request's time to the plain
one's, and the bytes sent each way. The plain run is the baseline of the same run. SQLite in
a temp dir; the access log off.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.compression")

from bench.app_cost import environ, microseconds  # noqa: E402
from service.api.pages import PAD_DIR, read_pad  # noqa: E402
from tests.support import ApiClient, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
PREVIEW = json.dumps({"variant": "american", "players": 4, "hand": SOLO})
BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
ROUNDS = 3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    service = migrated_app(None, Path(tempfile.mkdtemp()))
    client = service.test_client()
    api = ApiClient(client)
    table = api.table(players=5)
    for _ in range(6):
        api.record(table, SOLO)
    auth = {"Authorization": f"Bearer {table['table_token']}"}
    path = f"/api/v1/tables/{table['id']}"
    client.get(path, headers=auth)  # rendered and the token remembered: the fast reads answer
    asset = f"/pad/{read_pad(PAD_DIR).version}/hand.js"
    cases = [
        ("read a table", lambda h: environ(path, headers={**auth, **h})),
        (
            "preview",
            lambda h: environ("/api/v1/settlements/preview", "POST", headers=h, body=PREVIEW),
        ),
        ("variants", lambda h: environ("/api/v1/variants", headers=h)),
        ("pad file", lambda h: environ(asset, headers=h)),
        ("start page", lambda h: environ("/", headers=h)),
    ]
    n = args.requests
    building = microseconds(lambda env, start: [], lambda: environ("/item"), n)
    print(f"{'request':13} {'plain µs':>9} {'br µs':>7} {'br/plain':>9} {'plain B':>8} {'br B':>6}")
    for name, make in cases:
        sizes = []
        for headers in ({}, BROWSER):
            sent: list[bytes] = []
            body = service(make(headers), lambda *_: None)
            sent.extend(body)
            getattr(body, "close", lambda: None)()
            sizes.append(len(b"".join(sent)))
        # Alternated, best of each: the machine's other load falls on both alike.
        plain = packed = float("inf")
        for _ in range(ROUNDS):
            plain = min(plain, microseconds(service, lambda make=make: make({}), n) - building)
            packed = min(
                packed, microseconds(service, lambda make=make: make(BROWSER), n) - building
            )
        print(
            f"{name:13} {plain:9.0f} {packed:7.0f} {packed / plain:9.2f} {sizes[0]:8} {sizes[1]:6}"
        )


if __name__ == "__main__":
    main()
