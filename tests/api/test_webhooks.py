"""Webhooks: a club's subscriptions over the API (its admin token, the secret shown once,
problems naming the field), and their deliveries from the outbox, verified by a receiver in
the test with ``standardwebhooks``: through a receiver that fails, redirects, times out and
comes back, a subscription disabled after failing and turned back on, a redelivery by hand,
and a ``kill -9`` of the delivering process; every event counted once by id, in order."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from standardwebhooks.webhooks import Webhook

from service.logs import JsonLines
from service.services.webhooks.addresses import AddressRefused, allowed_networks, resolve
from service.services.webhooks.deliverer import DeliverySettings, Timeouts, run
from tests.api.test_changes import all_events
from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.webhook_receiver import Receiver, wait_for

LOOPBACK = ["127.0.0.1/32"]
FAST = DeliverySettings(
    allowed=allowed_networks(LOOPBACK),
    timeouts=Timeouts(connect=0.5, read=1.0),
    backoff_base_seconds=0.05,
    backoff_cap_seconds=0.2,
    idle_poll_seconds=0.05,
    lease_margin_seconds=0.5,
)


@pytest.fixture
def loopback_allowed(app: Flask) -> Iterator[None]:
    app.config["WEBHOOK_ALLOWED_NETWORKS"] = LOOPBACK
    yield
    app.config["WEBHOOK_ALLOWED_NETWORKS"] = []


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    made = Receiver(slow_seconds=60)
    yield made
    made.close()


def deliverer(app: Flask, settings: DeliverySettings = FAST) -> Any:
    stop = threading.Event()
    threads = run(app.app_context, settings, stop, threads=2)

    def stopped() -> None:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

    return stopped


def subscribe(api: Any, club: dict[str, Any], url: str, **body: Any) -> dict[str, Any]:
    response = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": url, "event_types": ["*"], **body},
        headers=api.auth(club["admin_token"]),
    )
    assert response.status_code == 201, response.json
    return response.json


def webhook_url(club: dict[str, Any], hook: dict[str, Any], tail: str = "") -> str:
    return f"/api/v1/clubs/{club['id']}/webhooks/{hook['id']}{tail}"


def deliveries(api: Any, club: dict[str, Any], hook: dict[str, Any]) -> list[dict[str, Any]]:
    found, before = [], None
    while True:
        query = {"limit": 100, **({"before": before} if before else {})}
        response = api.client.get(
            webhook_url(club, hook, "/deliveries"),
            query_string=query,
            headers=api.auth(club["admin_token"]),
        )
        assert response.status_code == 200, response.json
        found += response.json["deliveries"]
        before = response.json["before"]
        if before is None:
            return found[::-1]  # oldest first


# --- the API --------------------------------------------------------------------------------


def test_a_webhook_is_made_listed_changed_and_deleted_by_the_admin_token(
    api: Any, loopback_allowed: None
) -> None:
    club = api.club()
    admin = api.auth(club["admin_token"])
    hook = subscribe(
        api, club, "http://127.0.0.1:9/in", event_types=["hand.recorded"], description="bot"
    )
    assert hook["secret"].startswith("whsec_")
    Webhook(hook["secret"])  # a secret standardwebhooks reads
    assert hook["enabled"] is True and hook["event_types"] == ["hand.recorded"]

    listed = api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=admin).json
    assert [h["id"] for h in listed] == [hook["id"]]
    assert "secret" not in listed[0]

    changed = api.client.patch(
        webhook_url(club, hook), json={"event_types": ["table.closed", "*"]}, headers=admin
    )
    assert changed.status_code == 200, changed.json
    assert changed.json["event_types"] == ["*"]
    for bad in (
        {},
        {"event_types": ["hand.recorded", "hand.recorded"]},
        {"url": "http://10.0.0.1/"},
    ):
        refused = api.client.patch(webhook_url(club, hook), json=bad, headers=admin)
        assert refused.status_code == 422, (bad, refused.json)
    off = api.client.patch(webhook_url(club, hook), json={"enabled": False}, headers=admin)
    assert off.json["enabled"] is False and off.json["disabled_reason"]

    assert api.client.delete(webhook_url(club, hook), headers=admin).status_code == 204
    assert api.client.get(webhook_url(club, hook), headers=admin).status_code == 404
    assert api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=admin).json == []


def test_the_secret_of_a_replayed_creation_is_the_first_one(
    api: Any, loopback_allowed: None
) -> None:
    club = api.club()
    headers = {**api.auth(club["admin_token"]), "Idempotency-Key": "hook-1"}
    body = {"url": "http://127.0.0.1:9/in", "event_types": ["*"]}
    first = api.client.post(f"/api/v1/clubs/{club['id']}/webhooks", json=body, headers=headers)
    again = api.client.post(f"/api/v1/clubs/{club['id']}/webhooks", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json["secret"] == first.json["secret"] and again.json["id"] == first.json["id"]
    listed = api.client.get(
        f"/api/v1/clubs/{club['id']}/webhooks", headers=api.auth(club["admin_token"])
    ).json
    assert len(listed) == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://example.com/x", "event_types": ["*"]}, "url"),
        ({"url": "not a url", "event_types": ["*"]}, "url"),
        ({"url": "http://10.1.2.3/x", "event_types": ["*"]}, "url"),
        ({"url": "http://[::1]:8080/x", "event_types": ["*"]}, "url"),
        ({"url": "http://169.254.169.254/latest", "event_types": ["*"]}, "url"),
        ({"url": "http://localhost:8080/x", "event_types": ["*"]}, "url"),
        ({"url": "https://example.com/x", "event_types": ["hand.eaten"]}, "event_types"),
        ({"url": "https://example.com/x", "event_types": []}, "event_types"),
        ({"url": "https://example.com/x", "event_types": ["*", "*"]}, "event_types"),
        ({"url": "https://example.com/x"}, "event_types"),
        ({"url": "https://example.com/x", "event_types": ["*"], "description": 5}, "description"),
    ],
)
def test_a_bad_webhook_is_refused_naming_the_field(api: Any, body: Any, field: str) -> None:
    club = api.club()
    response = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks", json=body, headers=api.auth(club["admin_token"])
    )
    assert response.status_code == 422, response.json
    assert response.content_type.startswith("application/problem+json")
    assert field in str(response.json), response.json
    assert (
        api.client.get(
            f"/api/v1/clubs/{club['id']}/webhooks", headers=api.auth(club["admin_token"])
        ).json
        == []
    )


@pytest.mark.parametrize(
    ("url", "address", "kind"),
    [
        ("http://2130706433/in", "127.0.0.1", "a loopback address"),
        ("http://0x7f000001/in", "127.0.0.1", "a loopback address"),
        ("http://017700000001/in", "127.0.0.1", "a loopback address"),
        ("http://127.1/in", "127.0.0.1", "a loopback address"),
        ("http://0/in", "0.0.0.0", "an unspecified address"),  # noqa: S104 - the refused one
        ("http://[::ffff:127.0.0.1]/in", "::ffff:127.0.0.1", "a loopback address"),
        ("http://[::ffff:7f00:1]:8080/in", "::ffff:127.0.0.1", "a loopback address"),
        ("http://[::]/in", "::", "an unspecified address"),
        ("http://a.localhost/in", None, "a loopback address"),
        ("http://10.1.2.3/x", "10.1.2.3", "a private address"),
        ("http://169.254.169.254/latest", "169.254.169.254", "a link-local address"),
        ("http://100.64.0.1/x", "100.64.0.1", "a reserved address"),
    ],
)
def test_every_address_the_deliverer_refuses_is_refused_at_creation_with_why(
    api: Any, url: str, address: str | None, kind: str
) -> None:
    """One judgement for both: what the deliverer would never send to is refused when the
    webhook is made, naming the address it is and why; and the deliverer refuses it too."""
    club = api.club()
    hooks = f"/api/v1/clubs/{club['id']}/webhooks"
    admin = api.auth(club["admin_token"])
    response = api.client.post(hooks, json={"url": url, "event_types": ["*"]}, headers=admin)
    assert response.status_code == 422, response.json
    (message,) = response.json["errors"]["url"]
    assert kind in message, message
    if address is not None:
        assert f"is {address}, " in message, message
    with pytest.raises(AddressRefused):
        resolve(url, ())
    # A change of URL is judged alike.
    made = api.client.post(
        hooks, json={"url": "https://hooks.example.com/in", "event_types": ["*"]}, headers=admin
    )
    assert made.status_code == 201
    changed = api.client.patch(f"{hooks}/{made.json['id']}", json={"url": url}, headers=admin)
    assert changed.status_code == 422 and kind in changed.json["errors"]["url"][0]


def test_the_refusal_is_worded_in_the_readers_language(api: Any) -> None:
    club = api.club()
    response = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": "http://2130706433/", "event_types": ["*"]},
        headers={**api.auth(club["admin_token"]), "Accept-Language": "de"},
    )
    assert response.status_code == 422
    assert "Loopback-Adresse" in response.json["errors"]["url"][0], response.json


def test_a_name_that_does_not_resolve_yet_is_taken_and_judged_at_delivery(api: Any) -> None:
    club = api.club()
    made = api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": "https://not-yet.invalid/in", "event_types": ["*"]},
        headers=api.auth(club["admin_token"]),
    )
    assert made.status_code == 201
    with pytest.raises(AddressRefused, match="does not resolve"):
        resolve("https://not-yet.invalid/in", ())


def test_only_the_clubs_admin_token_reaches_its_webhooks(api: Any, loopback_allowed: None) -> None:
    club, other = api.club(), api.club("Other")
    hook = subscribe(api, club, "http://127.0.0.1:9/in")
    table = api.table(club=club)
    for token in (other["admin_token"], table["table_token"]):
        assert api.client.get(webhook_url(club, hook), headers=api.auth(token)).status_code == 403
    assert api.client.get(webhook_url(club, hook)).status_code == 401
    assert (
        api.client.get(webhook_url(other, hook), headers=api.auth(other["admin_token"])).status_code
        == 404
    )


def test_a_name_resolving_to_loopback_is_refused_at_delivery() -> None:
    with pytest.raises(AddressRefused):
        resolve("http://localhost:9/x", ())
    assert resolve("http://localhost:9/x?a=1", allowed_networks(LOOPBACK)).path == "/x?a=1"


# --- deliveries -----------------------------------------------------------------------------


def record_hands(api: Any, tables: list[dict[str, Any]], count: int) -> None:
    for number in range(count):
        for table in tables:
            hand = SOLO if number % 2 else LOST_SOLO
            assert api.record(table, hand).status_code == 201


def assert_in_order_per_table(received: list[dict[str, Any]]) -> None:
    """Each table's events arrived in the order of their ids (the first of each id)."""
    seen: set[int] = set()
    per_table: dict[str | None, list[int]] = {}
    for entry in received:
        event = entry["event"]
        if event["id"] in seen:
            continue
        seen.add(event["id"])
        per_table.setdefault(event["table_id"], []).append(event["id"])
    for ids in per_table.values():
        assert ids == sorted(ids), per_table


def test_every_event_is_delivered_signed_once_and_in_order(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    club = api.club()
    hook = subscribe(api, club, receiver.url)
    receiver.secret = hook["secret"]
    tables = [api.table(club=club), api.table(club=club)]
    record_hands(api, tables, 4)
    expected = [event["id"] for event in all_events(api, club)]
    stop = deliverer(app)
    try:
        wait_for(lambda: len(receiver.ids()) >= len(expected), what="every event")
    finally:
        stop()
    assert receiver.ids() == expected  # once each, in the club's order
    assert receiver.bad_signatures == 0
    assert {entry["webhook_id"] for entry in receiver.received} == {
        f"{club['id']}-{n}" for n in expected
    }
    assert all(entry["path"] == "/hooks?club=1" for entry in receiver.received)
    log = deliveries(api, club, hook)
    assert [(d["event_id"], d["outcome"], d["status"], d["attempt"]) for d in log] == [
        (n, "delivered", 204, 1) for n in expected
    ]
    assert (
        api.client.get(webhook_url(club, hook), headers=api.auth(club["admin_token"])).json[
            "delivered_through"
        ]
        == expected[-1]
    )


def test_two_deliverers_never_deliver_one_webhook_at_once(
    app: Flask, api: Any, loopback_allowed: None
) -> None:
    """Two deliverers of two threads each, one webhook: one delivery at a time, each event
    once, in order."""
    receiver = Receiver(delay=0.02)
    try:
        club = api.club()
        hook = subscribe(api, club, receiver.url)
        receiver.secret = hook["secret"]
        tables = [api.table(club=club), api.table(club=club)]
        record_hands(api, tables, 6)
        expected = [event["id"] for event in all_events(api, club)]
        stops = [deliverer(app), deliverer(app)]
        try:
            wait_for(lambda: len(receiver.ids()) >= len(expected), what="every event")
        finally:
            for stop in stops:
                stop()
        assert receiver.ids() == expected
        assert receiver.most_in_flight == 1
    finally:
        receiver.close()


def test_a_failing_redirecting_and_slow_receiver_gets_everything_once_it_comes_back(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    club = api.club()
    hook = subscribe(api, club, receiver.url, event_types=["hand.recorded", "table.closed"])
    receiver.secret = hook["secret"]
    receiver.script = [500, 503, 302, "slow", 500]
    table = api.table(club=club)
    record_hands(api, [table], 3)
    closed = api.client.post(
        f"/api/v1/tables/{table['id']}/close", headers=api.auth(table["table_token"])
    )
    assert closed.status_code == 200
    wanted = [
        e["id"] for e in all_events(api, club) if e["type"] in ("hand.recorded", "table.closed")
    ]
    stop = deliverer(app)
    try:
        wait_for(lambda: len(receiver.ids()) >= len(wanted), what="the events after the failures")
    finally:
        stop()
    assert receiver.ids() == wanted
    assert not any("redirected" in entry["path"] for entry in receiver.received)
    log = deliveries(api, club, hook)
    first = [d for d in log if d["event_id"] == wanted[0]]
    assert [(d["attempt"], d["status"]) for d in first] == [
        (1, 500),
        (2, 503),
        (3, 302),
        (4, None),
        (5, 500),
        (6, 204),
    ]
    assert first[2]["error"] == "redirect not followed"
    assert first[3]["error"].startswith("timed out")
    # the read timeout (1 s) cut the wait short: the receiver would have answered after 60 s
    # (the margin is for a slow machine, not a measure of speed)
    assert first[3]["latency_ms"] < 30_000
    assert all(d["outcome"] == "delivered" for d in log if d["event_id"] != wanted[0])


def test_a_webhook_failing_too_long_is_disabled_the_club_told_and_it_comes_back(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    club = api.club()
    admin = api.auth(club["admin_token"])
    hook = subscribe(api, club, receiver.url, event_types=["hand.recorded"])
    receiver.secret = hook["secret"]
    receiver.script = [500, 500, 500]
    table = api.table(club=club)
    record_hands(api, [table], 2)
    settings = DeliverySettings(**{**_fields(FAST), "disable_after_seconds": 0.1})
    stop = deliverer(app, settings)
    try:
        wait_for(
            lambda: api.client.get(webhook_url(club, hook), headers=admin).json["enabled"] is False,
            what="disabled",
        )
        state = api.client.get(webhook_url(club, hook), headers=admin).json
        assert state["disabled_reason"].startswith("failing since")
        told = [e for e in all_events(api, club) if e["type"] == "webhook.disabled"]
        assert [e["data"]["webhook"] for e in told] == [hook["id"]]
        assert receiver.ids() == []

        back = api.client.patch(webhook_url(club, hook), json={"enabled": True}, headers=admin)
        assert back.status_code == 200 and back.json["failing_since"] is None
        hands = [e["id"] for e in all_events(api, club) if e["type"] == "hand.recorded"]
        wait_for(lambda: receiver.ids() == hands, what="the missed events after turning it on")
    finally:
        stop()


def test_an_event_is_redelivered_by_hand(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    club = api.club()
    admin = api.auth(club["admin_token"])
    hook = subscribe(api, club, receiver.url)
    receiver.secret = hook["secret"]
    api.table(club=club)
    stop = deliverer(app)
    try:
        wait_for(lambda: receiver.ids() == [1], what="the first delivery")
        asked = api.client.post(
            webhook_url(club, hook, "/redeliveries"), json={"event_id": 1}, headers=admin
        )
        assert asked.status_code == 202, asked.json
        wait_for(lambda: receiver.ids() == [1, 1], what="the redelivery")
    finally:
        stop()
    assert receiver.received[0]["webhook_id"] == receiver.received[1]["webhook_id"]
    log = deliveries(api, club, hook)
    assert [(d["attempt"], d["manual"]) for d in log] == [(1, False), (2, True)]
    bad = api.client.post(
        webhook_url(club, hook, "/redeliveries"), json={"event_id": 99}, headers=admin
    )
    assert bad.status_code == 422 and "event_id" in str(bad.json)


def _fields(settings: DeliverySettings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in settings.__dataclass_fields__}


# --- kill -9 --------------------------------------------------------------------------------


def _deliverer_process(app: Flask) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "FLASK_APP": "service",
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SOLO_WEBHOOK_ALLOWED_NETWORKS": '["127.0.0.1/32"]',
        "SOLO_WEBHOOK_IDLE_POLL_S": "0.05",
        "SOLO_WEBHOOK_CONNECT_TIMEOUT_S": "0.5",
        "SOLO_WEBHOOK_READ_TIMEOUT_S": "1.0",
        "SOLO_WEBHOOK_LEASE_MARGIN_S": "0.5",
        "SOLO_WEBHOOK_BACKOFF_BASE_S": "0.05",
    }
    flask = os.path.join(os.path.dirname(sys.executable), "flask")
    return subprocess.Popen(
        [flask, "deliver-webhooks", "--threads", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_a_deliverer_killed_mid_run_loses_nothing(
    app: Flask, api: Any, loopback_allowed: None
) -> None:
    receiver = Receiver(delay=0.05)  # each answer takes a while: the kill lands mid-run
    try:
        club = api.club()
        hooks = [subscribe(api, club, receiver.url)]
        receiver.secret = hooks[0]["secret"]
        tables = [api.table(club=club), api.table(club=club), api.table(club=club)]
        record_hands(api, tables, 8)
        expected = [event["id"] for event in all_events(api, club)]
        first = _deliverer_process(app)
        try:
            wait_for(lambda: len(receiver.ids()) >= 5, what="the first deliveries")
        finally:
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=30)
        assert len(set(receiver.ids())) < len(expected), "killed after the end, not mid-run"
        second = _deliverer_process(app)
        try:
            wait_for(lambda: set(receiver.ids()) >= set(expected), timeout=120, what="every event")
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(timeout=60)
        ids = receiver.ids()
        assert sorted(set(ids)) == expected  # every event, by id
        assert len(ids) - len(set(ids)) <= 1  # at most the one in flight at the kill again
        assert_in_order_per_table(receiver.received)
        first_seen = list(dict.fromkeys(ids))
        assert first_seen == expected  # in the club's order
        assert receiver.bad_signatures == 0
    finally:
        receiver.close()


def test_the_log_keeps_attempts_for_the_retention_only(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    club = api.club()
    hook = subscribe(api, club, receiver.url)
    receiver.secret = hook["secret"]
    api.table(club=club)
    stop = deliverer(app, DeliverySettings(**{**_fields(FAST), "log_retention_days": 0.0}))
    try:
        wait_for(lambda: receiver.ids() == [1], what="the delivery")
        wait_for(lambda: deliveries(api, club, hook) == [], what="its attempt dropped")
    finally:
        stop()


def test_a_new_event_wakes_an_idle_deliverer(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None
) -> None:
    """Woken by the outbox's feed (as ``flask deliver-webhooks`` is), an idle deliverer sends
    a new event long before its next look (a minute away)."""
    from service.extensions import db
    from service.services.live_feed import feed_for

    club = api.club()
    hook = subscribe(api, club, receiver.url)
    receiver.secret = hook["secret"]
    stop, wake = threading.Event(), threading.Event()
    with app.app_context():
        feed = feed_for(db.engine)
        feed.attach(lambda *_: wake.set())
        assert feed.ready(10)
    sleepy = DeliverySettings(**{**_fields(FAST), "idle_poll_seconds": 60.0})
    threads = run(app.app_context, sleepy, stop, threads=1, wake=wake)
    try:
        wait_for(lambda: not wake.is_set(), what="the deliverer idle")
        api.table(club=club)
        wait_for(lambda: receiver.ids() == [1], timeout=30, what="the event, woken")
    finally:
        stop.set()
        wake.set()
        for thread in threads:
            thread.join(timeout=30)


@pytest.mark.parametrize(
    "bad",
    [{"outcome": "lost"}, {"attempt": 0}, {"latency_ms": -1}, {"subscription_id": "x" * 32}],
)
def test_the_database_refuses_an_impossible_delivery_row(
    app: Flask, api: Any, loopback_allowed: None, bad: dict[str, Any]
) -> None:
    from sqlalchemy import insert
    from sqlalchemy.exc import IntegrityError

    from service.extensions import db
    from service.persistence.columns import utcnow
    from service.persistence.webhooks import WebhookDeliveryRow

    club = api.club()
    hook = subscribe(api, club, "http://127.0.0.1:9/in")
    row = {
        "subscription_id": hook["id"],
        "seq": 1,
        "event_type": "table.opened",
        "attempt": 1,
        "manual": False,
        "outcome": "delivered",
        "status": 204,
        "latency_ms": 3,
        "attempted_at": utcnow(),
    }
    with app.app_context():
        with db.engine.begin() as connection:  # the good row is taken
            connection.execute(insert(WebhookDeliveryRow), row)
        with pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(insert(WebhookDeliveryRow), {**row, **bad})


def test_the_deliverers_log_lines_carry_the_request_id_of_the_event(
    app: Flask, api: Any, receiver: Receiver, loopback_allowed: None, caplog: Any
) -> None:
    """A hand recorded with ``X-Request-Id: phone-7-hand-3``: the answer returns it, and the
    deliverer's log line of that hand's event carries it, as JSON; no reader of the event
    sees it (the webhook's body, the feed), and no log line holds a token."""
    caplog.set_level(logging.INFO, logger="service")
    club = api.club()
    hook = subscribe(api, club, receiver.url)
    receiver.secret = hook["secret"]
    table = api.table(club=club)
    recorded = api.client.post(
        f"/api/v1/tables/{table['id']}/hands",
        json=SOLO,
        headers={**api.auth(table["table_token"]), "X-Request-Id": "phone-7-hand-3"},
    )
    assert recorded.status_code == 201
    assert recorded.headers["X-Request-Id"] == "phone-7-hand-3"
    expected = [event["id"] for event in all_events(api, club)]
    stop = deliverer(app)
    try:
        wait_for(lambda: len(receiver.ids()) >= len(expected), what="every event")
    finally:
        stop()
    lines = [
        json.loads(JsonLines().format(record))
        for record in caplog.records
        if record.name == "service.services.webhooks.deliverer"
    ]
    hand_lines = [line for line in lines if "(hand.recorded)" in line["message"]]
    assert hand_lines and all(line["request_id"] == "phone-7-hand-3" for line in hand_lines)
    assert "delivered (204)" in hand_lines[0]["message"] and hand_lines[0]["level"] == "info"
    assert "_request_id" not in json.dumps(receiver.received)
    assert "_request_id" not in json.dumps(all_events(api, club))
    for token in (table["table_token"], club["admin_token"], hook["secret"]):
        assert token not in caplog.text
