"""How many live tables one instance holds, polling and streaming side by side in one run.

    .venv/bin/python -m bench.capacity [--step 120] [--tables 500,1000,2500,5000]
        [--modes polling,streams] [--tables-per-club 20] [--quick]

    DATABASE_URL: the database (default: SQLite in a temp dir, as ``make serve``); a PostgreSQL
    URL at 127.0.0.1 or localhost is used instead, its public schema dropped and re-created.

A live table is four phones and a hand recorded every two minutes (with an Idempotency-Key).
Two ways of following it, measured one after the other in the same run, against the same
server settings:

- **polling**: each phone asks for its table every 3 s with ``If-None-Match`` (the ETag it last
  got), as the score pad does without a stream: 1.34 requests a second per table. A hand
  reaches a phone at its next poll.
- **streams**: each phone holds the table's event stream (``GET /tables/{id}/events``, one
  connection each: 20,000 for 5,000 tables). A hand reaches the phones as an event. A phone
  follows its stream as the pad does (``service/static/pad/live.js`` and ``app.js``): before
  each opening it mints a stream ticket (``POST …/events/tickets``, the table's token as a
  bearer) and opens the ticket's url (no ``Authorization``, ``after`` its last event); a stream
  without its ``ready`` event 5 s after it was opened is given up, and a ticket or a stream
  that failed, was refused, given up or dropped is tried again after the pad's pause, a random
  wait of 0.25 s plus up to a bound that doubles with each failure in a row from 1 s to 30 s
  ("full jitter"; back to 1 s once ready), after a refused ticket's ``Retry-After``. While its
  stream is not live (from the restart until its ``ready``, and after any loss) its tick comes
  every 3 s on its own grid (``app.js``'s ``tick``: nothing while the last poll is unanswered
  or a poll's ``Retry-After`` runs) and polls the table with ``If-None-Match`` when the pad's
  pacing (``live.js``'s ``Pacing``) says so: no poll until the first attempt after the loss
  failed, then one poll after each failed attempt, once a wait drawn as the attempt's has
  passed, and every tick once three streams in a row failed with their tickets minted (the
  pad takes it that streams do not work there). The tickets and polls of a load process's
  phones share its ``KEPT_ALIVE_PER_LOAD_PROCESS`` kept-alive connections (as a proxy in front
  would); a request waiting for one counts the wait in its latency.

Either way a phone does what the pad does once it knows of a version it does not have
(``app.js``'s ``followed``, ``model.js``'s ``refresh``): it fetches the table (streams: without
``If-None-Match``, on hearing the event or a reconnected stream's ``ready``) and then its
score sheet, the table's hands (``GET …/hands?page=1&page_size=100``). The phone that wrote
the hand (the first of each table's four) has it from its own answer and fetches nothing.
Per hand that is the write, three tables and three hands lists (streams), or three hands
lists beside the polls (polling); each step prints the rate it sent beside this, the pads'
own rate at its size.

Each step starts a fresh server (gunicorn.conf.py, 2 workers, the service's worker) and every
phone of its tables connects as after a deployment: each had its stream dropped by the
restart at the step's start, and comes back after its first pause (0.25-1.25 s; polling: at
once, spread over its first 3 s). That is the **cold start**. It lasts until every phone has
its first answer (its first poll answered, its stream's ``ready`` event) and the answers are
back within the limit (the first second from which the next 5 s of requests have a p99 of at
most 100 ms); its length is the **drain time**, at most ``--step`` seconds. Then the **steady
state** is measured for ``--step`` seconds (2 minutes by default, as the issue asks: a hand
per table and the token memory's 60 s expiry both happen within it). Steps go through
``--tables`` until one fails; every step is bounded in time, so the run stops by itself.

A step holds when, in its steady state, no request failed or answered other than 200, 201 or
304, no stream dropped once it was ready and none was left without its ``ready`` (the phones'
reconnections during the cold start are reported, not counted against it), the p99 of all
requests and of the writes alone are at most 100 ms and (streams) the p99 of the events'
delivery is at most 250 ms, and the cold start drained. Polling's delivery is reported, not
judged: its poll period (3 s) bounds it, not the server. Each step names the limits it missed;
the summary names only the limits its modes judged.

What is measured:

- requests' latency from the moment each was due (the load is open: a server falling behind
  shows as latency instead of slowing the load), p50/p99, and the writes' p99 apart;
- **delivery**: from the moment the hand's answer (201) reached its writer to the moment the
  hand's event reached each of the table's other phones (streams), or to the phone's next
  poll that got the new table (polling);
- the workers' resident memory before the phones connect and once all are in, per stream;
- the bare Flask app's ceiling (bench/bare_app.py under wrk) in the same run, as the baseline.

The load generator is one asyncio process for the requests (a shared pool of kept-alive
connections) and, for streams, load processes holding up to ``STREAMS_PER_LOAD_PROCESS``
streams each (plain non-blocking sockets under one selector); they share the machine's 2 cores
with the server and with whatever else runs: the load averages are printed, and so are, for
the cold start, where its time went (from a connection asked for to its request sent, from
the request to ``ready``, how late the load processes' loops woke; the tickets and the
not-live polls, their count, statuses and latency) and the CPU the workers and the load
processes spent until every phone was in. The tickets and polls count with the other
requests: in the drain, and in the steady state's verdict. Only 127.0.0.1 is loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import heapq
import json
import math
import multiprocessing
import os
import random
import re
import resource
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.tables import random_hand
from tests.support import ApiClient, Gunicorn, migrated_app

PHONES = 4
HANDS_PAGE_SIZE = 100  # model.js's PAGE_SIZE: a score sheet's page
POLL_SECONDS = 3.0
HAND_SECONDS = 120.0
P99_LIMIT_MS = 100.0
DELIVERY_P99_LIMIT_MS = 250.0
CONNECTIONS = 128  # kept-alive connections the requests share (a proxy in front would hold more)
DRAINED_FOR = 5  # the cold start ends with the first 5 s whose p99 is within the limit
WORKERS = 2
# Per worker: the streams it may hold, and its connections (streams, kept-alive, requests).
STREAMS_PER_WORKER = 12_000
CONNECTIONS_PER_WORKER = STREAMS_PER_WORKER + 1_000
# Streams a load process holds at most (a socket each: the open-files limit is per process).
STREAMS_PER_LOAD_PROCESS = 8_000
# The kept-alive connections a load process's phones share for their tickets and polls.
KEPT_ALIVE_PER_LOAD_PROCESS = 48
_VERSION = re.compile(rb'"table_id":"([^"]+)","version":(\d+)')
# A stream's ``ready`` names the table's version (``services/live.py``'s ``open_stream``).
_READY_VERSION = re.compile(rb'event: ready\ndata: \{"version":(\d+)')


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


@dataclass
class Step:
    """What one step measured; times are seconds since the step's start."""

    mode: str
    tables: int
    step_seconds: float
    # (due, latency ms, is a write, status) of every request; status 0: failed
    requests: list[tuple[float, float, bool, int]] = field(default_factory=list)
    # (due, ms) of every request: how late the load generator's own loop got round to sending
    # it, counted in its latency too (the load is open); what of a latency is not the server's
    lags: list[tuple[float, float]] = field(default_factory=list)
    deliveries: list[tuple[float, float]] = field(default_factory=list)  # (at, ms)
    phones_in_at: float | None = None  # every phone has its first answer / ready event
    dropped: int = 0
    lost: dict[str, int] = field(default_factory=dict)  # the streams not held, by how
    reloads: int = 0
    rss_before_kib: int = 0
    rss_after_kib: int = 0
    tcp_pages_before: int = 0  # the kernel's TCP buffers, machine-wide (both ends' sockets)
    tcp_pages_after: int = 0
    streams_per_worker: list[int] = field(default_factory=list)
    drain_seconds: float | None = None
    # (streams) seconds from a connection asked for to its request sent; from the request to
    # its ready (each phone's first); how late the load processes' loops woke (every 0.1 s)
    stream_timing: tuple[list[float], list[float], list[float]] = field(
        default_factory=lambda: ([], [], [])
    )
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    # (streams) the phones' tickets and not-live polls, by kind: (due, ms, status)
    exchanges: dict[str, list[tuple[float, float, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    # CPU seconds from the start until every phone was in (or the cold start's bound, at
    # ``cold_cpu_at`` s): the workers', the load processes'
    cold_cpu_at = 0.0
    workers_cpu_in = 0.0
    load_cpu_in = 0.0

    def drained_at(self) -> float | None:
        """The cold start's end: all phones in, then the first second from which every second's
        p99 stays within the limit for ``DRAINED_FOR`` seconds (None: not within the step)."""
        if self.phones_in_at is None:
            return None
        per_second: dict[int, list[float]] = defaultdict(list)
        for due, latency, _write, _status in self.requests:
            per_second[int(due)].append(latency)
        first = int(self.phones_in_at)
        for start in range(first, first + int(self.step_seconds)):
            window = [ms for s in range(start, start + DRAINED_FOR) for ms in per_second[s]]
            if percentile(window, 0.99) <= P99_LIMIT_MS:
                return max(float(start), self.phones_in_at)
        return None

    def steady(self) -> tuple[list[tuple[float, float, bool, int]], list[float]]:
        begin = self.drain_seconds or 0.0
        end = begin + self.step_seconds
        requests = [r for r in self.requests if begin <= r[0] < end]
        deliveries = [ms for at, ms in self.deliveries if begin <= at < end]
        return requests, deliveries

    def steady_lags(self) -> list[float]:
        begin = self.drain_seconds or 0.0
        return [ms for due, ms in self.lags if begin <= due < begin + self.step_seconds]

    def verdict(self) -> tuple[bool, dict[str, Any]]:
        requests, deliveries = self.steady()
        latencies = [r[1] for r in requests]
        writes = [r[1] for r in requests if r[2]]
        statuses: dict[int, int] = defaultdict(int)
        for r in requests:
            statuses[r[3]] += 1
        figures = {
            "requests": len(requests),
            "rps": len(requests) / self.step_seconds,
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "writes": len(writes),
            "writes_p99": percentile(writes, 0.99),
            "deliveries": len(deliveries),
            "delivery_p50": percentile(deliveries, 0.5),
            "delivery_p99": percentile(deliveries, 0.99),
            "statuses": dict(sorted(statuses.items())),
        }
        missed = [
            limit
            for limit, kept in (
                ("the cold start drained", self.drain_seconds is not None),
                ("no stream dropped or reloaded", not self.dropped and not self.reloads),
                (
                    "every answer 200, 201 or 304",
                    all(status in (200, 201, 304) for status in statuses),
                ),
                (f"requests' p99 ≤ {P99_LIMIT_MS:g} ms", figures["p99"] <= P99_LIMIT_MS),
                (f"writes' p99 ≤ {P99_LIMIT_MS:g} ms", figures["writes_p99"] <= P99_LIMIT_MS),
                (
                    f"events delivered p99 ≤ {DELIVERY_P99_LIMIT_MS:g} ms",
                    self.mode == "polling" or figures["delivery_p99"] <= DELIVERY_P99_LIMIT_MS,
                ),
            )
            if not kept
        ]
        figures["missed"] = missed
        return not missed, figures


def judged_limits(mode: str) -> list[str]:
    """The limits a step of ``mode`` is judged by (``Step.verdict``), as the summary says them."""
    limits = [
        f"p99 of requests and of writes ≤ {P99_LIMIT_MS:g} ms",
        "every answer 200, 201 or 304",
        "the cold start drained",
    ]
    if mode == "streams":
        limits += [f"events delivered p99 ≤ {DELIVERY_P99_LIMIT_MS:g} ms", "no stream dropped"]
    return limits


def pads_rate(mode: str, tables: int) -> dict[str, float]:
    """The requests a second the pads themselves send to ``tables`` live tables in the steady
    state (the module docstring): what a step's rate is set beside."""
    hands = tables / HAND_SECONDS
    fetching = PHONES - 1  # every phone but the writer
    rate = {"writes": hands, "hands lists": hands * fetching}
    if mode == "streams":
        rate["tables"] = hands * fetching
    else:
        rate["polls"] = tables * PHONES / POLL_SECONDS
    return rate


def hands_path(table: str) -> str:
    """The pad's read of a table's score sheet (``model.js``'s ``loadHands``: one page)."""
    return f"/api/v1/tables/{table}/hands?page=1&page_size={HANDS_PAGE_SIZE}"


class Connections:
    """A pool of kept-alive HTTP/1.1 connections to 127.0.0.1:port."""

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
        """One request and its answer. A kept-alive connection the server closed while it was
        idle (after its keep-alive timeout, 5 s) fails before any answer: the request is sent
        again once on a new connection, as browsers do."""
        connection = await self.free.get()
        if connection is not None:
            try:
                return await self._exchange(connection, method, path, headers, body)
            except (ConnectionError, asyncio.IncompleteReadError) as error:
                if isinstance(error, asyncio.IncompleteReadError) and error.partial:
                    raise
                await self.free.get()  # its place, taken again for the new connection
        return await self._exchange(None, method, path, headers, body)

    async def _exchange(
        self,
        connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
    ) -> tuple[int, dict[str, str], bytes]:
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = connection
            lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(body)}"]
            lines += [f"{k}: {v}" for k, v in headers.items()]
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

    def close(self) -> None:
        while not self.free.empty():
            connection = self.free.get_nowait()
            if connection is not None:
                connection[1].close()


def etag_version(etag: str) -> int:
    return int(etag.removeprefix("W/").strip('"'))


class Seen:
    """When each phone saw each version of its table (monotonic clock, shared by processes)
    and when each hand's answer arrived: the deliveries, once the step is over."""

    def __init__(self) -> None:
        self.answered: dict[tuple[str, int], float] = {}  # (table, version) → answer's arrival
        self.arrivals: list[tuple[str, int, float]] = []  # (table, version, arrival)

    def deliveries(self, start: float) -> list[tuple[float, float]]:
        """(answer's time since ``start``, ms from the answer to the phone's arrival); an event
        that came before its writer had the answer counts 0."""
        delivered = []
        for table, version, arrival in self.arrivals:
            answered = self.answered.get((table, version))
            if answered is not None:
                delivered.append((answered - start, max(0.0, arrival - answered) * 1000))
        return delivered


# The pad's reconnection (service/static/pad/live.js): a stream with no ``ready`` within
# READY_SECONDS of its opening is given up, and any stream that fails, is refused or drops is
# opened again after ``retry_delay`` (full jitter, doubling from 1 s to 30 s, at least 0.25 s);
# after UNHELD_STREAMS streams in a row failed with their tickets minted, it polls every tick.
READY_SECONDS = 5.0
RETRY_BASE_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0
RETRY_MIN_SECONDS = 0.25
UNHELD_STREAMS = 3
_EVENT_ID = re.compile(rb"(?:^|\n)id: (\d+)\n")
# (a load process's figure that is a time, not a count: the processes' latest, not their sum)
LAST_SENT = "last request sent after s"
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)  # Linux's number


def retry_delay(retries: int, rng: random.Random) -> float:
    """The pad's wait before its reconnection number ``retries`` (0 for the first), seconds:
    ``live.js``'s ``retryDelay``."""
    bound = min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** min(retries, 16))
    return float(RETRY_MIN_SECONDS + rng.random() * bound)


def retry_after_seconds(headers: dict[str, str]) -> float:
    """A refusal's ``Retry-After`` (seconds; the service sends no dates), else 0: as the pad's
    ``api.js`` reads it."""
    value = headers.get("retry-after", "")
    return float(value) if value.isdigit() else 0.0


def received(sock: socket.socket) -> bytes | None:
    """What a non-blocking socket has come with: its bytes, ``b""`` once the other end closed
    or reset it, None when nothing has come yet."""
    try:
        return sock.recv(65536)
    except (BlockingIOError, InterruptedError):
        return None
    except OSError:
        return b""


class KeptAlive:
    """One of a load process's kept-alive HTTP/1.1 connections for its phones' tickets and
    polls (a browser keeps one beside its stream; a proxy in front would share a few like
    these): a plain non-blocking socket in the holder's selector, one request at a time.

    A request waits in the holder's queue until a connection is free (the wait counts in its
    latency: the load is open). A connection the server closed while it was idle (its
    keep-alive timeout) is opened again; a request it failed before any answer is sent once
    more on a new one, as browsers do."""

    def __init__(self, holder: StreamHolder) -> None:
        self.holder = holder
        self.sock: socket.socket | None = None
        self.connected = False
        self.current: Exchange | None = None
        self.sent_again = False
        self.buffer = b""

    def send(self, exchange: Exchange) -> None:
        self.current = exchange
        self.buffer = b""
        if self.sock is None:
            self._connect()
        else:
            self._write()

    def _connect(self) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((self.holder.source, 0))
        self.sock, self.connected = sock, False
        if sock.connect_ex(("127.0.0.1", self.holder.port)) not in (0, errno.EINPROGRESS):
            self._failed()
            return
        self.holder.selector.register(sock, selectors.EVENT_WRITE, self)

    def _write(self) -> None:
        assert self.sock is not None and self.current is not None
        try:
            self.sock.send(self.current.request)  # a few hundred bytes: an empty buffer takes them
        except OSError:
            self._failed()
            return
        self.holder.selector.modify(self.sock, selectors.EVENT_READ, self)

    def on_event(self, mask: int) -> None:
        assert self.sock is not None
        if not self.connected:
            if self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                self._failed()
                return
            self.connected = True
            self._write()
            return
        data = received(self.sock)
        if data is None:
            return
        if not data:
            self._failed()
            return
        if self.current is None:
            return  # (nothing is asked of an idle connection)
        self.buffer += data
        head_end = self.buffer.find(b"\r\n\r\n")
        if head_end < 0:
            return
        status_line, *lines = self.buffer[:head_end].decode("latin-1").split("\r\n")
        headers = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)
        }
        body = self.buffer[head_end + 4 :]
        if len(body) < int(headers.get("content-length", "0")):
            return
        exchange, self.current, self.sent_again = self.current, None, False
        if headers.get("connection", "").lower() == "close":
            self._close()
        self.holder.answered(self, exchange, int(status_line.split()[1]), headers, body)

    def _failed(self) -> None:
        """The connection failed or closed: an idle one is simply closed; a request not yet
        answered is sent once more on a new connection, then counted as failed (status 0)."""
        fresh = not self.connected or self.sock is None
        self._close()
        exchange = self.current
        if exchange is None:
            return
        if not self.sent_again and not fresh and not self.buffer:
            self.sent_again = True
            self._connect()
            return
        self.current, self.sent_again = None, False
        self.holder.answered(self, exchange, 0, {}, b"")

    def _close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.holder.selector.unregister(self.sock)
            self.sock.close()
        self.sock, self.connected = None, False


@dataclass
class Exchange:
    """A phone's request on a kept-alive connection: its kind (``ticket``, ``poll``), when it
    was due, its bytes, and what to do with the answer (status 0: failed)."""

    kind: str
    due: float
    request: bytes
    then: Callable[[int, dict[str, str], bytes], None]


class StreamPhone:
    """A phone following its table's stream as the pad does (``live.js``, ``app.js``): before
    each opening it mints a stream ticket (``POST …/events/tickets``, its token as a bearer) and
    opens the ticket's ``url`` (no ``Authorization``: EventSource sends none) with ``after`` its
    last event; the stream is given up ``READY_SECONDS`` after it was opened without ``ready``,
    and opened again (a new ticket) after the pad's jittered pause when the ticket or the stream
    fails, is refused, given up or dropped (a refused ticket's ``Retry-After`` first). While its
    stream is not live (from the restart, or a failure, until ``ready``) its tick comes every
    ``POLL_SECONDS`` on its own grid (``app.js``'s ``tick``: nothing while the previous poll is
    unanswered or a poll's ``Retry-After`` runs) and polls the table with ``If-None-Match`` when
    ``live.js``'s ``Pacing`` says a poll is due: none until the first attempt after a loss had
    its chance, then one after each failed attempt (after a wait drawn as the attempt's), and
    every tick once ``UNHELD_STREAMS`` streams in a row failed with their tickets minted.

    The stream is a plain non-blocking socket driven by its holder's selector
    (``StreamHolder``): asyncio's transports cost a load process several times the CPU per
    connection, and a load process that falls behind gives up streams whose ``ready`` is
    waiting unread in its socket. Tickets and polls go on the holder's ``KeptAlive``
    connections."""

    def __init__(
        self, holder: StreamHolder, table: str, token: str, version: int, writer: bool
    ) -> None:
        self.holder = holder
        self.table = table
        self.token = token
        self.writer = writer  # the phone that records the table's hands: it fetches nothing
        self.etag = f'"{version}"'  # the table this phone shows (it had it before the restart)
        self.retries = 0
        self.last_id: int | None = None
        self.sock: socket.socket | None = None
        self.connected = False  # its request sent
        self.ready = False  # its current connection had its ready: the stream is live
        self.buffer = b""
        self.url = ""  # the current ticket's
        self.opened_at = 0.0  # when its current connection was asked for
        self.sent_at = 0.0  # when that connection's request went out
        self.ready_at: float | None = None  # its first ready (this process's clock)
        self.attempt = 0  # its connections so far: a timer names the one it was set for
        self.closed = False  # the step is over: no more reconnecting
        self.poll_phase = 0.0  # its polls' grid (app.js's setInterval): phase + k × POLL_SECONDS
        self.polls = 0  # its polling spells: a poll timer names the one it was set for
        self.polling = False  # a poll is unanswered
        # live.js's Pacing: streams in a row that failed with their tickets minted; the next
        # poll not before (inf: after the next failure); app.js's Retry-After of a poll
        self.unheld = 0
        self.poll_at = math.inf
        self.polls_resume_at = 0.0

    def request(self) -> bytes:
        after = f"&after={self.last_id}" if self.last_id is not None else ""
        return f"GET {self.url}{after} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()

    def open(self, _attempt: int = 0) -> None:
        """Mint a ticket, then open the stream with it (``live.js``'s ``open``); a timer's
        call."""
        if self.closed:
            return
        self.attempt += 1
        attempt = self.attempt

        def ticketed(status: int, headers: dict[str, str], body: bytes) -> None:
            self._ticketed(attempt, status, headers, body)

        self.holder.exchange(
            Exchange(
                "ticket",
                time.monotonic(),
                (
                    f"POST /api/v1/tables/{self.table}/events/tickets HTTP/1.1\r\n"
                    f"Host: 127.0.0.1\r\nAuthorization: Bearer {self.token}\r\n"
                    "Accept: application/json\r\nContent-Length: 0\r\n\r\n"
                ).encode(),
                ticketed,
            )
        )

    def _ticketed(self, attempt: int, status: int, headers: dict[str, str], body: bytes) -> None:
        if self.closed or attempt != self.attempt:
            return
        if status != 201:
            how = "ticket failed" if not status else f"ticket refused ({status})"
            self._again(how, minted=False, retry_after=retry_after_seconds(headers))
            return
        self.url = json.loads(body)["url"]
        self._connect()

    def _connect(self) -> None:
        """Start the stream's connection (its request goes out once it is established)."""
        self.opened_at = time.monotonic()
        self.connected = self.ready = False
        self.buffer = b""
        # As the pad's READY_MS, from the EventSource's creation.
        self.holder.later(self.opened_at + READY_SECONDS, self._ready_late, self.attempt)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        self.sock = sock
        # From this load process's own loopback address (its port chosen on connecting): the
        # kernel looks for a free port per source address, and tens of thousands of
        # connections (and those given up, in TIME_WAIT) from one address made each
        # connect() search long; phones come from many addresses anyway.
        sock.setsockopt(socket.IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, 1)
        sock.bind((self.holder.source, 0))
        error = sock.connect_ex(("127.0.0.1", self.holder.port))
        if error not in (0, errno.EINPROGRESS):
            self._again("could not connect")
            return
        self.holder.selector.register(sock, selectors.EVENT_WRITE, self)

    def on_event(self, mask: int) -> None:
        if not self.connected:
            self._established()
        elif mask & selectors.EVENT_READ:
            self._readable()

    def _established(self) -> None:
        assert self.sock is not None
        if self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self._again("could not connect")
            return
        try:
            self.sock.send(self.request())  # a few hundred bytes: an empty buffer takes them
        except OSError:
            self._again("could not connect")
            return
        self.connected = True
        now = time.monotonic()
        self.sent_at = now
        self.holder.note_sent(now, now - self.opened_at)
        self.holder.selector.modify(self.sock, selectors.EVENT_READ, self)

    def _ready_late(self, attempt: int) -> None:
        if attempt == self.attempt and self.sock is not None and not self.ready:
            self._again(f"no ready within {READY_SECONDS:g} s")

    def _readable(self) -> None:
        assert self.sock is not None
        data = received(self.sock)
        if data is None:
            return
        if not data:
            if self.ready:
                self.holder.dropped += 1  # a held stream lost: counted against the step
            self._again("closed after ready" if self.ready else "closed before ready")
            return
        if not self.ready:
            self.buffer += data
            if b"event: ready" not in self.buffer and b"event: reload" not in self.buffer:
                if self.buffer.startswith(b"HTTP/1.1 ") and not self.buffer.startswith(
                    b"HTTP/1.1 200"
                ):
                    self._again("refused (not 200)")  # a limit: the pad polls meanwhile
                return
            self.ready = True  # live: the polls stop (their timer finds it so)
            self.retries = self.unheld = 0  # (Pacing's ``live``)
            self.poll_at = math.inf
            data, self.buffer = self.buffer, b""
            self.holder.note_ready(self, time.monotonic() - self.sent_at)
        self.heard(data)

    def heard(self, data: bytes) -> None:
        ids = _EVENT_ID.findall(data)
        if ids:
            self.last_id = int(ids[-1])
        if b"event: reload" in data:
            self.holder.reloads += 1
        now = time.monotonic()
        for version in _READY_VERSION.findall(data):
            if not self.writer and int(version) > etag_version(self.etag):
                self._fetch()  # (a reconnected stream: versions missed meanwhile)
        for table, version in _VERSION.findall(data):
            self.holder.arrivals.append((table.decode(), int(version), now))
            if self.writer:
                self.etag = f'"{int(version)}"'  # (its own write's answer had it)
            elif int(version) > etag_version(self.etag):
                self._fetch()

    def _fetch(self) -> None:
        """``app.js``'s ``followed``: a version this phone does not have was heard of; the
        table is fetched without ``If-None-Match``, then its score sheet."""
        self.holder.exchange(
            Exchange(
                "table",
                time.monotonic(),
                (
                    f"GET /api/v1/tables/{self.table} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Authorization: Bearer {self.token}\r\nAccept: application/json\r\n\r\n"
                ).encode(),
                self._fetched,
            )
        )

    def _fetched(self, status: int, headers: dict[str, str], _body: bytes) -> None:
        if status == 200 and "etag" in headers:
            if etag_version(headers["etag"]) > etag_version(self.etag):
                self.etag = headers["etag"]
            self._read_sheet()

    def _read_sheet(self) -> None:
        """``model.js``'s ``loadHands``: the table's hands, after each table that changed."""
        self.holder.exchange(
            Exchange(
                "sheet",
                time.monotonic(),
                (
                    f"GET {hands_path(self.table)} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Authorization: Bearer {self.token}\r\nAccept: application/json\r\n\r\n"
                ).encode(),
                lambda _status, _headers, _body: None,
            )
        )

    def poll_from(self, now: float) -> None:
        """Poll on this phone's grid from ``now`` until the stream is live (a new spell)."""
        self.polls += 1
        ticks = math.floor((now - self.poll_phase) / POLL_SECONDS) + 1
        self.holder.later(self.poll_phase + ticks * POLL_SECONDS, self._tick, self.polls)

    def _tick(self, spell: int) -> None:
        """``app.js``'s ``tick`` while the stream is not live: the table, with If-None-Match,
        when a poll is due."""
        if self.closed or spell != self.polls or self.ready:
            return  # live (or stopped): no polling until the stream is lost again
        now = time.monotonic()
        self.holder.later(now + POLL_SECONDS, self._tick, spell)
        if self.polling:
            return  # the previous poll is still unanswered (app.js's ``ticking``)
        if now < self.polls_resume_at or not self._poll_due(now):
            return
        self.polling = True
        self.holder.exchange(
            Exchange(
                "poll",
                time.monotonic(),
                (
                    f"GET /api/v1/tables/{self.table} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Authorization: Bearer {self.token}\r\nAccept: application/json\r\n"
                    f"If-None-Match: {self.etag}\r\n\r\n"
                ).encode(),
                self._polled,
            )
        )

    def _poll_due(self, now: float) -> bool:
        """``live.js``'s ``Pacing.pollDue``: every tick once streams do not work here, else
        once after each failed attempt's wait."""
        if self.unheld >= UNHELD_STREAMS:
            return True
        if now < self.poll_at:
            return False
        self.poll_at = math.inf
        return True

    def _polled(self, status: int, headers: dict[str, str], _body: bytes) -> None:
        self.polling = False
        if status not in (200, 304):
            self.polls_resume_at = time.monotonic() + retry_after_seconds(headers)
        if status == 200 and "etag" in headers:
            self.etag = headers["etag"]
            self.holder.arrivals.append((self.table, etag_version(self.etag), time.monotonic()))
            self._read_sheet()

    def _again(self, how: str, minted: bool = True, retry_after: float = 0.0) -> None:
        """The pad's ``again``: this connection closed (lost, or this attempt failed: its
        ticket, not ``minted``, or its stream), another opened (with a new ticket) after a
        pause (``Pacing``'s ``lost`` and ``failed``); not live, so polled meanwhile, paced."""
        self._close_socket()
        if self.closed:
            return
        now = time.monotonic()
        was_live, self.ready = self.ready, False
        if was_live:
            self.poll_from(now)  # its ticks again; no poll due until this attempt failed
        else:
            if minted:
                self.unheld += 1
                if self.unheld == UNHELD_STREAMS:
                    self.holder.unheld_phones += 1
            poll = now + retry_after + retry_delay(self.retries, self.holder.rng)
            self.poll_at = min(self.poll_at, poll)
        self.attempt += 1  # the current connection's timer, if any, no longer applies
        self.holder.retried[how] += 1
        wait = retry_after + retry_delay(self.retries, self.holder.rng)
        self.retries += 1
        self.holder.later(now + wait, self.open, 0)

    def _close_socket(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.holder.selector.unregister(self.sock)
            self.sock.close()
            self.sock = None
        self.connected = False

    def close(self) -> None:
        self.closed = True
        self._close_socket()


class StreamHolder:
    """Phones holding streams, in a process of their own (``hold_streams``): a process may
    hold fewer open files than 20,000 streams need. One selector and a heap of timers."""

    def __init__(self, control: Connection, port: int, phones: int, seed: int, source: str) -> None:
        self.control = control
        self.port = port
        self.source = source  # the address its phones connect from (127.0.0.2, …)
        self.phones = phones
        self.rng = random.Random(seed)
        self.selector = selectors.DefaultSelector()
        self.timers: list[tuple[float, int, Callable[[int], None], int]] = []
        self.timer_count = 0
        self.ready = 0
        self.dropped = 0
        self.reloads = 0
        self.retried: dict[str, int] = defaultdict(int)  # reconnections, by what failed
        self.unheld_phones = 0  # times a phone took streams not to work here (polls each tick)
        self.arrivals: list[tuple[str, int, float]] = []
        self.last_sent = 0.0  # when the last phone sent its request (this process's clock)
        self.connect_seconds: list[float] = []  # asked for → request sent, per connection
        self.ready_seconds: list[float] = []  # request sent → ready, first ready of each phone
        self.lag_seconds: list[float] = []  # how late this process's loop woke, ten times a s
        # The phones' tickets and polls: the kept-alive connections, the requests waiting for
        # one, and (kind, due, ms, status) of each answered (status 0: failed)
        self.idle = [KeptAlive(self) for _ in range(KEPT_ALIVE_PER_LOAD_PROCESS)]
        self.waiting: deque[Exchange] = deque()
        self.exchanges: list[tuple[str, float, float, int]] = []

    def exchange(self, exchange: Exchange) -> None:
        if self.idle:
            self.idle.pop().send(exchange)
        else:
            self.waiting.append(exchange)

    def answered(
        self,
        connection: KeptAlive,
        exchange: Exchange,
        status: int,
        headers: dict[str, str],
        body: bytes,
    ) -> None:
        now = time.monotonic()
        self.exchanges.append((exchange.kind, exchange.due, (now - exchange.due) * 1000, status))
        if self.waiting:
            connection.send(self.waiting.popleft())
        else:
            self.idle.append(connection)
        exchange.then(status, headers, body)

    def later(self, at: float, call: Callable[[int], None], argument: int) -> None:
        self.timer_count += 1
        heapq.heappush(self.timers, (at, self.timer_count, call, argument))

    def note_sent(self, now: float, connecting: float) -> None:
        self.last_sent = now
        self.connect_seconds.append(connecting)

    def note_ready(self, phone: StreamPhone, waited: float) -> None:
        if phone.ready_at is not None:
            return
        phone.ready_at = time.monotonic()
        self.ready_seconds.append(waited)
        self.ready += 1
        if self.ready == self.phones:
            self.control.send(("in", time.monotonic()))

    def run(self, tables: list[tuple[str, str, int]], start: float) -> None:
        phones = [
            StreamPhone(self, t, k, v, writer=not n) for t, k, v in tables for n in range(PHONES)
        ]
        # The server (re)started at ``start``: every pad lost its stream then, and comes back
        # after its first pause (``retry_delay(0)``: 0.25-1.25 s; Pacing's ``lost``), as after
        # a deployment; meanwhile it ticks, on the grid its page set when it was loaded (any
        # phase), and polls once that first attempt failed.
        for phone in phones:
            self.later(start + retry_delay(0, self.rng), phone.open, 0)
            phone.retries = 1
            phone.poll_phase = start + self.rng.uniform(0, POLL_SECONDS)
            phone.poll_from(start)
        tick = start  # ten times a second: how late the loop is, and the control pipe
        while True:
            now = time.monotonic()
            while self.timers and self.timers[0][0] <= now:
                _at, _n, call, argument = heapq.heappop(self.timers)
                call(argument)
            if now >= tick:
                self.lag_seconds.append(now - tick)
                tick = max(tick + 0.1, now)
                if self.control.poll():
                    break
            wake = min(tick, self.timers[0][0]) if self.timers else tick
            for key, mask in self.selector.select(max(0.0, wake - time.monotonic())):
                key.data.on_event(mask)
        self.control.recv()  # stop
        for phone in phones:
            phone.close()
        never_ready = sum(1 for p in phones if p.ready_at is None)
        how = {
            **{f"reconnected: {kind}": n for kind, n in sorted(self.retried.items())},
            "never ready": never_ready,
            f"polling every tick ({UNHELD_STREAMS} unheld streams in a row)": self.unheld_phones,
            # (seconds from the start to this load process's last request sent)
            LAST_SENT: round(self.last_sent - start),
        }
        timing = (self.connect_seconds, self.ready_seconds, self.lag_seconds)
        exchanges = [(kind, due - start, ms, status) for kind, due, ms, status in self.exchanges]
        self.control.send(
            (
                "done",
                self.dropped + never_ready,
                self.reloads,
                self.arrivals,
                how,
                timing,
                exchanges,
            )
        )


def hold_streams(
    control: Connection,
    port: int,
    tables: list[tuple[str, str, int]],
    start: float,
    seed: int,
    source: str,
) -> None:
    """A load process's work: ``PHONES`` streams for each of ``tables`` from ``start`` (a
    ``time.monotonic()``) until told to stop; then what they saw, sent back on ``control``."""
    needed = len(tables) * PHONES + 100
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    StreamHolder(control, port, len(tables) * PHONES, seed, source).run(tables, start)


async def run_step(
    mode: str,
    port: int,
    tables: list[dict[str, Any]],
    step_seconds: float,
    rng: random.Random,
    workers: list[int],
) -> Step:
    step = Step(mode, len(tables), step_seconds)
    loop = asyncio.get_running_loop()
    await warm_up(port, tables[: WORKERS * 8])
    step.rss_before_kib = sum(rss_kib(pid) for pid in workers)
    step.tcp_pages_before = tcp_buffer_pages()
    workers_cpu = sum(cpu_seconds(pid) for pid in workers)
    holders: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    start = loop.time() + 0.5  # loop.time() is time.monotonic(): the load processes' clock
    if mode == "streams":
        context = multiprocessing.get_context("fork")
        processes = math.ceil(len(tables) * PHONES / STREAMS_PER_LOAD_PROCESS)
        chunk = math.ceil(len(tables) / processes)
        for first in range(0, len(tables), chunk):
            ours, theirs = context.Pipe()
            ids = [(t["id"], t["table_token"], t["version"]) for t in tables[first : first + chunk]]
            source = f"127.0.0.{2 + len(holders)}"
            process = context.Process(
                target=hold_streams,
                args=(theirs, port, ids, start, rng.randrange(2**32), source),
            )
            process.start()
            holders.append((process, ours))
    seen = Seen()
    pool = Connections(port, CONNECTIONS)
    cold_end = start + step_seconds  # the latest the cold start may last
    end = cold_end + step_seconds  # bounded: cut short below once drained
    polled_in = 0
    holders_in: list[float] = []

    async def timed(
        at: float, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str]] | None:
        await asyncio.sleep(max(0.0, at - loop.time()))
        step.lags.append((at - start, (loop.time() - at) * 1000))
        try:
            status, answer, _ = await pool.request(method, path, headers, body)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            status, answer = 0, {}
        latency = (loop.time() - at) * 1000
        step.requests.append((at - start, latency, method == "POST", status))
        return (status, answer) if status else None

    written: dict[str, str] = {}  # a table's ETag as its writer's last write answered it

    async def poller(t: int, phone: int) -> None:
        """A phone polling as the pad does (``app.js``'s ``tick``); after each table that
        changed, its score sheet (``model.js``'s ``loadHands``). The first phone of each
        table is its writer: what it wrote it has from the write's answer."""
        nonlocal polled_in
        table = tables[t]
        path = f"/api/v1/tables/{table['id']}"
        auth = {"Authorization": f"Bearer {table['table_token']}"}
        at = start + rng.uniform(0, POLL_SECONDS)
        etag = None
        while at < end:
            if not phone and etag and table["id"] in written:
                etag = max(etag, written[table["id"]], key=etag_version)
            headers = dict(auth)
            if etag:
                headers["If-None-Match"] = etag
            answer = await timed(at, "GET", path, headers)
            if answer is not None and answer[0] == 200 and "etag" in answer[1]:
                await timed(loop.time(), "GET", hands_path(table["id"]), auth)
                if etag is None:
                    polled_in += 1
                    if polled_in == len(tables) * PHONES:
                        step.phones_in_at = loop.time() - start
                else:
                    seen.arrivals.append(
                        (table["id"], etag_version(answer[1]["etag"]), loop.time())
                    )
                etag = answer[1]["etag"]
            at += POLL_SECONDS

    async def hands(t: int) -> None:
        table = tables[t]
        at = start + rng.uniform(0, HAND_SECONDS)
        while at < end:
            body = json.dumps(random_hand(rng)).encode()
            answer = await timed(
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
            if answer is not None and answer[0] == 201 and "etag" in answer[1]:
                seen.answered[(table["id"], etag_version(answer[1]["etag"]))] = loop.time()
                written[table["id"]] = answer[1]["etag"]
            at += HAND_SECONDS

    work = [asyncio.ensure_future(hands(t)) for t in range(len(tables))]
    if mode == "polling":
        work += [
            asyncio.ensure_future(poller(t, n)) for t in range(len(tables)) for n in range(PHONES)
        ]
    memory_at: float | None = None
    # Bounded: the cold start may take ``step_seconds``, the steady state takes as long.
    while loop.time() < end:
        await asyncio.sleep(1)
        for _process, control in holders:
            while control.poll():
                holders_in.append(control.recv()[1])
        if holders and len(holders_in) == len(holders) and step.phones_in_at is None:
            step.phones_in_at = max(holders_in) - start
        if (
            holders
            and not step.cold_cpu_at
            and (step.phones_in_at is not None or loop.time() > cold_end)
        ):
            step.cold_cpu_at = loop.time() - start
            step.workers_cpu_in = sum(cpu_seconds(pid) for pid in workers) - workers_cpu
            step.load_cpu_in = sum(cpu_seconds(p.pid) for p, _ in holders if p.pid)
        if step.phones_in_at is not None and memory_at is None:
            memory_at = loop.time() + 2  # what the workers allocated for the last ones settles
        if memory_at is not None and loop.time() >= memory_at and not step.rss_after_kib:
            step.rss_after_kib = sum(rss_kib(pid) for pid in workers)
            step.tcp_pages_after = tcp_buffer_pages()
            step.streams_per_worker = [established(pid, port) for pid in workers]
        drained = step.drained_at() if step.phones_in_at is not None else None
        if drained is not None and loop.time() >= start + drained + step_seconds + 1:
            break
        if step.phones_in_at is None and loop.time() > cold_end:
            break
    for task in work:
        task.cancel()
    await asyncio.gather(*work, return_exceptions=True)
    pool.close()
    for process, control in holders:
        control.send("stop")
        message = control.recv()
        if message[0] == "in":
            message = control.recv()
        _done, dropped, reloads, arrivals, how, timing, exchanges = message
        for kind, due, ms, status in exchanges:
            step.exchanges[kind].append((due, ms, status))
            # counted with the rest: the cold start drains, and the steady state holds, with them
            step.requests.append((due, ms, False, status))
        for into, values in zip(step.stream_timing, timing, strict=True):
            into.extend(values)
        step.dropped += dropped
        for kind, count in how.items():
            merge = max if kind == LAST_SENT else (lambda a, b: a + b)
            step.lost[kind] = merge(step.lost.get(kind, 0), count)
        step.reloads += reloads
        seen.arrivals += arrivals
        process.join()
    step.deliveries = seen.deliveries(start)
    step.drain_seconds = step.drained_at()
    step.load = os.getloadavg()  # type: ignore[assignment]
    return step


async def warm_up(port: int, tables: list[dict[str, Any]]) -> None:
    """A few tables read and their streams opened and closed, so that the workers' first
    requests (the app's lazy imports and caches, the change feed's thread) are not counted
    in the memory the phones take. (Not the cold start's: the step's clock starts after.)"""
    pool = Connections(port, len(tables))
    for table in tables:
        path = f"/api/v1/tables/{table['id']}"
        auth = {"Authorization": f"Bearer {table['table_token']}"}
        await pool.request("GET", path, auth)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {path}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: {auth['Authorization']}\r\n\r\n".encode()
        )
        await reader.readuntil(b"event: ready")
        writer.close()
    pool.close()


def tcp_buffer_pages() -> int:
    """The pages the kernel holds for TCP sockets' buffers, machine-wide (``/proc/net/sockstat``:
    every process's, the load generator's end of each stream as well as the server's)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1])
    return 0


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process ``pid`` has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def established(pid: int, port: int) -> int:
    """How many connections to ``port`` the process ``pid`` holds."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":
            inodes.add(fields[9])
    held = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        held += target.startswith("socket:[") and target[8:-1] in inodes
    return held


def echo_ceiling(port: int, seconds: int) -> float:
    done = subprocess.run(
        ["wrk", "-t2", "-c16", f"-d{seconds}s", f"http://127.0.0.1:{port}/item"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in done.splitlines() if line.startswith("Requests/sec:"))
    return float(line.split()[1])


def database_from_environment() -> str | None:
    """DATABASE_URL when it names a PostgreSQL on this machine; None for SQLite (the default)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url or url.startswith("sqlite"):
        return None
    if not url.startswith("postgres"):
        sys.exit(f"DATABASE_URL must be SQLite or PostgreSQL: {url}")
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
        sys.exit("DATABASE_URL: this bench drops the database's public schema: 127.0.0.1 only")
    return url


def make_tables(api: ApiClient, count: int, per_club: int) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = []
    club: dict[str, Any] = {}
    for index in range(count):
        if index % per_club == 0:
            club = api.club(f"Capacity {index // per_club + 1}")
        tables.append(api.table(club=club))
    return tables


def report(step: Step, ceiling: float) -> bool:
    held, f = step.verdict()
    drain = "never" if step.drain_seconds is None else f"{step.drain_seconds:.0f} s"
    if step.phones_in_at is not None:
        drain += f" (all phones in after {step.phones_in_at:.0f} s)"
    memory = ""
    if step.mode == "streams" and step.rss_after_kib:
        streams = step.tables * PHONES
        per = (step.rss_after_kib - step.rss_before_kib) * 1024 / streams
        memory = (
            f"; workers' RSS {step.rss_before_kib / 1024:.0f} → {step.rss_after_kib / 1024:.0f}"
            f" MiB, {per:,.0f} B a stream; the kernel's TCP buffers (both ends) "
            f"{(step.tcp_pages_after - step.tcp_pages_before) * 4096 / streams:,.0f} B a stream;"
            f" streams per worker "
            f"{'/'.join(map(str, step.streams_per_worker))}"
        )
    lost = (
        " (" + ", ".join(f"{kind} {n}" for kind, n in step.lost.items() if n) + ")"
        if step.dropped
        else ""
    )
    if step.mode == "streams":
        connecting, readying, lagging = step.stream_timing

        def spread(values: list[float]) -> str:
            return (
                f"p50 {percentile(values, 0.5):.2f} s, p99 {percentile(values, 0.99):.2f} s, "
                f"max {max(values, default=0.0):.2f} s"
            )

        retried = ", ".join(f"{kind} {n}" for kind, n in step.lost.items() if n)
        print(
            f"         cold start: a connection asked for → its request sent {spread(connecting)}"
            f" ({len(connecting)}); request → ready {spread(readying)}; the load processes' "
            f"loops woke late by {spread(lagging)}; {retried or 'no reconnection'}; CPU in the "
            f"first {step.cold_cpu_at:.0f} s: the workers {step.workers_cpu_in:.1f} s "
            f"({step.workers_cpu_in / max(1, len(connecting)) * 1e6:,.0f} µs a request sent), "
            f"the load processes {step.load_cpu_in:.1f} s "
            f"({step.load_cpu_in / max(1, len(connecting)) * 1e6:,.0f} µs)",
            flush=True,
        )
        # The pad's tickets (one per opening) and its polls while not live, in the cold start
        # (until it drained, or the step's end) and after it (each counted in the verdict too).
        cold_end = step.drain_seconds if step.drain_seconds is not None else math.inf
        kinds = (
            ("ticket", "tickets"),
            ("poll", "not-live polls"),
            ("table", "tables fetched after an event"),
            ("sheet", "hands lists"),
        )
        for kind, label in kinds:
            done = step.exchanges.get(kind, [])
            cold = [e for e in done if e[0] < cold_end]
            statuses: dict[int, int] = defaultdict(int)
            per_second: dict[int, int] = defaultdict(int)
            for due, _ms, status in cold:
                statuses[status] += 1
                per_second[int(due)] += 1
            ms = [e[1] for e in cold]
            print(
                f"         cold start: {label} {len(cold):,} (at most "
                f"{max(per_second.values(), default=0):,} in a second; statuses "
                f"{dict(sorted(statuses.items()))}), p50 {percentile(ms, 0.5):.0f} ms, p99 "
                f"{percentile(ms, 0.99):.0f} ms, max {max(ms, default=0.0):.0f} ms; after it: "
                f"{len(done) - len(cold):,}",
                flush=True,
            )
    delivery = (
        f"delivery p50 {f['delivery_p50']:.0f} ms p99 {f['delivery_p99']:.0f} ms "
        f"({f['deliveries']})"
    )
    lags = step.steady_lags()
    lag = f"; the load generator sent late by p50 {percentile(lags, 0.5):.1f} ms, p99 " + (
        f"{percentile(lags, 0.99):.1f} ms"
    )
    pads = pads_rate(step.mode, step.tables)
    pads_said = ", ".join(f"{kind} {rate:,.0f}" for kind, rate in pads.items())
    missed = "; missed: " + ", ".join(f["missed"]) if f["missed"] else ""
    print(
        f"{step.mode:>8} {step.tables:>6} tables: drained after {drain}; steady "
        f"{step.step_seconds:.0f} s: {f['rps']:,.0f} req/s (the pads' own: "
        f"{sum(pads.values()):,.0f}: {pads_said}; {f['rps'] / ceiling:.2f}× the echo's "
        f"ceiling), p50 {f['p50']:.1f} ms, p99 {f['p99']:.1f} ms, writes p99 "
        f"{f['writes_p99']:.1f} ms ({f['writes']}), {delivery}; statuses {f['statuses']}, "
        f"dropped {step.dropped}{lost}, reloads {step.reloads}{memory}{lag}; load "
        f"{' '.join(f'{x:.2f}' for x in step.load)} → {'held' if held else 'DID NOT HOLD'}{missed}",
        flush=True,
    )
    return held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--step", type=float, default=120.0, help="seconds of steady state")
    parser.add_argument("--tables", default="500,1000,2500,5000")
    parser.add_argument("--modes", default="polling,streams")
    parser.add_argument("--tables-per-club", type=int, default=20)
    parser.add_argument(
        "--keep-going",
        action="store_true",
        help="streams: go on to the next step after one that did not hold (polling always "
        "stops at its first miss: past it, its open load only queues)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="a look, not a measure: 20 s steps of 50 and 200"
    )
    args = parser.parse_args()
    if args.quick:
        args.step, args.tables = 20.0, "50,200"
    counts = sorted(int(n) for n in args.tables.split(","))
    modes = [m for m in args.modes.split(",") if m]
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk (make bench-http installs it)")
    database = database_from_environment()
    tmp = Path(tempfile.mkdtemp(prefix="bench-capacity-"))
    app = migrated_app(database, tmp)
    api = ApiClient(app.test_client())
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    env = {
        "SOLO_RATELIMIT_WRITES_PER_TOKEN": "100000 per minute",
        # Every simulated phone is at 127.0.0.1: the limits per address are for addresses that
        # are one club's, not a whole load generator's.
        "SOLO_RATELIMIT_READS_PER_ADDRESS": "",  # off
        "SOLO_LIVE_STREAMS_PER_ADDRESS": str(max(counts) * PHONES),
        "WEB_STREAMS_PER_WORKER": str(STREAMS_PER_WORKER),
        "WEB_CONNECTIONS": str(CONNECTIONS_PER_WORKER),
    }
    echo = Gunicorn("sqlite://", workers=WORKERS, app="bench.bare_app:app", ready_path="/item")
    with echo as bare:
        ceiling = echo_ceiling(bare.port, 5)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} (other programs share the machine)"
    )
    print(f"bare echo (GET /item, wrk -t2 -c16, same gunicorn settings): {ceiling:,.0f} req/s")
    print(
        f"service on {'PostgreSQL' if database else 'SQLite'}, {WORKERS} workers; a live table ="
        f" {PHONES} phones + a hand every {HAND_SECONDS:g} s; {args.tables_per_club} tables a "
        f"club; each step: a fresh server, every phone coming back as after a restart (streams: "
        f"reconnecting as the pad does; cold start, at most "
        f"{args.step:g} s), then {args.step:g} s of steady state"
    )
    rng = random.Random(20)
    tables: list[dict[str, Any]] = []
    summary: dict[str, int] = {}
    for mode in modes:
        for count in counts:
            if len(tables) < count:
                tables += make_tables(api, count - len(tables), args.tables_per_club)
            # (A machine shared with others' tests may take more than a few seconds to start.)
            with Gunicorn(url, workers=WORKERS, ready_timeout=120, **env) as service:
                step = asyncio.run(
                    run_step(
                        mode, service.port, tables[:count], args.step, rng, service.worker_pids()
                    )
                )
                log = service.output()
            late = sum(
                int(n) for n in re.findall(r"closed (\d+) connection\(s\) whose request", log)
            )
            if late:
                print(f"         (the workers closed {late} connection(s) whose request was late)")
            skipped = sum(int(n) for n in re.findall(r"did not open (\d+) stream", log))
            if skipped:  # (OpeningQueue: given up by their phones while they waited)
                print(
                    f"         (the workers skipped {skipped} opening(s) or ticket(s) whose "
                    "phone had gone)"
                )
            replaced = log.count("Booting worker") - WORKERS
            if replaced > 0:  # the workers' losses show in the figures; this says why
                print(
                    f"         (the arbiter replaced {replaced} worker(s) during the step, "
                    f"{log.count('WORKER TIMEOUT')} of them for not reporting within its timeout)"
                )
            if report(step, ceiling):
                summary[mode] = max(summary.get(mode, 0), count)
            elif mode == "polling" or not args.keep_going:
                break
    shutil.rmtree(tmp, ignore_errors=True)
    for mode in modes:
        held = summary.get(mode)
        print(
            f"{mode}: "
            + (
                f"held {held} live tables ({held * PHONES:,} phones)"
                if held
                else f"held none of the steps (the first was {counts[0]} tables)"
            )
        )
    for mode in modes:
        said = (
            ""
            if mode == "streams"
            else " (delivery reported, not judged: the poll period bounds it)"
        )
        print(f"({mode} judged by: {', '.join(judged_limits(mode))}{said})")


if __name__ == "__main__":
    main()
