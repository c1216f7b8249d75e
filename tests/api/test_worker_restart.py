"""A worker killed with SIGKILL (issue 40): no request waits for its replacement. With a
listening socket per worker (``reuse_port``), gunicorn opened the replacement's socket right
after the fork, and the connections the kernel hashed to it waited while the app loaded (2.1-
11.8 s measured behind nginx). The worker now listens once its app is loaded
(``http_worker.BufferingThreadWorker.listens_once_loaded``); meanwhile the other worker's
socket takes every new connection.

The app here loads in 8 s (``slow_loading_app``), so that a connection handed to the
replacement before it is loaded would wait seconds, whatever the machine's speed."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import requests

from tests.support import Gunicorn

LOAD_SECONDS = 8.0


@pytest.mark.slow
def test_no_request_waits_for_a_killed_workers_replacement(app):
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
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
