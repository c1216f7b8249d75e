"""The change feed reads on its own connection, never on one of the engine's pool. A pool
disposed while a read of the feed held one of its connections (the tests dispose their engines
after each test) took that connection back once the read was done, and kept it, open and
unreachable, until the garbage collector dropped it: psycopg warned of a connection deleted
while still open, in whichever test the collector ran (twice in one CI run, docs/testing.md)."""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import event, select

from service.extensions import db
from service.persistence.table_keeping import TokenRow
from service.services.live_feed import feed_for
from tests.api.webhook_receiver import wait_for

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
# The feed's subscribers stay attached to it (one feed per engine, for the session): these are
# attached once (attach adds a subscriber only once).
PUBLISHED: list[str] = []
REVOKED: list[str] = []


def _published(club_id: str, *_rest: Any) -> None:
    PUBLISHED.append(club_id)


def _revoked(token_id: str) -> None:
    REVOKED.append(token_id)


def test_the_change_feed_returns_no_connection_to_the_pool(app, api):
    """Its own connection it takes out of the pool for good (``detached_connection``)."""
    returners: list[str] = []

    def checked_in(*_args: Any) -> None:
        returners.append(threading.current_thread().name)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "checkin", checked_in)
    try:
        feed = feed_for(engine)
        feed.attach(_published, _revoked)
        assert feed.ready(30)
        club = api.club()
        table = api.table(club=club)
        api.record(table, SOLO)
        with app.app_context():
            old = db.session.scalar(select(TokenRow.id).where(TokenRow.table_id == table["id"]))
            db.session.remove()
        renewed = api.client.post(
            f"/api/v1/tables/{table['id']}/token", headers=api.auth(club["admin_token"])
        )
        assert renewed.status_code == 201, renewed.json
        wait_for(lambda: club["id"] in PUBLISHED, timeout=30, what="the club's events published")
        wait_for(lambda: old in REVOKED, timeout=30, what="the old token told revoked")
    finally:
        event.remove(engine, "checkin", checked_in)
    assert "change-feed" not in returners
    assert returners  # the requests gave theirs back: the listener listened
