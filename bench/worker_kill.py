"""How long a request waits when a worker is killed (``kill -9``): phones ask a real gunicorn
(two workers, its own SQLite) all along, each request on a new connection (the kernel hashes
each to a worker's socket anew), while one worker after another is killed and replaced.

    .venv/bin/python -m bench.worker_kill [--kills 10] [--phones 8] [--workers 2]
                                          [--path /healthz] [--every 3]

Each kill waits until the replacement listens (its own socket: docs/scaling.md), then
``--every`` seconds more. Prints, per kill, the longest wait of a request started from a
second before the kill until the next kill, the requests that failed (cut in flight on the
killed worker, or reset in its socket's queue) and how long the replacement took to listen;
then the longest wait of the whole run and of the requests answered, and whether the kernel
migrates a closed socket's queue (``net.ipv4.tcp_migrate_req``). Requests time out after 30 s
(counted as failed).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.worker_kill")

import requests  # noqa: E402

from tests.support import Gunicorn, migrated_app  # noqa: E402

MIGRATE_REQ = Path("/proc/sys/net/ipv4/tcp_migrate_req")


class Phones:
    """Threads asking ``path`` on new connections until stopped; every request's start (on the
    monotonic clock), its wait and its status (None: failed)."""

    def __init__(self, url: str, count: int) -> None:
        self.url = url
        self.stop = threading.Event()
        self.asked: list[tuple[float, float, int | None]] = []
        self._lock = threading.Lock()
        self.threads = [threading.Thread(target=self._run) for _ in range(count)]

    def _run(self) -> None:
        session_less = {"Connection": "close"}
        while not self.stop.is_set():
            started = time.monotonic()
            try:
                status: int | None = requests.get(
                    self.url, headers=session_less, timeout=30
                ).status_code
            except requests.RequestException:
                status = None
            with self._lock:
                self.asked.append((started, time.monotonic() - started, status))

    def __enter__(self) -> Phones:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)

    def between(self, start: float, end: float) -> list[tuple[float, float, int | None]]:
        with self._lock:
            return [entry for entry in self.asked if start <= entry[0] <= end]


def replaced(server: Gunicorn, before: set[int], workers: int, deadline: float) -> float:
    """When the killed worker's replacement listens: a new worker, and every worker's socket
    listening for a second on end (a replacement's first socket, opened by gunicorn at the
    fork, lives only until the worker starts: not that one)."""
    since = None
    while time.monotonic() < deadline:
        now = time.monotonic()
        if set(server.worker_pids()) - before and server.listening() == workers:
            since = since or now
            if now - since >= 1.0:
                return since
        else:
            since = None
        time.sleep(0.02)
    raise TimeoutError("the killed worker was not replaced")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--path", default="/healthz")
    parser.add_argument("--every", type=float, default=3.0, help="seconds after a replacement")
    args = parser.parse_args()
    app = migrated_app(None, Path(tempfile.mkdtemp()))
    with (
        Gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], workers=args.workers) as server,
        Phones(server.url + args.path, args.phones) as phones,
    ):
        time.sleep(args.every)
        print(f"kill  {'longest wait':>12} {'failed':>6} {'requests':>8} {'replaced in':>11}")
        for kill in range(1, args.kills + 1):
            before = set(server.worker_pids())
            victim = sorted(before)[kill % len(before)]
            os.kill(victim, signal.SIGKILL)
            killed_at = time.monotonic()
            listening_at = replaced(server, before, args.workers, killed_at + 180)
            time.sleep(args.every)
            around = phones.between(killed_at - 1, time.monotonic())
            longest = max((took for _, took, _ in around), default=0.0)
            failed = sum(1 for _, _, status in around if status is None)
            print(
                f"{kill:4}  {longest:11.3f}s {failed:6} {len(around):8} "
                f"{listening_at - killed_at:10.2f}s"
            )
    everything = phones.asked
    answered = [took for _, took, status in everything if status is not None]
    statuses = {status for _, _, status in everything if status is not None}
    if statuses - {200}:
        sys.exit(f"answers other than 200: {sorted(statuses)}; the figures are void")
    migrate = MIGRATE_REQ.read_text().strip() if MIGRATE_REQ.exists() else "absent"
    print(
        f"{args.kills} kills of {args.workers} workers, {args.phones} phones, "
        f"{len(everything)} requests ({len(everything) - len(answered)} failed); "
        f"longest wait {max(took for _, took, _ in everything):.3f} s, "
        f"of an answered request {max(answered):.3f} s; tcp_migrate_req={migrate}"
    )


if __name__ == "__main__":
    main()
