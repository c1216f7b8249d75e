"""The answers made before Flask (service/middleware/early.py) against Flask's own, with the rate
limits on: generated sequences of a table's polls, stream tickets and stream openings, and of
pages of its hands (between corrections, voids and a token's revocation), sent to the service
and to its twin without early answers (the same database), must get the same status, every
header (``RateLimit-Policy``, ``RateLimit``, ``X-Pagination`` and ``Link`` included) and the
same body, and ask the worker's hub for the same holds.

The two apps count their limits apart, each in its own memory, and see the same requests in the
same order, so their counts agree; the clock is frozen for both (``time.time``, the tickets'
``utcnow``, and their nonce is still) and moved on a minute between examples, so that the
limits' windows, a ticket's signature and its expiry are the same whoever answers; each app
spends a ticket as its own (``forget_spent_tickets``). Only ``Date`` and ``X-Request-Id`` may
differ."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from flask import Flask, request_started
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.middleware.limits import EXTENSION
from service.services import live
from tests.api.test_fast_streams import RecordingHub
from tests.support import ApiClient, forget_spent_tickets, make_app

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
VARYING = {"x-request-id", "date"}
# Low enough that a generated sequence meets them (429s and RateLimit's r=0 compared too).
LIMITS = {
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_READS_PER_TOKEN": "8 per minute",
    "RATELIMIT_READS_PER_ADDRESS": "14 per minute",
    "RATELIMIT_WRITES_PER_TOKEN": "3 per minute",
    "RATELIMIT_AUTH_FAILURES": "3 per minute",
}
STREAMS_KEY = "solo.streams"  # stream_hub.STREAMS_ENVIRON_KEY
PARTS = ("status", "headers", "body", "holds")


class Clock:
    """``time.time`` for both apps: still, until the test moves it."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@dataclass
class Pair:
    """The service and its twin without early answers, and how many requests reached each
    one's Flask."""

    early: Flask
    flask: Flask
    clock: Clock
    reached: dict[str, int] = field(default_factory=lambda: {"early": 0, "flask": 0})

    def move_on(self) -> None:
        """A minute on: every limit's window past what came before, and the counts that
        expired swept from both apps' counters now (their sweeper runs on the real clock, and
        an expired count not yet swept says ``t=0`` where a swept one says ``t=60``)."""
        self.clock.now += 61
        for app in (self.early, self.flask):
            limits = app.extensions[EXTENSION]
            for storage in (limits.storage, limits.fallback):
                storage._MemoryStorage__expire_events()

    def send(self, method: str, path: str, headers: dict[str, str]) -> tuple[Any, ...]:
        """Both answers, as (status, headers, body, holds) each; the early app's first."""
        answers = []
        for app in (self.early, self.flask):
            hub = RecordingHub()
            sent = dict(headers)
            if "Idempotency-Key" in sent:  # one of its own for each (one database: a replay)
                sent["Idempotency-Key"] = uuid.uuid4().hex
            response = app.test_client().open(
                path, method=method, headers=sent, environ_base={STREAMS_KEY: hub}
            )
            kept = sorted(
                (k.lower(), v) for k, v in response.headers.items() if k.lower() not in VARYING
            )
            answers.append((response.status_code, kept, response.get_data(), hub.holds))
            # One database: each app spends a stream ticket as its own (a ticket opens one
            # stream once).
            forget_spent_tickets(app)
        return tuple(answers)


@pytest.fixture
def pair(app: Flask, api: ApiClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[Pair]:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    monkeypatch.setattr(live, "utcnow", lambda: datetime.fromtimestamp(clock.now, UTC))
    monkeypatch.setattr(live, "ticket_nonce", lambda: "still")  # (the same ticket for both)
    database = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    made = Pair(
        make_app({**database, **LIMITS}),
        make_app({**database, **LIMITS, "FAST_READS": False, "FAST_STREAMS": False}),
        clock,
    )

    def reached(sender: Flask, **_: Any) -> None:
        made.reached["early" if sender is made.early else "flask"] += 1

    request_started.connect(reached, made.early)
    request_started.connect(reached, made.flask)
    yield made
    request_started.disconnect(reached, made.early)
    request_started.disconnect(reached, made.flask)


@dataclass
class Scene:
    """A club's table with a hand, the tokens that may or may not read it, and a ticket."""

    table: dict[str, Any]
    tokens: dict[str, dict[str, str]]


def set_scene(api: ApiClient) -> Scene:
    club = api.club()
    table = api.table(club=club)
    api.record(table, SOLO)
    other = api.table(club=club)
    api.record(other, SOLO)  # the club's events of another table
    stranger = api.table()
    admin = api.auth(club["admin_token"])
    viewer = api.client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens", json={"name": "bot"}, headers=admin
    ).json["token"]
    revoked = api.client.post(
        f"/api/v1/clubs/{club['id']}/viewer-tokens", json={"name": "gone"}, headers=admin
    ).json
    api.client.delete(f"/api/v1/clubs/{club['id']}/viewer-tokens/{revoked['id']}", headers=admin)
    tokens = {
        "table": api.auth(table["table_token"]),
        "admin": admin,
        "viewer": api.auth(viewer),
        "other table": api.auth(other["table_token"]),
        "stranger": api.auth(stranger["admin_token"]),
        "revoked": api.auth(revoked["token"]),
        "bad": {"Authorization": "Bearer not-a-token"},
        "malformed": {"Authorization": "Basic eDp5"},
        "none": {},
    }
    return Scene(table, tokens)


def ticket_of(scene: Scene, token: str) -> str:
    """A ticket of ``token`` for the table's stream, signed at the clock's time (in the app's
    context: the token's id is read)."""
    from service.services.auth import hash_token

    raw = scene.tokens[token]["Authorization"].removeprefix("Bearer ")
    path = f"/api/v1/tables/{scene.table['id']}/events"
    return str(live.ticket_for(token_id_of(raw), hash_token(raw), path)["ticket"])


def token_id_of(raw: str) -> str:
    from service.extensions import db
    from service.persistence.table_keeping import TokenRow
    from service.services.auth import hash_token

    row = db.session.query(TokenRow).filter_by(token_hash=hash_token(raw)).one()
    return str(row.id)


MISSING = "0" * 32
TOKENS = st.sampled_from(
    ["table", "table", "table", "admin", "viewer", "other table", "stranger", "revoked", "bad"]
    + ["malformed", "none"]
)
LANGUAGES = st.sampled_from([None, "de", "es-ES,es;q=0.9", "fr", "en", "xx", "de;q=0"])
ETAGS = st.sampled_from([None, "current", "current", '"1"', "*", 'W/"2"', '"1", "2"', "junk"])
AFTER = st.sampled_from([None, "0", "1", "2", "3", "999", "-1", "x", "+2"])
LAST_EVENT_ID = st.sampled_from([None, "1", "3", "4", "99", " ", "x", "2147483648"])


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """One request of a table's phone (or someone else's): a poll, a ticket or an opening."""
    return {
        "kind": draw(st.sampled_from(["poll", "poll", "poll", "ticket", "opening", "opening"])),
        "token": draw(TOKENS),
        "language": draw(LANGUAGES),
        "etag": draw(ETAGS),
        "after": draw(AFTER),
        "last_event_id": draw(LAST_EVENT_ID),
        "ticket": draw(st.sampled_from([None, None, "table", "viewer", "revoked", "forged"])),
        "missing_table": draw(st.integers(0, 9)) == 0,
        "query": draw(st.sampled_from([None, None, None, "x=1"])),
        "origin": draw(st.integers(0, 14)) == 0,
        "head": draw(st.integers(0, 14)) == 0,
        "idempotency_key": draw(st.integers(0, 9)) == 0,
    }


def built(scene: Scene, spec: dict[str, Any], etag: str) -> tuple[str, str, dict[str, str]]:
    """The request's method, path and headers."""
    table_id = MISSING if spec["missing_table"] else scene.table["id"]
    base = f"/api/v1/tables/{table_id}"
    headers = dict(scene.tokens[spec["token"]])
    if spec["language"] is not None:
        headers["Accept-Language"] = spec["language"]
    if spec["origin"]:
        headers["Origin"] = "https://elsewhere.example"
    query: list[str] = [spec["query"]] if spec["query"] else []
    method = "HEAD" if spec["head"] else "GET"
    if spec["kind"] == "poll":
        path = base
        if spec["etag"] is not None:
            headers["If-None-Match"] = etag if spec["etag"] == "current" else spec["etag"]
    elif spec["kind"] == "ticket":
        method, path = "POST", f"{base}/events/tickets"
        if spec["idempotency_key"]:
            headers["Idempotency-Key"] = "k-1"
    else:
        path = f"{base}/events"
        if spec["ticket"] == "forged":
            query.append("ticket=" + "a" * 32 + ".forged")
        elif spec["ticket"] is not None:
            query.append("ticket=" + ticket_of(scene, spec["ticket"]))
        if spec["after"] is not None:
            query.append(f"after={spec['after']}")
        if spec["last_event_id"] is not None:
            headers["Last-Event-ID"] = spec["last_event_id"]
    return method, path + ("?" + "&".join(query) if query else ""), headers


def assert_same(pair: Pair, method: str, path: str, headers: dict[str, str]) -> Any:
    early, flask = pair.send(method, path, headers)
    differing = [
        (part, mine, flasks)
        for part, mine, flasks in zip(PARTS, early, flask, strict=True)
        if mine != flasks
    ]
    if differing[:1] and differing[0][0] == "headers":  # the headers that differ, alone
        mine, flasks = set(early[1]), set(flask[1])
        differing[0] = ("headers", sorted(mine - flasks), sorted(flasks - mine))
    assert not differing, (method, path, headers, differing)
    assert early[0] < 500, (method, path, headers, early)
    return early


def test_each_early_answer_is_flasks_own_with_its_rate_limit_headers(
    app: Flask, api: ApiClient, pair: Pair
) -> None:
    """The requests the early answers are made for, each answered before Flask (none of them
    reaches the service's Flask) with what Flask answers: RateLimit headers included."""
    with app.app_context():
        scene = set_scene(api)
        table = f"/api/v1/tables/{scene.table['id']}"
        phone = scene.tokens["table"]
        ticket = ticket_of(scene, "table")
    etag = api.client.get(table, headers=phone).headers["ETag"]
    # Each app renders the view once in each language, and its first opening waits for its
    # change feed.
    pair.send("GET", table, phone)
    pair.send("GET", table, {**phone, "Accept-Language": "de"})
    pair.send("GET", f"{table}/events", phone)
    cases = [
        ("GET", table, phone),
        ("GET", table, {**phone, "Accept-Language": "de"}),
        ("GET", table, {**phone, "If-None-Match": etag}),
        ("POST", f"{table}/events/tickets", phone),
        ("GET", f"{table}/events", phone),
        ("GET", f"{table}/events?ticket={ticket}", {}),
        ("GET", f"{table}/events", {**phone, "Last-Event-ID": "99"}),
    ]
    assert_answered_early(pair, cases)
    pair.move_on()  # (the limits' new minute for the lists of hands)
    assert_answered_early(pair, hand_list_cases(pair, table, phone, etag))


def test_flask_answers_on_the_route_matched_before_it(
    app: Flask, api: ApiClient, pair: Pair
) -> None:
    """Flask takes the route the early answers matched rather than matching the path again:
    its answers are those of the twin that matches every path itself, a table's id in any
    characters included (Flask reads a path's bytes as UTF-8; WSGI gives them as Latin-1)."""
    with app.app_context():
        scene = set_scene(api)
    phone = scene.tokens["table"]
    table = f"/api/v1/tables/{scene.table['id']}"
    for path in (
        f"{table}/ledger",
        f"{table}/hands/1",
        "/api/v1/tables/n%C3%A4me/ledger",
        "/api/v1/tables/%E2%82%AC",
    ):
        status, _headers, body, _holds = assert_same(pair, "GET", path, phone)
        assert status in (200, 403, 404), (path, status, body)
    _status, _headers, body, _holds = assert_same(pair, "GET", "/api/v1/tables/%E2%82%AC", phone)
    assert "'€'" in body.decode(), body  # the id as sent, named by the 404


def assert_answered_early(pair: Pair, cases: list[tuple[str, str, dict[str, str]]]) -> None:
    for method, path, headers in cases:
        before = pair.reached["early"]
        status, answered, _body, _holds = assert_same(pair, method, path, headers)
        assert status in (200, 201, 304), (path, status)
        assert pair.reached["early"] == before, f"{method} {path} reached Flask"
        names = {name for name, _ in answered}
        assert {"ratelimit", "ratelimit-policy"} <= names, (path, answered)
        if "/hands" in path:
            assert {"x-pagination", "link"} <= names, (path, answered)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_requests_get_the_same_answer_either_way(
    app: Flask, api: ApiClient, pair: Pair, data: st.DataObject
) -> None:
    with app.app_context():
        scene = set_scene(api)
    table = f"/api/v1/tables/{scene.table['id']}"
    phone = scene.tokens["table"]
    etag = api.client.get(table, headers=phone).headers["ETag"]
    pair.send("GET", f"{table}/events", phone)  # (each app's change feed listens)
    pair.move_on()
    for spec in data.draw(st.lists(requests(), min_size=1, max_size=16), label="requests"):
        if data.draw(st.integers(0, 11), label="a hand recorded first") == 0:
            api.record(scene.table, SOLO)
            etag = api.client.get(table, headers=phone).headers["ETag"]
        with app.app_context():
            method, path, headers = built(scene, spec, etag)
        assert_same(pair, method, path, headers)


def hand_list_cases(
    pair: Pair, table: str, phone: dict[str, str], etag: str
) -> list[tuple[str, str, dict[str, str]]]:
    """The pages of a table's hands the pad reads, each app's renderings made first (Flask
    renders a hand the first time it is asked for in a language; after that, the list is
    answered before Flask)."""
    german = {**phone, "Accept-Language": "de"}
    for headers in (phone, german):
        pair.send("GET", f"{table}/hands?page=1&page_size=40", headers)
    return [
        ("GET", f"{table}/hands?page=1&page_size=40", phone),
        ("GET", f"{table}/hands?page_size=40&page=1", german),
        ("GET", f"{table}/hands", phone),  # (page 1 of 10: the same hand, rendered)
        ("GET", f"{table}/hands?page=1&page_size=40", {**phone, "If-None-Match": etag}),
        ("GET", f"{table}/hands?page=3&page_size=40", phone),  # past the end: none to render
    ]


SOLO_LOST = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 4}
PAGES = st.sampled_from(
    [None, None, "page=1&page_size=40", "page=1&page_size=40", "page_size=40&page=1", "page=2"]
    + ["page=2&page_size=1", "page=3&page_size=1", "page=7&page_size=40", "page_size=1"]
    + ["page=0", "page_size=101", "page=x", "page=", "page=1&page=2", "page_size=40&x=1"]
    + ["page=100001", "page=100000&page_size=100", "page=%31&page_size=4%30", "page=+1"]
)
HAND_TOKENS = st.sampled_from(
    ["table", "table", "table", "admin", "viewer", "late", "other table", "stranger"]
    + ["revoked", "bad", "none"]
)


@st.composite
def hand_list_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A page of a table's hands, as the pad's sheet asks (or as someone else does)."""
    return {
        "page": draw(PAGES),
        "token": draw(HAND_TOKENS),
        "language": draw(LANGUAGES),
        "etag": draw(ETAGS),
        "missing_table": draw(st.integers(0, 14)) == 0,
        "origin": draw(st.integers(0, 14)) == 0,
        "head": draw(st.integers(0, 14)) == 0,
    }


def built_hand_list(
    table_id: str, tokens: dict[str, dict[str, str]], spec: dict[str, Any], etag: str
) -> tuple[str, str, dict[str, str]]:
    path = f"/api/v1/tables/{MISSING if spec['missing_table'] else table_id}/hands"
    if spec["page"] is not None:
        path += "?" + spec["page"]
    headers = dict(tokens[spec["token"]])
    if spec["language"] is not None:
        headers["Accept-Language"] = spec["language"]
    if spec["etag"] is not None:
        headers["If-None-Match"] = etag if spec["etag"] == "current" else spec["etag"]
    if spec["origin"]:
        headers["Origin"] = "https://elsewhere.example"
    return "HEAD" if spec["head"] else "GET", path, headers


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_hand_lists_get_the_same_answer_either_way(
    app: Flask, api: ApiClient, pair: Pair, data: st.DataObject
) -> None:
    """Pages of a table's hands, between which a hand is recorded, an earlier one corrected
    (every later hand settled again: their renderings change under the same revision) or
    voided, and a token that read them revoked."""
    with app.app_context():
        scene = set_scene(api)
    table = scene.table
    path = f"/api/v1/tables/{table['id']}"
    phone = scene.tokens["table"]
    api.record(table, SOLO_LOST)
    admin = scene.tokens["admin"]
    late = api.client.post(
        f"/api/v1/clubs/{table['club_id']}/viewer-tokens", json={"name": "late"}, headers=admin
    ).json
    tokens = {**scene.tokens, "late": api.auth(late["token"])}
    etag = api.client.get(path, headers=phone).headers["ETag"]
    for language in ("en", "de", "es"):  # each app renders the hands (its Flask does)
        pair.send("GET", f"{path}/hands", {**phone, "Accept-Language": language})
    pair.move_on()
    first = [SOLO_LOST, SOLO]  # the first hand's records, taken in turn
    voided = False
    for spec in data.draw(st.lists(hand_list_requests(), min_size=1, max_size=16), label="reads"):
        change = data.draw(
            st.sampled_from(["none"] * 8 + ["record", "correct", "void", "revoke"]),
            label="a change first",
        )
        if change == "record":
            assert api.record(table, SOLO).status_code == 201
        elif change == "correct":  # the first hand: every later one is settled again
            answer = api.client.put(f"{path}/hands/1", json=first[0], headers=phone)
            assert answer.status_code == 200, answer.json
            first.reverse()
        elif change == "void" and not voided:
            assert api.client.delete(f"{path}/hands/2", headers=phone).status_code == 200
            voided = True
        elif change == "revoke":
            api.client.delete(
                f"/api/v1/clubs/{table['club_id']}/viewer-tokens/{late['id']}", headers=admin
            )
        etag = api.client.get(path, headers=phone).headers["ETag"]
        assert_same(pair, *built_hand_list(table["id"], tokens, spec, etag))
