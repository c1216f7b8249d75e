"""The table lock of recording (services/locking.py): a writer that had to wait for it reads
the table and its seats as the holder left them."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from sqlalchemy import update

from service.extensions import db
from service.persistence.table_keeping import SeatRow, TableRow
from service.services.locking import lock_table_state
from tests.databases import ON_POSTGRES

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def test_a_writer_that_waited_for_the_lock_reads_the_seats_the_holder_left(app, api):
    table = api.table()
    holding = threading.Event()
    failures: list[BaseException] = []

    def hold_and_change() -> None:
        try:
            with app.app_context():
                lock_table_state(table["id"])
                db.session.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table["id"])
                    .values(balance=SeatRow.balance + 7)
                )
                db.session.execute(
                    update(TableRow)
                    .where(TableRow.id == table["id"])
                    .values(version=TableRow.version + 1)
                )
                holding.set()
                time.sleep(0.5)  # the other writer is waiting for the lock meanwhile
                db.session.commit()
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)
            holding.set()

    holder = threading.Thread(target=hold_and_change)
    holder.start()
    assert holding.wait(10)
    with app.app_context():
        state = lock_table_state(table["id"])  # waits until the holder commits
        db.session.rollback()
    holder.join()

    assert not failures
    assert state.version == table["version"] + 1
    assert [seat.balance for seat in state.seats] == [7, 7, 7, 7]
    assert [seat.seat for seat in state.seats] == [0, 1, 2, 3]


def test_a_read_sees_the_table_and_its_seats_as_of_one_moment(app, api):
    """A hand committed while a table is being read shows in all of the answer or in none of it:
    here one commits right after the read's first statement, and the settle-up (the pool split
    among the seats, which must clear every balance) still adds up."""
    from sqlalchemy import event

    table = api.table(options={"pool_at_close": "split"})
    with app.app_context():
        engine = db.engine
    statements: list[str] = []
    moved: list[bool] = []

    def a_hand_commits_meanwhile(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)
        if moved or "FROM score_tables" not in statement:
            return
        moved.append(True)
        # As a hand that puts 4 chips into the pool: every seat pays 1, from another connection.
        with engine.connect() as other:
            other.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table["id"])
                .values(balance=SeatRow.balance - 1)
            )
            other.execute(
                update(TableRow)
                .where(TableRow.id == table["id"])
                .values(pool=TableRow.pool + 4, version=TableRow.version + 1)
            )
            other.commit()

    event.listen(engine, "after_cursor_execute", a_hand_commits_meanwhile)
    try:
        answer = api.client.get(
            f"/api/v1/tables/{table['id']}/settle-up", headers=api.auth(table["table_token"])
        )
    finally:
        event.remove(engine, "after_cursor_execute", a_hand_commits_meanwhile)
    assert moved, statements
    assert answer.status_code == 200, answer.json
    assert sum(party["amount"] for party in answer.json["net"]) == 0


@pytest.mark.skipif(not ON_POSTGRES, reason="psycopg's pipeline mode")
def test_no_write_goes_through_a_psycopg_pipeline(api, client, monkeypatch):
    """PostgreSQL does not end a session idle in a transaction whose last statement came
    through a pipeline (database.never_pipelined), and psycopg pipelines every executemany:
    recording (with a key), correcting and voiding hands and importing a club must use
    neither."""
    import psycopg

    def refused(*_args: Any, **_kwargs: Any) -> None:
        raise AssertionError("a statement went through psycopg's pipeline mode")

    monkeypatch.setattr(psycopg.Connection, "pipeline", refused)
    monkeypatch.setattr(psycopg.Connection, "_pipeline_nolock", refused)
    monkeypatch.setattr(psycopg.Cursor, "executemany", refused)
    table = api.table(players=5)
    for number in range(1, 6):
        response = api.record(table, SOLO, **{"Idempotency-Key": f"k-{number}"})
        assert response.status_code == 201, response.json
    hand = f"/api/v1/tables/{table['id']}/hands"
    admin = api.auth(table["admin_token"])
    assert client.put(f"{hand}/2", json={**SOLO, "tricks": 2}, headers=admin).status_code == 200
    assert client.delete(f"{hand}/3", headers=admin).status_code in (200, 204)
    document = client.get(f"/api/v1/clubs/{table['club_id']}/export", headers=admin).json
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    assert imported.json["imported"]["hands"] == 5


@pytest.mark.slow
@pytest.mark.skipif(not ON_POSTGRES, reason="a lock held from outside")
def test_writers_waiting_for_one_locked_table_leave_the_workers_threads_to_the_others(app, api):
    """One worker (4 threads) whose table A is locked from outside, with a lock wait long
    enough that a waiter holds its thread throughout: of 8 concurrent writes to A, the bound's
    2 wait for the lock and the 6 others are answered 503 with Retry-After at once; writes to
    table B are answered 201 meanwhile; once A is let go its 2 waiters record their hands."""
    from concurrent.futures import ThreadPoolExecutor

    import psycopg
    import requests

    from service.config import normalize_database_url
    from tests.support import Gunicorn

    writers, storm = 2, 8
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    locked, free = api.table(), api.table()
    raw_url = normalize_database_url(url).replace("+psycopg", "")

    def post(table: dict[str, Any], key: str) -> requests.Response:
        return requests.post(
            f"{server.url}/api/v1/tables/{table['id']}/hands",
            json=SOLO,
            headers={**api.auth(table["table_token"]), "Idempotency-Key": key},
            timeout=120,
        )

    def waiting_for_a_lock(observer: psycopg.Connection) -> int:
        row = observer.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()
        return int(row[0]) if row else 0

    with (
        Gunicorn(
            url,
            workers=1,
            SOLO_RATELIMIT_ENABLED="false",
            SOLO_PG_LOCK_TIMEOUT_MS="120000",  # a waiter keeps its thread until A is let go
            SOLO_TABLE_WRITERS_PER_WORKER=str(writers),
        ) as server,
        psycopg.connect(raw_url, autocommit=True) as holder,
        psycopg.connect(raw_url, autocommit=True) as observer,
        ThreadPoolExecutor(storm) as pool,
    ):
        holder.execute("BEGIN")
        holder.execute("SELECT 1 FROM score_tables WHERE id = %s FOR UPDATE", (locked["id"],))
        futures = [pool.submit(post, locked, f"a-{n}") for n in range(storm)]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            refused = [f.result() for f in futures if f.done()]
            if len(refused) == storm - writers and waiting_for_a_lock(observer) == writers:
                break
            time.sleep(0.05)
        assert waiting_for_a_lock(observer) == writers
        assert len(refused) == storm - writers
        for answer in refused:
            assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
            assert answer.json()["type"] == "urn:solo:problem:service-unavailable"
        others = [post(free, f"b-{n}").status_code for n in range(5)]  # while A's 2 wait
        assert others == [201] * 5
        assert sum(not f.done() for f in futures) == writers  # still waiting for A
        holder.execute("ROLLBACK")
        finished = [f.result().status_code for f in futures]
    assert sorted(finished) == [201] * writers + [503] * (storm - writers)
    assert api.get_table(locked)["hands_recorded"] == writers
    assert api.get_table(free)["hands_recorded"] == 5


def test_every_write_gives_its_place_among_the_tables_writers_back(api, client):
    """Whatever a write ends in (recorded, replayed, refused, a table that does not exist), its
    thread's place among the table's writers is given back: none is left taken."""
    from service.services.locking import writers_waiting

    table = api.table()
    hands = f"/api/v1/tables/{table['id']}/hands"
    auth = api.auth(table["table_token"])
    assert api.record(table, SOLO, **{"Idempotency-Key": "once"}).status_code == 201
    assert api.record(table, SOLO, **{"Idempotency-Key": "once"}).status_code == 201  # replay
    assert client.post(hands, json=SOLO, headers={**auth, "If-Match": '"99"'}).status_code == 412
    assert client.post(hands, json={**SOLO, "tricks": 99}, headers=auth).status_code == 422
    assert client.put(f"{hands}/1", json=SOLO, headers=auth).status_code == 200
    missing = "0" * 32
    answer = client.post(f"/api/v1/tables/{missing}/hands", json=SOLO, headers=auth)
    assert answer.status_code in (403, 404)
    assert writers_waiting(table["id"]) == 0 and writers_waiting(missing) == 0


def test_a_hand_whose_tables_writers_places_are_taken_is_answered_503_and_takes_none(app, api):
    """A worker's bound of one writer per table, held by another transaction of the worker:
    a hand for that table is answered 503 with Retry-After at once (it does not wait for the
    lock), takes no place, and records once the holder is done."""
    from service.services.locking import bound_writers_per_table, lock_table, writers_waiting

    table = api.table()
    answers: list[Any] = []
    with app.app_context():
        bound_writers_per_table(1)
        try:
            lock_table(table["id"])  # this transaction holds the table's one place
            # In a thread of its own: were it to wait for the lock, this test would not hang.
            writer = threading.Thread(target=lambda: answers.append(api.record(table, SOLO)))
            writer.start()
            writer.join(timeout=30)
            assert answers, "the hand waited for the table's lock"
            assert writers_waiting(table["id"]) == 1
        finally:
            db.session.rollback()
            bound_writers_per_table(int(app.config["TABLE_WRITERS_PER_WORKER"]))
    (answer,) = answers
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    assert writers_waiting(table["id"]) == 0
    assert api.record(table, SOLO).status_code == 201
    assert writers_waiting(table["id"]) == 0
