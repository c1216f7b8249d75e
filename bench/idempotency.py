"""What an ``Idempotency-Key`` costs a write, and what its replay costs, against the same write
without one, measured in the same run.

    .venv/bin/python -m bench.idempotency [--pg URL] [--requests N]

Through the app (its test client: routing, token check, the write, JSON; no sockets), on SQLite
(a temporary file) and, with ``--pg URL`` or ``TEST_DATABASE_URL``, PostgreSQL too (its public
schema is dropped and made again: give it a database of its own). Each scenario sends N
requests and prints the median time of one:

- ``addPlayer`` without a key (the baseline), with a fresh key each time (the claim and the
  stored answer: two short transactions more), and replayed (the same key again);
- ``createClub`` without a key and with one: its answer carries the admin token, which is
  sealed under a key stretched by scrypt (``services/idempotency.py``), and so is its replay.

The ratios are against the baseline of the same kind. There is no target: the figures say what
the safety costs. Exits non-zero only if something crashes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.idempotency")

from tests.support import migrated_app  # noqa: E402


def _median_ms(requests: int, send: Callable[[int], Any]) -> float:
    times = []
    for n in range(requests):
        start = time.perf_counter()
        answer = send(n)
        times.append(time.perf_counter() - start)
        assert answer.status_code in (200, 201), answer.json
    return statistics.median(times) * 1000


def run(url: str | None, tmp: Path, requests: int) -> None:
    app = migrated_app(url, tmp)
    client = app.test_client()
    club = client.post("/api/v1/clubs", json={"name": "Bench"}).json
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    players = f"/api/v1/clubs/{club['id']}/players"

    def add(n: int, prefix: str, key: str | None) -> Any:
        headers = {**admin, **({"Idempotency-Key": key} if key else {})}
        return client.post(players, json={"name": f"{prefix} {n}"}, headers=headers)

    plain = _median_ms(requests, lambda n: add(n, "Plain", None))
    keyed = _median_ms(requests, lambda n: add(n, "Keyed", f"player-{n}"))
    replayed = _median_ms(requests, lambda n: add(n, "Keyed", f"player-{n}"))
    club_plain = _median_ms(requests, lambda n: client.post("/api/v1/clubs", json={"name": "C"}))
    club_keyed = _median_ms(
        requests,
        lambda n: client.post(
            "/api/v1/clubs", json={"name": "C"}, headers={"Idempotency-Key": f"club-{n}"}
        ),
    )
    club_replayed = _median_ms(
        requests,
        lambda n: client.post(
            "/api/v1/clubs", json={"name": "C"}, headers={"Idempotency-Key": f"club-{n}"}
        ),
    )
    name = "PostgreSQL" if url else "SQLite"
    print(f"{name}, median of {requests} requests each:")
    rows = [
        ("addPlayer, no key (baseline)", plain, plain),
        ("addPlayer, a fresh key", keyed, plain),
        ("addPlayer, replayed", replayed, plain),
        ("createClub, no key (baseline)", club_plain, club_plain),
        ("createClub, a fresh key (token sealed)", club_keyed, club_plain),
        ("createClub, replayed (token opened)", club_replayed, club_plain),
    ]
    for label, ms, base in rows:
        print(f"  {label:42} {ms:7.2f} ms  ×{ms / base:5.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(None, Path(tmp), args.requests)
        if args.pg:
            run(args.pg, Path(tmp), args.requests)


if __name__ == "__main__":
    main()
