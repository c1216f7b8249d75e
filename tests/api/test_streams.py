"""The streams of a table and of a club (server-sent events), against real gunicorn: held by
the worker's event loop, resumed with ``Last-Event-ID`` without losing an event, fed with the
writes of another instance, kept alive by heartbeats, bounded per token. On SQLite or, with
``TEST_DATABASE_URL``, PostgreSQL."""

from __future__ import annotations

import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.api.sse import Stream
from tests.support import Gunicorn

pytestmark = pytest.mark.slow
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}


@pytest.fixture(scope="module")
def servers(app):
    """Two instances on one database, two workers each, heartbeats every half second."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    env = {"WEB_STREAM_HEARTBEAT_SECONDS": "0.5"}
    with Gunicorn(url, workers=2, **env) as first, Gunicorn(url, workers=2, **env) as second:
        yield first, second


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def record(server, table, hand=SOLO) -> dict:
    answer = requests.post(
        f"{server.url}/api/v1/tables/{table['id']}/hands",
        json=hand,
        headers=bearer(table["table_token"]),
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def open_stream(server, table, **headers) -> Stream:
    stream = Stream(
        f"{server.url}/api/v1/tables/{table['id']}/events",
        {**bearer(table["table_token"]), **headers},
    )
    assert stream.response.status_code == 200, stream.response.text
    assert stream.response.headers["Content-Type"].startswith("text/event-stream")
    return stream


def test_a_stream_gets_each_hand_and_resumes_after_a_drop_missing_nothing(servers, api):
    first, second = servers
    table = api.table()
    stream = open_stream(first, table)
    ready = stream.next()
    assert ready is not None and ready.event == "ready"
    assert ready.json()["version"] == 1 and ready.id == "1"  # the table's opening

    numbers = [record(first, table)["number"] for _ in range(3)]
    events = stream.changes(3)
    assert [e["data"]["hand"] for e in events] == numbers == [1, 2, 3]
    assert [e["type"] for e in events] == ["hand.recorded"] * 3
    assert [e["version"] for e in events] == [2, 3, 4]
    stream.close()

    # Dropped: two hands go by (through the other instance), then it resumes.
    for _ in range(2):
        record(second, table, LOST_SOLO)
    resumed = open_stream(first, table, **{"Last-Event-ID": str(events[-1]["id"])})
    missed = resumed.changes(2)
    assert [e["data"]["hand"] for e in missed] == [4, 5]
    assert [e["id"] for e in missed] == [events[-1]["id"] + 1, events[-1]["id"] + 2]
    record(second, table)
    assert [e["data"]["hand"] for e in resumed.changes(1)] == [6]
    resumed.close()


def test_the_events_of_another_instance_reach_a_club_stream_in_order(servers, api, client):
    first, second = servers
    club = api.club()
    tables = [api.table(club=club) for _ in range(2)]
    stream = Stream(f"{first.url}/api/v1/clubs/{club['id']}/events", bearer(club["admin_token"]))
    assert stream.next().event == "ready"
    for round_ in range(3):
        for table in tables:
            record(second if round_ % 2 else first, table)
    events = stream.changes(6)
    assert [e["id"] for e in events] == sorted(e["id"] for e in events)
    assert len({e["id"] for e in events}) == 6
    assert [e["table_id"] for e in events] == [t["id"] for t in tables] * 3
    # The club's /changes has the very same events, ids and all.
    pulled = client.get(
        f"/api/v1/clubs/{club['id']}/changes?after={events[0]['id'] - 1}",
        headers=bearer(club["admin_token"]),
    ).json["events"]
    assert pulled == events
    stream.close()


def test_two_instances_behind_nginx_deliver_each_others_events(servers, api, tmp_path_factory):
    """deploy/nginx.conf in front of the two instances, on this run's database (SQLite too):
    streams opened through it (spread over both) hear the hands written on either instance at
    once (nginx does not buffer them), and one resumed through it misses nothing."""
    import os
    import shutil

    from tests.api.test_league_server import Nginx, _missing

    binary = shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None
    )
    if binary is None:
        _missing("nginx is not installed (apt-get install nginx-light)")
    first, second = servers
    table = api.table()
    upstreams = [f"127.0.0.1:{first.port}", f"127.0.0.1:{second.port}"]
    with Nginx(binary, tmp_path_factory.mktemp("nginx"), upstreams) as proxy:
        url = f"{proxy.url}/api/v1/tables/{table['id']}/events"
        streams = [Stream(url, bearer(table["table_token"])) for _ in range(4)]
        assert all(s.next().event == "ready" for s in streams)
        for number, server in ((1, first), (2, second)):
            record(server, table)
            heard = [s.changes(1)[0] for s in streams]
            assert {e["data"]["hand"] for e in heard} == {number}
        last = heard[0]["id"]
        for stream in streams:
            stream.close()
        record(second, table)
        resumed = Stream(url, {**bearer(table["table_token"]), "Last-Event-ID": str(last)})
        assert [e["data"]["hand"] for e in resumed.changes(1)] == [3]
        resumed.close()


def test_a_table_stream_sends_only_its_table(servers, api):
    first, _ = servers
    club = api.club()
    mine, other = api.table(club=club), api.table(club=club)
    stream = open_stream(first, mine)
    record(first, other)
    record(first, mine)
    assert [e["table_id"] for e in stream.changes(1)] == [mine["id"]]
    stream.close()


def test_an_idle_stream_gets_heartbeats(servers, api):
    first, _ = servers
    table = api.table()
    stream = Stream(
        f"{first.url}/api/v1/tables/{table['id']}/events",
        bearer(table["table_token"]),
        comments=True,
    )
    kinds = [stream.next().event for _ in range(3)]
    assert kinds[0] == "ready" and kinds[1:] == ["comment", "comment"]
    stream.close()


def test_a_ticket_opens_the_stream_without_the_token_in_the_url(servers, api):
    first, _ = servers
    table = api.table()
    minted = requests.post(
        f"{first.url}/api/v1/tables/{table['id']}/events/tickets",
        headers=bearer(table["table_token"]),
        timeout=10,
    )
    assert minted.status_code == 201, minted.text
    assert table["table_token"] not in minted.json()["url"]
    stream = Stream(first.url + minted.json()["url"])
    assert stream.response.status_code == 200
    assert stream.next().event == "ready"
    record(first, table)
    assert stream.changes(1)[0]["data"]["hand"] == 1
    stream.close()


def test_held_streams_cost_no_thread_and_are_bounded_per_token(app, api):
    """One worker with one thread holds 12 streams and still answers at once; the 13th of
    one token is refused."""
    table = api.table()
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"],
        workers=1,
        WEB_THREADS="1",
        SOLO_LIVE_STREAMS_PER_TOKEN="12",
    ) as server:
        streams = [open_stream(server, table) for _ in range(12)]
        assert all(s.next().event == "ready" for s in streams)
        answer = requests.get(
            f"{server.url}/api/v1/tables/{table['id']}",
            headers=bearer(table["table_token"]),
            timeout=10,
        )
        assert answer.status_code == 200
        refused = requests.get(
            f"{server.url}/api/v1/tables/{table['id']}/events",
            headers=bearer(table["table_token"]),
            timeout=10,
        )
        assert refused.status_code == 429
        assert refused.json()["type"].endswith("too-many-streams")
        record(server, table)
        assert all(s.changes(1)[0]["data"]["hand"] == 1 for s in streams)
        streams.pop().close()
        # The closed stream's place is free again once the worker saw it go.
        reopened = None
        for _ in range(50):
            reopened = Stream(
                f"{server.url}/api/v1/tables/{table['id']}/events", bearer(table["table_token"])
            )
            if reopened.response.status_code == 200:
                break
            reopened.close()
            time.sleep(0.1)  # until the worker has seen the closed one go (bounded above)
        assert reopened is not None and reopened.response.status_code == 200
        for stream in [*streams, reopened]:
            stream.close()


def test_streams_are_bounded_per_address_whatever_the_token(app, api):
    """Three streams from one address, each with a token of its own: the fourth, with a fresh
    token again, is refused; another address is not (the bound is the address's)."""
    club = api.club()
    tables = [api.table(club=club) for _ in range(4)]
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], workers=1, SOLO_LIVE_STREAMS_PER_ADDRESS="3"
    ) as server:
        streams = [open_stream(server, table) for table in tables[:3]]
        assert all(s.next().event == "ready" for s in streams)
        refused = requests.get(
            f"{server.url}/api/v1/tables/{tables[3]['id']}/events",
            headers=bearer(tables[3]["table_token"]),
            timeout=10,
        )
        assert refused.status_code == 429
        assert refused.json()["type"].endswith("too-many-streams")
        assert refused.headers["Retry-After"]
        # The same request from another loopback address is held.
        other = socket.create_connection(
            ("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0)
        )
        try:
            other.sendall(
                f"GET /api/v1/tables/{tables[3]['id']}/events HTTP/1.1\r\n"
                f"Host: 127.0.0.1\r\nAuthorization: Bearer {tables[3]['table_token']}\r\n"
                "\r\n".encode()
            )
            assert other.recv(64).startswith(b"HTTP/1.1 200")
        finally:
            other.close()
        for stream in streams:
            stream.close()


def test_a_client_that_goes_away_is_let_go(servers, api):
    """A stream's socket closed by the client: the worker notices (no write error later)."""
    first, _ = servers
    table = api.table()
    raw = socket.create_connection(("127.0.0.1", first.port), timeout=10)
    raw.sendall(
        f"GET /api/v1/tables/{table['id']}/events HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {table['table_token']}\r\n\r\n".encode()
    )
    head = raw.recv(65536)
    assert head.startswith(b"HTTP/1.1 200") and b"transfer-encoding: chunked" in head.lower()
    raw.close()
    record(first, table)
    assert requests.get(f"{first.url}/healthz", timeout=10).status_code == 200


def test_racing_writes_of_one_club_get_gapless_ids_in_commit_order(servers, api, client):
    """Four tables of a club written at once through two instances: the club's events are
    numbered 1, 2, 3 … without a gap, each table's versions rise with the ids, and a club
    stream gets every one of them once, in that order."""
    first, second = servers
    club = api.club()
    tables = [api.table(club=club) for _ in range(4)]
    stream = Stream(f"{first.url}/api/v1/clubs/{club['id']}/events", bearer(club["admin_token"]))
    assert stream.next().event == "ready"
    jobs = [(server, table) for table in tables for server in (first, second, first)]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda job: record(*job), jobs))
    pulled = client.get(
        f"/api/v1/clubs/{club['id']}/changes?limit=500", headers=bearer(club["admin_token"])
    ).json["events"]
    assert [e["id"] for e in pulled] == list(range(1, len(tables) + len(jobs) + 1))
    for table in tables:
        versions = [e["version"] for e in pulled if e["table_id"] == table["id"]]
        assert versions == list(range(1, 5)), table["id"]
    streamed = stream.changes(len(jobs))
    assert streamed == [e for e in pulled if e["type"] == "hand.recorded"]
    stream.close()


def test_a_head_of_a_stream_is_answered_and_not_held(servers, api):
    first, _ = servers
    table = api.table()
    url = f"{first.url}/api/v1/tables/{table['id']}/events"
    answer = requests.head(url, headers=bearer(table["table_token"]), timeout=10)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/event-stream")


def test_a_worker_holds_no_more_streams_than_its_bound(app, api):
    """``WEB_STREAMS_PER_WORKER``: past it, a stream of any token is refused (429) and the
    worker still answers requests; a place comes free when a stream goes."""
    tables = [api.table(), api.table()]
    third = api.table()
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], workers=1, WEB_STREAMS_PER_WORKER="2"
    ) as server:
        streams = [open_stream(server, table) for table in tables]
        assert all(s.next().event == "ready" for s in streams)
        refused = requests.get(
            f"{server.url}/api/v1/tables/{third['id']}/events",
            headers=bearer(third["table_token"]),  # a token of its own: the worker's bound
            timeout=10,
        )
        assert refused.status_code == 429
        assert refused.json()["type"].endswith("too-many-streams")
        assert "Retry-After" in refused.headers
        answer = requests.get(
            f"{server.url}/api/v1/tables/{tables[0]['id']}",
            headers=bearer(tables[0]["table_token"]),
            timeout=10,
        )
        assert answer.status_code == 200
        streams.pop().close()
        reopened = None
        for _ in range(50):
            reopened = Stream(
                f"{server.url}/api/v1/tables/{tables[1]['id']}/events",
                bearer(tables[1]["table_token"]),
            )
            if reopened.response.status_code == 200:
                break
            reopened.close()
            time.sleep(0.1)  # until the worker has seen the closed one go (bounded above)
        assert reopened is not None and reopened.response.status_code == 200
        for stream in [*streams, reopened]:
            stream.close()


def test_each_worker_listens_on_a_socket_of_its_own(servers):
    """``reuse_port`` (gunicorn.conf.py): the kernel spreads connections over one listening
    socket per worker, none held by the arbiter."""
    first, _ = servers
    listening = [
        line.split()
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
        if int(line.split()[1].rsplit(":", 1)[1], 16) == first.port and line.split()[3] == "0A"
    ]
    assert len(listening) == first.workers == 2


def test_a_stream_opens_while_the_only_request_thread_waits_to_write(app, api):
    """A stream's opening takes no request thread: with the worker's one request thread held
    by a hand waiting for SQLite's writer lock (taken here, from outside), a stream still
    opens on the worker's opening thread; the hand goes through once the lock is let go."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("sqlite"):
        pytest.skip("SQLite's writer lock, held from outside")
    import fcntl
    import os

    from tests.api.test_sqlite_durability import flock_waiters

    lock = f"{url.removeprefix('sqlite:///')}-writer.lock"
    table = api.table()
    with Gunicorn(url, workers=1, WEB_THREADS="1") as server, ThreadPoolExecutor(1) as pool:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            pending = pool.submit(record, server, table)
            deadline = time.monotonic() + 30
            while flock_waiters(lock) == 0 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert flock_waiters(lock) == 1, "the hand waits for the writer lock"
            stream = open_stream(server, table)
            assert stream.next().event == "ready"
            assert not pending.done()
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        assert pending.result(timeout=30)["number"] == 1
        assert stream.changes(1)[0]["data"]["hand"] == 1
        stream.close()
