"""Database outages answer 503 problems with ``Retry-After``, nothing recorded, and the service
serves again once the database does: a lock held too long (PostgreSQL's lock_timeout), a
connection lost mid-request or at teardown, a server gone, a full disk (a small tmpfs this test
mounts; on PostgreSQL a tablespace on it)."""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from service.api.errors import answer_for
from service.middleware.security import Envelope
from service.services import outages
from service.services.outages import RETRY_AFTER_BUSY, RETRY_AFTER_DOWN, outage_of
from tests.databases import ON_POSTGRES, postgres_url
from tests.support import make_app, migrated_app

HAND = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
on_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL only (TEST_DATABASE_URL)")


def assert_unavailable(response: Any, retry_after: int = RETRY_AFTER_DOWN) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == str(retry_after)
    assert response.headers["X-Request-Id"]  # the envelope's headers: the service answered
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    body = response.json
    assert body["status"] == 503 and body["type"] == "urn:solo:problem:service-unavailable"
    assert "nothing was recorded" in body["detail"] and "hand" in body["detail"]


def _hands(api: Any, table: dict[str, Any]) -> list[dict[str, Any]]:
    response = api.client.get(
        f"/api/v1/tables/{table['id']}/hands", headers=api.auth(table["table_token"])
    )
    assert response.status_code == 200
    return response.json


def _raw_pg() -> psycopg.Connection:
    from service.config import normalize_database_url

    url = postgres_url()
    assert url
    return psycopg.connect(normalize_database_url(url).replace("+psycopg", ""), autocommit=True)


# --- what counts as an outage ------------------------------------------------------------------


def test_outages_are_told_from_bugs():
    import sqlite3

    from sqlalchemy import exc

    def wrapped(orig: BaseException, invalidated: bool = False) -> exc.DBAPIError:
        return exc.DBAPIError.instance(
            "SELECT 1", None, orig, Exception, connection_invalidated=invalidated
        )

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # type: ignore[attr-defined]
    assert outage_of(wrapped(full)).retry_after == RETRY_AFTER_DOWN
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorcode = 5  # type: ignore[attr-defined]
    assert outage_of(wrapped(locked)).retry_after == RETRY_AFTER_BUSY
    missing = sqlite3.OperationalError("no such table: hands")  # a bug, not an outage
    missing.sqlite_errorcode = 1  # type: ignore[attr-defined]
    assert outage_of(wrapped(missing)) is None
    assert outage_of(wrapped(psycopg.errors.LockNotAvailable("lock"))).retry_after == 2
    assert outage_of(wrapped(psycopg.errors.DiskFull("full"))) is not None
    assert outage_of(wrapped(psycopg.errors.AdminShutdown("terminating"))) is not None
    assert outage_of(wrapped(psycopg.OperationalError("server closed"))) is not None
    assert outage_of(wrapped(psycopg.errors.UniqueViolation("dup"))) is None
    assert outage_of(wrapped(ValueError("x"), invalidated=True)) is not None
    assert outage_of(exc.TimeoutError("pool")) is not None
    assert outage_of(OSError(28, "No space left on device")) is not None
    assert outage_of(ValueError("a bug")) is None


# --- a lock held from outside ----------------------------------------------------------------


@on_postgres
def test_a_write_waiting_on_a_locked_table_is_refused_503_within_the_lock_timeout(app, api):
    table = api.table()
    bound = app.config.get("PG_LOCK_TIMEOUT_MS", 2_000) / 1000
    with _raw_pg() as holder:
        holder.execute("BEGIN")  # a stuck worker: holds the table's row, does nothing more
        holder.execute("SELECT 1 FROM score_tables WHERE id = %s FOR UPDATE", (table["id"],))
        started = time.monotonic()
        response = api.record(table, HAND, **{"Idempotency-Key": "k-locked"})
        waited = time.monotonic() - started
        assert_unavailable(response, RETRY_AFTER_BUSY)
        # Refused after the lock timeout, not before it and not much after it.
        assert bound * 0.9 <= waited < bound + 3, waited
        # Reads are not held up by the lock.
        assert api.get_table(table)["hands_recorded"] == 0
        holder.execute("ROLLBACK")
    assert _hands(api, table) == []
    again = api.record(table, HAND, **{"Idempotency-Key": "k-locked"})
    assert again.status_code == 201 and again.json["number"] == 1


@on_postgres
def test_a_session_stuck_inside_a_transaction_is_ended_and_its_locks_let_go(app, api):
    """A worker stopped while holding a lock (SIGSTOP, a hang) is ended by the server after
    idle_in_transaction_session_timeout, so the table is free again within seconds."""
    table = api.table()
    stuck = _raw_pg()
    stuck.execute("SET idle_in_transaction_session_timeout = 500")  # the service's, shortened
    stuck.execute("BEGIN")
    stuck.execute("SELECT 1 FROM score_tables WHERE id = %s FOR UPDATE", (table["id"],))
    deadline = time.monotonic() + 30
    answer = None
    while time.monotonic() < deadline:
        answer = api.record(table, HAND, **{"Idempotency-Key": "k-stuck"})
        if answer.status_code == 201:
            break
        assert_unavailable(answer, RETRY_AFTER_BUSY)
    assert answer is not None and answer.status_code == 201
    with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
        stuck.execute("SELECT 1")  # the server ended it
    stuck.close()


# A worker of the service, in a process of its own: it records a hand and stops just before
# COMMIT, its table and seats locked, as a worker would that the operating system stopped.
_WORKER_STOPPING_AT_COMMIT = """
import sys, time
from sqlalchemy import event
from service import create_app
from service.extensions import db

url, table_id, token = sys.argv[1:4]
app = create_app({"SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False})
with app.app_context():
    engine = db.engine
wrote = []

@event.listens_for(engine, "before_cursor_execute")
def _note(_conn, _cursor, statement, *_):
    wrote.append(statement.startswith("INSERT INTO hands"))

@event.listens_for(engine, "commit")
def _stop_before_commit(connection):
    if any(wrote):  # the hand's commit, not the token check's
        pid = connection.connection.dbapi_connection.info.backend_pid
        print(f"holding {pid}", flush=True)
        time.sleep(3600)  # SIGSTOP comes here

app.test_client().post(
    f"/api/v1/tables/{table_id}/hands",
    json={"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6},
    headers={"Authorization": f"Bearer {token}"},
)
"""


def _line_within(process: subprocess.Popen[str], seconds: float) -> str:
    import select

    ready, _, _ = select.select([process.stdout], [], [], seconds)
    assert ready, "the worker process did not take the lock in time"
    assert process.stdout is not None
    return process.stdout.readline()


@on_postgres
def test_a_worker_stopped_while_holding_a_tables_lock_lets_it_go_within_the_bound(app, api):
    """A worker process (the service's own code, a real hand being recorded) is stopped with
    SIGSTOP just before its COMMIT, holding the table's lock. The server ends its session after
    ``idle_in_transaction_session_timeout`` (5 s), and the table takes hands again: within 5 s
    and one lock wait (2 s) of the stop; meanwhile every attempt is a 503 busy. (The wait is
    bounded generously, not timed: the test counts answers.)"""
    import signal
    import sys

    table = api.table()
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    worker = subprocess.Popen(
        [sys.executable, "-c", _WORKER_STOPPING_AT_COMMIT, url, table["id"], table["table_token"]],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        holding = _line_within(worker, 60)
        assert holding.startswith("holding "), holding
        backend = int(holding.split()[1])
        os.kill(worker.pid, signal.SIGSTOP)
        idle = app.config.get("PG_IDLE_IN_TRANSACTION_TIMEOUT_MS", 5_000) / 1000
        lock = app.config.get("PG_LOCK_TIMEOUT_MS", 2_000) / 1000
        deadline = time.monotonic() + idle + lock + 30  # generous: a loaded machine
        answer, refused = None, 0
        while time.monotonic() < deadline:
            answer = api.record(table, HAND, **{"Idempotency-Key": "k-after-stop"})
            if answer.status_code == 201:
                break
            assert_unavailable(answer, RETRY_AFTER_BUSY)
            refused += 1
        assert answer is not None and answer.status_code == 201, "the table stayed locked"
        assert refused >= 1  # it was locked when the stop came
        with _raw_pg() as observer:
            still = observer.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (backend,)
            ).fetchone()
        assert still == (0,), "the stopped worker's session was not ended"
        assert [hand["number"] for hand in _hands(api, table)] == [1]  # its hand was not kept
    finally:
        worker.kill()
        worker.wait()
        assert worker.stdout is not None
        worker.stdout.close()


def _big_club(api: Any, hands: int) -> dict[str, Any]:
    """The export of a club whose one table has ``hands`` hands (solos of every seat, won and
    lost): made from the export of a table with one hand, so it is what the service writes."""
    table = api.table()
    assert api.record(table, HAND).status_code == 201
    document = api.client.get(
        f"/api/v1/clubs/{table['club_id']}/export", headers=api.auth(table["admin_token"])
    ).json
    [only] = document["tables"]
    [first] = only["hands"]
    generated = []
    for number in range(1, hands + 1):
        record = {**first["hand"], "declarer": number % 4, "tricks": (6, 7, 2)[number % 3]}
        revision = {**first["revisions"][0], "hand": record}
        generated.append({**first, "number": number, "hand": record, "revisions": [revision]})
    only["hands"] = generated
    only["seats"] = [{**seat, "balance": None} for seat in only["seats"]]  # not checked
    return document


@pytest.mark.slow
@on_postgres
def test_big_imports_beside_live_tables_all_succeed_and_lose_nothing(app, api):
    """Three imports of a club of 3,000 hands at once, through a real server, while phones
    record hands on two live tables: every import is 201 with all its hands, and every hand
    a phone was answered 201 for is there, once. The server's idle-in-transaction timeout is
    cut to 1 s, far below the seconds a replay of 3,000 hands takes: an import's transaction
    sits idle that long between its statements and must not be ended for it
    (``database.for_an_import``), while a live write's transaction never idles that long."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import requests

    from tests.support import Gunicorn

    imports, hands = 3, 3_000
    document = _big_club(api, hands)
    live = [api.table(), api.table()]
    stop = threading.Event()
    recorded = {table["id"]: 0 for table in live}

    def phone(base: str, table: dict[str, Any]) -> None:
        """Records hands until stopped, each sent again (same key) while answered 503."""
        n = 0
        while not stop.is_set():
            n += 1
            for _attempt in range(60):
                answer = requests.post(
                    f"{base}/api/v1/tables/{table['id']}/hands",
                    json=HAND,
                    headers={
                        **api.auth(table["table_token"]),
                        "Idempotency-Key": f"{table['id']}-{n}",
                    },
                    timeout=120,
                )
                if answer.status_code == 201:
                    recorded[table["id"]] += 1
                    break
                assert answer.status_code == 503, answer.text
                time.sleep(0.2)
            else:
                raise AssertionError("a live hand was refused 60 times")

    with (
        Gunicorn(
            app.config["SQLALCHEMY_DATABASE_URI"],
            workers=2,
            SOLO_RATELIMIT_ENABLED="false",
            SOLO_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS="1000",
        ) as server,
        ThreadPoolExecutor(imports + len(live)) as pool,
    ):
        phones = [pool.submit(phone, server.url, table) for table in live]
        imported = [
            pool.submit(
                requests.post, f"{server.url}/api/v1/clubs/import", json=document, timeout=600
            )
            for _ in range(imports)
        ]
        answers = [f.result() for f in imported]
        stop.set()
        for f in phones:
            f.result()
    for answer in answers:
        assert answer.status_code == 201, answer.text
        assert answer.json()["imported"]["hands"] == hands
    for table in live:
        assert recorded[table["id"]] >= 1
        assert api.get_table(table)["hands_recorded"] == recorded[table["id"]]
    with _raw_pg() as observer:
        row = observer.execute(
            "SELECT count(*) FROM hands JOIN score_tables ON score_tables.id = hands.table_id"
            " WHERE score_tables.club_id = ANY(%s)",
            ([answer.json()["id"] for answer in answers],),
        ).fetchone()
    assert row == (imports * hands,)


def test_the_request_timeouts_are_set_on_service_connections_and_not_for_migrations(app):
    from service.database import postgres_connect_args
    from service.extensions import db

    options = postgres_connect_args({"PG_LOCK_TIMEOUT_MS": 1500})["options"]
    assert "-c lock_timeout=1500" in options and "-c statement_timeout=10000" in options
    with pytest.raises(ValueError, match="PG_STATEMENT_TIMEOUT_MS"):
        postgres_connect_args({"PG_STATEMENT_TIMEOUT_MS": -1})
    if not ON_POSTGRES:
        return
    with app.app_context(), db.engine.connect() as connection:
        assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "2s"
        assert connection.exec_driver_sql("SHOW statement_timeout").scalar() == "10s"
        from service.database import without_request_timeouts

        without_request_timeouts(connection)  # what migrations/env.py does
        assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "0"
        connection.rollback()
        assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "2s"


# --- a connection lost -----------------------------------------------------------------------


@on_postgres
def test_a_connection_lost_mid_write_answers_503_and_the_hand_is_recorded_once_later(
    app, api, caplog
):
    from service.extensions import db

    table = api.table()

    def terminate_self(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO HANDS"):
            pid = conn.connection.dbapi_connection.info.backend_pid
            with _raw_pg() as killer:
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", terminate_self)
    try:
        with caplog.at_level(logging.INFO, logger="solo.access"):
            response = api.record(table, HAND, **{"Idempotency-Key": "k-lost"})
    finally:
        event.remove(engine, "before_cursor_execute", terminate_self)
    assert_unavailable(response)
    lines = [r.getMessage() for r in caplog.records if r.name == "solo.access"]
    assert any(
        '"status":503' in line and response.headers["X-Request-Id"] in line for line in lines
    ), lines
    assert _hands(api, table) == []
    again = api.record(table, HAND, **{"Idempotency-Key": "k-lost"})
    assert again.status_code == 201 and again.json["number"] == 1
    assert len(_hands(api, table)) == 1


@on_postgres
def test_a_connection_lost_before_the_sessions_teardown_leaves_the_answer_standing(
    app, api, caplog
):
    """The session's ROLLBACK at teardown, on a connection the server ended meanwhile: the
    answer made stands (with the service's headers), the failure is logged, and the next
    request is served."""
    from flask import g

    from service.extensions import db

    table = api.table()

    def kill_the_sessions_connection(_exc: Any) -> None:
        if g.get("kill_at_teardown"):
            pid = db.session.connection().connection.dbapi_connection.info.backend_pid
            with _raw_pg() as killer:
                killer.execute("SELECT pg_terminate_backend(%s)", (pid,))

    def mark(response: Any) -> Any:
        db.session.connection()  # the session holds a connection in a transaction
        g.kill_at_teardown = True
        return response

    app.after_request_funcs.setdefault(None, []).append(mark)
    app.teardown_appcontext_funcs.append(kill_the_sessions_connection)  # runs before db's
    try:
        with caplog.at_level(logging.WARNING, logger="service.database"):
            # (a route Flask answers: an empty page of hands is answered before it)
            response = api.client.get(
                f"/api/v1/tables/{table['id']}/history", headers=api.auth(table["table_token"])
            )
    finally:
        app.after_request_funcs[None].remove(mark)
        app.teardown_appcontext_funcs.remove(kill_the_sessions_connection)
    assert response.status_code == 200 and response.headers["X-Request-Id"]
    assert any("ending the request's session failed" in r.getMessage() for r in caplog.records)
    assert api.record(table, HAND).status_code == 201  # served again at once


def test_an_error_escaping_flask_is_answered_by_the_error_layer_with_the_envelope():
    """The last net: whatever escapes Flask (a teardown function) is answered as a problem
    with the service's headers, through WSGI's second start_response (PEP 3333)."""
    from sqlalchemy import exc

    def escaping_app(environ: dict[str, Any], start_response: Any) -> Any:
        start_response("200 OK", [("Content-Type", "application/json")])
        raise exc.OperationalError("ROLLBACK", None, psycopg.OperationalError("closed"))

    answers: list[tuple[str, list[tuple[str, str]]]] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        assert exc_info is not None or not answers  # a second call must carry exc_info
        answers.append((status, headers))

    from flask import Flask

    with Flask(__name__).app_context():
        envelope = Envelope(escaping_app, answer_for)
        body = b"".join(envelope({"REQUEST_METHOD": "GET", "PATH_INFO": "/"}, start_response))
    status, headers = answers[-1]
    assert status.startswith("503") and dict(headers)["Retry-After"] == str(RETRY_AFTER_DOWN)
    assert "X-Request-Id" in dict(headers) and b"nothing was recorded" in body


# --- a server gone, a file that cannot be opened ------------------------------------------------


def _unreachable_url(tmp_path: Path) -> str:
    if ON_POSTGRES:
        from tests.support import free_port

        return f"postgresql://postgres@127.0.0.1:{free_port()}/gone"  # nothing listens there
    return f"sqlite:///{tmp_path / 'no-such-directory' / 'solo.db'}"


def assert_not_ready(response: Any, failed: str) -> None:
    """A readiness answer of 503 naming the check that failed."""
    assert response.status_code == 503, response.get_data(as_text=True)
    body = response.json
    assert response.mimetype == "application/problem+json"
    assert body["ready"] is False and body["checks"][failed]["ok"] is False, body
    assert failed in body["detail"]


def test_every_request_answers_503_and_readiness_fails_while_the_database_does_not_answer(
    tmp_path,
):
    gone = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": _unreachable_url(tmp_path)})
    client = gone.test_client()
    # Alive (an orchestrator must not restart it for the database's sake), and not ready.
    assert client.get("/healthz").status_code == 200
    assert_not_ready(client.get("/readyz"), "database")
    assert_unavailable(client.post("/api/v1/clubs", json={"name": "Club"}))
    table = uuid.uuid4().hex
    assert_unavailable(
        client.post(
            f"/api/v1/tables/{table}/hands",
            json=HAND,
            headers={"Authorization": "Bearer " + "x" * 40},
        )
    )
    assert_unavailable(
        client.get(f"/api/v1/tables/{table}", headers={"Authorization": "Bearer " + "x" * 40})
    )


# --- a full disk -----------------------------------------------------------------------------


@pytest.fixture
def small_disk() -> Iterator[Path | None]:
    """A 16 MiB tmpfs mounted for this test (root only), where the PostgreSQL server's user
    can reach it; None where mounting is refused (an unprivileged container)."""
    mount = Path(tempfile.mkdtemp(prefix="solo-small-disk-"))
    mount.chmod(0o755)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        mount.rmdir()
        yield None
        return
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
        mount.rmdir()


def test_healthz_tells_a_read_only_or_nearly_full_file_system_of_sqlite(monkeypatch, tmp_path):
    """What ``/readyz`` reads of the database's file system (``os.statvfs``), for the cases
    a mount cannot make here: a read-only one, and one with less room than a write needs."""
    import errno

    real = os.statvfs(tmp_path)

    def found(flag: int, free_blocks: int) -> Any:
        fields = list(real)
        fields[4], fields[8] = free_blocks, flag  # f_bavail, f_flag
        return os.statvfs_result(fields)

    database = str(tmp_path / "solo.db")
    monkeypatch.setattr(os, "statvfs", lambda _path: found(os.ST_RDONLY, real.f_bavail))
    assert outages.sqlite_cannot_write(database).errno == errno.EROFS  # type: ignore[union-attr]
    blocks = outages.SQLITE_ROOM_TO_WRITE // real.f_frsize
    monkeypatch.setattr(os, "statvfs", lambda _path: found(0, blocks - 1))
    assert outages.sqlite_cannot_write(database).errno == errno.ENOSPC  # type: ignore[union-attr]
    monkeypatch.setattr(os, "statvfs", lambda _path: found(0, blocks))
    assert outages.sqlite_cannot_write(database) is None
    # Nearly full: a write is made, and its answer counts, not the free bytes.
    monkeypatch.setattr(os, "statvfs", lambda _path: found(0, 1))
    made: list[str] = []
    assert outages.sqlite_cannot_write(database, lambda: made.append("write")) is None
    assert made == ["write"]

    def full() -> None:
        raise sqlite3.OperationalError("database or disk is full")

    assert outages.sqlite_cannot_write(database, full).errno == errno.ENOSPC  # type: ignore[union-attr]
    assert outage_of(OSError(errno.EROFS, "read-only")) is not None  # answered 503


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    # Unbuffered, and the OSError suppressed around the file too: a buffered close would raise
    # ENOSPC again after the loop's error was swallowed.
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 65536)
    return filler


def _full_disk_round(
    client: Any, api: Any, table: dict[str, Any], disk: Path, health_when_full: int
) -> None:
    assert client.get("/readyz").status_code == 200
    filler = _fill(disk)
    response = api.record(table, HAND, **{"Idempotency-Key": "k-full"})
    assert_unavailable(response)
    health = client.get("/readyz")
    assert health.status_code == health_when_full, health.get_data(as_text=True)
    if health_when_full == 503:
        assert_not_ready(health, "database")
    assert client.get("/healthz").status_code == 200  # alive all along
    assert api.get_table(table)["hands_recorded"] == 0  # reads go on
    if health_when_full == 503:
        # Room freed, but less than SQLITE_ROOM_TO_WRITE: the WAL's room, kept at its high
        # point, takes the write. Health says so (a write can be made), and it is made.
        os.truncate(filler, filler.stat().st_size - outages.SQLITE_ROOM_TO_WRITE // 2)
        assert client.get("/readyz").status_code == 200
        nearly = api.record(table, HAND, **{"Idempotency-Key": "k-full"})
        assert nearly.status_code == 201, nearly.get_data(as_text=True)
        assert client.get("/readyz").status_code == 200
    filler.unlink()
    assert client.get("/readyz").status_code == 200
    again = api.record(table, HAND, **{"Idempotency-Key": "k-full"})
    assert again.status_code == 201 and again.json["number"] == 1
    assert len(_hands(api, table)) == 1


def test_a_full_disk_answers_503_and_the_hand_is_recorded_once_there_is_room(app, api, small_disk):
    if small_disk is None:
        # SQLite's own max_page_count is no stand-in: a hand fits in pages the database
        # already has, so the limit is never reached.
        pytest.skip("cannot mount a small filesystem here (mounting needs root)")
    if ON_POSTGRES:
        _full_disk_on_postgres(api, small_disk)
        return
    from tests.support import ApiClient

    on_disk = migrated_app(None, small_disk)
    client = on_disk.test_client()
    small_api = ApiClient(client)
    table = small_api.table()
    # SQLite's disk is the service's own: /readyz says it cannot write.
    _full_disk_round(client, small_api, table, small_disk, health_when_full=503)


def _full_disk_on_postgres(api: Any, disk: Path) -> None:
    """The hands table moved into a tablespace on the small disk, emptied so that the next
    hand must extend its file."""
    postgres = pwd.getpwnam("postgres")
    location = disk / "tablespace"
    location.mkdir()
    os.chown(location, postgres.pw_uid, postgres.pw_gid)
    name = f"solo_full_{uuid.uuid4().hex[:8]}"
    table = api.table()
    with _raw_pg() as admin:
        admin.execute(f"CREATE TABLESPACE {name} LOCATION '{location}'")
        try:
            admin.execute("TRUNCATE hands CASCADE")
            admin.execute(f"ALTER TABLE hands SET TABLESPACE {name}")
            # The server's disks are the server's to watch: /readyz asks it only to answer.
            _full_disk_round(api.client, api, table, disk, health_when_full=200)
        finally:
            admin.execute("ALTER TABLE hands SET TABLESPACE pg_default")
            admin.execute(f"DROP TABLESPACE {name}")
