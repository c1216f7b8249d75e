"""The service's database connections: on SQLite, pragmas on every connection, writers queued
on a file lock, and the durability an answered write needs, synced outside that lock; on
PostgreSQL, bounds on how long request work may wait (``POSTGRES_TIMEOUTS``) and no statement
in psycopg's pipeline mode, which those bounds do not cover (``never_pipelined``); on both, a
session teardown that cannot fail the answer. Which errors are outages of the database:
``services/outages.py``.

``SQLITE_SYNCHRONOUS`` (env ``SOLO_SQLITE_SYNCHRONOUS``):

- ``FULL`` (the default): a write the service has answered survives a crash of the machine,
  power cut included. SQLite's own FULL syncs the WAL inside COMMIT, while the one writer SQLite
  allows holds the database, so every other writer waits for that disk flush too. Here the
  connection runs SQLite's NORMAL (COMMIT writes the WAL without syncing it) and syncs the WAL
  file itself right after the commit, once it has let the next writer in: the write is on disk
  before the caller goes on to answer, and the writers' flushes overlap instead of queueing.
  (Between the commit and the sync, another connection may already read the change; a power
  cut in those microseconds loses a change nobody was told had been saved.)
- ``EXTRA``, ``NORMAL``, ``OFF``: SQLite's own settings, nothing added.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
import time
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event

from .metrics import WRITER_LOCK_WAIT

log = logging.getLogger(__name__)

SYNCHRONOUS_SETTINGS = ("OFF", "NORMAL", "FULL", "EXTRA")


class SqliteConnection(sqlite3.Connection):
    """The DBAPI connection to an SQLite database (``sqlite3.connect(factory=…)``).

    ``writer_lock_path`` (a file beside the database): ``take_writer_lock`` waits on an
    exclusive ``flock`` there before a write transaction. SQLite lets one writer in at a time
    and makes the others poll with sleeps of up to 100 ms, so under contention writers would
    wait far longer than the write takes; on the lock the next writer wakes the moment it is
    let go. The kernel drops the lock if its holder dies, so a killed worker cannot leave it
    held. Commit, rollback and close let it go.

    Threads of one process queue first on an in-process lock for the same file
    (``_process_writer_lock``) and only its holder waits on the ``flock``: the ``flock`` is
    between processes, each with one writer in line at most, instead of every thread of a
    threaded worker waiting there (the kernel wakes every waiter of a ``flock`` when it is let
    go; they race, and the losers sleep again, each needing the GIL to get back to the call).

    ``wal_path``: after a commit that changed rows, the WAL is synced to disk (``FULL``
    above), after the writer lock is let go; unless ``commit_unsynced`` asked otherwise for
    the transaction (a write whose loss in a crash harms no one: what PostgreSQL's
    ``synchronous_commit = off`` is there). Its rows are then synced by the next commit of the
    connection that syncs (or any other connection's sync of the WAL).

    Checkpoints (the WAL's pages copied into the database file) run after the writer lock is
    let go too: SQLite's own (``wal_autocheckpoint``) ran inside the commit that crossed its
    thousand pages, about every 45th hand, for 10-150 ms with the lock held, and every writer
    of the instance waited for it (a hand's commit took 108 µs at the median, 609 on average).
    Here a connection to a file runs with SQLite's off, and the commits that changed rows
    count towards ``CHECKPOINT_EVERY``, in the process and for the database (not per
    connection: with a pool of ten, a count per connection let the WAL grow ten times as long);
    the commit that reaches it runs a ``PASSIVE`` checkpoint (it waits for no reader and no
    writer) once it has let the next writer in and synced.
    """

    writer_lock_path: str | None = None
    wal_path: str | None = None
    _writer_fd: int | None = None
    _in_process_lock: threading.Lock | None = None
    _synced_changes = 0
    _checkpointed_changes = 0
    _unsynced = False

    def commit_unsynced(self) -> None:
        """The current transaction's commit does not wait for the disk."""
        self._unsynced = True

    def take_writer_lock(self) -> None:
        if self.writer_lock_path is None or self._writer_fd is not None:
            return
        in_process = _process_writer_lock(self.writer_lock_path)
        asked = time.perf_counter()
        in_process.acquire()
        try:
            fd = os.open(self.writer_lock_path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
        except BaseException:
            in_process.release()
            raise
        self._writer_fd, self._in_process_lock = fd, in_process
        WRITER_LOCK_WAIT.observe(time.perf_counter() - asked)

    def let_go_of_writer_lock(self) -> None:
        fd, self._writer_fd = self._writer_fd, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
                if self._in_process_lock is not None:
                    self._in_process_lock.release()
                    self._in_process_lock = None

    def commit(self) -> None:
        unsynced, self._unsynced = self._unsynced, False
        changes = self.total_changes
        try:
            super().commit()
        finally:
            self.let_go_of_writer_lock()
        if not unsynced:
            self._sync_wal()
        # A connection to a file (it has a writer lock) runs without SQLite's own checkpoints.
        if self.writer_lock_path is not None and changes != self._checkpointed_changes:
            self._checkpointed_changes = changes
            if _checkpoint_due(self.writer_lock_path):
                self.execute("PRAGMA wal_checkpoint(PASSIVE)").close()

    def rollback(self) -> None:
        self._unsynced = False
        try:
            super().rollback()
        finally:
            self.let_go_of_writer_lock()
        # total_changes counts the rows of the statements just undone too: nothing to sync.
        self._synced_changes = self.total_changes

    def close(self) -> None:
        try:
            self.let_go_of_writer_lock()
        finally:
            super().close()

    def _sync_wal(self) -> None:
        changes = self.total_changes
        if self.wal_path is None or changes == self._synced_changes:
            return  # nothing written since the last sync (a read-only transaction)
        try:
            fd = os.open(self.wal_path, os.O_RDONLY)
        except FileNotFoundError:
            # Checkpointed into the database file and removed: SQLite synced that file.
            self._synced_changes = changes
            return
        try:
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self._synced_changes = changes


# Commits that changed rows between a process's checkpoints of a database
# (``SqliteConnection``): a hand adds about 21 pages to the WAL, so about the thousand pages of
# SQLite's own checkpoints.
CHECKPOINT_EVERY = 48

_commits_since_checkpoint: dict[str, int] = {}  # by the database's writer lock path
_checkpoints_guard = threading.Lock()


def _checkpoint_due(database: str) -> bool:
    """One more commit that changed rows of ``database`` in this process: is it the one that
    checkpoints (every ``CHECKPOINT_EVERY``-th)?"""
    with _checkpoints_guard:
        count = _commits_since_checkpoint.get(database, 0) + 1
        due = count >= CHECKPOINT_EVERY
        _commits_since_checkpoint[database] = 0 if due else count
        return due


_process_writer_locks: dict[str, threading.Lock] = {}
_process_writer_locks_guard = threading.Lock()


def _process_writer_lock(path: str) -> threading.Lock:
    """This process's lock in front of the ``flock`` on ``path`` (``SqliteConnection``)."""
    with _process_writer_locks_guard:
        return _process_writer_locks.setdefault(path, threading.Lock())


def sqlite_connect_args(database_url: str) -> dict[str, Any]:
    """Connect arguments for an SQLite URL (none for a server)."""
    return {"factory": SqliteConnection} if database_url.startswith("sqlite") else {}


def configure_engine_events(app: Flask, engine: Engine) -> None:
    if engine.dialect.name == "postgresql":
        never_pipelined(engine)
        return
    if engine.dialect.name != "sqlite":
        return
    synchronous = str(app.config["SQLITE_SYNCHRONOUS"]).upper()
    if synchronous not in SYNCHRONOUS_SETTINGS:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA: {synchronous}")
    busy_ms = int(float(app.config["SQLITE_BUSY_TIMEOUT_S"]) * 1000)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        set_up_connection(dbapi_connection, synchronous, busy_ms)


def set_up_connection(dbapi_connection: sqlite3.Connection, synchronous: str, busy_ms: int) -> None:
    """What every new SQLite connection of the service runs: WAL, the durability asked for
    (``SYNCHRONOUS_SETTINGS``), the busy timeout and foreign keys; on a ``SqliteConnection``
    to a file, the writer lock and (FULL) the WAL sync after commit."""
    cursor = dbapi_connection.cursor()
    # The file as SQLite opened it (absolute; "" for a database in memory), whatever
    # form the URL gave it in.
    path = next(row[2] for row in cursor.execute("PRAGMA database_list") if row[1] == "main")
    ours = isinstance(dbapi_connection, SqliteConnection)  # not if connect_args say otherwise
    syncs_itself = ours and bool(path) and synchronous == "FULL"
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={'NORMAL' if syncs_itself else synchronous}")
    cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
    if path and isinstance(dbapi_connection, SqliteConnection):
        dbapi_connection.writer_lock_path = f"{path}-writer.lock"
        dbapi_connection.execute("PRAGMA wal_autocheckpoint=0").close()  # (run by commit)
        if syncs_itself:
            dbapi_connection.wal_path = f"{path}-wal"


# --- PostgreSQL: bounds on one request's wait ------------------------------------------------

# (config key, PostgreSQL setting, default in ms; 0 turns one off). Env: SOLO_ + the key.
POSTGRES_TIMEOUTS = (
    # A request waiting for a row or table lock another transaction holds gives up after this:
    # one stuck worker delays the others this long at most, and they answer 503 meanwhile.
    ("PG_LOCK_TIMEOUT_MS", "lock_timeout", 2_000),
    # Any one statement of request work; far above what a request's statements take.
    ("PG_STATEMENT_TIMEOUT_MS", "statement_timeout", 10_000),
    # A session left inside a transaction (a worker stopped or hung while holding locks) is
    # ended by the server after this, and its locks with it.
    ("PG_IDLE_IN_TRANSACTION_TIMEOUT_MS", "idle_in_transaction_session_timeout", 5_000),
)


def never_pipelined(engine: Engine) -> None:
    """No statement of ``engine`` goes through psycopg's pipeline mode.

    PostgreSQL does not end a session idle in a transaction whose last statement came through a
    pipeline: ``idle_in_transaction_session_timeout`` is not armed then (PostgreSQL 15, psycopg
    3.3; reproduced with a bare psycopg connection: a plain idle transaction is ended at the
    timeout, a pipelined one never), so a worker stopped right after such a statement would
    keep its table's lock until it died. psycopg runs every ``executemany`` in a pipeline, so:

    - an ``INSERT`` of many rows (transfers, hands of an import) is sent as one multi-row
      ``INSERT … VALUES (…), (…)`` (SQLAlchemy's "insertmanyvalues", in pages of up to 1,000
      rows): one plain statement, one round trip;
    - whatever else SQLAlchemy would hand to ``executemany`` (an ``UPDATE`` per row, an upsert
      per row) runs as one ``execute`` per parameter set.
    """
    engine.dialect.use_insertmanyvalues_wo_returning = True
    event.listen(engine, "do_executemany", execute_one_by_one)


def execute_one_by_one(cursor: Any, statement: str, parameters: Any, context: Any) -> bool:
    """``executemany`` as one ``execute`` per parameter set (``never_pipelined``)."""
    matched = 0
    for row in parameters:
        cursor.execute(statement, row)
        matched += max(cursor.rowcount, 0)
    # What executemany's rowcount would have said (the ORM checks it against the rows it
    # updated): the cursor holds the last statement's only.
    context._rowcount = matched
    return True


def postgres_connect_args(config: Any) -> dict[str, Any]:
    """libpq ``options`` setting the timeouts on every connection of the service's engine, at
    connect time (no statement of their own). Request work runs on these; what must not be cut
    short turns them off for its own transaction (``without_request_timeouts``): migrations;
    the version feed's listener turns them off for its session. ``flask backup`` runs
    ``pg_dump``, which sets its own."""
    options = []
    for key, setting, default in POSTGRES_TIMEOUTS:
        value = int(config.get(key, default))
        if value < 0:
            raise ValueError(f"{key} must be 0 (off) or a number of milliseconds: {value}")
        options.append(f"-c {setting}={value}")
    return {"options": " ".join(options)}


# An import's transaction (``services/backup.py``) replays each table's hands in Python between
# its statements: seconds for a big club, far past the idle timeout above. It locks only rows
# of the new club, which nobody else can see before it commits, so a stopped import holds no
# one up: its session is ended after this instead, a bound no gap of an import within the
# body limit (16 MiB) comes near.
IMPORT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 300_000


def for_an_import(connection: Any) -> None:
    """Let the current transaction of ``connection`` (PostgreSQL; nothing elsewhere) sit idle
    between statements for up to ``IMPORT_IDLE_IN_TRANSACTION_TIMEOUT_MS``."""
    if connection.dialect.name != "postgresql":
        return
    connection.exec_driver_sql(
        f"SET LOCAL idle_in_transaction_session_timeout = {IMPORT_IDLE_IN_TRANSACTION_TIMEOUT_MS}"
    )


def without_request_timeouts(connection: Any) -> None:
    """Turn the request timeouts off for the current transaction of ``connection`` (a
    SQLAlchemy connection on PostgreSQL; nothing elsewhere)."""
    if connection.dialect.name != "postgresql":
        return
    for _key, setting, _default in POSTGRES_TIMEOUTS:
        connection.exec_driver_sql(f"SET LOCAL {setting} = 0")


# --- Teardown ---------------------------------------------------------------------------------


def guard_session_teardown(app: Flask, db: Any) -> None:
    """Flask-SQLAlchemy ends each request's session in a teardown function; on a connection
    that died meanwhile its ROLLBACK raises, after the answer was made, past every error
    handler (gunicorn then sent its own HTML 500). Here the session is ended the same way, and
    a failure is logged and the session dropped with its connection: the answer already made
    (the error's own problem, or the success) stands."""
    original = db._teardown_session
    funcs = app.teardown_appcontext_funcs
    if original not in funcs:  # pragma: no cover - a Flask-SQLAlchemy that works otherwise
        raise RuntimeError("Flask-SQLAlchemy's session teardown was not found")

    def end_session(exc: BaseException | None) -> None:
        try:
            db.session.remove()
        except Exception:
            log.warning(
                "ending the request's session failed; dropping its connection", exc_info=True
            )
            session = db.session.registry()
            with contextlib.suppress(Exception):
                session.invalidate()  # its connections are not given back to the pool
            db.session.registry.clear()

    funcs[funcs.index(original)] = end_session
