"""Requests with one Idempotency-Key sent at once, against real gunicorn with two workers: one
effect, and every racer gets the first answer (or, past the wait, a 409 in flight)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from typing import Any

import pytest
import requests

from tests.support import Gunicorn

pytestmark = pytest.mark.slow
RACERS = 8


@pytest.fixture(scope="module")
def server(app):
    # The race is the database's to settle: every racer may wait for the table's lock (a
    # worker lets two by default and answers more 503 at once: services/locking.py).
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
        workers=2,
        SOLO_TABLE_WRITERS_PER_WORKER=str(RACERS),
    ) as gunicorn:
        yield gunicorn


def _race(url: str, body: Any, headers: dict[str, str]) -> list[requests.Response]:
    barrier = Barrier(RACERS)

    def post(_: int) -> requests.Response:
        barrier.wait()
        return requests.post(url, json=body, headers=headers, timeout=60)

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(post, range(RACERS)))


def _settled(responses: list[requests.Response]) -> list[requests.Response]:
    """The racers' answers: one first answer, the others its replays (or 409 in flight)."""
    statuses = [r.status_code for r in responses]
    assert set(statuses) <= {201, 409}, statuses
    created = [r for r in responses if r.status_code == 201]
    firsts = [r for r in created if "Idempotent-Replayed" not in r.headers]
    assert len(firsts) == 1, statuses
    assert all(r.json() == firsts[0].json() for r in created)
    for r in responses:
        if r.status_code == 409:
            assert r.json()["type"] == "urn:solo:problem:idempotency-key-in-flight"
    return created


def test_one_key_at_once_opens_one_table(server, api):
    club = api.club()
    seats = api.players(club, 4)
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    body = {
        "club_id": club["id"],
        "name": "T",
        "variant": "american",
        "seats": seats,
        "first_dealer": 0,
    }
    created = _settled(
        _race(f"{server.url}/api/v1/tables", body, {**admin, "Idempotency-Key": "race-open"})
    )
    tables = requests.get(
        f"{server.url}/api/v1/clubs/{club['id']}/tables", headers=admin, timeout=10
    ).json()
    assert [t["id"] for t in tables] == [created[0].json()["id"]]


def test_one_key_at_once_makes_one_club(server, app):
    created = _settled(
        _race(f"{server.url}/api/v1/clubs", {"name": "Racing"}, {"Idempotency-Key": "race-club"})
    )
    from sqlalchemy import func, select

    from service.extensions import db
    from service.persistence.table_keeping import ClubRow

    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(ClubRow)).scalar() == 1
    token = created[0].json()["admin_token"]
    club = requests.get(
        f"{server.url}/api/v1/clubs/{created[0].json()['id']}",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert club.status_code == 200
