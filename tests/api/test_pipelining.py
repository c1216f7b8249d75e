"""Writes sent together (services/pipelining.py): what recording a hand pipelines, what a
pipelined block refuses, and how a write the database refuses inside one is reported."""

from __future__ import annotations

import os
from typing import Any

import pytest
from sqlalchemy import event, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError

from service.extensions import db
from service.persistence.table_keeping import (
    ClubRow,
    HandRevisionRow,
    HandRow,
    IdempotencyKeyRow,
    SeatRow,
    TableRow,
    TransferRow,
)
from service.services.pipelining import PIPELINED, ReadInPipeline, _writes_only, pipelined
from tests.support import make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def _statements_during(app: Any, action: Any) -> list[tuple[str, str, bool]]:
    """(verb, table, pipelined) of every statement the app sends while ``action`` runs."""
    seen: list[tuple[str, str, bool]] = []

    def note(connection: Any, _cursor: Any, statement: str, *_: Any) -> None:
        words = statement.split()
        verb = words[0].upper()
        table = {"INSERT": words[2] if len(words) > 2 else "", "UPDATE": words[1]}.get(verb, "")
        seen.append((verb, table, bool(connection.info.get(PIPELINED))))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return seen


def test_recording_a_hand_sends_every_write_pipelined_and_nothing_else(app, api):
    table = api.table()
    seen = _statements_during(app, lambda: api.record(table, SOLO, **{"Idempotency-Key": "k1"}))
    writes = {(verb, name) for verb, name, _ in seen if verb in ("INSERT", "UPDATE")}
    assert writes == {
        ("INSERT", "hands"),
        ("INSERT", "hand_revisions"),
        ("INSERT", "transfers"),
        ("INSERT", "player_careers"),
        ("INSERT", "player_career_contracts"),
        ("UPDATE", "seats"),
        ("UPDATE", "score_tables"),
        ("INSERT", "idempotency_keys"),
        ("INSERT", "change_cursors"),  # the outbox: the club's next event number
        ("INSERT", "change_events"),  # and the event
    }
    for verb, name, was_pipelined in seen:
        assert was_pipelined == (verb in ("INSERT", "UPDATE")), (verb, name)


def test_a_write_refused_inside_the_pipeline_is_a_409_and_stores_nothing(app, api, client):
    table = api.table()
    assert api.record(table, SOLO).status_code == 201
    before = api.get_table(table)
    with app.app_context():  # the counter falls behind the hands: number 1 is taken again
        db.session.execute(
            update(TableRow)
            .where(TableRow.id == table["id"])
            .values(hands_recorded=0, hands_played=0)
        )
        db.session.commit()

    response = api.record(table, SOLO, **{"Idempotency-Key": "k2"})

    assert response.status_code == 409, response.json
    assert response.json["detail"] == "Hand 1 was recorded by someone else."
    after = api.get_table(table)
    assert (after["version"], after["seats"], after["pool"]) == (
        before["version"],
        before["seats"],
        before["pool"],
    )
    with app.app_context():
        counts = [
            db.session.scalar(select(func.count()).select_from(model))
            for model in (HandRow, HandRevisionRow, IdempotencyKeyRow)
        ]
        transfers = db.session.scalar(select(func.count()).select_from(TransferRow))
    assert counts == [1, 1, 0]
    assert transfers == len(
        api.client.get(
            f"/api/v1/tables/{table['id']}/ledger", headers=api.auth(table["table_token"])
        ).json["transfers"]
    )


@pytest.mark.parametrize(
    "statement",
    [
        select(func.count()).select_from(SeatRow),
        text("SELECT 1"),
        insert(ClubRow).values(id="c", name="n").returning(ClubRow.id),
    ],
    ids=["select", "text", "returning"],
)
def test_a_statement_that_returns_rows_is_refused_in_a_pipelined_block(app, client, statement):
    with app.app_context():
        connection = db.session.connection()
        with pytest.raises(ReadInPipeline), pipelined(connection):
            connection.execute(statement)
        assert PIPELINED not in connection.info
        db.session.rollback()


def test_writes_in_a_pipelined_block_are_done_and_a_refused_one_raises_integrity_error(app, client):
    rows = [{"id": f"club{n}", "name": f"Club {n}"} for n in range(3)]
    with app.app_context():
        connection = db.session.connection()
        with pipelined(connection):
            connection.execute(insert(ClubRow).inline(), rows)
        db.session.commit()
        assert db.session.scalar(select(func.count()).select_from(ClubRow)) == 3

        connection = db.session.connection()
        with pytest.raises(IntegrityError), pipelined(connection):
            connection.execute(insert(ClubRow).inline(), rows[0])  # the id is taken
        db.session.rollback()
        assert db.session.scalar(select(func.count()).select_from(ClubRow)) == 3


def test_the_guard_watches_a_testing_app_only(app, tmp_path):
    served = make_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'served.db'}"})
    for each, guarded in ((app, True), (served, False)):
        with each.app_context():
            assert event.contains(db.engine, "before_cursor_execute", _writes_only) == guarded


@pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="PostgreSQL's pipeline")
def test_a_connection_lost_in_a_pipelined_block_raises_the_database_error(app, client):
    with app.app_context():
        connection = db.session.connection()
        backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with db.engine.connect() as other:
            other.exec_driver_sql(f"SELECT pg_terminate_backend({int(backend)})")
        info = connection.info
        with pytest.raises(OperationalError), pipelined(connection):
            connection.execute(insert(ClubRow).inline(), {"id": "c", "name": "n"})
        assert PIPELINED not in info
        db.session.rollback()
        assert db.session.scalar(select(func.count()).select_from(ClubRow)) == 0
