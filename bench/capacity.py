"""How many live tables one instance holds, against the bare echo's ceiling in the same run.

    .venv/bin/python -m bench.capacity [--pg URL | --sqlite] [--seconds 15] [--max-tables 1600]

A live table is four phones polling it every 3 s (``If-None-Match`` with the ETag each last
got, as the score pad does) and a hand recorded every two minutes (with an Idempotency-Key);
each phone's next poll after a hand gets the new table (200), the others 304. That is 1.34
requests a second per table. The service runs as ``make serve`` runs it (gunicorn.conf.py, 2
workers), on PostgreSQL (by default the database bench_capacity at 127.0.0.1:5432, its public
schema dropped and re-created) or with --sqlite on an SQLite file.

The load is open: every request is sent at its own time, whatever the answers before it, and
its latency counts from that time (so a server falling behind shows in the figures instead of
slowing the load). Each step's first 3 s (every phone's first poll, a full answer, and the
workers' first connections) are its warm-up and not counted. Steps double the tables (25, 50,
100, …) for --seconds each until a step's p99 passes 100 ms or any request fails; the capacity
is the last step that held. The load generator shares the machine's cores with the server, as
do other programs running meanwhile: the figures are this machine's, now.

The baseline: the bare Flask app (bench/bare_app.py, ``GET /item``) under wrk (2 threads, 16
connections) with the same gunicorn settings: requests per second at saturation. The capacity
is printed as requests per second and as a share of that ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.tables import random_hand
from tests.support import ApiClient, Gunicorn, migrated_app

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/bench_capacity"
PHONES = 4
POLL_SECONDS = 3.0
HAND_SECONDS = 120.0
P99_LIMIT_MS = 100.0
CONNECTIONS = 64  # keep-alive connections the load shares (a proxy in front would hold more)
FIRST_STEP = 25


@dataclass
class Step:
    tables: int
    offered_rps: float
    latencies_ms: list[float] = field(default_factory=list)
    write_latencies_ms: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0
    seconds: float = 0.0

    def percentile(self, q: float, writes: bool = False) -> float:
        ordered = sorted(self.write_latencies_ms if writes else self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0

    @property
    def held(self) -> bool:
        unexpected = sum(n for status, n in self.statuses.items() if status not in (200, 201, 304))
        return not self.errors and not unexpected and self.percentile(0.99) <= P99_LIMIT_MS


class Connections:
    """A pool of keep-alive HTTP/1.1 connections to 127.0.0.1:port."""

    def __init__(self, port: int, size: int) -> None:
        self.port = port
        self.free: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = (
            asyncio.Queue()
        )
        for _ in range(size):
            self.free.put_nowait(None)

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        connection = await self.free.get()
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = connection
            lines = [
                f"{method} {path} HTTP/1.1",
                "Host: 127.0.0.1",
                f"Content-Length: {len(body)}",
            ] + [f"{k}: {v}" for k, v in headers.items()]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            head = await reader.readuntil(b"\r\n\r\n")
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            answer = {
                k.strip().lower(): v.strip()
                for k, _, v in (line.partition(":") for line in header_lines if line)
            }
            content = await reader.readexactly(int(answer.get("content-length", "0")))
            if answer.get("connection", "").lower() == "close":
                writer.close()
                connection = None
            return int(status_line.split()[1]), answer, content
        except BaseException:
            if connection is not None:
                connection[1].close()
            connection = None
            raise
        finally:
            self.free.put_nowait(connection)


async def run_step(
    port: int, tables: list[dict[str, Any]], seconds: float, rng: random.Random
) -> Step:
    step = Step(len(tables), len(tables) * (PHONES / POLL_SECONDS + 1 / HAND_SECONDS))
    pool = Connections(port, CONNECTIONS)
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.5
    measured_from = start + POLL_SECONDS
    end = measured_from + seconds
    etags: dict[tuple[int, int], str] = {}

    async def timed(
        at: float, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str]] | None:
        await asyncio.sleep(max(0.0, at - loop.time()))
        try:
            status, answer, _ = await pool.request(method, path, headers, body)
        except (OSError, asyncio.IncompleteReadError):
            step.errors += 1
            return None
        if at >= measured_from:  # the first poll of each phone is its warm-up
            step.latencies_ms.append((loop.time() - at) * 1000)
            if method == "POST":
                step.write_latencies_ms.append(step.latencies_ms[-1])
            step.statuses[status] = step.statuses.get(status, 0) + 1
        return status, answer

    async def phone(t: int, p: int) -> None:
        table = tables[t]
        path = f"/api/v1/tables/{table['id']}"
        at = start + rng.uniform(0, POLL_SECONDS)
        while at < end:
            headers = {"Authorization": f"Bearer {table['table_token']}"}
            if (t, p) in etags:
                headers["If-None-Match"] = etags[(t, p)]
            answer = await timed(at, "GET", path, headers)
            if answer is not None and "etag" in answer[1]:
                etags[(t, p)] = answer[1]["etag"]
            at += POLL_SECONDS

    async def hands(t: int) -> None:
        table = tables[t]
        at = start + rng.uniform(0, HAND_SECONDS)
        while at < end:
            body = json.dumps(random_hand(rng)).encode()
            await timed(
                at,
                "POST",
                f"/api/v1/tables/{table['id']}/hands",
                {
                    "Authorization": f"Bearer {table['table_token']}",
                    "Content-Type": "application/json",
                    "Idempotency-Key": uuid.uuid4().hex,
                },
                body,
            )
            at += HAND_SECONDS

    await asyncio.gather(
        *(phone(t, p) for t in range(len(tables)) for p in range(PHONES)),
        *(hands(t) for t in range(len(tables))),
    )
    step.seconds = seconds
    return step


def echo_ceiling(port: int, seconds: int) -> float:
    done = subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{seconds}s", f"http://127.0.0.1:{port}/item"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in done.splitlines() if line.startswith("Requests/sec:"))
    return float(line.split()[1])


def reset_pg(url: str) -> None:
    from sqlalchemy import create_engine, text

    from service.config import normalize_database_url

    base, _, name = url.rpartition("/")
    admin = create_engine(normalize_database_url(base + "/postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        if not connection.execute(
            text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}
        ).scalar():
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=DEFAULT_PG)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--max-tables", type=int, default=1600)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk (make bench-http installs it)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-capacity-"))
    database = None if args.sqlite else args.pg
    if database:
        reset_pg(database)
    app = migrated_app(database, tmp)
    api = ApiClient(app.test_client())
    club = api.club("Capacity")
    tables: list[dict[str, Any]] = []
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    label = "PostgreSQL" if database else "SQLite"
    rng = random.Random(20)
    env = {
        "SOLO_RATELIMIT_WRITES_PER_TOKEN": "100000 per minute",
        # Every simulated phone polls from 127.0.0.1: the read limit per address is for
        # addresses that are one club's, not a whole load generator's.
        "SOLO_RATELIMIT_READS_PER_ADDRESS": "",  # off
    }
    with Gunicorn("sqlite://", workers=2, app="bench.bare_app:app", ready_path="/item") as bare:
        ceiling = echo_ceiling(bare.port, 5)
    print(
        f"load average before the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
        "(other programs share the machine)"
    )
    print(f"bare echo (GET /item, wrk -t2 -c16, same gunicorn settings): {ceiling:,.0f} req/s")
    print(
        f"service on {label}: live tables = {PHONES} phones polling every {POLL_SECONDS:g} s"
        f" + a hand every {HAND_SECONDS:g} s; {args.seconds:g} s a step, open load"
    )
    print(
        f"{'tables':>7} {'offered/s':>10} {'answered/s':>11} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'writes p99':>11} {'errors':>7}  statuses"
    )
    held: Step | None = None
    count = FIRST_STEP
    with Gunicorn(url, workers=2, **env) as service:
        while count <= args.max_tables:
            while len(tables) < count:
                tables.append(api.table(club=club))
            step = asyncio.run(run_step(service.port, tables, args.seconds, rng))
            answered = len(step.latencies_ms) / step.seconds
            print(
                f"{step.tables:>7} {step.offered_rps:>10.0f} {answered:>11.0f} "
                f"{step.percentile(0.5):>8.1f} {step.percentile(0.99):>8.1f} "
                f"{step.percentile(0.99, writes=True):>11.1f} {step.errors:>7}  "
                f"{dict(sorted(step.statuses.items()))}",
                flush=True,
            )
            if not step.held:
                break
            held = step
            count *= 2
    shutil.rmtree(tmp, ignore_errors=True)
    if held is None:
        print(f"capacity: fewer than {FIRST_STEP} tables with p99 ≤ {P99_LIMIT_MS:g} ms")
        return
    print(
        f"capacity: at least {held.tables} live tables with p99 ≤ {P99_LIMIT_MS:g} ms "
        f"({held.offered_rps:,.0f} req/s = {held.offered_rps / ceiling:.2f}× the bare echo's "
        f"ceiling of {ceiling:,.0f} req/s; the next step, {held.tables * 2}, did not hold"
        f"{'' if count <= args.max_tables else ' or was not tried'})"
    )


if __name__ == "__main__":
    main()
