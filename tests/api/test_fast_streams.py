"""Table streams opened before Flask (service/middleware/fast_streams.py): only ever the answer
and the hold Flask would give, for the openings it can make alone; everything else reaches
Flask. The worker's hub is stood in for by ``RecordingHub`` (the real one is the worker's)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.middleware.fast_streams import FastStreamOpenings
from tests.api.test_league import SOLO
from tests.support import ApiClient, CallsPastLayer, make_app, wsgi_layer

# Headers that differ between any two answers, whoever makes them; the fast path gives no
# RateLimit headers (as the fast polls).
VARYING = {"x-request-id", "date", "ratelimit", "ratelimit-policy"}


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

    def hold(self, channel: str, topic: str | None, last_id: int, keys: tuple[str, ...]) -> None:
        self.holds.append((channel, topic, last_id))
        self.release(keys)  # (held and let go at once: the test's bounds stay clear)

    def publish(self, *_args: Any) -> None:
        pass


@pytest.fixture
def twin(app: Flask) -> Iterator[Flask]:
    """The same service on the same database with the fast openings off."""
    yield make_app(
        {
            "TESTING": True,
            "FAST_STREAMS": False,
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
        }
    )


@pytest.fixture
def flask_calls(app: Flask) -> Iterator[CallsPastLayer]:
    calls = CallsPastLayer(app, FastStreamOpenings)
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
        wsgi_layer(twin, FastStreamOpenings)


def test_the_openings_it_makes_are_flasks_own(
    app: Flask, twin: Flask, api: ApiClient, flask_calls: CallsPastLayer
) -> None:
    club = api.club()
    table = api.table(club=club)
    auth = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}/events"
    api.record(table, SOLO)
    api.record(api.table(club=club), SOLO)  # the club's events 3 and 4, not ours
    ticket = api.client.post(f"{path}/tickets", headers=auth).json["ticket"]
    opened(app, path, auth)  # the first opening starts the change feed (Flask waits for it)
    flask_calls.count = 0
    cases = [
        (path, auth),  # fresh: its ready event
        (path, {**auth, "Accept-Language": "de-DE,de;q=0.9"}),  # (its Content-Language)
        (f"{path}?ticket={ticket}", {}),  # a ticket instead of the token
        (f"{path}?ticket={ticket}&after=2", {}),  # resumed, nothing of its table missed
        (path, {**auth, "Last-Event-ID": "3"}),
        (path, {**auth, "Last-Event-ID": "99"}),  # an id the club never had: reload
        (f"{path}?after=2", {**auth, "Last-Event-ID": " "}),  # a blank header: `after` counts
    ]
    for url, headers in cases:
        fast = opened(app, url, headers)
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
