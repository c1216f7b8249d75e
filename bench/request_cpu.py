"""A worker's CPU per request, by kind, in the real server: what the capacity bench's cold start
is made of, measured one kind at a time.

    .venv/bin/python -m bench.request_cpu [--requests 1000] [--held 0,4000,8000]
        [--connections 8] [--kinds ticket,opening,poll304,table,sheet,write,close]

Starts the service as ``bench.capacity`` does (gunicorn.conf.py, the service's worker and
settings), but with **one** worker, so that its CPU is the requests' alone; SQLite in a temp
dir unless ``DATABASE_URL`` names a PostgreSQL at 127.0.0.1. For each number of held streams in
``--held`` (idle streams the worker holds meanwhile, four a table, opened as the pad opens
them: a ticket, then its url) it sends ``--requests`` requests of each kind over
``--connections`` kept-alive connections, and reads the worker's CPU time (user and system,
``/proc/<pid>/task/*/stat``) before and after: the CPU a request of that kind costs the worker,
split into its event loop's thread (the main thread: accepting, gathering, handing over,
finishing, the streams) and the others (the request threads, the opening thread, the change
feed). CPU time, not wall time: robust to the other programs sharing the machine; the figures
are still a little higher on a loaded machine (caches), so the load average is printed.

The kinds, as the pad sends them (``bench.capacity``'s phones):

- ``ticket``: ``POST …/events/tickets`` with the table's token (answered before Flask);
- ``opening``: a stream opened with a fresh ticket, on a connection of its own, read until its
  ``ready``; it is then held (it counts among the held streams of the next measures);
- ``close``: the client closing held streams (what a phone giving up or a restart costs);
- ``poll304``: ``GET /tables/{id}`` with the current ``If-None-Match`` (answered before Flask);
- ``poll304-new``: the same on a new connection each (``Connection: close``): what accepting
  and closing a connection costs beside a request;
- ``table``: ``GET /tables/{id}`` without ``If-None-Match`` (the body, rendered already);
- ``sheet``: ``GET …/hands?page=1&page_size=100`` (the pad's score sheet);
- ``write``: ``POST …/hands`` with an ``Idempotency-Key`` (through Flask; its event goes to the
  table's held streams).

In process, without gunicorn, ``bench.app_cost`` measures the app's own part of the same
requests; the difference is the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.capacity import (
    Connections,
    database_from_environment,
    hands_path,
    make_tables,
)
from bench.tables import random_hand
from tests.support import ApiClient, Gunicorn, migrated_app

PHONES = 4
TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("ticket", "opening", "poll304", "poll304-new", "table", "sheet", "write", "close")


@dataclass
class Cpu:
    """A worker's CPU seconds so far: its event loop's thread (the main one) and the others."""

    loop_user: float
    loop_system: float
    others_user: float
    others_system: float

    @classmethod
    def of(cls, pid: int) -> Cpu:
        figures = [0.0, 0.0, 0.0, 0.0]
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                stat = (task / "stat").read_text()
            except OSError:
                continue  # a thread that ended meanwhile
            fields = stat.rpartition(")")[2].split()
            user, system = int(fields[11]) / TICKS, int(fields[12]) / TICKS
            base = 0 if task.name == str(pid) else 2
            figures[base] += user
            figures[base + 1] += system
        return cls(*figures)

    def minus(self, other: Cpu) -> Cpu:
        return Cpu(
            self.loop_user - other.loop_user,
            self.loop_system - other.loop_system,
            self.others_user - other.others_user,
            self.others_system - other.others_system,
        )

    def total(self) -> float:
        return self.loop_user + self.loop_system + self.others_user + self.others_system


class Streams:
    """The held streams (asyncio connections), each opened with a fresh ticket."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.held: list[asyncio.StreamWriter] = []

    async def open(self, url: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(f"GET {url} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await reader.readuntil(b"event: ready")
        self.held.append(writer)
        # What comes later (events, heartbeats) is read and dropped, as a phone reads it.
        asyncio.ensure_future(self._drain(reader))

    @staticmethod
    async def _drain(reader: asyncio.StreamReader) -> None:
        try:
            while await reader.read(65536):
                pass
        except (OSError, asyncio.CancelledError):
            pass

    async def close(self, count: int) -> None:
        for writer in self.held[-count:]:
            writer.close()
        for writer in self.held[-count:]:
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        del self.held[-count:]


async def each(calls: list[Any], connections: int) -> None:
    """Run the coroutine functions in ``calls``, ``connections`` at a time."""
    queue = list(reversed(calls))

    async def runner() -> None:
        while queue:
            await queue.pop()()

    await asyncio.gather(*(runner() for _ in range(connections)))


async def measure(
    pid: int,
    kind: str,
    count: int,
    work: Any,
) -> tuple[str, int, Cpu, float]:
    await asyncio.sleep(0.3)  # what the previous kind left (its events, closes) settles
    before = Cpu.of(pid)
    began = time.monotonic()
    await work
    await asyncio.sleep(0.3)  # the loop's part after the last answer (finishing, closing)
    return kind, count, Cpu.of(pid).minus(before), time.monotonic() - began


def say(held: int, kind: str, count: int, cpu: Cpu, seconds: float) -> None:
    per = 1e6 / max(1, count)
    print(
        f"{held:>6} held  {kind:<12} {count:>6}: {cpu.total() * per:8,.0f} µs a request "
        f"(loop {(cpu.loop_user + cpu.loop_system) * per:6,.0f}: user "
        f"{cpu.loop_user * per:,.0f} / system {cpu.loop_system * per:,.0f}; other threads "
        f"{(cpu.others_user + cpu.others_system) * per:6,.0f}: user {cpu.others_user * per:,.0f}"
        f" / system {cpu.others_system * per:,.0f}); {count / seconds:,.0f} a second",
        flush=True,
    )


async def run(
    port: int,
    pid: int,
    tables: list[dict[str, Any]],
    held_steps: list[int],
    requests: int,
    connections: int,
    kinds: list[str],
) -> None:
    rng = random.Random(7)
    pool = Connections(port, connections)
    streams = Streams(port)
    etags: dict[str, str] = {}

    def auth(table: dict[str, Any]) -> dict[str, str]:
        return {"Authorization": f"Bearer {table['table_token']}", "Accept": "application/json"}

    async def ticket(table: dict[str, Any], into: list[str] | None = None) -> None:
        path = f"/api/v1/tables/{table['id']}/events/tickets"
        status, _headers, body = await pool.request("POST", path, auth(table))
        assert status == 201, (status, body[:300])
        if into is not None:
            into.append(json.loads(body)["url"])

    async def read(table: dict[str, Any], path: str, etag: bool) -> None:
        headers = auth(table)
        if etag:
            headers["If-None-Match"] = etags[table["id"]]
        status, answer, body = await pool.request("GET", path, headers)
        assert status in (200, 304), (status, body[:300])
        if "etag" in answer and path.endswith(table["id"]):
            etags[table["id"]] = answer["etag"]

    async def read_new_connection(table: dict[str, Any]) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = (
            f"GET /api/v1/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {table['table_token']}\r\nAccept: application/json\r\n"
            f"If-None-Match: {etags[table['id']]}\r\nConnection: close\r\n\r\n"
        )
        writer.write(head.encode())
        answer = await reader.read()  # to the server's close
        assert answer.startswith(b"HTTP/1.1 304"), answer[:300]
        writer.close()

    async def write(table: dict[str, Any]) -> None:
        headers = {
            **auth(table),
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        }
        body = json.dumps(random_hand(rng)).encode()
        path = f"/api/v1/tables/{table['id']}/hands"
        status, answer, content = await pool.request("POST", path, headers, body)
        assert status == 201, (status, content[:300])
        etags[table["id"]] = answer["etag"]

    def picks(count: int) -> list[dict[str, Any]]:
        return [tables[i % len(tables)] for i in range(count)]

    # Every table's current ETag (not measured).
    await each([lambda t=t: read(t, f"/api/v1/tables/{t['id']}", False) for t in tables], 8)
    for held in held_steps:
        # Streams up to ``held`` (tickets and openings not measured, unless asked below).
        missing = held - len(streams.held)
        for first in range(0, max(0, missing), 1000):
            size = min(1000, missing - first)
            batch = [tables[(len(streams.held) + i) // PHONES] for i in range(size)]
            urls: list[str] = []
            await each([lambda t=t, u=urls: ticket(t, u) for t in batch], connections)
            await each([lambda u=u: streams.open(u) for u in urls], connections)
        results = []
        if "ticket" in kinds:
            work = each([lambda t=t: ticket(t) for t in picks(requests)], connections)
            results.append(await measure(pid, "ticket", requests, work))
        if "opening" in kinds:
            # Openings of tables that have fewer than four streams (else fresh tables' tickets
            # would overstep the per-token bound): fresh tickets, then measured.
            first = len(streams.held)
            urls = []
            chosen = [tables[(first + i) // PHONES % len(tables)] for i in range(requests)]
            await each([lambda t=t, u=urls: ticket(t, u) for t in chosen], connections)
            work = each([lambda u=u: streams.open(u) for u in urls], connections)
            results.append(await measure(pid, "opening", len(urls), work))
        if "poll304" in kinds:
            work = each(
                [lambda t=t: read(t, f"/api/v1/tables/{t['id']}", True) for t in picks(requests)],
                connections,
            )
            results.append(await measure(pid, "poll304", requests, work))
        if "poll304-new" in kinds:
            work = each([lambda t=t: read_new_connection(t) for t in picks(requests)], connections)
            results.append(await measure(pid, "poll304-new", requests, work))
        if "table" in kinds:
            work = each(
                [lambda t=t: read(t, f"/api/v1/tables/{t['id']}", False) for t in picks(requests)],
                connections,
            )
            results.append(await measure(pid, "table", requests, work))
        if "sheet" in kinds:
            work = each(
                [lambda t=t: read(t, hands_path(t["id"]), False) for t in picks(requests)],
                connections,
            )
            results.append(await measure(pid, "sheet", requests, work))
        if "write" in kinds:
            count = min(requests, len(tables))  # one a table: no table's writers queue
            work = each([lambda t=t: write(t) for t in picks(count)], connections)
            results.append(await measure(pid, "write", count, work))
        if "close" in kinds and "opening" in kinds:
            count = min(requests, len(streams.held))
            results.append(await measure(pid, "close", count, streams.close(count)))
        for kind, count, cpu, seconds in results:
            say(len(streams.held) if kind != "close" else held, kind, count, cpu, seconds)
    await streams.close(len(streams.held))
    pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--held", default="0,4000", help="held streams, one measure each")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--kinds", default=",".join(KINDS))
    args = parser.parse_args()
    held_steps = sorted(int(n) for n in args.held.split(","))
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    # The held streams, and the openings measured, each a socket here.
    most = max(held_steps) + args.requests * 2 + 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, most)), hard))
    tmp = Path(tempfile.mkdtemp(prefix="bench-request-cpu-"))
    database = database_from_environment()
    app = migrated_app(database, tmp)
    # Four streams a table, as the capacity bench's phones; the openings measured need more.
    count = max(50, (max(held_steps) + args.requests + PHONES - 1) // PHONES)
    tables = make_tables(ApiClient(app.test_client()), count, 20)
    streams = max(held_steps) + args.requests + 100
    env = {
        "SOLO_RATELIMIT_WRITES_PER_TOKEN": "100000 per minute",
        "SOLO_RATELIMIT_READS_PER_ADDRESS": "",
        "SOLO_LIVE_STREAMS_PER_ADDRESS": str(streams),
        "WEB_STREAMS_PER_WORKER": str(streams),
        "WEB_CONNECTIONS": str(streams + 1000),
    }
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; one worker, "
        f"{'PostgreSQL' if database else 'SQLite'}, {len(tables)} tables, "
        f"{args.connections} kept-alive connections",
        flush=True,
    )
    with Gunicorn(url, workers=1, ready_timeout=120, **env) as service:
        (pid,) = service.worker_pids()
        asyncio.run(
            run(
                service.port,
                pid,
                tables,
                held_steps,
                args.requests,
                args.connections,
                kinds,
            )
        )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
