"""What one worker holds: memory per open stream, and how fast an event reaches them all.

    .venv/bin/python -m bench.streams [--streams 2000] [--tables 500] [--hands 20]

Starts gunicorn (one worker, the service's worker class, 4 threads) on SQLite in a temp dir,
opens STREAMS table streams spread over TABLES tables (raw sockets, one client loop), and
prints the worker's resident memory before and after (per stream), then records HANDS hands,
one at a time on random tables, and prints how long after each write's answer its event
reached every stream of its table (p50, p99, max), beside the baseline of the same run: the
p99 of a 304 poll of a table (what a phone did instead, every 3 s).
"""

from __future__ import annotations

import argparse
import random
import selectors
import socket
import sys
import tempfile
import time
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.streams")

import requests  # noqa: E402

from tests.support import Gunicorn, migrated_app  # noqa: E402

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    app = migrated_app(None, Path(tempfile.mkdtemp()))
    env = {
        "WEB_CONNECTIONS": str(args.streams + 100),
        "SOLO_LIVE_STREAMS_PER_TOKEN": str(args.streams),
        "SOLO_LIVE_STREAMS_PER_ADDRESS": str(args.streams),
        "WEB_STREAM_HEARTBEAT_SECONDS": "15",
        "SOLO_RATELIMIT_ENABLED": "false",  # one admin token opens every table
    }
    with Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=1, **env) as server:
        http = requests.Session()
        club = http.post(f"{server.url}/api/v1/clubs", json={"name": "Bench"}).json()
        admin = {"Authorization": f"Bearer {club['admin_token']}"}
        seats = [
            http.post(
                f"{server.url}/api/v1/clubs/{club['id']}/players",
                json={"name": f"P{i}"},
                headers=admin,
            ).json()["id"]
            for i in range(4)
        ]
        tables = [
            http.post(
                f"{server.url}/api/v1/tables",
                json={
                    "club_id": club["id"],
                    "name": f"T{i}",
                    "variant": "american",
                    "seats": seats,
                },
                headers=admin,
            ).json()
            for i in range(args.tables)
        ]
        (worker,) = server.worker_pids()
        # Warm the worker (its feed, its caches) with one stream, then measure.
        polls = []
        for table in tables[:50]:
            auth = {"Authorization": f"Bearer {table['table_token']}"}
            http.get(f"{server.url}/api/v1/tables/{table['id']}", headers=auth)
            for _ in range(4):
                began = time.perf_counter()
                answer = http.get(
                    f"{server.url}/api/v1/tables/{table['id']}",
                    headers={**auth, "If-None-Match": '"1"'},
                )
                polls.append(time.perf_counter() - began)
                assert answer.status_code == 304
        before = rss_kib(worker)
        selector = selectors.DefaultSelector()
        by_table: dict[str, list[socket.socket]] = {t["id"]: [] for t in tables}
        pending: dict[socket.socket, bytes] = {}
        for index in range(args.streams):
            table = tables[index % len(tables)]
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.sendall(
                f"GET /api/v1/tables/{table['id']}/events HTTP/1.1\r\nHost: bench\r\n"
                f"Authorization: Bearer {table['table_token']}\r\n\r\n".encode()
            )
            sock.setblocking(False)
            selector.register(sock, selectors.EVENT_READ, table["id"])
            by_table[table["id"]].append(sock)
            pending[sock] = b""
        ready = 0
        deadline = time.monotonic() + 120
        while ready < args.streams and time.monotonic() < deadline:
            for key, _ in selector.select(1):
                data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                if b"event: ready" in pending[key.fileobj] + data:  # type: ignore[index]
                    ready += 1
                    pending[key.fileobj] = b"-"  # type: ignore[index]
                else:
                    pending[key.fileobj] += data  # type: ignore[index]
        assert ready == args.streams, f"{ready} of {args.streams} streams said ready"
        time.sleep(2)
        after = rss_kib(worker)
        per_stream = (after - before) * 1024 / args.streams
        print(
            f"{args.streams} streams held by one worker: RSS {before / 1024:.1f} → "
            f"{after / 1024:.1f} MiB, {per_stream:,.0f} bytes per stream"
        )
        rng = random.Random(3)
        delays: list[float] = []
        for _ in range(args.hands):
            table = rng.choice(tables)
            waiting = set(by_table[table["id"]])
            answer = http.post(
                f"{server.url}/api/v1/tables/{table['id']}/hands",
                json=SOLO,
                headers={"Authorization": f"Bearer {table['table_token']}"},
            )
            answered = time.perf_counter()
            assert answer.status_code == 201, answer.text
            while waiting:
                for key, _ in selector.select(10):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if key.fileobj in waiting and b"hand.recorded" in data:
                        waiting.discard(key.fileobj)  # type: ignore[arg-type]
                        delays.append(time.perf_counter() - answered)
        poll_p99 = percentile(polls, 0.99)
        print(f"baseline: a 304 poll p99 {poll_p99 * 1000:.2f} ms ({len(polls)} polls)")
        p50, p99 = percentile(delays, 0.5) * 1000, percentile(delays, 0.99) * 1000
        print(
            f"event delivered after the write's answer ({len(delays)} deliveries): "
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms ({p99 / 1000 / poll_p99:.1f}x the poll), "
            f"max {max(delays) * 1000:.2f} ms"
        )
        for sockets in by_table.values():
            for sock in sockets:
                sock.close()


if __name__ == "__main__":
    main()
