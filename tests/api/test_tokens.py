"""Tokens for programs and their revocation: named read-only tokens (made, listed, revoked one
by one, their last use noted at most once a minute), the rotation of the admin token that
needs the current one, the table token's statistics of its own season only, and no memory
of tokens in a worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from service.extensions import db
from service.persistence.columns import utcnow
from service.persistence.table_keeping import TokenRow
from service.services import auth
from service.services.league import admin as league_admin
from tests.api.test_league import SOLO, League


@pytest.fixture
def league(api, client):
    return League(api, client)


def _tokens_url(league: League) -> str:
    return f"/api/v1/clubs/{league.club['id']}/viewer-tokens"


def _make(league: League, name: str):
    return league.client.post(_tokens_url(league), json={"name": name}, headers=league.admin)


def test_a_club_holds_several_named_read_only_tokens_listed_and_revoked_one_by_one(
    api, client, league
):
    bot, tv = _make(league, "league bot"), _make(league, "TV in the hall")
    assert bot.status_code == tv.status_code == 201
    assert bot.headers["Cache-Control"] == "no-store"
    assert bot.json["kind"] == "viewer" and bot.json["name"] == "league bot"
    link = client.post(f"/api/v1/clubs/{league.club['id']}/viewer-token", headers=league.admin)
    listed = client.get(_tokens_url(league), headers=league.admin)
    assert listed.status_code == 200
    assert [t["name"] for t in listed.json] == ["league bot", "TV in the hall", None]
    secrets = {bot.json["token"], tv.json["token"], link.json["token"]}
    text = listed.get_data(as_text=True)
    assert not any(s in text for s in secrets)
    assert not any(auth.hash_token(s) in text for s in secrets)
    assert all(
        set(t) == {"id", "club_id", "kind", "name", "created_at", "last_used_at"}
        for t in listed.json
    )
    # Each reads; revoking one leaves the others working.
    club = f"/api/v1/clubs/{league.club['id']}"
    for token in secrets:
        assert client.get(club, headers=api.auth(token)).status_code == 200
    gone = client.delete(f"{_tokens_url(league)}/{bot.json['id']}", headers=league.admin)
    assert gone.status_code == 204
    refused = client.get(club, headers=api.auth(bot.json["token"]))
    assert refused.status_code == 401
    assert refused.json["type"] == "urn:solo:problem:token-revoked"
    assert client.get(club, headers=api.auth(tv.json["token"])).status_code == 200
    assert client.get(club, headers=api.auth(link.json["token"])).status_code == 200
    again = client.delete(f"{_tokens_url(league)}/{bot.json['id']}", headers=league.admin)
    assert again.status_code == 404
    # The old link made anew leaves the named tokens alone.
    client.post(f"{club}/viewer-token", headers=league.admin)
    assert client.get(club, headers=api.auth(link.json["token"])).status_code == 401
    assert client.get(club, headers=api.auth(tv.json["token"])).status_code == 200
    assert [t["name"] for t in client.get(_tokens_url(league), headers=league.admin).json] == [
        "TV in the hall",
        None,
    ]


def test_named_tokens_refuse_a_taken_or_blank_name_and_other_tokens(api, client, league):
    first = _make(league, "bot")
    taken = _make(league, "bot")
    assert taken.status_code == 409, taken.json
    assert "bot" in taken.json["detail"]
    blank = client.post(_tokens_url(league), json={"name": " "}, headers=league.admin)
    assert blank.status_code == 422 and "name" in blank.json["errors"]
    # Revoked, its name is free again.
    client.delete(f"{_tokens_url(league)}/{first.json['id']}", headers=league.admin)
    assert _make(league, "bot").status_code == 201
    viewer = api.auth(first.json["token"])
    other = api.club()
    for headers in (viewer, api.auth(other["admin_token"])):
        assert client.get(_tokens_url(league), headers=headers).status_code in (401, 403)
        assert client.post(
            _tokens_url(league), json={"name": "x"}, headers=headers
        ).status_code in (
            401,
            403,
        )
    assert (
        client.delete(f"{_tokens_url(league)}/{'0' * 32}", headers=league.admin).status_code == 404
    )


def test_a_club_holds_a_bounded_number_of_named_tokens(client, league, monkeypatch):
    monkeypatch.setattr(league_admin, "MAX_VIEWER_TOKENS", 2)
    assert _make(league, "a").status_code == 201
    assert _make(league, "b").status_code == 201
    full = _make(league, "c")
    assert full.status_code == 409 and "2" in full.json["detail"]


def test_last_use_is_noted_at_most_once_a_minute(app, api, client, league):
    made = _make(league, "bot").json
    club = f"/api/v1/clubs/{league.club['id']}"

    def last_used():
        listed = client.get(_tokens_url(league), headers=league.admin).json
        return next(t["last_used_at"] for t in listed if t["id"] == made["id"])

    assert last_used() is None
    assert client.get(club, headers=api.auth(made["token"])).status_code == 200
    first = last_used()
    assert first is not None
    for _ in range(5):
        client.get(club, headers=api.auth(made["token"]))
    assert last_used() == first  # within the minute: no write
    with app.app_context():
        db.session.execute(
            update(TokenRow)
            .where(TokenRow.id == made["id"])
            .values(last_used_at=utcnow() - timedelta(minutes=2))
        )
        db.session.commit()
    stale = last_used()
    client.get(club, headers=api.auth(made["token"]))
    assert last_used() > stale


def test_only_the_current_admin_token_rotates(api, client, league):
    url = f"/api/v1/clubs/{league.club['id']}/admin-token"
    owner = client.post(url, headers=league.admin)
    assert owner.status_code == 201
    for _ in range(3):
        thief = client.post(url, headers=league.admin)
        assert thief.status_code == 401
        assert thief.json["type"] == "urn:solo:problem:token-revoked"
    new = api.auth(owner.json["token"])
    assert client.get(f"/api/v1/clubs/{league.club['id']}", headers=new).status_code == 200


def test_a_revoked_token_is_refused_by_the_next_request_without_memory(api, client, league):
    """No memory of tokens: a token revoked behind this worker's back (straight in the
    database, as another instance would) is refused by the very next request, the table
    polls answered before Flask included."""
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    token = api.auth(table["table_token"])
    path = f"/api/v1/tables/{table['id']}"
    etag = client.get(path, headers=token).headers["ETag"]
    assert client.get(path, headers={**token, "If-None-Match": etag}).status_code == 304
    with client.application.app_context():
        db.session.execute(
            update(TokenRow).where(TokenRow.table_id == table["id"]).values(revoked_at=utcnow())
        )
        db.session.commit()
    for headers in ({**token, "If-None-Match": etag}, token):
        refused = client.get(path, headers=headers)
        assert refused.status_code == 401
        assert refused.json["type"] == "urn:solo:problem:token-revoked"
    assert not hasattr(auth, "_principals")


def test_a_table_token_reads_its_seasons_statistics_only(api, client, league):
    """docs/league.md: the players seated at it, its season; no career, no other season."""
    autumn = league.new_season("Autumn")
    earlier = league.table([0, 1, 2, 3], season=autumn)
    league.record(earlier, SOLO)
    league.close(earlier)
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    player = league.players[0]
    full = client.get(f"/api/v1/players/{player}/stats", headers=league.admin).json
    assert {s["season_id"] for s in full["seasons"]} == {autumn["id"], league.season["id"]}
    assert full["career"]
    seen = client.get(f"/api/v1/players/{player}/stats", headers=api.auth(table["table_token"]))
    assert seen.status_code == 200
    assert seen.json["career"] == []
    assert [s["season_id"] for s in seen.json["seasons"]] == [league.season["id"]]
    mine = next(s for s in full["seasons"] if s["season_id"] == league.season["id"])
    assert seen.json["seasons"][0] == mine
