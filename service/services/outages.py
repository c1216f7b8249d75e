"""Which errors are outages of the database rather than faults of a request or of the code:
those a client is told to send again later (503 with ``Retry-After``, ``api/errors.py``); and
whether an SQLite database's file system can take a write (``sqlite_cannot_write``)."""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable
from typing import Any, NamedTuple

# Seconds a client should wait before sending again: a lock or a busy database frees up soon,
# a lost or full database takes longer.
RETRY_AFTER_BUSY = 2
RETRY_AFTER_DOWN = 5

# SQLite's primary result codes that mean the database, not the request, failed.
_SQLITE_BUSY = {5: "busy", 6: "locked"}
_SQLITE_DOWN = {
    7: "out of memory",
    8: "read-only",
    10: "disk I/O error",
    13: "disk full",
    14: "cannot open the database file",
    15: "locking protocol",
}
# PostgreSQL SQLSTATEs: a lock or statement timeout, a serialization failure or deadlock
# (all retryable at once); classes 08 (connection), 53 (resources: disk full, out of memory,
# too many connections), 57 (operator intervention: shutdown, terminated) and 58 (system).
_PG_BUSY = {
    "55P03": "lock timeout",
    "57014": "statement timeout",
    "40001": "serialization failure",
    "40P01": "deadlock",
    "25P03": "idle-in-transaction timeout",
}
_PG_DOWN_CLASSES = {
    "08": "connection",
    "53": "insufficient resources",
    "57": "server shut down or session ended",
    "58": "system error",
}
_DISK_ERRNOS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota",
    errno.EIO: "I/O error",
    errno.EROFS: "read-only file system",
}


class Outage(NamedTuple):
    """The database could not do the work: why (for the log), and when to send again."""

    reason: str
    retry_after: int


def outage_of(error: BaseException) -> Outage | None:
    """An ``Outage`` when ``error`` says the database (not the request) failed: a connection
    lost or refused, the server gone, a full disk, a lock or statement timeout, SQLite busy, a
    table whose lock enough threads of this worker already wait for (``locking.TableBusy``);
    None for anything else (a bug, a constraint: those are not the client's to retry)."""
    from sqlalchemy import exc

    from .locking import TableBusy

    if isinstance(error, exc.TimeoutError):  # no pooled connection free in time
        return Outage("connection pool exhausted", RETRY_AFTER_BUSY)
    if isinstance(error, TableBusy):  # enough of this worker's threads wait for the table
        return Outage(str(error), RETRY_AFTER_BUSY)
    original = getattr(error, "orig", None) or error
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return Outage(f"connection lost: {_first_line(original)}", RETRY_AFTER_DOWN)
    if isinstance(original, sqlite3.Error):
        code = (getattr(original, "sqlite_errorcode", 0) or 0) & 0xFF
        if code in _SQLITE_BUSY:
            return Outage(f"SQLite {_SQLITE_BUSY[code]}", RETRY_AFTER_BUSY)
        if code in _SQLITE_DOWN:
            return Outage(f"SQLite {_SQLITE_DOWN[code]}", RETRY_AFTER_DOWN)
        return None
    if isinstance(original, OSError) and original.errno in _DISK_ERRNOS:
        return Outage(_DISK_ERRNOS[original.errno], RETRY_AFTER_DOWN)
    try:
        import psycopg
    except ImportError:  # pragma: no cover - a dependency
        return None
    if isinstance(original, psycopg.Error):
        state = original.sqlstate
        if state in _PG_BUSY:
            return Outage(f"PostgreSQL {_PG_BUSY[state]}", RETRY_AFTER_BUSY)
        lost = isinstance(original, psycopg.OperationalError | psycopg.InterfaceError)
        if state is None and lost:
            return Outage(f"connection failed: {_first_line(original)}", RETRY_AFTER_DOWN)
        if state is not None and state[:2] in _PG_DOWN_CLASSES:
            return Outage(f"PostgreSQL {_PG_DOWN_CLASSES[state[:2]]} ({state})", RETRY_AFTER_DOWN)
    return None


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


# The least free space an SQLite database's file system must have to take a write: the WAL
# grows by a page and a frame header for each page a transaction changes (a hand changes about
# twenty), and a checkpoint may need more. Below it, ``/healthz`` says the database cannot write.
SQLITE_ROOM_TO_WRITE = 1 << 20


def sqlite_cannot_write(
    database_path: str, write: Callable[[], None] | None = None
) -> OSError | None:
    """Why an SQLite database cannot take a write now (a read-only file system, or a full
    one), as the ``OSError`` SQLite's write would meet; None when it can. Reads go on either
    way: ``/healthz`` asks this so that a full disk is not reported healthy, nor a freed one
    unhealthy.

    Room enough on the file system (``SQLITE_ROOM_TO_WRITE``) answers at once. With less,
    what counts is whether a write can be made, and free bytes do not say it: the WAL keeps
    the size of its high point after a checkpoint, and SQLite writes into that room before it
    grows the file. So then ``write`` (a real write of one page, ``sqlite_write_probe``) is
    made, and its failure is the answer."""
    directory = os.path.dirname(os.path.abspath(database_path))
    found = os.statvfs(directory)
    if found.f_flag & os.ST_RDONLY:
        return OSError(errno.EROFS, "the database's file system is read-only", directory)
    free = found.f_bavail * found.f_frsize
    if free >= SQLITE_ROOM_TO_WRITE:
        return None
    if write is not None:
        try:
            write()
        except (sqlite3.OperationalError, OSError) as error:
            return OSError(errno.ENOSPC, f"{free} bytes free, and a write failed: {error}")
        return None
    return OSError(errno.ENOSPC, f"{free} bytes free for the database", directory)


def sqlite_write_probe(dbapi_connection: Any) -> None:
    """Write one page to the database on ``dbapi_connection`` and change nothing: the header's
    ``user_version`` set to what it is (a transaction of its own, in the writer's turn; the
    service does not use that field). Raises what SQLite's write meets (a full disk: SQLITE_FULL
    as ``sqlite3.OperationalError``)."""
    take = getattr(dbapi_connection, "take_writer_lock", None)
    if take is not None:
        take()
    try:
        (version,) = dbapi_connection.execute("PRAGMA user_version").fetchone()
        dbapi_connection.execute(f"PRAGMA user_version = {int(version)}")
    finally:
        let_go = getattr(dbapi_connection, "let_go_of_writer_lock", None)
        if let_go is not None:
            let_go()
