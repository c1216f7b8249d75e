"""Who may do what: the 401/403 matrix for every endpoint that writes (and the reads)."""

from __future__ import annotations

import pytest

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


@pytest.fixture
def world(api):
    """A club with two tables, and a second club with its own table."""
    club = api.club("Home")
    table = api.table(club=club)
    api.record(table, SOLO)
    sibling = api.table(club=club)
    other_club = api.club("Away")
    stranger = api.table(club=other_club)
    return {
        "club": club,
        "table": table,
        "sibling": sibling,
        "other_club": other_club,
        "stranger": stranger,
    }


TABLE_CALLS = [
    ("post", "/api/v1/tables/{table}/hands", SOLO),
    ("put", "/api/v1/tables/{table}/hands/1", SOLO),
    ("delete", "/api/v1/tables/{table}/hands/1", None),
    ("post", "/api/v1/tables/{table}/close", None),
    ("get", "/api/v1/tables/{table}", None),
    ("get", "/api/v1/tables/{table}/hands", None),
    ("get", "/api/v1/tables/{table}/hands/1", None),
    ("get", "/api/v1/tables/{table}/hands/1/history", None),
    ("get", "/api/v1/tables/{table}/ledger", None),
    ("get", "/api/v1/tables/{table}/settle-up", None),
]
CLUB_CALLS = [
    ("post", "/api/v1/clubs/{club}/players", {"name": "Newcomer"}),
    ("get", "/api/v1/clubs/{club}/players", None),
    ("get", "/api/v1/clubs/{club}", None),
]


def _call(client, method, url, body, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return getattr(client, method)(url, json=body, headers=headers)


def _expected_success(method: str, url: str) -> set[int]:
    return {201} if method == "post" and url.endswith(("hands", "players")) else {200}


@pytest.mark.parametrize(("method", "url", "body"), TABLE_CALLS)
def test_table_endpoints_need_the_table_or_its_club_admin_token(client, world, method, url, body):
    target = url.format(table=world["table"]["id"])
    cases = [
        (None, 401),
        ("not-a-token", 401),
        (world["sibling"]["table_token"], 403),
        (world["stranger"]["table_token"], 403),
        (world["other_club"]["admin_token"], 403),
    ]
    for token, status in cases:
        response = _call(client, method, target, body, token)
        assert response.status_code == status, (token, response.json)
        assert response.content_type == "application/problem+json"
    assert _call(
        client, method, target, body, world["table"]["table_token"]
    ).status_code in _expected_success(method, url)


@pytest.mark.parametrize(("method", "url", "body"), TABLE_CALLS)
def test_the_club_admin_token_reaches_every_table_endpoint(client, world, method, url, body):
    target = url.format(table=world["table"]["id"])
    response = _call(client, method, target, body, world["club"]["admin_token"])
    assert response.status_code in _expected_success(method, url), response.json


@pytest.mark.parametrize(("method", "url", "body"), CLUB_CALLS)
def test_club_endpoints_need_that_clubs_admin_token(client, world, method, url, body):
    target = url.format(club=world["club"]["id"])
    for token, status in [
        (None, 401),
        ("nope", 401),
        (world["table"]["table_token"], 403),
        (world["other_club"]["admin_token"], 403),
    ]:
        assert _call(client, method, target, body, token).status_code == status
    assert _call(
        client, method, target, body, world["club"]["admin_token"]
    ).status_code in _expected_success(method, url)


def test_opening_a_table_needs_the_clubs_admin_token(client, api, world):
    seats = api.players(world["club"], 4)
    body = {"club_id": world["club"]["id"], "name": "T", "variant": "american", "seats": seats}
    for token, status in [
        (None, 401),
        ("nope", 401),
        (world["table"]["table_token"], 403),
        (world["other_club"]["admin_token"], 403),
    ]:
        assert _call(client, "post", "/api/v1/tables", body, token).status_code == status
    assert (
        _call(client, "post", "/api/v1/tables", body, world["club"]["admin_token"]).status_code
        == 201
    )


def test_tokens_are_stored_only_as_hashes(app, world):
    from sqlalchemy import select

    from service.extensions import db
    from service.persistence.table_keeping import TokenRow

    with app.app_context():
        stored = set(db.session.scalars(select(TokenRow.token_hash)))
    for token in (world["club"]["admin_token"], world["table"]["table_token"]):
        assert len(token) >= 43  # 32 random bytes, URL-safe base64
        assert token not in stored
