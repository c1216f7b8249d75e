"""Writes under the threaded worker against sync workers, interleaved in one run.

    .venv/bin/python -m bench.writes [--seconds 8] [--rounds 3] [--threads 4] [--pg URL]

The service records hands (``POST /api/v1/tables/{id}/hands``, random valid American hands over
50 tables, each with an Idempotency-Key of its own, as the score pad sends) under wrk (2 threads,
16 keep-alive connections, as bench/http.py) on one database (SQLite in a temp dir by default,
``--pg URL`` for PostgreSQL; its public schema is dropped and re-created), served in turn by:

  sync      gunicorn's sync workers (2 workers, one request at a time each): the baseline
  threaded  the service's own worker (gunicorn.conf.py: ``BufferingThreadWorker``, 2 workers
            of its default threads: 2 on SQLite, 4 on PostgreSQL), as ``make serve`` runs it
  thr-N     the same with ``--threads`` threads a worker (``WEB_THREADS``): what another
            number of threads gives

The three servers are started once, side by side on the same database, and warmed up; then
rounds alternate sync, threaded, thr-N, sync, … (only one is loaded at a time) so that
whatever else the machine does meanwhile weighs on all alike.
Printed: each round's writes per second and p99, and the ratios threaded/sync and thr-N/sync
per round and their medians, against the target (≥ 1.0: the threaded worker writes at least as
fast).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench.http import SERVICE_ENV, ensure_postgres_database, prepare, run_wrk, scenarios, script
from tests.support import Gunicorn

TARGET = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk")
    if args.pg and not ensure_postgres_database(args.pg):
        sys.exit(f"no PostgreSQL answers at {args.pg}")
    tmp = Path(tempfile.mkdtemp(prefix="bench-writes-"))
    url, tables = prepare(args.pg, tmp)
    data = scenarios(tables, random.Random(11))
    paths = [f"/api/v1/tables/{t['id']}/hands" for t in tables]
    lua = script("POST", paths, data["auth"], data["hands"], keyed=True)
    kinds = {
        "sync": {"GUNICORN_CMD_ARGS": "--worker-class sync"},
        "threaded": {},
        f"thr-{args.threads}": {"WEB_THREADS": str(args.threads)},
    }
    print(
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on "
        f"{os.cpu_count()} cores (other programs share the machine)"
    )
    print(
        f"recording hands on {'PostgreSQL' if args.pg else 'SQLite'}, wrk -t2 -c16, "
        f"{args.seconds} s a round, 2 workers; threaded as make serve runs it, thr-{args.threads} "
        f"with {args.threads} threads a worker"
    )
    print(f"{'round':>5} {'worker':>9} {'writes/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}")
    rates: dict[str, list[float]] = {kind: [] for kind in kinds}
    with contextlib.ExitStack() as servers:
        started = {
            kind: servers.enter_context(Gunicorn(url, workers=2, **SERVICE_ENV, **env))
            for kind, env in kinds.items()
        }
        for service in started.values():  # each worker's first requests load the app
            run_wrk(service.url, lua, 1)
        for round_number, kind in itertools.product(range(1, args.rounds + 1), kinds):
            figures = run_wrk(started[kind].url, lua, args.seconds)
            rates[kind].append(figures["rps"])
            print(
                f"{round_number:>5} {kind:>9} {figures['rps']:9.0f} "
                f"{figures['p50_us'] / 1000:7.2f} {figures['p99_us'] / 1000:7.2f} "
                f"{figures['errors'] + figures['bad']:6d}",
                flush=True,
            )
    shutil.rmtree(tmp, ignore_errors=True)
    print(
        "median writes/s: "
        + ", ".join(f"{kind} {statistics.median(rate):.0f}" for kind, rate in rates.items())
    )
    for kind in list(kinds)[1:]:
        ratios = [t / s for t, s in zip(rates[kind], rates["sync"], strict=True)]
        median = statistics.median(ratios)
        print(
            f"{kind}/sync per round: {', '.join(f'{r:.2f}' for r in ratios)}; median "
            f"{median:.2f} (target ≥ {TARGET:g}: {'ok' if median >= TARGET else 'MISS'})"
        )


if __name__ == "__main__":
    main()
