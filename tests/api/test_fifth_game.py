"""The proof that a game owns its rules end to end: *Duel*, a made-up fifth game written in
``tests/fifth_game`` only, registered in ``rules.VARIANTS`` for these tests, is served by
``GET /variants``, kept at a table (opened, recorded, corrected, voided, re-seated), counted
in the league's standings and carried by a club's export and import, and typed in the OpenAPI
document, with nothing of the service changed for it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import fifth_game
from tests.support import inlined, make_app

IMPORT_URL = "/api/v1/clubs/import"


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    fifth_game.register(monkeypatch)
    yield
    fifth_game.forget()


def _club_with_a_duel_table(client: Any) -> dict[str, Any]:
    club = client.post("/api/v1/clubs", json={"name": "Duellists"}).json
    admin = {"Authorization": f"Bearer {club['admin_token']}"}
    players = [
        client.post(f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=admin).json[
            "id"
        ]
        for name in ("Ada", "Ben", "Cy")
    ]
    season = client.post(
        f"/api/v1/clubs/{club['id']}/seasons",
        json={"name": "Spring", "variant": "duel"},
        headers=admin,
    )
    assert season.status_code == 201, season.json
    table = client.post(
        "/api/v1/tables",
        json={
            "club_id": club["id"],
            "name": "Back room",
            "variant": "duel",
            "seats": players,
            "first_dealer": 0,
            "options": {"stake": 3},
            "season_id": season.json["id"],
        },
        headers=admin,
    )
    assert table.status_code == 201, table.json
    return {
        "club": club,
        "admin": admin,
        "players": players,
        "season": season.json,
        "table": table.json,
        "auth": {"Authorization": f"Bearer {table.json['table_token']}"},
    }


def _balances(client: Any, keeping: dict[str, Any]) -> list[int]:
    answer = client.get(f"/api/v1/tables/{keeping['table']['id']}", headers=keeping["auth"])
    assert answer.status_code == 200
    return [seat["balance"] for seat in answer.json["seats"]]


def _record(client: Any, keeping: dict[str, Any], hand: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/tables/{keeping['table']['id']}/hands", json=hand, headers=keeping["auth"]
    )


def _standings(client: Any, season_id: str, admin: dict[str, str]) -> list[dict[str, Any]]:
    answer = client.get(
        f"/api/v1/seasons/{season_id}/standings",
        query_string={"min_hands": 0},
        headers=admin,
    )
    assert answer.status_code == 200, answer.json
    rows: list[dict[str, Any]] = answer.json["rows"]
    return rows


def test_the_variants_answer_describes_the_fifth_game(client, duel):
    described = {v["name"]: v for v in client.get("/api/v1/variants").json}
    assert set(described) == {"american", "spanish", "german", "solo66", "duel"}
    fields = {f["name"]: f for f in described["duel"]["hand_fields"]}
    assert fields["challenger"]["seat"] is True and fields["won"]["type"] == "boolean"
    assert described["duel"]["state_fields"] == described["spanish"]["state_fields"]


def test_a_table_of_the_fifth_game_is_kept_and_counted_like_any_other(client, duel):
    keeping = _club_with_a_duel_table(client)
    ada, ben, cy = keeping["players"]
    hands = [
        {"challenger": 0, "opponent": 1, "won": True},  # Ada takes 3 from Ben
        {"challenger": 2, "opponent": 0, "won": False},  # Ada takes 3 from Cy
        {"challenger": 1, "opponent": 2, "won": True, "errors": [{"kind": "revoke", "seat": 1}]},
    ]
    for hand in hands:
        assert _record(client, keeping, hand).status_code == 201
    assert _balances(client, keeping) == [6, -6, 0]  # Ben's revoke lost him his duel: Cy +3
    refused = _record(client, keeping, {"challenger": 1, "opponent": 1, "won": True})
    assert refused.status_code == 422 and "hand.opponent" in refused.json["errors"]

    table_id = keeping["table"]["id"]
    corrected = client.put(
        f"/api/v1/tables/{table_id}/hands/1",
        json={"challenger": 0, "opponent": 1, "won": False},
        headers=keeping["auth"],
    )
    assert corrected.status_code == 200, corrected.json
    assert _balances(client, keeping) == [0, 0, 0]  # Ada −3 to Ben, +3 from Cy; Ben −3 to Cy
    voided = client.delete(f"/api/v1/tables/{table_id}/hands/3", headers=keeping["auth"])
    assert voided.status_code == 200, voided.json
    assert _balances(client, keeping) == [0, 3, -3]

    rows = {
        r["player_id"]: r for r in _standings(client, keeping["season"]["id"], keeping["admin"])
    }
    # Ada declared hand 1 (lost after the correction), Cy hand 2 (lost); hand 3 is void.
    assert (rows[ada]["declared"], rows[ada]["won"], rows[ada]["lost"]) == (1, 0, 1)
    assert (rows[cy]["declared"], rows[cy]["won"], rows[cy]["lost"]) == (1, 0, 1)
    assert rows[ben]["declared"] == 0
    assert {r["hands"] for r in rows.values()} == {2}
    assert [rows[p]["net"] for p in (ada, ben, cy)] == _balances(client, keeping)


def test_re_seating_a_table_of_the_fifth_game_renumbers_its_own_seat_fields(client, duel):
    keeping = _club_with_a_duel_table(client)
    ada, ben, cy = keeping["players"]
    assert (
        _record(client, keeping, {"challenger": 0, "opponent": 1, "won": True}).status_code == 201
    )
    table_id = keeping["table"]["id"]
    version = client.get(f"/api/v1/tables/{table_id}", headers=keeping["auth"]).json["version"]
    answer = client.put(
        f"/api/v1/tables/{table_id}/seating",
        json={"seats": [ben, cy, ada], "first_dealer": 0},
        headers={**keeping["admin"], "If-Match": f'"{version}"'},
    )
    assert answer.status_code == 200, answer.json
    hand = client.get(f"/api/v1/tables/{table_id}/hands/1", headers=keeping["auth"]).json
    assert (hand["hand"]["challenger"], hand["hand"]["opponent"]) == (2, 0)  # still Ada, Ben
    by_name = {s["name"]: s["balance"] for s in answer.json["seats"]}
    assert by_name == {"Ada": 3, "Ben": -3, "Cy": 0}


def test_a_club_of_the_fifth_game_goes_through_its_export_and_import(client, duel):
    keeping = _club_with_a_duel_table(client)
    for hand in (
        {"challenger": 0, "opponent": 1, "won": True},
        {"challenger": 1, "opponent": 2, "won": True},
    ):
        assert _record(client, keeping, hand).status_code == 201
    document = client.get(f"/api/v1/clubs/{keeping['club']['id']}/export", headers=keeping["admin"])
    assert document.status_code == 200, document.json
    imported = client.post(IMPORT_URL, json=document.json)
    assert imported.status_code == 201, imported.json
    ids = imported.json["ids"]
    headers = {"Authorization": f"Bearer {imported.json['admin_token']}"}
    new_table = client.get(
        f"/api/v1/tables/{ids['tables'][keeping['table']['id']]}", headers=headers
    ).json
    assert [s["balance"] for s in new_table["seats"]] == _balances(client, keeping)
    old = _standings(client, keeping["season"]["id"], keeping["admin"])
    new = _standings(client, ids["seasons"][keeping["season"]["id"]], headers)
    assert new == [{**row, "player_id": ids["players"][row["player_id"]]} for row in old]
    # Ada beat Ben (+3), Ben beat Cy (+3): Ada 3, Ben 0, Cy −3.
    assert sorted((r["declared"], r["won"], r["net"]) for r in new) == [
        (0, 0, -3),
        (1, 1, 0),
        (1, 1, 3),
    ]


def test_the_openapi_document_types_the_fifth_games_hands(duel, tmp_path, monkeypatch):
    """A document built with Duel registered has its record, ``…Create`` and preview request
    as components, in the unions' ``oneOf`` and discriminator mappings, and bounds its hands
    as the rules describe them (the session's app built its document before Duel came)."""
    import jsonschema_rs

    from service.api import api as shared_api

    # The one flask-smorest Api serves the document of the app it last joined: the session's
    # app gets its own back after this test.
    for per_app in ("spec", "_app", "config"):
        monkeypatch.setattr(shared_api, per_app, getattr(shared_api, per_app))
    app = make_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/d.db"})
    document = inlined(app.test_client().get("/openapi.json").json)
    schemas = document["components"]["schemas"]

    for union, member in (
        ("HandRecord", "DuelHand"),
        ("HandRecordCreate", "DuelHandCreate"),
        ("PreviewRequest", "DuelPreviewRequest"),
    ):
        reference = f"#/components/schemas/{member}"
        assert {"$ref": reference} in schemas[union]["oneOf"], union
        assert schemas[union]["discriminator"]["mapping"]["duel"] == reference, union
    hand = schemas["DuelHand"]
    assert set(hand["properties"]) == {"variant", "kind", "challenger", "opponent", "won", "errors"}
    assert set(hand["required"]) == {"variant", "challenger", "opponent", "won"}
    assert hand["additionalProperties"] is False
    assert schemas["DuelErrorKind"]["enum"] == ["revoke"]

    def validator(name: str) -> Any:
        schema = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
        return jsonschema_rs.Draft202012Validator(schema)

    good = {
        "variant": "duel",
        "challenger": 0,
        "opponent": 2,
        "won": True,
        "errors": [{"kind": "revoke", "seat": 1}],
    }
    validator("DuelHand").validate(good)
    validator("HandRecordCreate").validate({**good, "expected_number": 1})
    validator("PreviewRequest").validate({"variant": "duel", "players": 3, "hand": good})
    for bad in (
        {**good, "challenger": 4},
        {**good, "won": "yes"},
        {**good, "errors": [{"kind": "renege", "seat": 1}]},
        {**good, "contract": "solo"},
        {"variant": "duel", "challenger": 0, "opponent": 2},
        {key: value for key, value in good.items() if key != "variant"},
    ):
        assert list(validator("DuelHand").iter_errors(bad)), bad
    assert list(
        validator("PreviewRequest").iter_errors({"variant": "duel", "players": 5, "hand": good})
    )
