"""Two phones racing for the same hand, against real gunicorn with two workers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
import requests

from tests.databases import ON_POSTGRES
from tests.support import Gunicorn

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
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


@pytest.fixture
def table(server, client, api):
    """A table made through the test client on the database gunicorn serves."""
    return api.table()


def _race(server, table, body, headers):
    barrier = Barrier(RACERS)
    auth = {"Authorization": f"Bearer {table['table_token']}"}

    def post(_: int) -> requests.Response:
        barrier.wait()
        return requests.post(
            f"{server.url}/api/v1/tables/{table['id']}/hands",
            json=body,
            headers={**auth, **headers},
            timeout=60,
        )

    with ThreadPoolExecutor(RACERS) as pool:
        return list(pool.map(post, range(RACERS)))


def _hands(server, table):
    return requests.get(
        f"{server.url}/api/v1/tables/{table['id']}/hands",
        headers={"Authorization": f"Bearer {table['table_token']}"},
        timeout=10,
    ).json()


def test_racing_for_the_same_expected_number_records_exactly_one_hand(server, table):
    responses = _race(server, table, {**SOLO, "expected_number": 1}, {})
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(201) == 1, statuses
    assert set(statuses) == {201, 409}
    assert len(_hands(server, table)) == 1


def test_racing_with_the_same_if_match_records_exactly_one_hand(server, table):
    responses = _race(server, table, SOLO, {"If-Match": f'"{table["version"]}"'})
    statuses = sorted(r.status_code for r in responses)
    assert statuses.count(201) == 1, statuses
    assert set(statuses) == {201, 412}
    assert len(_hands(server, table)) == 1


def test_an_idempotency_key_retried_in_parallel_records_one_hand(server, table):
    responses = _race(server, table, SOLO, {"Idempotency-Key": "retry-me"})
    assert {r.status_code for r in responses} == {201}
    assert len({r.text for r in responses}) == 1
    assert len(_hands(server, table)) == 1


def test_appending_without_conditions_numbers_every_hand_once(server, table):
    responses = _race(server, table, SOLO, {})
    assert {r.status_code for r in responses} == {201}
    assert sorted(r.json()["number"] for r in responses) == list(range(1, RACERS + 1))
    shown = requests.get(
        f"{server.url}/api/v1/tables/{table['id']}",
        headers={"Authorization": f"Bearer {table['table_token']}"},
        timeout=10,
    ).json()
    assert sum(s["balance"] for s in shown["seats"]) + shown["pool"] == 0
    assert ON_POSTGRES or shown["hands_played"] == RACERS
