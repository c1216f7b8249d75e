"""``Idempotency-Key`` on every POST and PATCH (api/idempotency.py, services/idempotency.py):
a retry with the same key and body is the first answer again and changes nothing; another
body is a 409; a malformed key a 422 naming the header; keys are the caller's own."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from service.api.idempotency import NONE, OWN, STORED, idempotency_of
from service.extensions import db
from service.persistence.columns import utcnow
from service.persistence.idempotency import IdempotentRequestRow
from tests.support import inlined

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}


@pytest.fixture(scope="module")
def document(app) -> dict[str, Any]:
    return inlined(app.test_client().get("/openapi.json").json)


def _key(name: str) -> dict[str, str]:
    return {"Idempotency-Key": name}


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _twice(client: Any, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
    send = getattr(client, method)
    first = send(path, json=body, headers=headers)
    again = send(path, json=body, headers=headers)
    assert 200 <= first.status_code < 300, first.json
    assert again.status_code == first.status_code, again.json
    assert again.json == first.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    for name in ("Location", "ETag"):
        assert again.headers.get(name) == first.headers.get(name)
    return first


def test_open_table_twice_with_one_key_opens_one_table(api, client):
    club = api.club()
    seats = api.players(club, 4)
    body = {
        "club_id": club["id"],
        "name": "T",
        "variant": "american",
        "seats": seats,
        "first_dealer": 0,
    }
    headers = {**_auth(club["admin_token"]), **_key("open-1")}
    first = _twice(client, "post", "/api/v1/tables", body, headers)
    # The table's token comes back in the replay too, and it works.
    table = first.json
    assert (
        client.get(f"/api/v1/tables/{table['id']}", headers=_auth(table["table_token"])).status_code
        == 200
    )
    listed = client.get(f"/api/v1/clubs/{club['id']}/tables", headers=_auth(club["admin_token"]))
    assert len(listed.json) == 1
    # Without a key, the same body opens another table, as before.
    assert (
        client.post("/api/v1/tables", json=body, headers=_auth(club["admin_token"])).status_code
        == 201
    )


def test_create_club_replays_the_admin_token_which_is_stored_sealed(app, client):
    first = _twice(client, "post", "/api/v1/clubs", {"name": "Once"}, _key("club-key-1"))
    token = first.json["admin_token"]
    assert client.get(f"/api/v1/clubs/{first.json['id']}", headers=_auth(token)).status_code == 200
    with app.app_context():
        row = db.session.execute(select(IdempotentRequestRow)).scalar_one()
        assert token not in repr(row.body) and "club-key-1" not in repr(row.__dict__)
        assert row.scope == "public" and row.body["admin_token"].keys() == {"$sealed"}


def test_every_post_and_patch_replays(api, client):
    club = api.club()
    admin = _auth(club["admin_token"])
    path = f"/api/v1/clubs/{club['id']}"
    player = _twice(client, "post", f"{path}/players", {"name": "Ann"}, {**admin, **_key("p")})
    assert len(client.get(f"{path}/players", headers=admin).json) == 1
    season = {"name": "Spring", "variant": "american", "starts_on": "2026-03-01"}
    _twice(client, "post", f"{path}/seasons", season, {**admin, **_key("s")})
    assert len(client.get(f"{path}/seasons", headers=admin).json) == 1
    renamed = _twice(
        client,
        "patch",
        f"/api/v1/players/{player.json['id']}",
        {"name": "Anna"},
        {**admin, **_key("rename")},
    )
    assert renamed.json["name"] == "Anna"
    viewer = _twice(client, "post", f"{path}/viewer-token", None, {**admin, **_key("v")})
    assert client.get(path, headers=_auth(viewer.json["token"])).status_code == 200
    table = api.table(club=club)
    renewed = _twice(
        client, "post", f"/api/v1/tables/{table['id']}/token", None, {**admin, **_key("t")}
    )
    assert (
        client.get(
            f"/api/v1/tables/{table['id']}", headers=_auth(renewed.json["table_token"])
        ).status_code
        == 200
    )
    closed = _twice(
        client, "post", f"/api/v1/tables/{table['id']}/close", None, {**admin, **_key("c")}
    )
    assert closed.json["status"] == "closed"
    exported = client.get(f"{path}/export", headers=admin).json
    imported = _twice(client, "post", "/api/v1/clubs/import", exported, _key("import-1"))
    assert (
        client.get(
            f"/api/v1/clubs/{imported.json['id']}", headers=_auth(imported.json["admin_token"])
        ).status_code
        == 200
    )
    rotated = _twice(client, "post", f"{path}/admin-token", None, {**admin, **_key("r")})
    assert client.get(path, headers=_auth(rotated.json["token"])).status_code == 200


def test_the_same_key_with_another_body_is_a_409_and_changes_nothing(api, client):
    club = api.club()
    headers = {**_auth(club["admin_token"]), **_key("k")}
    path = f"/api/v1/clubs/{club['id']}/players"
    assert client.post(path, json={"name": "Ann"}, headers=headers).status_code == 201
    answer = client.post(path, json={"name": "Bob"}, headers=headers)
    assert answer.status_code == 409
    assert answer.json["type"] == "urn:solo:problem:idempotency-key-reused"
    # Another operation with the key is another request too.
    other = client.post(f"/api/v1/clubs/{club['id']}/viewer-token", headers=headers)
    assert other.status_code == 409
    names = [p["name"] for p in client.get(path, headers=_auth(club["admin_token"])).json]
    assert names == ["Ann"]


def test_the_body_is_compared_as_json(api, client):
    club = api.club()
    headers = {
        **_auth(club["admin_token"]),
        **_key("j"),
        "Content-Type": "application/json",
    }
    path = f"/api/v1/clubs/{club['id']}/seasons"
    first = client.post(path, data='{"name":"S","variant":"german"}', headers=headers)
    again = client.post(path, data='{ "variant": "german",  "name": "S" }', headers=headers)
    assert first.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"


def test_keys_belong_to_their_caller(api, client):
    one, two = api.club("One"), api.club("Two")
    for club in (one, two):
        answer = client.post(
            f"/api/v1/clubs/{club['id']}/players",
            json={"name": "Ann"},
            headers={**_auth(club["admin_token"]), **_key("same")},
        )
        assert answer.status_code == 201 and "Idempotent-Replayed" not in answer.headers


@pytest.mark.parametrize("key", ["", "x" * 201, "k\x01", "kä", "k\x7f"])
def test_a_malformed_key_is_a_422_naming_the_header(api, client, key):
    club = api.club()
    path = f"/api/v1/clubs/{club['id']}/players"
    answer = client.post(
        path,
        json={"name": "Ann"},
        headers={**_auth(club["admin_token"]), "Idempotency-Key": key},
    )
    assert answer.status_code == 422, answer.json
    assert answer.json["type"] == "urn:solo:problem:invalid-field"
    assert list(answer.json["errors"]) == ["Idempotency-Key"]
    assert client.get(path, headers=_auth(club["admin_token"])).json == []


def test_a_failed_write_lets_its_key_go(api, client):
    club = api.club()
    headers = {**_auth(club["admin_token"]), **_key("retry")}
    path = f"/api/v1/clubs/{club['id']}/players"
    assert client.post(path, json={"name": ""}, headers=headers).status_code == 422
    assert client.post(path, json={"name": ""}, headers=headers).status_code == 422
    assert client.post(path, json={"name": "Ann"}, headers=headers).status_code == 201


def test_a_token_is_checked_before_the_key(client, api):
    club = api.club()
    answer = client.post(
        f"/api/v1/clubs/{club['id']}/players",
        json={"name": "Ann"},
        headers={"Authorization": "Bearer nonsense", "Idempotency-Key": ""},
    )
    assert answer.status_code == 401


def test_an_expired_key_is_a_new_request_and_old_rows_are_swept(app, client):
    first = client.post("/api/v1/clubs", json={"name": "A"}, headers=_key("old"))
    with app.app_context():
        db.session.execute(
            update(IdempotentRequestRow).values(expires_at=utcnow() - timedelta(seconds=1))
        )
        db.session.commit()
    again = client.post("/api/v1/clubs", json={"name": "A"}, headers=_key("old"))
    assert again.status_code == 201 and again.json["id"] != first.json["id"]
    assert "Idempotent-Replayed" not in again.headers
    with app.app_context():
        db.session.execute(
            update(IdempotentRequestRow).values(expires_at=utcnow() - timedelta(seconds=1))
        )
        db.session.commit()
    client.post("/api/v1/clubs", json={"name": "B"}, headers=_key("new"))
    with app.app_context():
        rows = db.session.execute(select(IdempotentRequestRow.status_code)).all()
        assert len(rows) == 1  # "old" was swept by the claim of "new"


@pytest.fixture
def short_wait(monkeypatch):
    from service.services import idempotency

    monkeypatch.setattr(idempotency, "WAIT_SECONDS", 0.2)


@pytest.mark.usefixtures("short_wait")
def test_a_claim_whose_request_died_is_taken_over_after_its_lease(app, client):
    from service.services import idempotency

    with app.test_request_context():
        fingerprint = idempotency.fingerprint("POST", "/api/v1/clubs", b'{"name": "A"}')
        claim = idempotency.claim("public", "died", fingerprint)
        assert isinstance(claim, idempotency.Claim)
    busy = client.post("/api/v1/clubs", json={"name": "A"}, headers=_key("died"))
    assert busy.status_code == 409, busy.json
    assert busy.json["type"] == "urn:solo:problem:idempotency-key-in-flight"
    assert busy.headers["Retry-After"] == "1"
    with app.app_context():
        db.session.execute(
            update(IdempotentRequestRow).values(
                claimed_at=utcnow() - idempotency.LEASE - timedelta(seconds=1)
            )
        )
        db.session.commit()
    assert client.post("/api/v1/clubs", json={"name": "A"}, headers=_key("died")).status_code == 201


def test_hands_keep_their_own_keys_per_table(api):
    one, two = api.table(), api.table()
    assert api.record(one, SOLO, **_key("same")).status_code == 201
    again = api.record(one, SOLO, **_key("same"))
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert api.record(two, SOLO, **_key("same")).status_code == 201


def test_a_void_and_a_correction_replay_with_their_key(api, client):
    """A phone whose answer was lost sends the void (or the correction) again: with the same
    key it gets the first answer, not 409 hand-already-void, and nothing happens twice."""
    table = api.table()
    for _ in range(2):
        assert api.record(table, SOLO).status_code == 201
    phone = _auth(table["table_token"])
    hands = f"/api/v1/tables/{table['id']}/hands"
    first = _twice(client, "delete", f"{hands}/1", None, {**phone, **_key("void-1")})
    assert first.json["status"] == "void"
    unkeyed = client.delete(f"{hands}/1", headers=phone)
    assert unkeyed.status_code == 409
    assert unkeyed.json["type"] == "urn:solo:problem:hand-already-void"
    elsewhere = client.delete(f"{hands}/2", headers={**phone, **_key("void-1")})
    assert elsewhere.json["type"] == "urn:solo:problem:idempotency-key-reused"

    fixed = {**SOLO, "tricks": 4}
    corrected = _twice(client, "put", f"{hands}/2", fixed, {**phone, **_key("fix-2")})
    other = client.put(f"{hands}/2", json={**SOLO, "tricks": 3}, headers={**phone, **_key("fix-2")})
    assert other.status_code == 409
    assert other.json["type"] == "urn:solo:problem:idempotency-key-reused"
    history = client.get(f"{hands}/2/history", headers=phone).json
    assert [r["hand"]["tricks"] for r in history["revisions"]] == [6, 4]
    assert api.get_table(table)["version"] == int(corrected.headers["ETag"].strip('"'))


def test_a_dry_run_is_not_the_change_under_the_same_key(api, client):
    table = api.table()
    assert api.record(table, SOLO).status_code == 201
    keyed = {**_auth(table["table_token"]), **_key("try")}
    hand = f"/api/v1/tables/{table['id']}/hands/1"
    tried = _twice(client, "put", f"{hand}?dry_run=true", {**SOLO, "tricks": 4}, keyed)
    assert tried.headers["Dry-Run"] == "true"
    again = client.put(f"{hand}?dry_run=true", json={**SOLO, "tricks": 4}, headers=keyed)
    assert again.headers["Dry-Run"] == "true" and "ETag" not in again.headers
    real = client.put(hand, json={**SOLO, "tricks": 4}, headers=keyed)
    assert real.status_code == 409
    assert real.json["type"] == "urn:solo:problem:idempotency-key-reused"
    assert api.get_table(table)["version"] == 2  # opened, one hand: nothing corrected


def test_every_write_that_takes_the_key_says_so_in_the_document_and_the_code(app, document):
    """Every POST and PATCH, and the PUTs and DELETEs that opt in (a hand's correction and
    void)."""
    views = app.view_functions
    keyed_in_code = set()
    for rule in app.url_map.iter_rules():
        view = views[rule.endpoint]
        cls = getattr(view, "view_class", None)
        for method in {"POST", "PATCH", "PUT", "DELETE"} & (rule.methods or set()):
            handler = getattr(cls, method.lower()) if cls else view
            how = idempotency_of(handler)
            if method in ("POST", "PATCH"):
                assert how in (STORED, OWN, NONE), (rule.rule, method)
            if how in (STORED, OWN):
                keyed_in_code.add((method.lower(), _openapi_path(rule.rule)))
    keyed_in_document = set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "patch", "put", "delete"):
                continue
            names = [p.get("name") for p in operation.get("parameters", [])]
            if "Idempotency-Key" in names:
                keyed_in_document.add((method, path))
                responses = operation["responses"]
                success = next(s for s in responses if s.startswith("2"))
                assert "Idempotent-Replayed" in responses[success]["headers"], path
                assert {"409", "422"} <= responses.keys(), path
            elif method in ("post", "patch") and operation["operationId"] != "previewSettlement":
                pytest.fail(f"{method} {path} documents no Idempotency-Key")
    assert keyed_in_code == keyed_in_document
    assert {
        ("put", "/api/v1/tables/{table_id}/hands/{number}"),
        ("delete", "/api/v1/tables/{table_id}/hands/{number}"),
    } <= keyed_in_code
    assert len(keyed_in_code) >= 13


def _openapi_path(rule: str) -> str:
    """A Flask rule as the document writes its path (``<int(min=1):number>`` → ``{number}``)."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", re.sub(r"\([^)]*\)", "", rule))
