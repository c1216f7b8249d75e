"""A revoked token is dead at once: two real gunicorn instances (two workers each) on one
database, phones polling and recording through both, the token revoked through one of them;
after the answer that confirms it, a fixed number of requests on fresh connections through
both instances, and not one of them is accepted."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.support import Gunicorn

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
AFTER = 24  # requests per instance after the confirming answer
LOAD_THREADS = 4
# The failed-token limit would answer some refusals 429; they are counted, not limited, here.
NO_LIMITS = {"SOLO_RATELIMIT_ENABLED": "false"}


@pytest.fixture(scope="module")
def servers(app: Any) -> Iterator[list[Gunicorn]]:
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with (
        Gunicorn(url, workers=2, **NO_LIMITS) as one,
        Gunicorn(url, workers=2, **NO_LIMITS) as other,
    ):
        yield [one, other]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _request(base: str, kind: str, table: dict[str, Any], token: str, n: int) -> Any:
    """One request on a fresh connection (no session): a poll with If-None-Match, a plain
    read, or a hand (table tokens only)."""
    path = f"{base}/api/v1/tables/{table['id']}"
    headers = {**_auth(token), "Connection": "close"}
    if kind == "table" and n % 3 == 2:
        return requests.post(f"{path}/hands", json=SOLO, headers=headers, timeout=30)
    if n % 3 == 0:
        headers["If-None-Match"] = f'"{table["version"]}"'
    return requests.get(path, headers=headers, timeout=30)


class Load:
    """Threads sending requests with the token through both instances until stopped."""

    def __init__(self, servers: list[Gunicorn], kind: str, table: dict[str, Any], token: str):
        self.stop = threading.Event()
        self.accepted = 0
        self.stored = 0  # hands answered 201
        self._count = threading.Lock()
        self.threads = [
            threading.Thread(target=self._run, args=(servers[i % 2].url, kind, table, token))
            for i in range(LOAD_THREADS)
        ]

    def _run(self, base: str, kind: str, table: dict[str, Any], token: str) -> None:
        n = 0
        while not self.stop.is_set():
            status = _request(base, kind, table, token, n).status_code
            with self._count:
                self.accepted += status < 400
                self.stored += status == 201
            n += 1

    def __enter__(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def _hands(base: str, table: dict[str, Any]) -> int:
    answer = requests.get(
        f"{base}/api/v1/tables/{table['id']}", headers=_auth(table["admin_token"]), timeout=30
    )
    return int(answer.json()["hands_played"])


@pytest.mark.parametrize("kind", ["table", "viewer", "admin"])
def test_a_revoked_token_is_refused_by_every_instance_after_the_answer(
    servers: list[Gunicorn], client: Any, api: Any, kind: str
) -> None:
    table = api.table()
    club = table["club_id"]
    admin = table["admin_token"]
    if kind == "viewer":
        made = client.post(
            f"/api/v1/clubs/{club}/viewer-tokens", json={"name": "bot"}, headers=api.auth(admin)
        )
        token, token_id = made.json["token"], made.json["id"]
    else:
        token = table["table_token"] if kind == "table" else admin
    one, other = servers
    with Load(servers, kind, table, token) as load:
        # The load is on: every worker has seen the token accepted.
        while load.accepted < 40:
            threading.Event().wait(0.05)
        if kind == "table":
            confirmed = requests.delete(
                f"{one.url}/api/v1/tables/{table['id']}/token", headers=_auth(admin), timeout=30
            )
            assert confirmed.status_code == 204
        elif kind == "viewer":
            confirmed = requests.delete(
                f"{one.url}/api/v1/clubs/{club}/viewer-tokens/{token_id}",
                headers=_auth(admin),
                timeout=30,
            )
            assert confirmed.status_code == 204
        else:
            confirmed = requests.post(
                f"{one.url}/api/v1/clubs/{club}/admin-token", headers=_auth(admin), timeout=30
            )
            assert confirmed.status_code == 201
            table = {**table, "admin_token": confirmed.json()["token"]}
        answers = [
            _request(server.url, kind, table, token, n) for n in range(AFTER) for server in servers
        ]
    accepted = [a.status_code for a in answers if a.status_code < 400]
    assert accepted == []
    assert {a.status_code for a in answers} == {401}
    assert {a.json()["type"] for a in answers} == {"urn:solo:problem:token-revoked"}
    # Nothing stored with the revoked token after the answer: once the load has stopped (its
    # requests in flight at the revocation finished), every hand the table holds is one the
    # load's phones were answered 201 for, none of the answers above. (Counting the hands
    # while the load still ran raced those in-flight requests.)
    assert _hands(other.url, table) == load.stored


def test_an_old_admin_token_cannot_take_the_club_back(servers: list[Gunicorn], api: Any) -> None:
    club = api.club()
    one, other = servers
    rotate = f"/api/v1/clubs/{club['id']}/admin-token"
    # The token in use on every worker of both instances (the owner's phones, the thief).
    for n in range(AFTER):
        used = requests.get(
            f"{servers[n % 2].url}/api/v1/clubs/{club['id']}",
            headers={**_auth(club["admin_token"]), "Connection": "close"},
            timeout=30,
        )
        assert used.status_code == 200
    owner = requests.post(one.url + rotate, headers=_auth(club["admin_token"]), timeout=30)
    assert owner.status_code == 201
    new = owner.json()["token"]
    for n in range(AFTER):
        thief = requests.post(
            servers[n % 2].url + rotate,
            headers={**_auth(club["admin_token"]), "Connection": "close"},
            timeout=30,
        )
        assert thief.status_code == 401
        assert thief.json()["type"] == "urn:solo:problem:token-revoked"
    for server in servers:
        mine = requests.get(
            f"{server.url}/api/v1/clubs/{club['id']}", headers=_auth(new), timeout=30
        )
        assert mine.status_code == 200
