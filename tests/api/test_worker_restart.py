"""A worker killed with SIGKILL (issue 40): no request waits for its replacement. With a
listening socket per worker (``reuse_port``), gunicorn opened the replacement's socket right
after the fork, and the connections the kernel hashed to it waited while the app loaded (2.1-
11.8 s measured behind nginx). The worker now listens once its app is loaded
(``http_worker.BufferingThreadWorker.listens_once_running``); meanwhile the other worker's
socket takes every new connection.

The app here loads in 8 s (``slow_loading_app``), so that a connection handed to the
replacement before it is loaded would wait seconds, whatever the machine's speed.

What is tested is gunicorn's workers and their sockets, not the database: the server runs on a
SQLite database of its own, once (not again in the suite's PostgreSQL half: tests/databases.py)."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest
import requests

from service.http_worker import TCP_MIGRATE_REQ
from tests.support import Gunicorn, sqlite_of_its_own, tool_missing

LOAD_SECONDS = 8.0
REPLACEMENT_LOAD_SECONDS = 120.0
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: solo\r\nConnection: close\r\n\r\n"


@pytest.mark.slow
def test_no_request_waits_for_a_killed_workers_replacement(tmp_path):
    with Gunicorn(
        sqlite_of_its_own(tmp_path),
        workers=2,
        app="tests.api.slow_loading_app:app",
        ready_timeout=120,
        SLOW_LOAD_SECONDS=str(LOAD_SECONDS),
    ) as server:
        before = set(server.worker_pids())
        stop = threading.Event()
        answered: list[tuple[float, float, int | None]] = []

        def phone() -> None:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    status: int | None = requests.get(
                        server.url + "/healthz", headers={"Connection": "close"}, timeout=60
                    ).status_code
                except requests.RequestException:  # in flight on the killed worker: cut
                    status = None
                answered.append((started, time.monotonic() - started, status))

        phones = [threading.Thread(target=phone) for _ in range(4)]
        for thread in phones:
            thread.start()
        try:
            time.sleep(1)
            killed = sorted(before)[0]
            os.kill(killed, signal.SIGKILL)
            killed_at = time.monotonic()
            # Past the replacement's load (it starts at once: the arbiter sees the kill),
            # and until it listens (a generous bound: a loaded machine loads slowly).
            time.sleep(LOAD_SECONDS)
            deadline = time.monotonic() + 120
            while server.listening() < 2 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert set(server.worker_pids()) - before, "no replacement worker"
            assert server.listening() == 2, "the replacement never listened"
            time.sleep(1)
        finally:
            stop.set()
            for thread in phones:
                thread.join(timeout=120)
        during = [entry for entry in answered if entry[0] >= killed_at]
        # No request waited for the replacement's load: the worker that was up answered …
        slowest = max(took for _, took, _ in answered)
        assert slowest < LOAD_SECONDS / 2, f"a request waited {slowest:.1f} s"
        # … the phones, asking all along meanwhile.
        assert len(during) >= 20
        assert all(status == 200 for started, _, status in during if started > killed_at + 0.5)


def _queued_on_a_listener(port: int) -> int:
    """The most connections waiting to be accepted on one listening socket of ``port``
    (``/proc/net/tcp``'s receive queue of a socket in LISTEN: its accept queue)."""
    most = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
            most = max(most, int(fields[4].split(":")[1], 16))
    return most


def _answer(connection: socket.socket, within: float) -> bytes:
    connection.settimeout(within)
    got = b""
    while chunk := connection.recv(65536):
        got += chunk
    return got


@pytest.mark.slow
def test_the_requests_queued_on_a_killed_workers_socket_are_answered_by_the_other(tmp_path):
    """A worker stopped (SIGSTOP) accepts nothing: the connections the kernel hashes to its
    socket queue there, their requests sent. Then it is killed. The kernel hands its socket's
    queue to the other worker's socket (``net.ipv4.tcp_migrate_req``, set by the server where
    it may: ``gunicorn.conf.py``), which answers each: none is reset, and none waits for the
    replacement, which loads for 120 s (the bound, half of that, holds on a loaded machine)."""
    slow = tmp_path / "slow"
    with Gunicorn(
        sqlite_of_its_own(tmp_path),
        workers=2,
        app="tests.api.slow_loading_app:app",
        ready_timeout=120,
        SLOW_LOAD_SECONDS=str(REPLACEMENT_LOAD_SECONDS),
        SLOW_LOAD_WHEN=str(slow),
    ) as server:
        if TCP_MIGRATE_REQ.read_text().strip() != "1":
            tool_missing("net.ipv4.tcp_migrate_req is not 1, and the server could not set it")
        slow.touch()  # the replacement loads slowly, the two workers up are loaded
        victim = sorted(server.worker_pids())[0]
        os.kill(victim, signal.SIGSTOP)
        connections = []
        try:
            for _ in range(16):  # the kernel hashes some of them to the stopped worker's socket
                connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
                connection.sendall(HEALTHZ)
                connections.append(connection)
            deadline = time.monotonic() + 30
            while _queued_on_a_listener(server.port) == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _queued_on_a_listener(server.port) > 0, "none queued on the stopped worker"
        finally:
            os.kill(victim, signal.SIGKILL)
        killed_at = time.monotonic()
        bound = REPLACEMENT_LOAD_SECONDS / 2
        answers = [_answer(connection, within=bound) for connection in connections]
        waited = time.monotonic() - killed_at
        for connection in connections:
            connection.close()
        assert server.listening() == 1, "the replacement listened before it was loaded"
    assert all(answer.startswith(b"HTTP/1.1 200 ") for answer in answers), answers
    assert waited < bound, f"the queued requests waited {waited:.1f} s"
