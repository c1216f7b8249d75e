"""SQLite: a write is synced to disk before it is answered, and the sync waits for nothing.

With ``SQLITE_SYNCHRONOUS = "FULL"`` the connections (``service.database.SqliteConnection``)
run SQLite's NORMAL and sync the WAL file themselves after every commit that changed rows —
after letting go of the writer lock, so that the next writer is not kept waiting for this
one's disk flush. These tests watch ``os.fdatasync`` and the writer lock file to show when the
sync happens, and that the other settings are SQLite's own.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Engine, create_engine

from service import database as service_database
from service.database import SqliteConnection, configure_engine_events
from service.extensions import db
from tests.support import ApiClient, migrated_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


class SyncWatch:
    """Records each ``os.fdatasync`` of the WAL, and whether the writer lock was free then."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, database: Path) -> None:
        self.wal = f"{database}-wal"
        self.lock = f"{database}-writer.lock"
        self.syncs: list[bool] = []  # one per sync of the WAL: was the writer lock free?
        real = os.fdatasync

        def watched(fd: int) -> None:
            if os.path.realpath(f"/proc/self/fd/{fd}") == os.path.realpath(self.wal):
                self.syncs.append(self.writer_lock_is_free())
            real(fd)

        monkeypatch.setattr(os, "fdatasync", watched)

    def writer_lock_is_free(self) -> bool:
        fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        finally:
            os.close(fd)  # closing the descriptor lets go of a lock taken here
        return True


def engine_with_pragmas(url: str, factory: Any) -> Engine:
    """An engine of ``factory`` connections with the service's connect hook, FULL asked for."""
    app = Flask(__name__)
    app.config.update(SQLITE_SYNCHRONOUS="FULL", SQLITE_BUSY_TIMEOUT_S=1)
    engine = create_engine(url, connect_args={"factory": factory})
    configure_engine_events(app, engine)
    return engine


def sqlite_app(tmp_path: Path, synchronous: str = "FULL") -> tuple[ApiClient, Path]:
    app = migrated_app(None, tmp_path, SQLITE_SYNCHRONOUS=synchronous)
    return ApiClient(app.test_client()), tmp_path / "test.db"


def test_a_recorded_hand_is_synced_after_the_writer_lock_is_let_go(tmp_path, monkeypatch):
    api, database = sqlite_app(tmp_path)
    table = api.table()
    watch = SyncWatch(monkeypatch, database)

    assert api.record(table, SOLO).status_code == 201
    assert watch.syncs == [True]  # once, and no writer was held up by it

    # Reading changes nothing: nothing to sync.
    auth = api.auth(table["table_token"])
    assert api.client.get(f"/api/v1/tables/{table['id']}", headers=auth).status_code == 200
    assert api.client.get(f"/api/v1/tables/{table['id']}/hands", headers=auth).status_code == 200
    assert watch.syncs == [True]


def test_checkpoints_run_after_the_writer_lock_is_let_go(tmp_path, monkeypatch):
    """SQLite's own checkpoints (run inside the commit that crosses their thousand pages, the
    writer lock held) are off; the process's every ``CHECKPOINT_EVERY``-th commit that changed
    rows of the database, whichever pooled connection makes it, checkpoints the WAL once it has
    let the lock go."""
    monkeypatch.setattr(service_database, "CHECKPOINT_EVERY", 3)
    app = migrated_app(None, tmp_path, SQLITE_SYNCHRONOUS="FULL")
    api, database = ApiClient(app.test_client()), tmp_path / "test.db"
    table = api.table()
    watch = SyncWatch(monkeypatch, database)
    checkpoints: list[bool] = []  # one per checkpoint: was the writer lock free?
    real = sqlite3.Connection.execute

    def execute(self: sqlite3.Connection, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA wal_checkpoint"):
            checkpoints.append(watch.writer_lock_is_free())
        return real(self, sql, *args)

    monkeypatch.setattr(SqliteConnection, "execute", execute, raising=False)
    for _ in range(9):  # nine hands: at least three commits that reach the count
        assert api.record(table, SOLO).status_code == 201
    assert len(checkpoints) >= 3 and all(checkpoints)
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0


def test_the_checkpoint_count_is_the_processs_not_each_connections(tmp_path, monkeypatch):
    """Commits that changed rows count towards the checkpoint whichever connection makes them:
    counted per connection, a pool of ten let the WAL grow ten times as long between two."""
    monkeypatch.setattr(service_database, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(service_database, "_commits_since_checkpoint", {})
    path = str(tmp_path / "count.db")
    connections = [sqlite3.connect(path, factory=SqliteConnection) for _ in range(4)]
    checkpoints: list[int] = []
    real = sqlite3.Connection.execute

    def execute(self: sqlite3.Connection, sql: str, *args: Any) -> sqlite3.Cursor:
        if sql.startswith("PRAGMA wal_checkpoint"):
            checkpoints.append(connections.index(self))
        return real(self, sql, *args)

    try:
        for connection in connections:
            service_database.set_up_connection(connection, "FULL", 1000)
        connections[0].execute("CREATE TABLE t (n INTEGER)")
        connections[0].commit()  # (no row changed: not counted)
        monkeypatch.setattr(SqliteConnection, "execute", execute, raising=False)
        for n in range(8):  # each connection commits two rows: none reaches 4 alone
            connection = connections[n % 4]
            connection.execute("INSERT INTO t VALUES (?)", (n,))
            connection.commit()
        assert checkpoints == [3, 3]  # the process's 4th and 8th commits, the 4th connection's
    finally:
        for connection in connections:
            connection.close()


def test_a_refused_write_syncs_nothing_and_leaves_the_writer_lock_free(tmp_path, monkeypatch):
    api, database = sqlite_app(tmp_path)
    table = api.table()
    watch = SyncWatch(monkeypatch, database)

    refused = api.record(table, {**SOLO, "tricks": 9})  # eight tricks in a hand
    assert refused.status_code == 422
    assert watch.syncs == []
    assert watch.writer_lock_is_free()
    assert api.record(table, SOLO).status_code == 201
    assert watch.syncs == [True]


def test_writes_outside_a_table_lock_are_synced_too(tmp_path, monkeypatch):
    """Opening a club and a table take no table lock (nothing to race on), but are writes."""
    api, database = sqlite_app(tmp_path)
    watch = SyncWatch(monkeypatch, database)
    api.table()
    assert watch.syncs and all(watch.syncs)


@pytest.mark.parametrize(("setting", "pragma"), [("NORMAL", 1), ("EXTRA", 3), ("OFF", 0)])
def test_other_settings_are_sqlites_own(tmp_path, monkeypatch, setting, pragma):
    from service.extensions import db

    api, database = sqlite_app(tmp_path, setting)
    watch = SyncWatch(monkeypatch, database)
    assert api.record(api.table(), SOLO).status_code == 201
    assert watch.syncs == []
    with api.client.application.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == pragma
        raw = connection.connection.dbapi_connection
        assert raw.wal_path is None and raw.writer_lock_path == f"{database}-writer.lock"


def test_a_database_in_memory_has_no_writer_lock_and_nothing_to_sync():
    engine = engine_with_pragmas("sqlite://", SqliteConnection)
    with engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        assert isinstance(raw, SqliteConnection)
        assert raw.writer_lock_path is None and raw.wal_path is None
        raw.take_writer_lock()  # nothing to take
        assert raw._writer_fd is None
    engine.dispose()


def test_the_writer_lock_is_let_go_by_commit_rollback_and_close(tmp_path):
    database = tmp_path / "lock.db"
    lock = f"{database}-writer.lock"
    for end in ("commit", "rollback", "close"):
        connection = sqlite3.connect(database, factory=SqliteConnection)
        connection.writer_lock_path = lock
        connection.take_writer_lock()
        other = os.open(lock, os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            getattr(connection, end)()
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free now
        finally:
            os.close(other)
        if end != "close":
            connection.close()


def test_a_connection_of_another_class_keeps_sqlites_own_full(tmp_path):
    """Connect arguments that name another connection class get SQLite's FULL, not NORMAL
    with nobody to sync."""
    engine = engine_with_pragmas(f"sqlite:///{tmp_path / 'other.db'}", sqlite3.Connection)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    engine.dispose()


def test_only_commits_that_changed_rows_are_synced(tmp_path, monkeypatch):
    database = tmp_path / "sync.db"
    connection = sqlite3.connect(database, factory=SqliteConnection)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE t (x INTEGER)")
    connection.wal_path = f"{database}-wal"
    synced: list[int] = []
    real = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append(fd), real(fd)))
    try:
        connection.execute("INSERT INTO t VALUES (1)")
        connection.commit()
        assert len(synced) == 1
        connection.execute("SELECT * FROM t").fetchall()
        connection.commit()  # read only
        connection.execute("INSERT INTO t VALUES (2)")
        connection.rollback()  # undone: nothing new on disk to wait for
        connection.commit()
        assert len(synced) == 1
        connection.execute("UPDATE t SET x = 3")
        connection.commit()
        assert len(synced) == 2
    finally:
        connection.close()


def flock_waiters(path: str) -> int:
    """How many are blocked waiting for a lock on ``path`` (the kernel's ``/proc/locks``)."""
    inode = os.stat(path).st_ino
    return sum(
        1
        for line in Path("/proc/locks").read_text().splitlines()
        if "->" in line and line.split()[-3].endswith(f":{inode}")
    )


def test_threads_of_one_process_queue_before_the_flock_and_each_gets_it_in_turn(tmp_path):
    """A second thread's writer waits in the process (not on the ``flock``) while the first
    holds the lock, takes it the moment the first commits, and nobody else is let in meanwhile:
    the ``flock`` is held throughout, by one of them at a time."""
    import threading

    database = tmp_path / "queue.db"
    lock = f"{database}-writer.lock"
    first = sqlite3.connect(database, factory=SqliteConnection, check_same_thread=False)
    second = sqlite3.connect(database, factory=SqliteConnection, check_same_thread=False)
    for connection in (first, second):
        connection.writer_lock_path = lock
    first.take_writer_lock()
    second_has_it = threading.Event()

    def take() -> None:
        second.take_writer_lock()
        second_has_it.set()

    waiter = threading.Thread(target=take)
    waiter.start()
    assert not second_has_it.wait(0.3)  # queued while the first holds it
    assert flock_waiters(lock) == 0  # in the process's queue, not among the flock's waiters
    first.commit()
    assert second_has_it.wait(30)
    other = os.open(lock, os.O_RDWR)
    try:
        with pytest.raises(BlockingIOError):  # held across processes by the second now
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        second.rollback()
        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free now
    finally:
        os.close(other)
    waiter.join()
    first.close()
    second.close()


def test_a_failed_flock_gives_the_process_lock_back(tmp_path, monkeypatch):
    database = tmp_path / "fail.db"
    connection = sqlite3.connect(database, factory=SqliteConnection)
    connection.writer_lock_path = f"{database}-writer.lock"

    def interrupted(fd: int, operation: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(fcntl, "flock", interrupted)
    with pytest.raises(KeyboardInterrupt):
        connection.take_writer_lock()
    monkeypatch.undo()
    connection.take_writer_lock()  # not stuck behind the failed attempt
    connection.rollback()
    connection.close()


def test_a_commit_asked_unsynced_waits_for_no_disk_and_the_next_sync_covers_it(
    tmp_path, monkeypatch
):
    database = tmp_path / "unsynced.db"
    connection = sqlite3.connect(database, factory=SqliteConnection)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE t (x INTEGER)")
    connection.wal_path = f"{database}-wal"
    synced: list[int] = []
    real = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append(fd), real(fd)))
    try:
        connection.commit_unsynced()
        connection.execute("INSERT INTO t VALUES (1)")
        connection.commit()
        assert synced == []
        # For that transaction only: the next one that changes rows is synced, and with it
        # what the unsynced one wrote.
        connection.execute("INSERT INTO t VALUES (2)")
        connection.commit()
        assert len(synced) == 1
        connection.commit_unsynced()
        connection.execute("INSERT INTO t VALUES (3)")
        connection.rollback()  # the word goes with the transaction
        connection.execute("INSERT INTO t VALUES (4)")
        connection.commit()
        assert len(synced) == 2
    finally:
        connection.close()


def test_a_spent_stream_ticket_and_a_tokens_last_use_wait_for_no_disk(tmp_path, monkeypatch):
    """Writes a crash may lose without harm (docs/scaling.md): a ticket spent in the last
    moment opens one stream more within its minute; a last use is a hint. A hand still is
    synced."""
    from sqlalchemy import select, update

    from service.extensions import db
    from service.persistence.table_keeping import SpentTicketRow, TokenRow
    from service.services import auth, live

    api, database = sqlite_app(tmp_path)
    table = api.table()
    app = api.client.application
    with app.app_context():  # a token never used: its use is due to be noted
        db.session.execute(update(TokenRow).values(last_used_at=None))
        db.session.commit()
    watch = SyncWatch(monkeypatch, database)
    with app.app_context():
        live.spend_ticket("a ticket", db.engine)
        with pytest.raises(live.StreamTicketInvalid):  # spent: it opens one stream once
            live.spend_ticket("a ticket", db.engine)
        assert db.session.scalars(select(SpentTicketRow.digest)).all() == [
            auth.hash_token("a ticket")
        ]
        token_id = db.session.scalars(select(TokenRow.id)).first()
        assert token_id is not None
        db.session.rollback()
        auth._note_use(token_id, db.engine)
        assert db.session.get(TokenRow, token_id).last_used_at is not None  # noted
    assert watch.syncs == []
    assert watch.writer_lock_is_free()
    assert api.record(table, SOLO).status_code == 201
    assert watch.syncs == [True]
