"""Engine setup that the schema cannot express: SQLite pragmas, applied on every connection."""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import Engine, event


def configure_engine_events(app: Flask, engine: Engine) -> None:
    if engine.dialect.name != "sqlite":
        return
    synchronous = str(app.config["SQLITE_SYNCHRONOUS"]).upper()
    if synchronous not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be OFF, NORMAL, FULL or EXTRA: {synchronous}")
    busy_ms = int(float(app.config["SQLITE_BUSY_TIMEOUT_S"]) * 1000)

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


class SqliteWriterLock:
    """Queues writers to one SQLite file across threads and processes.

    SQLite lets one writer in at a time and makes the others poll with sleeps of up to
    100 ms, so under contention writers wait far longer than the write takes. An exclusive
    ``flock`` on a file beside the database is taken before ``BEGIN IMMEDIATE`` instead: the
    next writer wakes the moment the lock is released. The kernel drops the lock if its
    holder dies, so a killed worker cannot leave it held.
    """

    def __init__(self, database_path: str) -> None:
        self.path = database_path + "-writer.lock"

    def acquire(self) -> int:
        import fcntl
        import os

        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        return fd

    @staticmethod
    def release(fd: int) -> None:
        import fcntl
        import os

        try:
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


WRITER_LOCK_KEY = "sqlite_writer_lock_fd"


def configure_writer_lock(app: Flask, engine: Engine, session_factory: Any) -> None:
    """Give file-backed SQLite a writer lock, released when the write transaction ends."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return
    app.extensions["sqlite_writer_lock"] = SqliteWriterLock(database)
    if not event.contains(session_factory, "after_transaction_end", _release_writer_lock):
        event.listen(session_factory, "after_transaction_end", _release_writer_lock)


def _release_writer_lock(session: Any, transaction: Any) -> None:
    if transaction.parent is None:
        fd = session.info.pop(WRITER_LOCK_KEY, None)
        if fd is not None:
            SqliteWriterLock.release(fd)
