"""Where recording one hand spends its time, step by step, and the ceiling that sets.

    .venv/bin/python -m bench.record_steps [--hands 1000] [--pg URL [--rounds N] [--pg-only]]

Records HANDS random valid American hands over 50 tables through the app (Flask test client,
real database, durable commits, rate limits off) and, for each hand, notes when each SQL
statement goes to the database through SQLAlchemy, when the planned writes
(``services/writes.py``; on SQLite straight to sqlite3) begin and end, when the commit starts
and, on SQLite, when the writer lock (``database.SqliteConnection``) is taken and let go and
when the WAL has been synced. Prints
the median time between those marks and their running total, then how long a hand holds the
writer lock. SQLite takes one writer at a time across all workers, so ``1 / lock held`` is
the most hands a second any number of workers can record: bench/http.py's record row can come
near it, never past it.

On PostgreSQL, with ``--pg``, it runs twice in the same process: first as the service sends
its statements (each one answered before the next, ``database.never_pipelined``), then as it
did before that (the baseline): the same statements, every one from a hand's first INSERT to
its COMMIT in psycopg's pipeline mode and each ``executemany`` pipelined as psycopg does it,
marks being when each statement was sent. It prints the ratio of the two medians, for each of
``--rounds`` rounds run in turn.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

if not __package__:  # run as a file, bench/http.py would hide the stdlib's http
    sys.exit("Run from the project root: .venv/bin/python -m bench.record_steps")

from sqlalchemy import event  # noqa: E402

from bench.tables import random_hand  # noqa: E402
from service.database import SqliteConnection, execute_one_by_one  # noqa: E402
from service.extensions import db  # noqa: E402
from service.services.writes import BoundWrites  # noqa: E402
from tests.support import ApiClient, migrated_app  # noqa: E402

TABLES = 50
WARM_UP = 200


class Marks:
    """Moments in one request, in order: (seconds since the request began, what happened)."""

    def __init__(self) -> None:
        self.started = 0.0
        self.marks: list[tuple[float, str]] = []

    def begin(self) -> None:
        self.marks.clear()
        self.started = time.perf_counter()

    def mark(self, what: str) -> None:
        self.marks.append((time.perf_counter(), what))


def watch_writer_lock(marks: Marks) -> None:
    """Mark the SQLite writer lock's taking and letting go, and the planned writes' run (this
    process only)."""
    take, let_go = SqliteConnection.take_writer_lock, SqliteConnection.let_go_of_writer_lock

    def timed_take(self: SqliteConnection) -> None:
        take(self)
        marks.mark("writer lock taken")

    def timed_let_go(self: SqliteConnection) -> None:
        if self._writer_fd is not None:
            marks.mark("writer lock let go (committed)")
        let_go(self)

    sync = SqliteConnection._sync_wal

    def timed_sync(self: SqliteConnection) -> None:
        sync(self)
        marks.mark("WAL synced (FULL), lock already let go")

    run = BoundWrites.run

    def timed_run(self: BoundWrites) -> None:
        marks.mark("planned writes begin")
        run(self)
        marks.mark(f"planned writes run ({len(self.writes)} statements)")

    BoundWrites.run = timed_run  # type: ignore[method-assign]
    SqliteConnection.take_writer_lock = timed_take  # type: ignore[method-assign]
    SqliteConnection.let_go_of_writer_lock = timed_let_go  # type: ignore[method-assign]
    SqliteConnection._sync_wal = timed_sync  # type: ignore[method-assign]


def pipeline_writes_as_before(engine: Any) -> None:
    """The baseline on PostgreSQL: the writes pipelined as ``services/pipelining.py`` did (a
    hand's first INSERT opens a pipeline, COMMIT waits for all answers first), and
    ``executemany`` left to psycopg (which pipelines it) instead of ``never_pipelined``."""
    engine.dialect.use_insertmanyvalues_wo_returning = False
    event.remove(engine, "do_executemany", execute_one_by_one)
    open_pipelines: dict[int, Any] = {}

    @event.listens_for(engine, "before_cursor_execute")
    def _open(connection: Any, _cur: Any, statement: str, *_: Any) -> None:
        driver = connection.connection.driver_connection
        if statement.startswith("INSERT INTO hands ") and id(driver) not in open_pipelines:
            pipeline = driver.pipeline()
            pipeline.__enter__()
            open_pipelines[id(driver)] = pipeline

    @event.listens_for(engine, "commit")
    def _close(connection: Any) -> None:
        pipeline = open_pipelines.pop(id(connection.connection.driver_connection), None)
        if pipeline is not None:
            pipeline.__exit__(None, None, None)


def run(pg_url: str | None, hands: int, pipelined: bool = False) -> float:
    """Record ``hands`` hands, print where the time went; the whole request's median (µs)."""
    app = migrated_app(pg_url, Path(tempfile.mkdtemp()), RATELIMIT_ENABLED=False)
    api = ApiClient(app.test_client())
    tables = [api.table() for _ in range(TABLES)]
    rng = random.Random(11)
    marks = Marks()
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def _statement(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        marks.mark(" ".join(statement.split()[:3])[:60])

    @event.listens_for(engine, "commit")
    def _commit(_connection: Any) -> None:
        marks.mark("COMMIT")

    if engine.dialect.name == "sqlite":
        watch_writer_lock(marks)
    if pipelined:
        pipeline_writes_as_before(engine)
    for n in range(WARM_UP):
        api.record(tables[n % TABLES], random_hand(rng))

    steps: dict[tuple[int, str], list[float]] = defaultdict(list)
    held: list[float] = []
    totals: list[float] = []
    for n in range(hands):
        marks.begin()
        response = api.record(tables[n % TABLES], random_hand(rng))
        assert response.status_code == 201, response.json
        marks.mark("answer read by the client")
        previous, taken = marks.started, None
        for index, (moment, what) in enumerate(marks.marks):
            steps[(index, what)].append((moment - previous) * 1e6)
            previous = moment
            if what == "writer lock taken":
                taken = moment
            elif taken is not None and what.startswith("writer lock let go"):
                held.append((moment - taken) * 1e6)
        totals.append((previous - marks.started) * 1e6)

    kind = "PostgreSQL" if pg_url else "SQLite"
    if pipelined:
        kind += ", baseline: writes pipelined as before"
    print(
        f"\n[{kind}] recording a hand, {hands} hands over {TABLES} tables "
        "(median µs since the previous mark, running total)"
    )
    running = 0.0
    for (_index, what), values in sorted(steps.items()):
        if len(values) < hands / 2:
            continue  # a statement only some hands run (a season's, a closing one's)
        step = statistics.median(values)
        running += step
        print(f"  {step:7.0f} {running:8.0f}  {what}")
    print(
        f"  whole request: median {statistics.median(totals):.0f} µs, "
        f"mean {statistics.mean(totals):.0f} µs"
    )
    if held:
        mean_held = statistics.mean(held)
        print(
            f"  writer lock held: median {statistics.median(held):.0f} µs, mean "
            f"{mean_held:.0f} µs -> at most {1e6 / mean_held:,.0f} hands a second, "
            "however many workers"
        )
    return statistics.median(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--pg", help="a PostgreSQL URL whose public schema may be dropped")
    parser.add_argument("--rounds", type=int, default=1, help="PostgreSQL runs of each, in turn")
    parser.add_argument("--pg-only", action="store_true", help="skip the SQLite run")
    args = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)
    if not args.pg_only:
        run(None, args.hands)
    if args.pg:
        ratios = []
        for _round in range(args.rounds):  # in turn: a neighbour's load falls on both
            plain = run(args.pg, args.hands)
            pipelined = run(args.pg, args.hands, pipelined=True)
            ratios.append(plain / pipelined)
            print(
                f"\nPostgreSQL, whole request's median: {plain:.0f} µs without a pipeline, "
                f"{pipelined:.0f} µs pipelined as before: {plain / pipelined:.2f}× the baseline"
            )
        print(f"ratios of the rounds: {', '.join(f'{r:.2f}' for r in ratios)}")


if __name__ == "__main__":
    main()
