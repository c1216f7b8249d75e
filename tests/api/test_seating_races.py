"""Re-seatings racing with hands being recorded, against real gunicorn with two workers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
import requests

from tests.api.test_races import server  # noqa: F401 - the module's gunicorn fixture

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
ROUNDS = 6


def test_hands_recorded_while_the_table_is_reseated_are_all_kept(server, api):  # noqa: F811
    """A phone records while another re-seats: every request succeeds (a recorder that waited
    for the re-seating's lock reads the seats it left), and the sheet adds up."""
    table = api.table()
    players = [s["player_id"] for s in table["seats"]]
    auth = {"Authorization": f"Bearer {table['table_token']}"}
    url = f"{server.url}/api/v1/tables/{table['id']}"
    barrier = Barrier(2)

    def record(_: int) -> list[int]:
        barrier.wait()
        return [
            requests.post(f"{url}/hands", json=SOLO, headers=auth, timeout=60).status_code
            for _ in range(ROUNDS)
        ]

    def reseat(_: int) -> list[int]:
        barrier.wait()
        statuses = []
        for round_ in range(ROUNDS):
            order = players if round_ % 2 else [players[1], players[0], *players[2:]]
            statuses.append(
                requests.put(
                    f"{url}/seating",
                    json={"seats": order, "first_dealer": round_ % 4},
                    headers=auth,
                    timeout=60,
                ).status_code
            )
        return statuses

    with ThreadPoolExecutor(2) as pool:
        recorded, reseated = pool.submit(record, 0), pool.submit(reseat, 0)
        assert recorded.result() == [201] * ROUNDS
        assert reseated.result() == [200] * ROUNDS
    shown = requests.get(url, headers=auth, timeout=10).json()
    assert shown["hands_recorded"] == ROUNDS
    assert sum(s["balance"] for s in shown["seats"]) + shown["pool"] == 0
