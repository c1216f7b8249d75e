"""Club nights under concurrent writes, against real gunicorn with two workers: draws racing
each other, and a draw racing the hands of the tables it closes."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
import requests

from tests.api.test_nights import Night
from tests.api.test_races import server  # noqa: F401 - the module's gunicorn fixture

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
RACERS = 4


def test_draws_sent_at_once_draw_one_series_each_and_never_fail(server, api, client):  # noqa: F811
    club = Night(api, client)
    night = club.started(players=club.players[:8], series=RACERS)
    url = f"{server.url}/api/v1/nights/{night['id']}/series"
    barrier = Barrier(RACERS)

    def draw(seed: int) -> requests.Response:
        barrier.wait()
        return requests.post(url, json={"seed": seed}, headers=club.admin, timeout=60)

    with ThreadPoolExecutor(RACERS) as pool:
        answers = list(pool.map(draw, range(RACERS)))
    assert [a.status_code for a in answers] == [201] * RACERS, [a.text for a in answers]
    assert sorted(a.json()["number"] for a in answers) == list(range(1, RACERS + 1))
    shown = requests.get(
        f"{server.url}/api/v1/nights/{night['id']}", headers=club.admin, timeout=10
    ).json()
    series = shown["series"]
    assert [s["number"] for s in series] == list(range(1, RACERS + 1))
    # Every series but the last was closed by the next draw; each seated everyone once.
    for drawn in series:
        assert sorted(p["player_id"] for t in drawn["tables"] for p in t["seats"]) == sorted(
            club.players[:8]
        )
        assert {t["status"] for t in drawn["tables"]} == (
            {"open"} if drawn is series[-1] else {"closed"}
        )


def test_hands_racing_the_draw_that_closes_their_table_are_kept_or_refused(
    server,  # noqa: F811
    api,
    client,
):
    """A table's phone records while the admin draws the next series (which closes the
    table): every hand is either kept (201, before the closing) or refused as closed (409),
    and the night's standings add up the hands kept."""
    club = Night(api, client)
    night = club.started(players=club.players[:4], series=2)
    first = club.drawn(night, seed=1)
    table_id = first["tables"][0]["table_id"]
    barrier = Barrier(2)

    def record(_: int) -> list[int]:
        barrier.wait()
        return [
            requests.post(
                f"{server.url}/api/v1/tables/{table_id}/hands",
                json=SOLO,
                headers=club.admin,
                timeout=60,
            ).status_code
            for _ in range(6)
        ]

    def draw(_: int) -> int:
        barrier.wait()
        return requests.post(
            f"{server.url}/api/v1/nights/{night['id']}/series",
            json={"seed": 2},
            headers=club.admin,
            timeout=60,
        ).status_code

    with ThreadPoolExecutor(2) as pool:
        recorded, drawn = pool.submit(record, 0), pool.submit(draw, 0)
        statuses = recorded.result()
        assert drawn.result() == 201
    kept = statuses.count(201)
    assert set(statuses) <= {201, 409}
    # Once refused, always refused: the table closed once.
    assert statuses == [201] * kept + [409] * (len(statuses) - kept)
    table = requests.get(
        f"{server.url}/api/v1/tables/{table_id}", headers=club.admin, timeout=10
    ).json()
    assert table["status"] == "closed" and table["hands_played"] == kept
    standings = requests.get(
        f"{server.url}/api/v1/nights/{night['id']}/standings", headers=club.admin, timeout=10
    ).json()["standings"]
    by_player = {line["player_id"]: line for line in standings}
    for seat in table["seats"]:
        assert by_player[seat["player_id"]]["series"][0]["result"] == seat["balance"]
