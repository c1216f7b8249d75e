"""Table versions heard from PostgreSQL (service/services/version_feed.py, on the worker's one
change feed): the map that keeps them never goes back, and on PostgreSQL a poll is answered
from it only while it is right."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from service.middleware.early import EarlyAnswers
from service.services.live_feed import HEARTBEAT_SECONDS, RETRY_SECONDS
from service.services.table_versions import VersionRow
from service.services.version_feed import KnownVersions, VersionFeed, parse_payload
from tests.databases import ON_POSTGRES, postgres_url
from tests.support import ApiClient, make_app, wsgi_layer

on_postgres = pytest.mark.skipif(not ON_POSTGRES, reason="the feed listens on PostgreSQL only")

SOLO_WON = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
A, B, CLUB = "a" * 32, "b" * 32, "c" * 32


def row(table_id: str, version: int) -> VersionRow:
    return VersionRow(table_id, CLUB, version)


# --- the map -------------------------------------------------------------------------------


def test_a_version_heard_or_read_never_goes_back() -> None:
    known = KnownVersions()
    known.heard(row(A, 3))
    known.heard(row(A, 2))  # a late notification
    known.read_from_database(row(A, 1), known.mark())  # a slow read
    assert known.get(A) == row(A, 3)
    known.heard(row(A, 4))
    assert known.get(A) == row(A, 4)


def test_a_read_begun_before_the_table_was_forgotten_is_not_kept() -> None:
    known = KnownVersions()
    known.heard(row(A, 1))
    mark = known.mark()
    known.forget(A)  # a write landed while the read was on its way
    known.read_from_database(row(A, 1), mark)
    assert known.get(A) is None
    known.read_from_database(row(A, 2), known.mark())  # a read begun after it is kept
    assert known.get(A) == row(A, 2)


def test_a_read_begun_before_a_clear_is_not_kept_but_later_news_is() -> None:
    known = KnownVersions()
    mark = known.mark()
    known.clear()
    known.read_from_database(row(B, 5), mark)
    assert known.get(B) is None
    known.heard(row(B, 6))  # a notification is always news
    assert known.get(B) == row(B, 6)


def test_a_full_map_starts_again_and_fences_the_reads_begun_before() -> None:
    known = KnownVersions(size=2)
    known.heard(row(A, 1))
    known.heard(row(B, 1))
    mark = known.mark()
    known.heard(row("d" * 32, 1))  # the third: the map is cleared first
    assert len(known) == 1 and known.get(A) is None
    known.read_from_database(row(A, 1), mark)
    assert known.get(A) is None


@pytest.mark.parametrize(
    ("payload", "parsed"),
    [
        (f"{A} {CLUB} 7", VersionRow(A, CLUB, 7)),
        (f"{A} {CLUB} 0", A),  # the table was deleted
        ("*", "*"),  # every table was (TRUNCATE)
        ("", None),
        ("hello", None),
        (f"{A} {CLUB} -1", None),
        (f"{A} {CLUB} 7 8", None),
        (f"{A} {CLUB} x", None),
    ],
)
def test_payloads(payload: str, parsed: Any) -> None:
    assert parse_payload(payload) == parsed


def test_no_feed_on_sqlite(app: Flask) -> None:
    if ON_POSTGRES:
        pytest.skip("this run is on PostgreSQL")
    assert wsgi_layer(app, EarlyAnswers).feed is None


# --- on PostgreSQL -------------------------------------------------------------------------


def wait_until(condition: Callable[[], Any], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


class Reads:
    """Counts the version queries of the polls answered before Flask (the reader's lenient
    reads: Flask's view reads strictly on the same reader)."""

    def __init__(self, fast: EarlyAnswers) -> None:
        self.count = 0
        self._read = fast.reader.read

        def counted(table_id: str, strict: bool = False) -> VersionRow | None:
            self.count += not strict
            return self._read(table_id, strict)

        fast.reader.read = counted  # type: ignore[method-assign]


@pytest.fixture
def fast(app: Flask) -> Iterator[EarlyAnswers]:
    layer = wsgi_layer(app, EarlyAnswers)
    yield layer
    layer.reader.__dict__.pop("read", None)


@pytest.fixture
def feed(fast: EarlyAnswers) -> Iterator[VersionFeed]:
    assert fast.feed is not None
    fast.feed.feed.retry = 0.05  # the worker's one change feed, which the versions follow
    yield fast.feed
    fast.feed.feed.heartbeat, fast.feed.feed.retry = HEARTBEAT_SECONDS, RETRY_SECONDS


@pytest.fixture
def other_app(app: Flask) -> Flask:
    """Another worker (or host) on the same database, with no fast reads of its own."""
    return make_app(
        {
            "TESTING": True,
            "FAST_READS": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


def poll(api: ApiClient, table: dict[str, Any], etag: str) -> Any:
    return api.client.get(
        f"/api/v1/tables/{table['id']}",
        headers={**api.auth(table["table_token"]), "If-None-Match": etag},
    )


def fresh_and_known(api: ApiClient, feed: VersionFeed, table: dict[str, Any], version: int) -> None:
    """Poll until the feed is fresh and knows the table at ``version``."""

    def ready() -> bool:
        poll(api, table, f'"{version}"')
        known = feed.current(table["id"])
        return known is not None and known.version == version

    wait_until(ready)


@on_postgres
def test_the_trigger_announces_every_change_of_a_version(api: ApiClient) -> None:
    import psycopg

    with psycopg.connect(str(postgres_url()), autocommit=True) as listener:
        listener.execute("LISTEN table_versions")
        table = api.table()
        assert api.record(table, SOLO_WON).status_code == 201
        closed = api.client.post(
            f"/api/v1/tables/{table['id']}/close", headers=api.auth(table["admin_token"])
        )
        assert closed.status_code == 200
        heard = [n.payload for n in listener.notifies(timeout=5, stop_after=3)]
        club = table["club_id"]
        assert heard == [f"{table['id']} {club} {v}" for v in (1, 2, 3)]

        with psycopg.connect(str(postgres_url()), autocommit=True) as other:
            other.execute("DELETE FROM score_tables WHERE id = %s", (table["id"],))
            assert [n.payload for n in listener.notifies(timeout=5, stop_after=1)] == [
                f"{table['id']} {club} 0"
            ]
            with other.transaction():
                other.execute("UPDATE score_tables SET version = version + 1")
                other.execute("TRUNCATE score_tables CASCADE")
            assert [n.payload for n in listener.notifies(timeout=5, stop_after=1)] == ["*"]


@on_postgres
def test_a_poll_naming_the_version_heard_needs_no_query(
    api: ApiClient, fast: EarlyAnswers, feed: VersionFeed
) -> None:
    table = api.table()
    api.record(table, SOLO_WON)
    fresh_and_known(api, feed, table, 2)
    reads = Reads(fast)
    answered = poll(api, table, '"2"')
    assert (answered.status_code, answered.headers["ETag"], reads.count) == (304, '"2"', 0)
    assert poll(api, table, '"1"').status_code == 200 and reads.count == 1
    assert poll(api, table, '"1", "2"').status_code == 304 and reads.count == 2  # not the
    # exact ETag: asked
    other = api.table()
    poll(api, other, '"1"')  # this worker has now checked the other table's token
    before = reads.count
    assert (
        poll(api, {**table, "table_token": other["table_token"]}, '"2"').status_code == 403
        and reads.count == before
    )  # refused by the version heard, with no query; Flask answered the 403


@on_postgres
def test_a_change_made_elsewhere_is_heard(
    api: ApiClient, feed: VersionFeed, other_app: Flask
) -> None:
    table = api.table()
    fresh_and_known(api, feed, table, 1)
    other = ApiClient(other_app.test_client())
    assert other.record(table, SOLO_WON).status_code == 201
    wait_until(lambda: feed.known.get(table["id"]) == (table["id"], table["club_id"], 2))
    stale = poll(api, table, '"1"')
    assert (stale.status_code, stale.json["version"]) == (200, 2)
    assert poll(api, table, '"2"').status_code == 304


@on_postgres
def test_a_write_through_this_worker_is_seen_by_its_next_poll(
    api: ApiClient, feed: VersionFeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = api.table()
    fresh_and_known(api, feed, table, 1)
    monkeypatch.setattr(feed.known, "heard", lambda _row: None)  # the news is slow today
    assert api.record(table, SOLO_WON).status_code == 201
    answered = poll(api, table, '"1"')
    assert (answered.status_code, answered.json["version"]) == (200, 2)


@on_postgres
def test_a_feed_gone_silent_is_not_trusted(
    api: ApiClient, fast: EarlyAnswers, feed: VersionFeed
) -> None:
    table = api.table()
    fresh_and_known(api, feed, table, 1)
    feed.feed.heartbeat = 30.0  # the next heartbeat is far away: the feed will fall silent
    wait_until(lambda: not feed.fresh(), seconds=feed.max_silence + 2)
    reads = Reads(fast)
    assert poll(api, table, '"1"').status_code == 304 and reads.count == 1


@on_postgres
def test_a_lost_connection_forgets_everything_until_it_listens_again(
    api: ApiClient, feed: VersionFeed, other_app: Flask
) -> None:
    import psycopg

    table = api.table()
    fresh_and_known(api, feed, table, 1)
    with psycopg.connect(str(postgres_url()), autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE query LIKE '%pg_trigger%' AND pid <> pg_backend_pid()"
        )
    wait_until(lambda: feed.known.get(table["id"]) is None)
    other = ApiClient(other_app.test_client())
    assert other.record(table, SOLO_WON).status_code == 201  # perhaps while nobody listened
    assert poll(api, table, '"1"').json["version"] == 2
    fresh_and_known(api, feed, table, 2)  # listening again


@on_postgres
def test_without_its_trigger_the_feed_answers_nothing(api: ApiClient, feed: VersionFeed) -> None:
    import psycopg

    table = api.table()
    fresh_and_known(api, feed, table, 1)
    with psycopg.connect(str(postgres_url()), autocommit=True) as admin:
        admin.execute("ALTER TABLE score_tables DISABLE TRIGGER score_tables_announce_version")
        try:
            wait_until(lambda: feed.current(table["id"]) is None)
            admin.execute(
                "UPDATE score_tables SET version = version + 1 WHERE id = %s", (table["id"],)
            )
            assert poll(api, table, '"1"').status_code == 200
        finally:
            admin.execute("ALTER TABLE score_tables ENABLE TRIGGER score_tables_announce_version")
    fresh_and_known(api, feed, table, 2)
