"""How wrk's kept-alive connections spread across the workers: one shared listening socket
against a socket per worker (``reuse_port``, gunicorn.conf.py), interleaved in one run.

    .venv/bin/python -m bench.spread [--rounds 5] [--seconds 4]

The service (2 workers, SQLite in a temp dir) is polled as a phone polls its table (``GET
/api/v1/tables/{id}`` with ``If-None-Match``, 50 tables) by wrk with 2 threads and 16 keep-alive
connections, each round from a fresh server (a new server, new connections). Midway through each
round the established connections of each worker are counted (``/proc/PID/fd`` against
``/proc/net/tcp``). Printed per round: the split, and the requests a second; then for each
setting the most lopsided split seen and the median rate.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from bench.http import SERVICE_ENV, prepare, run_wrk, scenarios, script
from tests.support import Gunicorn

ESTABLISHED = "01"


def established_inodes(port: int) -> set[str]:
    """Socket inodes of the connections established to 127.0.0.1:``port`` (the server's end)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].rsplit(":", 1)[1], 16)
        if local_port == port and fields[3] == ESTABLISHED:
            inodes.add(fields[9])
    return inodes


def connections_per_worker(service: Gunicorn) -> list[int]:
    """How many of the connections to the service each worker holds."""
    inodes = established_inodes(service.port)
    counts = []
    for pid in service.worker_pids():
        held = 0
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                held += 1
        counts.append(held)
    return sorted(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=4)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-spread-"))
    url, tables = prepare(None, tmp)
    auth = scenarios(tables, random.Random(1))["auth"]
    paths = [f"/api/v1/tables/{t['id']}" for t in tables]
    settings = {"shared socket": "0", "socket per worker": "1"}
    splits: dict[str, list[list[int]]] = {name: [] for name in settings}
    rates: dict[str, list[float]] = {name: [] for name in settings}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'round':>5} {'setting':>18} {'split':>9} {'rps':>7}")
    for round_number in range(1, args.rounds + 1):
        for name, reuse in settings.items():
            with Gunicorn(url, workers=2, WEB_REUSE_PORT=reuse, **SERVICE_ENV) as service:
                etags = [
                    requests.get(service.url + p, headers=h, timeout=10).headers["ETag"]
                    for p, h in zip(paths, auth, strict=True)
                ]
                lua = script(
                    "GET",
                    paths,
                    [{**h, "If-None-Match": e} for h, e in zip(auth, etags, strict=True)],
                    None,
                )
                seen: list[int] = []

                def count_midway(service: Gunicorn = service, seen: list[int] = seen) -> None:
                    time.sleep(args.seconds / 2)
                    seen.extend(connections_per_worker(service))

                counter = threading.Thread(target=count_midway)
                counter.start()
                figures = run_wrk(service.url, lua, args.seconds)
                counter.join()
            splits[name].append(seen)
            rates[name].append(figures["rps"])
            print(
                f"{round_number:>5} {name:>18} {'/'.join(map(str, seen)):>9} {figures['rps']:7.0f}",
                flush=True,
            )
    for name in settings:
        worst = min(splits[name], key=lambda split: split[0] if split else 0)
        print(
            f"{name}: most lopsided split {'/'.join(map(str, worst))}, "
            f"median {statistics.median(rates[name]):,.0f} req/s"
        )


if __name__ == "__main__":
    main()
