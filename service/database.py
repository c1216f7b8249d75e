"""SQLite connections: pragmas on every connection, writers queued on a file lock, and the
durability an answered write needs, synced outside that lock.

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

import fcntl
import os
import sqlite3
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event

SYNCHRONOUS_SETTINGS = ("OFF", "NORMAL", "FULL", "EXTRA")


class SqliteConnection(sqlite3.Connection):
    """The DBAPI connection to an SQLite database (``sqlite3.connect(factory=…)``).

    ``writer_lock_path`` (a file beside the database): ``take_writer_lock`` waits on an
    exclusive ``flock`` there before a write transaction. SQLite lets one writer in at a time
    and makes the others poll with sleeps of up to 100 ms, so under contention writers would
    wait far longer than the write takes; on the lock the next writer wakes the moment it is
    let go. The kernel drops the lock if its holder dies, so a killed worker cannot leave it
    held. Commit, rollback and close let it go.

    ``wal_path``: after a commit that changed rows, the WAL is synced to disk (``FULL``
    above), after the writer lock is let go.
    """

    writer_lock_path: str | None = None
    wal_path: str | None = None
    _writer_fd: int | None = None
    _synced_changes = 0

    def take_writer_lock(self) -> None:
        if self.writer_lock_path is None or self._writer_fd is not None:
            return
        fd = os.open(self.writer_lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        self._writer_fd = fd

    def let_go_of_writer_lock(self) -> None:
        fd, self._writer_fd = self._writer_fd, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def commit(self) -> None:
        try:
            super().commit()
        finally:
            self.let_go_of_writer_lock()
        self._sync_wal()

    def rollback(self) -> None:
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


def sqlite_connect_args(database_url: str) -> dict[str, Any]:
    """Connect arguments for an SQLite URL (none for a server)."""
    return {"factory": SqliteConnection} if database_url.startswith("sqlite") else {}


def configure_engine_events(app: Flask, engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        return
    synchronous = str(app.config["SQLITE_SYNCHRONOUS"]).upper()
    if synchronous not in SYNCHRONOUS_SETTINGS:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA: {synchronous}")
    busy_ms = int(float(app.config["SQLITE_BUSY_TIMEOUT_S"]) * 1000)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        set_up_connection(dbapi_connection, synchronous, busy_ms)


def set_up_connection(dbapi_connection: sqlite3.Connection, synchronous: str,
                      busy_ms: int) -> None:
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
        if syncs_itself:
            dbapi_connection.wal_path = f"{path}-wal"
