"""Table streams opened before Flask (service/middleware/early.py): only ever the answer
and the hold Flask would give, for the openings it can make alone; everything else reaches
Flask. The worker's hub is stood in for by ``RecordingHub`` (the real one is the worker's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.middleware.early import EarlyAnswers
from tests.api.test_league import SOLO
from tests.databases import postgres_url
from tests.support import (
    ApiClient,
    CallsPastLayer,
    forget_spent_tickets,
    make_app,
    migrated_app,
    wipe,
    wsgi_layer,
)

# Headers that differ between any two answers, whoever makes them (the limits are off here:
# tests/api/test_early_answers.py compares the answers with them on).
VARYING = {"x-request-id", "date"}


class RecordingHub:
    """What a stream's opening asks of the worker's hub, noted."""

    def __init__(self) -> None:
        self.holds: list[tuple[str, str | None, int]] = []
        self.counts: dict[str, int] = {}

    def reserve(self, limits: dict[str, int]) -> tuple[str, ...] | None:
        if any(self.counts.get(key, 0) >= limit for key, limit in limits.items()):
            return None
        for key in limits:
            self.counts[key] = self.counts.get(key, 0) + 1
        return tuple(limits)

    def release(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            self.counts[key] -= 1

    def hold(
        self,
        channel: str,
        topic: str | None,
        last_id: int,
        keys: tuple[str, ...],
        token_id: str | None = None,
    ) -> None:
        self.holds.append((channel, topic, last_id))
        self.release(keys)  # (held and let go at once: the test's bounds stay clear)

    def publish(self, *_args: Any) -> None:
        pass

    def revoke(self, _token_id: str) -> None:
        pass


@pytest.fixture(scope="module")
def twin(app: Flask) -> Iterator[Flask]:
    """The same service on the same database with its early answers off."""
    yield make_app(
        {
            "TESTING": True,
            "FAST_STREAMS": False,
            "FAST_READS": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


@pytest.fixture
def flask_calls(app: Flask) -> Iterator[CallsPastLayer]:
    calls = CallsPastLayer(app, EarlyAnswers)
    yield calls
    calls.restore()


def opened(app: Flask, path: str, headers: dict[str, str]) -> tuple[Any, ...]:
    """The answer (status, headers, body) and what the hub was asked to hold."""
    hub = RecordingHub()
    response = app.test_client().get(
        path, headers=headers, environ_base={"solo.streams": hub, "REMOTE_ADDR": "10.0.0.7"}
    )
    kept = sorted((k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING)
    return response.status_code, kept, response.get_data(), hub.holds


def test_a_twin_without_fast_streams_has_none(twin: Flask) -> None:
    with pytest.raises(AttributeError):
        wsgi_layer(twin, EarlyAnswers)


def test_the_openings_it_makes_are_flasks_own(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    club = api.club()
    table = api.table(club=club)
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events"
    api.record(table, SOLO)
    api.record(api.table(club=club), SOLO)  # the club's events 3 and 4, not ours
    tickets = [api.client.post(f"{path}/tickets", headers=auth).json["ticket"] for _ in "ab"]
    opened(app, path, auth)  # the first opening starts the change feed (Flask waits for it)
    flask_calls.count = 0
    cases = [
        (path, auth),  # fresh: its ready event
        (path, {**auth, "Accept-Language": "de-DE,de;q=0.9"}),  # (its Content-Language)
        (f"{path}?ticket={tickets[0]}", {}),  # a ticket instead of the token
        (f"{path}?ticket={tickets[1]}&after=2", {}),  # resumed, nothing of its table missed
        (path, {**auth, "Last-Event-ID": "3"}),
        (path, {**auth, "Last-Event-ID": "99"}),  # an id the club never had: reload
        (f"{path}?after=2", {**auth, "Last-Event-ID": " "}),  # a blank header: `after` counts
    ]
    for url, headers in cases:
        fast = opened(app, url, headers)
        forget_spent_tickets(app)  # (one database: the twin spends the ticket as its own)
        assert fast == opened(twin, url, headers), url
        assert fast[0] == 200 and len(fast[3]) == 1, url
    assert flask_calls.count == 0


def test_what_it_cannot_open_goes_to_flask(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    other = api.table()
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events"
    api.record(table, SOLO)
    flask_calls.count = 0
    cases = [
        (path, {**auth, "Last-Event-ID": "1"}),  # a hand to send: Flask reads it
        (f"{path}?after=1", auth),
        (path, {**auth, "Last-Event-ID": "x"}),  # named by Flask
        (f"{path}?after=-1", auth),
        (f"{path}?after=1&after=2", auth),
        (f"{path}?other=1", auth),
        (path, api.auth(other["table_token"])),  # another table's token: 403
        (path, {"Authorization": "Bearer nope"}),  # 401
        (path, {}),
        (f"{path}?ticket=nope.nope", {}),
        (f"/api/v1/clubs/{table['club_id']}/events", api.auth(table["admin_token"])),
    ]
    for url, headers in cases:
        assert opened(app, url, headers) == opened(twin, url, headers), url
    assert flask_calls.count == len(cases)


def test_a_revoked_tokens_ticket_opens_nothing(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events"
    viewer = api.client.post(
        f"/api/v1/clubs/{table['club_id']}/viewer-tokens",
        json={"name": "league bot"},
        headers=api.auth(table["admin_token"]),
    )
    assert viewer.status_code == 201, viewer.json
    viewer_auth = api.auth(viewer.json["token"])
    ticket = api.client.post(f"{path}/tickets", headers=viewer_auth).json["ticket"]
    assert opened(app, path, auth)[0] == 200  # (the first opening starts the change feed)
    flask_calls.count = 0
    assert opened(app, f"{path}?ticket={ticket}", {})[0] == 200
    assert flask_calls.count == 0
    revoked = api.client.delete(
        f"/api/v1/clubs/{table['club_id']}/viewer-tokens/{viewer.json['id']}",
        headers=api.auth(table["admin_token"]),
    )
    assert revoked.status_code == 204, revoked.json
    flask_calls.count = 0
    fast = opened(app, f"{path}?ticket={ticket}", {})
    assert fast == opened(twin, f"{path}?ticket={ticket}", {})
    assert fast[0] == 401 and flask_calls.count == 1
    assert opened(app, path, auth)[0] == 200 and flask_calls.count == 1


def minted(app: Flask, path: str, headers: dict[str, str], body: Any = None) -> tuple[Any, ...]:
    """A ticket's answer: status, headers, and the body (JSON, as a list of its pairs)."""
    response = app.test_client().post(path, headers=headers, json=body)
    kept = sorted((k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING)
    return response.status_code, kept, list((response.get_json() or {}).items())


def test_the_tickets_it_mints_are_flasks_own(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    """Minted here, from the token's row and the table's read here: Flask's status, headers
    and fields in the same order; the ticket opens the stream in Flask (the twin) as Flask's
    own does. (The tickets themselves differ by the second they were signed in, at most.)"""
    table = api.table()
    path = f"/api/v1/tables/{table['id']}/events"
    flask_calls.count = 0
    for token in (table["table_token"], table["admin_token"]):
        for extra in ({}, {"Accept-Language": "de-DE,de;q=0.9"}):
            headers = {**api.auth(token), **extra}
            fast = minted(app, f"{path}/tickets", headers)
            slow = minted(twin, f"{path}/tickets", headers)
            assert fast[0] == slow[0] == 201 and fast[1] == slow[1]
            assert [k for k, _ in fast[2]] == [k for k, _ in slow[2]]
            answer = dict(fast[2])
            assert answer["url"] == f"{path}?ticket={answer['ticket']}"
            assert answer["expires_in"] == dict(slow[2])["expires_in"]
            assert answer["ticket"].split(".")[0] == dict(slow[2])["ticket"].split(".")[0]
            assert opened(twin, answer["url"], {})[0] == 200
    assert flask_calls.count == 0


def test_the_tickets_it_cannot_mint_go_to_flask(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    table = api.table()
    other = api.table()
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events/tickets"
    flask_calls.count = 0
    cases: list[tuple[str, dict[str, str], Any]] = [
        (path, api.auth(other["table_token"]), None),  # another table's token: 403
        (path, {"Authorization": "Bearer nope"}, None),  # 401
        (path, {}, None),
        (f"/api/v1/tables/{'0' * 32}/events/tickets", auth, None),  # no such table: 404
        (path, auth, {"a": 1}),  # a body
        (f"/api/v1/clubs/{table['club_id']}/events/tickets", api.auth(table["admin_token"]), None),
    ]
    for url, headers, body in cases:
        fast, slow = minted(app, url, headers, body), minted(twin, url, headers, body)
        if fast[0] == 201:  # (a ticket differs by its second: its fields' names compared)
            fast, slow = (
                fast[:2] + ([k for k, _ in fast[2]],),
                slow[:2] + ([k for k, _ in slow[2]],),
            )
        assert fast == slow, url
    assert flask_calls.count == len(cases)
    # With an Idempotency-Key: Flask's to keep (and to replay to its retry).
    keyed = {**auth, "Idempotency-Key": "k1"}
    first = minted(app, path, keyed)
    assert first[0] == 201 and minted(app, path, keyed)[2] == first[2]
    assert flask_calls.count == len(cases) + 2


def test_a_ticket_minted_here_counts_once_under_the_write_limit(tmp_path: Any) -> None:
    """Counted here before it is minted (a ticket is a POST: the per-token write limit), and
    not again by Flask when it answers; past the limit Flask refuses it (429). A refused one
    (another table's token) is counted as a write that changed nothing."""
    limited = migrated_app(
        postgres_url(),
        tmp_path,
        RATELIMIT_ENABLED=True,
        RATELIMIT_WRITES_PER_TOKEN="10 per minute",
    )
    try:
        api = ApiClient(limited.test_client())
        table = api.table()  # (its admin token's 5 writes: not the table token's)
        path = f"/api/v1/tables/{table['id']}/events/tickets"
        auth = api.auth(table["table_token"])
        stranger = api.auth(api.table()["table_token"])  # counted here, refused by Flask: 403
        calls = CallsPastLayer(limited, EarlyAnswers)
        assert api.client.post(path, headers=stranger).status_code == 403
        assert [api.client.post(path, headers=auth).status_code for _ in range(10)] == [201] * 10
        assert calls.count == 1
        refused = api.client.post(path, headers=auth)
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        assert calls.count == 2
        calls.restore()
        # A refused ticket changes nothing: it spends the phone's unchanged writes (30 a
        # minute), never its token's writes, however many it asks for.
        answers = [api.client.post(path, headers=stranger) for _ in range(10)]
        assert [answer.status_code for answer in answers] == [403] * 10
        assert '"unchanged-writes";r=19;' in answers[-1].headers["RateLimit"]
    finally:
        wipe(limited)


def test_a_ticket_opens_one_stream_once_whoever_answers(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    """Spent before Flask, it is spent for Flask (and the other way round): one database."""
    table = api.table()
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events"
    assert opened(app, path, auth)[0] == 200  # (the first opening starts the change feed)
    for first, second in ((app, twin), (twin, app)):
        ticket = api.client.post(f"{path}/tickets", headers=auth).json["ticket"]
        assert opened(first, f"{path}?ticket={ticket}", {})[0] == 200
        again = opened(second, f"{path}?ticket={ticket}", {})
        assert again == opened(first, f"{path}?ticket={ticket}", {})
        status, _headers, body, holds = again
        problem = json.loads(body)
        assert (status, holds) == (401, [])
        assert problem["type"] == "urn:solo:problem:stream-ticket-invalid"
        assert "opens one stream once" in problem["detail"]
