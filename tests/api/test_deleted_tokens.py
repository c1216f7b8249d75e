"""A token deleted with its table or its club (the cascade of an operator's deletion, or by hand)
is told by the change feed as a revoked token is, on both databases: the stream hub then ends
every stream opened with it or its tickets (tests/api/test_stream_revocation.py shows that on
two real instances). The trigger on ``tokens`` notes it in ``deleted_tokens`` (migration 0019),
where SQLite's feeds read it, and PostgreSQL's trigger also announces it in the deleting
transaction."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import delete, insert, select

from service.extensions import db
from service.persistence.columns import utcnow
from service.persistence.table_keeping import ClubRow, DeletedTokenRow, TableRow, TokenRow
from service.services.live_feed import ChangeFeed, feed_for
from tests.api.webhook_receiver import wait_for

# The feed's revocation subscribers stay attached to it (one feed per engine, for the session):
# these two are attached once (attach adds a subscriber only once) and write to one list.
HEARD: list[str] = []


def _heard(token_id: str) -> None:
    HEARD.append(token_id)


def _published(*_event: Any) -> None:
    pass


@pytest.fixture
def feed(app: Flask, client: Any) -> ChangeFeed:
    with app.app_context():
        listening = feed_for(db.engine)
        listening.attach(_published, _heard)
        assert listening.ready(30)
    HEARD.clear()
    return listening


def _token_ids(app: Flask, *where: Any) -> set[str]:
    with app.app_context():
        found = {str(i) for i in db.session.scalars(select(TokenRow.id).where(*where))}
        db.session.remove()
    return found


def _delete(app: Flask, *statements: Any) -> None:
    """A deletion as an operator would run it: one transaction of its own, then committed."""
    with app.app_context(), db.engine.begin() as connection:
        for statement in statements:
            connection.execute(statement)


def _club_deleted(club_id: str) -> tuple[Any, Any]:
    """A club's deletion: its tables first (on PostgreSQL a seat's player, deleted by the club's
    cascade, is checked before the tables' cascade deletes the seat), then the club."""
    return (
        delete(TableRow).where(TableRow.club_id == club_id),
        delete(ClubRow).where(ClubRow.id == club_id),
    )


def test_deleting_a_table_tells_its_token_revoked_and_no_other(app, api, feed):
    club = api.club()
    table, other = api.table(club=club), api.table(club=club)
    ended = _token_ids(app, TokenRow.table_id == table["id"])
    assert len(ended) == 1
    _delete(app, delete(TableRow).where(TableRow.id == table["id"]))
    wait_for(lambda: ended <= set(HEARD), timeout=30, what="the table's token told revoked")
    kept = _token_ids(app, TokenRow.club_id == club["id"])
    assert kept and not kept & set(HEARD)  # the club's admin token, the other table's
    assert api.get_table(other)["id"] == other["id"]


def test_deleting_a_club_tells_every_token_of_it_revoked(app, api, feed):
    club = api.club()
    api.table(club=club)
    api.table(club=club)
    made = api.client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "Noticeboard"},
        headers=api.auth(club["admin_token"]),
    )
    assert made.status_code == 201, made.json
    ended = _token_ids(app, TokenRow.club_id == club["id"])
    assert len(ended) == 4  # the admin's, two tables', the read-only one
    _delete(app, *_club_deleted(club["id"]))
    wait_for(lambda: ended <= set(HEARD), timeout=30, what="the club's tokens told revoked")
    with app.app_context():
        noted = set(db.session.scalars(select(DeletedTokenRow.token_id)))
        db.session.remove()
    assert noted == ended


def test_a_deletion_rolled_back_tells_nothing(app, api, feed):
    table = api.table()
    with app.app_context(), db.engine.connect() as connection:
        connection.execute(delete(TableRow).where(TableRow.id == table["id"]))
        connection.rollback()
    # A token deleted after it, and told: the rolled-back one was not told meanwhile.
    later = api.table()
    ended = _token_ids(app, TokenRow.table_id == later["id"])
    _delete(app, delete(TableRow).where(TableRow.id == later["id"]))
    wait_for(lambda: ended <= set(HEARD), timeout=30, what="the later token told revoked")
    assert not _token_ids(app, TokenRow.table_id == table["id"]) & set(HEARD)
    assert api.get_table(table)["id"] == table["id"]


def test_the_notes_of_deleted_tokens_are_kept_a_day(app, api, client):
    table = api.table()
    ended = _token_ids(app, TokenRow.table_id == table["id"])
    stale = utcnow() - timedelta(days=1, minutes=1)
    _delete(app, insert(DeletedTokenRow).values(token_id="x" * 32, deleted_at=stale))
    _delete(app, delete(TableRow).where(TableRow.id == table["id"]))
    with app.app_context():
        noted = set(db.session.scalars(select(DeletedTokenRow.token_id)))
        db.session.remove()
    assert noted == ended  # the day-old note dropped as the new one was written
