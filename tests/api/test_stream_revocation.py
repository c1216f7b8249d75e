"""An open stream ends with its token: renewing a table's token, rotating a club's admin token,
deleting a read-only (or a program's) token, or deleting the token's table or club in the
database ends every stream opened with it or with its tickets, on every worker of both instances
(two real gunicorn instances, two workers each, on one database: SQLite's file or, with
``TEST_DATABASE_URL``, PostgreSQL), with a last ``revoked`` event and no event committed after
the answer that confirmed it."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from tests.api.sse import Event, Stream
from tests.support import Gunicorn

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
# How long a revoked stream may take to end: generous (the service promises a second).
ENDS_WITHIN = 15.0
STARTS_WITHIN = 120.0  # (a busy machine starts two instances slowly)


@pytest.fixture(scope="module")
def servers(app: Any) -> Iterator[tuple[Gunicorn, Gunicorn]]:
    """Two instances on one database, two workers each."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    with (
        Gunicorn(url, workers=2, ready_timeout=STARTS_WITHIN) as first,
        Gunicorn(url, workers=2, ready_timeout=STARTS_WITHIN) as second,
    ):
        yield first, second


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(server: Gunicorn, table: dict[str, Any], token: str) -> None:
    answer = requests.post(
        f"{server.url}/api/v1/tables/{table['id']}/hands",
        json=SOLO,
        headers=bearer(token),
        timeout=30,
    )
    assert answer.status_code == 201, answer.text


def with_token(server: Gunicorn, path: str, token: str) -> Stream:
    stream = Stream(f"{server.url}{path}", bearer(token))
    assert stream.response.status_code == 200, stream.response.text
    return stream


def with_ticket(server: Gunicorn, path: str, token: str) -> Stream:
    minted = requests.post(f"{server.url}{path}/tickets", headers=bearer(token), timeout=10)
    assert minted.status_code == 201, minted.text
    stream = Stream(server.url + minted.json()["url"])
    assert stream.response.status_code == 200, stream.response.text
    return stream


def opened(streams: list[Stream]) -> list[Stream]:
    for stream in streams:
        first = stream.next()
        assert first is not None and first.event == "ready", first
    return streams


def rest_of(stream: Stream) -> list[Event]:
    """Every event the stream still sends, until it ends (within ``ENDS_WITHIN``)."""
    found: list[Event] = []
    deadline = time.monotonic() + ENDS_WITHIN
    while True:
        left = deadline - time.monotonic()
        try:
            event = stream.next(timeout=max(left, 0.01))
        except queue.Empty:
            raise AssertionError(f"the stream did not end; it sent {found}") from None
        if event is None:
            return found
        found.append(event)


def assert_ended_revoked(streams: list[Stream]) -> None:
    for stream in streams:
        events = rest_of(stream)
        assert [e.event for e in events] == ["revoked"], events
        assert events[0].json() == {"reason": "token-revoked"}
        stream.close()


def test_renewing_a_table_token_ends_its_streams_and_its_tickets_everywhere(
    servers: tuple[Gunicorn, Gunicorn], api: Any
) -> None:
    first, second = servers
    table = api.table()
    path = f"/api/v1/tables/{table['id']}/events"
    old = table["table_token"]
    streams = opened(
        [
            with_token(first, path, old),
            with_ticket(first, path, old),
            with_token(second, path, old),
            with_ticket(second, path, old),
        ]
    )
    record(first, table, old)  # they follow the table until then
    for stream in streams:
        assert stream.changes(1)[0]["data"]["hand"] == 1
    renewed = requests.post(
        f"{second.url}/api/v1/tables/{table['id']}/token",
        headers=bearer(table["admin_token"]),
        timeout=10,
    )
    assert renewed.status_code == 201, renewed.text
    new = renewed.json()["table_token"]
    watching = opened([with_token(first, path, new), with_ticket(second, path, new)])
    record(second, table, new)  # committed after the answer: no old stream gets it
    assert_ended_revoked(streams)
    for stream in watching:  # the new token's streams go on
        assert stream.changes(1)[0]["data"]["hand"] == 2
        stream.close()


def test_rotating_the_admin_token_ends_the_club_streams_it_opened(
    servers: tuple[Gunicorn, Gunicorn], api: Any
) -> None:
    first, second = servers
    club = api.club()
    table = api.table(club=club)
    path = f"/api/v1/clubs/{club['id']}/events"
    old = club["admin_token"]
    streams = opened(
        [
            with_token(first, path, old),
            with_ticket(second, path, old),
            with_token(second, f"/api/v1/tables/{table['id']}/events", old),
        ]
    )
    rotated = requests.post(
        f"{first.url}/api/v1/clubs/{club['id']}/admin-token", headers=bearer(old), timeout=10
    )
    assert rotated.status_code == 201, rotated.text
    watching = opened([with_token(second, path, rotated.json()["token"])])
    record(first, table, table["table_token"])
    assert_ended_revoked(streams)
    assert watching[0].changes(1)[0]["data"]["hand"] == 1
    watching[0].close()


@pytest.mark.parametrize("kind", ["viewer", "program"])
def test_deleting_a_read_only_token_ends_its_table_and_club_streams(
    servers: tuple[Gunicorn, Gunicorn], api: Any, kind: str
) -> None:
    first, second = servers
    club = api.club()
    table = api.table(club=club)
    admin = bearer(club["admin_token"])
    made = requests.post(
        f"{first.url}/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "Noticeboard", "kind": kind},
        headers=admin,
        timeout=10,
    )
    assert made.status_code == 201, made.text
    viewer = made.json()["token"]
    club_path = f"/api/v1/clubs/{club['id']}/events"
    table_path = f"/api/v1/tables/{table['id']}/events"
    streams = opened(
        [
            with_token(first, club_path, viewer),
            with_ticket(second, club_path, viewer),
            with_token(second, table_path, viewer),
            with_ticket(first, table_path, viewer),
        ]
    )
    deleted = requests.delete(
        f"{second.url}/api/v1/clubs/{club['id']}/viewer-tokens/{made.json()['id']}",
        headers=admin,
        timeout=10,
    )
    assert deleted.status_code == 204, deleted.text
    record(first, table, table["table_token"])
    assert_ended_revoked(streams)


def _delete_in_the_database(app: Any, *statements: Any) -> None:
    """An operator's deletion, straight in the database the instances share, in one
    transaction: the tokens go by the cascade, and no answer of the service confirms it."""
    from service.extensions import db

    with app.app_context(), db.engine.begin() as connection:
        for statement in statements:
            connection.execute(statement)


def test_deleting_a_table_then_its_club_in_the_database_ends_their_tokens_streams(
    servers: tuple[Gunicorn, Gunicorn], api: Any, app: Any
) -> None:
    from sqlalchemy import delete

    from service.persistence.table_keeping import ClubRow, TableRow

    first, second = servers
    club = api.club()
    table, other = api.table(club=club), api.table(club=club)
    table_path = f"/api/v1/tables/{table['id']}/events"
    club_path = f"/api/v1/clubs/{club['id']}/events"
    of_the_table = opened(
        [
            with_token(first, table_path, table["table_token"]),
            with_ticket(second, table_path, table["table_token"]),
        ]
    )
    of_the_club = opened(
        [
            with_token(second, club_path, club["admin_token"]),
            with_ticket(first, club_path, club["admin_token"]),
            with_ticket(second, f"/api/v1/tables/{other['id']}/events", other["table_token"]),
        ]
    )
    _delete_in_the_database(app, delete(TableRow).where(TableRow.id == table["id"]))
    assert_ended_revoked(of_the_table)
    record(first, other, other["table_token"])  # the club's streams go on meanwhile
    for stream in of_the_club:
        assert stream.changes(1)[0]["data"]["hand"] == 1
    _delete_in_the_database(  # its tables first: on PostgreSQL the seats' players would stay
        app,
        delete(TableRow).where(TableRow.club_id == club["id"]),
        delete(ClubRow).where(ClubRow.id == club["id"]),
    )
    assert_ended_revoked(of_the_club)


def test_a_ticket_opens_one_stream_once(servers: tuple[Gunicorn, Gunicorn], api: Any) -> None:
    """Also on another instance: a ticket that reached a proxy's log opens nothing."""
    first, second = servers
    table = api.table()
    path = f"/api/v1/tables/{table['id']}/events"
    minted = requests.post(
        f"{first.url}{path}/tickets", headers=bearer(table["table_token"]), timeout=10
    )
    url = minted.json()["url"]
    stream = opened([Stream(first.url + url)])[0]
    for server in (first, second):
        again = requests.get(server.url + url, timeout=10)
        assert again.status_code == 401, again.text
        problem = again.json()
        assert problem["type"].endswith("stream-ticket-invalid")
        assert "once" in problem["detail"]
    stream.close()


class Hands:
    """Hands recorded on the club's tables through both instances until stopped."""

    def __init__(self, servers: tuple[Gunicorn, Gunicorn], tables: list[dict[str, Any]]):
        self.stop = threading.Event()
        self.recorded = 0  # hands answered 201
        self._count = threading.Lock()
        self.threads = [
            threading.Thread(target=self._run, args=(servers[n % 2], table))
            for n, table in enumerate(tables)
        ]

    def _run(self, server: Gunicorn, table: dict[str, Any]) -> None:
        while not self.stop.is_set():
            answer = requests.post(
                f"{server.url}/api/v1/tables/{table['id']}/hands",
                json=SOLO,
                headers=bearer(table["table_token"]),
                timeout=30,
            )
            with self._count:
                self.recorded += answer.status_code == 201

    def __enter__(self) -> Hands:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


def test_under_load_no_event_after_the_revocation_reaches_a_revoked_stream(
    servers: tuple[Gunicorn, Gunicorn], api: Any
) -> None:
    """Hands recorded on four tables of the club through both instances; eight club streams
    of a read-only token (with it and with tickets, on both instances) and one of the admin
    token; the read-only token is deleted. Every one of the eight ends with ``revoked``, and
    none gets an event whose id is above the club's last when the answer came; the admin's
    stream gets every event."""
    first, second = servers
    club = api.club()
    tables = [api.table(club=club) for _ in range(4)]
    admin = bearer(club["admin_token"])
    made = requests.post(
        f"{first.url}/api/v1/clubs/{club['id']}/viewer-tokens",
        json={"name": "Big screen"},
        headers=admin,
        timeout=10,
    )
    assert made.status_code == 201, made.text
    viewer = made.json()["token"]
    path = f"/api/v1/clubs/{club['id']}/events"
    streams = opened(
        [
            opening(server, path, viewer)
            for server in (first, second)
            for opening in (with_token, with_ticket, with_token, with_ticket)
        ]
    )
    control = opened([with_token(second, path, club["admin_token"])])[0]
    with Hands(servers, tables) as hands:
        while hands.recorded < 20:
            time.sleep(0.05)
        deleted = requests.delete(
            f"{second.url}/api/v1/clubs/{club['id']}/viewer-tokens/{made.json()['id']}",
            headers=admin,
            timeout=10,
        )
        assert deleted.status_code == 204, deleted.text
        page = requests.get(
            f"{first.url}/api/v1/clubs/{club['id']}/changes?after=0&limit=500",
            headers=admin,
            timeout=10,
        ).json()
        last_before = max([0, *(e["id"] for e in page["events"])])
        while page["more"]:
            page = requests.get(
                f"{first.url}/api/v1/clubs/{club['id']}/changes?after={page['cursor']}",
                headers=admin,
                timeout=10,
            ).json()
            last_before = max([last_before, *(e["id"] for e in page["events"])])
        settled_at = hands.recorded
        while hands.recorded < settled_at + 20:  # more hands after the answer
            time.sleep(0.05)
    late = 0
    for stream in streams:
        events = rest_of(stream)
        assert events and events[-1].event == "revoked", events[-3:]
        late += sum(1 for e in events if e.event == "message" and int(e.id or 0) > last_before)
        stream.close()
    assert late == 0
    ids = [int(change["id"]) for change in control.changes(hands.recorded)]
    assert ids == sorted(ids) and ids[-1] > last_before
    control.close()
