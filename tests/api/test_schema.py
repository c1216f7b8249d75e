"""The schema: migrations match the models, and the database refuses malformed rows."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, text
from sqlalchemy.exc import IntegrityError

from service.extensions import db
from service.persistence.table_keeping import HandRow, SeatRow, TransferRow

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


def test_migrations_match_the_models(app):
    import flask_migrate

    with app.app_context():
        flask_migrate.check()  # raises when autogenerate would find a difference


@pytest.fixture
def recorded(api):
    table = api.table()
    api.record(table, SOLO)
    return table


def _refused(app, statement) -> None:
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(statement)


def test_the_database_refuses_a_transfer_of_no_chips(app, recorded):
    with app.app_context():
        hand_id = db.session.scalar(text("SELECT id FROM hands LIMIT 1"))
        db.session.remove()
    _refused(
        app,
        insert(TransferRow).values(
            hand_id=hand_id, position=99, from_seat=0, to_seat=1, chips=0, reason="game"
        ),
    )
    _refused(
        app,
        insert(TransferRow).values(
            hand_id=hand_id, position=98, from_seat=1, to_seat=1, chips=3, reason="game"
        ),
    )
    _refused(
        app,
        insert(TransferRow).values(
            hand_id=hand_id, position=97, from_seat=None, to_seat=None, chips=3, reason="stake"
        ),
    )


def test_the_database_refuses_a_second_hand_with_the_same_number(app, recorded):
    with app.app_context():
        row = db.session.execute(text("SELECT table_id, dealer FROM hands LIMIT 1")).one()
        db.session.remove()
    _refused(
        app,
        insert(HandRow).values(
            table_id=row.table_id,
            number=1,
            status="recorded",
            revision=1,
            dealer=0,
            record={},
            state_before={},
            state_after={},
            settlement={},
        ),
    )


def test_the_database_refuses_a_seat_outside_the_table(app, recorded):
    with app.app_context():
        row = db.session.execute(text("SELECT table_id, player_id FROM seats LIMIT 1")).one()
        db.session.remove()
    _refused(
        app,
        insert(SeatRow).values(table_id=row.table_id, seat=7, player_id=row.player_id, balance=0),
    )
