"""A program's token (docs/league.md#tokens): a named token of the club, made, listed and
revoked by its admin like the read-only ones; it reads what they read, manages the webhooks it
makes and no other, and writes nothing else (403 naming why); revoking it turns its webhooks
off and tells the club. Kept as a digest only, like every token. (That revoking it ends its
streams is tests/api/test_stream_revocation.py's.)"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from service.extensions import db
from service.persistence.columns import utcnow
from service.persistence.table_keeping import TokenRow
from service.persistence.webhooks import WebhookRedeliveryRow
from service.services import auth
from service.services.webhooks import subscriptions
from tests.api.test_changes import all_events
from tests.api.test_league import SOLO, League
from tests.api.test_webhooks import loopback_allowed, subscribe, webhook_url

__all__ = ["loopback_allowed"]  # the fixture, used by name below

HOOK = "http://127.0.0.1:9/in"


@pytest.fixture
def league(api: Any, client: Any) -> League:
    return League(api, client)


def make(league: League, name: str, kind: str = "program") -> dict[str, Any]:
    made = league.client.post(
        f"/api/v1/clubs/{league.club['id']}/viewer-tokens",
        json={"name": name, "kind": kind},
        headers=league.admin,
    )
    assert made.status_code == 201, made.json
    return made.json


def hook_of(api: Any, club: dict[str, Any], token: str, **body: Any) -> Any:
    return api.client.post(
        f"/api/v1/clubs/{club['id']}/webhooks",
        json={"url": HOOK, "event_types": ["*"], **body},
        headers=api.auth(token),
    )


def test_a_program_token_is_named_listed_and_stored_as_its_digest_only(
    app: Any, api: Any, league: League
) -> None:
    bot = make(league, "league bot")
    assert bot["kind"] == "program" and bot["name"] == "league bot"
    viewer = make(league, "noticeboard", kind="viewer")
    listed = league.client.get(
        f"/api/v1/clubs/{league.club['id']}/viewer-tokens", headers=league.admin
    ).json
    assert [(t["name"], t["kind"]) for t in listed] == [
        ("league bot", "program"),
        ("noticeboard", "viewer"),
    ]
    assert bot["token"] not in str(listed)
    # One name among the club's named tokens, whatever their kind.
    taken = league.client.post(
        f"/api/v1/clubs/{league.club['id']}/viewer-tokens",
        json={"name": "noticeboard", "kind": "program"},
        headers=league.admin,
    )
    assert taken.status_code == 409, taken.json
    unknown = league.client.post(
        f"/api/v1/clubs/{league.club['id']}/viewer-tokens",
        json={"name": "x", "kind": "admin"},
        headers=league.admin,
    )
    assert unknown.status_code == 422 and "kind" in unknown.json["errors"]
    # A program's token makes no token: only the admin's does.
    refused = league.client.post(
        f"/api/v1/clubs/{league.club['id']}/viewer-tokens",
        json={"name": "y", "kind": "program"},
        headers=api.auth(bot["token"]),
    )
    assert refused.status_code == 403
    with app.app_context():
        rows = db.session.execute(text("SELECT * FROM tokens")).all()
        db.session.remove()
    stored = str(rows)
    assert bot["token"] not in stored and viewer["token"] not in stored
    assert auth.hash_token(bot["token"]) in stored


def test_a_program_token_reads_what_a_read_only_token_reads(api: Any, league: League) -> None:
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    club = league.club["id"]
    readers = {
        kind: api.auth(make(league, f"reader {kind}", kind)["token"])
        for kind in ("viewer", "program")
    }
    reads = [
        f"/api/v1/clubs/{club}",
        f"/api/v1/clubs/{club}/players",
        f"/api/v1/clubs/{club}/tables",
        f"/api/v1/clubs/{club}/export",
        f"/api/v1/clubs/{club}/changes",
        f"/api/v1/tables/{table['id']}",
        f"/api/v1/tables/{table['id']}/hands",
        f"/api/v1/tables/{table['id']}/ledger",
        f"/api/v1/seasons/{league.season['id']}/standings",
        f"/api/v1/players/{league.players[0]}/stats",
    ]
    for path in reads:
        answers = {kind: api.client.get(path, headers=h) for kind, h in readers.items()}
        assert answers["program"].status_code == answers["viewer"].status_code == 200, path
    tickets = api.client.post(f"/api/v1/clubs/{club}/events/tickets", headers=readers["program"])
    assert tickets.status_code == 201, tickets.json
    other = api.club("Other")
    refused = api.client.get(f"/api/v1/clubs/{other['id']}", headers=readers["program"])
    assert refused.status_code == 403


def test_a_program_token_writes_nothing_but_its_own_webhooks(api: Any, league: League) -> None:
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    bot = api.auth(make(league, "league bot")["token"])
    club = league.club["id"]
    hands = f"/api/v1/tables/{table['id']}/hands"
    writes = [
        ("post", hands, SOLO),
        ("put", f"{hands}/1", SOLO),
        ("delete", f"{hands}/1", None),
        ("post", f"/api/v1/tables/{table['id']}/close", None),
        ("patch", f"/api/v1/tables/{table['id']}", {"rate": None}),
        ("post", f"/api/v1/tables/{table['id']}/token", None),
        ("post", f"/api/v1/clubs/{club}/players", {"name": "Eve"}),
        ("patch", f"/api/v1/players/{league.players[0]}", {"name": "Eve"}),
        ("post", f"/api/v1/clubs/{club}/seasons", {"name": "Autumn", "variant": "american"}),
        ("patch", f"/api/v1/clubs/{club}", {"currency": "CHF"}),
        ("post", f"/api/v1/clubs/{club}/admin-token", None),
        ("post", f"/api/v1/clubs/{club}/viewer-token", None),
        (
            "post",
            "/api/v1/tables",
            {"club_id": club, "name": "T", "variant": "american", "seats": league.players[:4]},
        ),
    ]
    before = all_events(api, league.club)
    for method, path, body in writes:
        answer = getattr(api.client, method)(path, json=body, headers=bot)
        assert answer.status_code == 403, (method, path, answer.json)
        assert "program's token" in answer.json["detail"], (method, path, answer.json)
    assert all_events(api, league.club) == before  # nothing changed
    assert len(api.client.get(hands, headers=bot).json) == 1


def test_a_program_manages_its_own_webhooks_and_no_other(
    api: Any, league: League, loopback_allowed: None
) -> None:
    club = league.club
    league.table([0, 1, 2, 3])  # event 1
    one, two = make(league, "bot one"), make(league, "bot two")
    mine, theirs = api.auth(one["token"]), api.auth(two["token"])
    admins = subscribe(api, club, HOOK)
    made = hook_of(api, club, one["token"], description="bot one's")
    assert made.status_code == 201, made.json
    hook = made.json
    assert hook["secret"].startswith("whsec_") and hook["token_id"] == one["id"]
    other = hook_of(api, club, two["token"]).json
    assert admins["token_id"] is None

    listed = api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=mine).json
    assert [h["id"] for h in listed] == [hook["id"]]
    every = api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=league.admin).json
    assert [(h["id"], h["token_id"]) for h in every] == [
        (admins["id"], None),
        (hook["id"], one["id"]),
        (other["id"], two["id"]),
    ]
    # Its own: read, its log, a redelivery, and at last deleted.
    assert api.client.get(webhook_url(club, hook), headers=mine).status_code == 200
    log = api.client.get(webhook_url(club, hook, "/deliveries"), headers=mine)
    assert log.status_code == 200 and log.json["deliveries"] == []
    again = api.client.post(
        webhook_url(club, hook, "/redeliveries"), json={"event_id": 1}, headers=mine
    )
    assert again.status_code == 202, again.json
    # Another program's and the admin's: nothing, and the refusal says why.
    for foreign in (admins, other):
        for method, tail, body in (
            ("get", "", None),
            ("get", "/deliveries", None),
            ("post", "/redeliveries", {"event_id": 1}),
            ("delete", "", None),
        ):
            answer = getattr(api.client, method)(
                webhook_url(club, foreign, tail), json=body, headers=mine
            )
            assert answer.status_code == 403, (foreign["id"], method, tail)
            assert "not this program's" in answer.json["detail"]
    # A change is the admin's alone.
    change = api.client.patch(webhook_url(club, hook), json={"enabled": False}, headers=mine)
    assert change.status_code == 403 and "delete it and make another" in change.json["detail"]
    assert (
        api.client.patch(
            webhook_url(club, hook), json={"description": "checked"}, headers=league.admin
        ).json["description"]
        == "checked"
    )
    # A read-only token manages none.
    viewer = api.auth(make(league, "noticeboard", "viewer")["token"])
    assert api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=viewer).status_code == 403
    assert hook_of(api, club, make(league, "tv", "viewer")["token"]).status_code == 403
    assert api.client.delete(webhook_url(club, hook), headers=mine).status_code == 204
    assert api.client.delete(webhook_url(club, other), headers=theirs).status_code == 204
    left = api.client.get(f"/api/v1/clubs/{club['id']}/webhooks", headers=league.admin).json
    assert [h["id"] for h in left] == [admins["id"]]


def test_a_programs_keyed_creation_replays_its_secret(
    api: Any, league: League, loopback_allowed: None
) -> None:
    bot = make(league, "league bot")["token"]
    key = {"Idempotency-Key": "hook-1"}
    first = api.client.post(
        f"/api/v1/clubs/{league.club['id']}/webhooks",
        json={"url": HOOK, "event_types": ["*"]},
        headers={**api.auth(bot), **key},
    )
    again = api.client.post(
        f"/api/v1/clubs/{league.club['id']}/webhooks",
        json={"url": HOOK, "event_types": ["*"]},
        headers={**api.auth(bot), **key},
    )
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["secret"] == first.json["secret"]


def test_revoking_a_program_token_turns_its_webhooks_off_and_tells_the_club(
    app: Any, api: Any, league: League, loopback_allowed: None
) -> None:
    club = league.club
    league.table([0, 1, 2, 3])
    bot = make(league, "league bot")
    hook = hook_of(api, club, bot["token"]).json
    admins = subscribe(api, club, HOOK)
    asked = api.client.post(
        webhook_url(club, hook, "/redeliveries"),
        json={"event_id": 1},
        headers=api.auth(bot["token"]),
    )
    assert asked.status_code == 202
    revoked = api.client.delete(
        f"/api/v1/clubs/{club['id']}/viewer-tokens/{bot['id']}", headers=league.admin
    )
    assert revoked.status_code == 204
    refused = api.client.get(f"/api/v1/clubs/{club['id']}", headers=api.auth(bot["token"]))
    assert refused.status_code == 401
    assert refused.json["type"] == "urn:solo:problem:token-revoked"
    assert "program's token was revoked" in refused.json["detail"]
    off = api.client.get(webhook_url(club, hook), headers=league.admin).json
    assert off["enabled"] is False and off["disabled_at"]
    assert off["disabled_reason"] == "its program's token was revoked"
    assert api.client.get(webhook_url(club, admins), headers=league.admin).json["enabled"] is True
    with app.app_context():
        waiting = db.session.scalar(
            select(func.count())
            .select_from(WebhookRedeliveryRow)
            .where(WebhookRedeliveryRow.subscription_id == hook["id"])
        )
        db.session.remove()
    assert waiting == 0  # nothing more is sent to it, by hand either
    told = [e for e in all_events(api, club) if e["type"] == "webhook.disabled"]
    assert [e["data"] for e in told] == [{"webhook": hook["id"], "url": HOOK}]


def test_the_database_refuses_an_unnamed_program_token_and_a_kind_it_does_not_know(
    app: Any, league: League
) -> None:
    def refused(statement: Any) -> None:
        with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
            connection.execute(statement)

    club = league.club["id"]
    refused(
        insert(TokenRow).values(
            id="p" * 32, kind="program", club_id=club, token_hash="0" * 64, name=None
        )
    )
    refused(
        insert(TokenRow).values(
            id="q" * 32, kind="robot", club_id=club, token_hash="1" * 64, name="bot"
        )
    )


def test_a_webhook_is_not_made_for_a_token_revoked_while_its_request_ran(
    app: Any, api: Any, league: League, loopback_allowed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A revocation that commits between the token's check and the webhook's insert: the
    webhook is not made (it would be a working webhook of a revoked token)."""
    bot = make(league, "league bot")
    check = subscriptions._check_url

    def revoked_meanwhile(url: str, allowed: Any) -> None:
        check(url, allowed)
        with db.engine.begin() as connection:  # another request's revocation, committed
            connection.execute(
                update(TokenRow).where(TokenRow.id == bot["id"]).values(revoked_at=utcnow())
            )

    monkeypatch.setattr(subscriptions, "_check_url", revoked_meanwhile)
    refused = hook_of(api, league.club, bot["token"])
    assert refused.status_code == 401, refused.json
    assert refused.json["type"] == "urn:solo:problem:token-revoked"
    monkeypatch.undo()
    listed = api.client.get(
        f"/api/v1/clubs/{league.club['id']}/webhooks", headers=league.admin
    ).json
    assert listed == []
