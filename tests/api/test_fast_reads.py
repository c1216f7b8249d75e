"""Table polls answered before Flask (service/middleware/early.py): only ever the answer Flask
would give, for the requests it can answer alone; everything else reaches Flask."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.extensions import db
from service.middleware.early import EarlyAnswers
from service.middleware.security import ACCESS_LOGGER
from tests.databases import postgres_url
from tests.support import ApiClient, CallsPastLayer, make_app, migrated_app, wipe, wsgi_layer

SOLO_WON = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
# Headers that differ between any two answers, whoever makes them.
VARYING = {"x-request-id", "date"}


def fast_reads_of(app: Flask) -> EarlyAnswers:
    return wsgi_layer(app, EarlyAnswers)


@pytest.fixture(scope="module")
def twin(app: Flask) -> Iterator[Flask]:
    """The same service on the same database with its early answers off."""
    yield make_app(
        {
            "TESTING": True,
            "FAST_READS": False,
            "FAST_STREAMS": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


@pytest.fixture
def flask_calls(app: Flask) -> Iterator[CallsPastLayer]:
    calls = CallsPastLayer(app, EarlyAnswers)
    yield calls
    calls.restore()


def answer(client: Any, method: str, path: str, headers: dict[str, str]) -> tuple[Any, ...]:
    response = client.open(path, method=method, headers=headers)
    kept = sorted((k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING)
    return response.status_code, kept, response.data


def test_a_twin_without_fast_reads_has_none(twin: Flask) -> None:
    with pytest.raises(AttributeError):
        fast_reads_of(twin)


def test_every_poll_gets_the_answer_flask_gives(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    club = api.club()
    table = api.table(club=club)
    other = api.table(club=club)
    stranger = api.table()  # another club
    api.record(table, SOLO_WON)
    path = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    admin = api.auth(club["admin_token"])
    strangers_admin = api.auth(stranger["admin_token"])
    for token in (phone, admin, api.auth(other["table_token"]), strangers_admin):
        api.client.get(path, headers=token)  # the worker now knows these tokens
    cases: list[tuple[str, str, dict[str, str]]] = [
        ("GET", path, phone),
        ("GET", path, admin),
        ("GET", path, {**phone, "If-None-Match": '"2"'}),
        ("GET", path, {**admin, "If-None-Match": '"2"'}),
        ("GET", path, {**phone, "If-None-Match": "*"}),
        ("GET", path, {**phone, "If-None-Match": '"1", "2"'}),
        ("GET", path, {**phone, "If-None-Match": 'W/"2"'}),  # weak: no match, as Werkzeug
        ("GET", path, {**phone, "If-None-Match": '"1"'}),
        ("GET", path, {**phone, "If-None-Match": "garbage"}),
        ("GET", path, api.auth(other["table_token"])),  # 403
        ("GET", path, strangers_admin),  # 403
        ("GET", path, {"Authorization": "Bearer not-a-token"}),  # 401
        ("GET", path, {}),  # 401
        ("GET", "/api/v1/tables/" + "0" * 32, phone),  # 404
        ("GET", path + "?x=1", phone),
        ("GET", path, {**phone, "Origin": "https://elsewhere.example"}),
        ("HEAD", path, phone),
    ]
    fast, slow = app.test_client(), twin.test_client()
    for method, target, headers in cases:
        assert answer(fast, method, target, headers) == answer(slow, method, target, headers), (
            method,
            target,
            headers,
        )


def test_the_polls_it_can_answer_never_reach_flask(
    api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    api.record(table, SOLO_WON)
    path = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    flask_calls.count = 0
    first = api.client.get(path, headers=phone)  # the body is rendered: by Flask
    assert flask_calls.count == 1
    again = api.client.get(path, headers=phone)
    unchanged = api.client.get(path, headers={**phone, "If-None-Match": first.headers["ETag"]})
    assert flask_calls.count == 1
    assert again.status_code == 200 and again.data == first.data
    assert again.headers["ETag"] == first.headers["ETag"] == '"2"'
    assert unchanged.status_code == 304 and unchanged.data == b""
    api.client.get(path, headers={**phone, "If-None-Match": '"1"'})  # a stale ETag: 200
    assert flask_calls.count == 1
    api.client.get("/api/v1/tables/" + "0" * 32, headers=phone)  # not found: Flask's answer
    assert flask_calls.count == 2


def test_a_write_elsewhere_is_seen_by_the_next_poll(
    app: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    path = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    seen = api.client.get(path, headers=phone)
    assert (
        api.client.get(path, headers={**phone, "If-None-Match": seen.headers["ETag"]}).status_code
        == 304
    )
    # A second app on the same database stands for the other gunicorn worker.
    other = ApiClient(
        make_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
        ).test_client()
    )
    recorded = other.record(table, SOLO_WON)
    assert recorded.status_code == 201

    def poll_again() -> Any:
        return api.client.get(path, headers={**phone, "If-None-Match": seen.headers["ETag"]})

    poll = poll_again()
    if fast_reads_of(app).feed is not None:
        # On PostgreSQL this worker hears of the other's write through its version feed, within
        # milliseconds (services/version_feed.py): until then a poll naming the version before
        # is still answered 304, as it would have been a moment earlier. Generous bound.
        deadline = time.monotonic() + 10
        while poll.status_code == 304 and time.monotonic() < deadline:
            time.sleep(0.01)
            poll = poll_again()
    assert poll.status_code == 200
    assert poll.headers["ETag"] == '"2"'
    assert poll.json == recorded.json["table"]


def test_fast_answers_carry_the_headers_and_the_access_line(
    api: ApiClient, caplog: Any, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    path = f"/api/v1/tables/{table['id']}"
    phone = api.auth(table["table_token"])
    api.client.get(path, headers=phone)
    flask_calls.count = 0
    caplog.set_level(logging.INFO, logger=ACCESS_LOGGER)
    caplog.clear()  # the setup's lines, should an earlier test have left the logger on
    response = api.client.get(
        path, headers={**phone, "If-None-Match": '"1"', "X-Request-Id": "poll-7"}
    )
    assert flask_calls.count == 0 and response.status_code == 304
    assert response.headers["X-Request-Id"] == "poll-7"
    assert response.headers["X-Frame-Options"] == "DENY"
    lines = [r.getMessage() for r in caplog.records if r.name == ACCESS_LOGGER]
    assert len(lines) == 1 and '"status":304' in lines[0] and '"request_id":"poll-7"' in lines[0]


def test_a_failing_connection_is_dropped_and_flask_answers(
    app: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    path = f"/api/v1/tables/{table['id']}"
    phone = {**api.auth(table["table_token"]), "If-None-Match": '"1"'}
    for _ in range(2):  # the token checked by Flask, then the version read here
        api.client.get(path, headers=phone)
    flask_calls.count = 0
    reader = flask_calls.fast.reader
    broken = next(iter(reader._connections.values()))
    broken.close()  # as a server restart would leave it
    assert api.client.get(path, headers=phone).status_code == 304  # answered by Flask
    assert flask_calls.count == 1
    assert broken not in reader._connections.values()
    assert api.client.get(path, headers=phone).status_code == 304  # a new pinned connection
    assert flask_calls.count == 1


def test_disposing_the_engine_closes_the_pinned_connections(
    app: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    path = f"/api/v1/tables/{table['id']}"
    api.client.get(path, headers=api.auth(table["table_token"]))
    api.client.get(path, headers=api.auth(table["table_token"]))
    assert flask_calls.fast.reader._connections
    with app.app_context():
        db.engine.dispose()
    assert not flask_calls.fast.reader._connections


def test_an_address_out_of_token_checks_is_refused_by_flask(tmp_path: Any) -> None:
    limited = migrated_app(
        postgres_url(),
        tmp_path,
        RATELIMIT_ENABLED=True,
        RATELIMIT_AUTH_FAILURES="2 per minute",
    )
    try:
        api = ApiClient(limited.test_client())
        table = api.table()
        path = f"/api/v1/tables/{table['id']}"
        phone = {**api.auth(table["table_token"]), "If-None-Match": '"1"'}
        assert api.client.get(path, headers=phone).status_code == 304
        for _ in range(2):
            assert (
                api.client.get(path, headers={"Authorization": "Bearer wrong"}).status_code == 401
            )
        refused = api.client.get(path, headers=phone)  # a good token, from a spent address
        assert refused.status_code == 429
        assert refused.headers["Retry-After"]
    finally:
        wipe(limited)


def test_a_read_only_tokens_polls_are_answered_here_once_its_use_is_noted(
    api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    """A viewer token reads every table of its club here too; its first poll goes to Flask,
    which notes its use, and the next polls within the minute need no write."""
    table = api.table()
    club = table["club_id"]
    made = api.client.post(
        f"/api/v1/clubs/{club}/viewer-tokens",
        json={"name": "bot"},
        headers=api.auth(table["admin_token"]),
    )
    viewer = api.auth(made.json["token"])
    path = f"/api/v1/tables/{table['id']}"
    stranger = api.auth(api.club()["admin_token"])
    flask_calls.count = 0
    first = api.client.get(path, headers=viewer)
    assert first.status_code == 200 and flask_calls.count == 1
    for _ in range(3):
        polled = api.client.get(path, headers={**viewer, "If-None-Match": first.headers["ETag"]})
        assert polled.status_code == 304
    assert flask_calls.count == 1
    assert api.client.get(path, headers=stranger).status_code == 403
    assert flask_calls.count == 2
