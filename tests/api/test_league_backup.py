"""A club's export and import: identical standings in a new club, and all or nothing."""

from __future__ import annotations

import copy
import json

import pytest
from sqlalchemy import func, select

from service.extensions import db
from service.persistence.league import SeasonPlayerRow, SeasonRow
from service.persistence.table_keeping import ClubRow, HandRow, PlayerRow, TableRow
from tests.api.test_league import EVENING, LOST_SOLO, SOLO, League, spanish

IMPORT_URL = "/api/v1/clubs/import"


@pytest.fixture
def busy_club(api, client):
    """Two seasons, closed and open tables, a table outside any season, corrections, voids."""
    league = League(api, client, players=7)
    first, second = league.table([0, 1, 2, 3]), league.table([3, 4, 5, 6, 0])
    league.record(first, *EVENING)
    league.record(second, *EVENING[:5])
    client.put(
        f"/api/v1/tables/{first['id']}/hands/2",
        json={**LOST_SOLO, "tricks": 6},
        headers=league.admin,
    )
    client.delete(f"/api/v1/tables/{second['id']}/hands/3", headers=league.admin)
    league.close(first)
    client.put(
        f"/api/v1/tables/{first['id']}/hands/1", json={**SOLO, "tricks": 1}, headers=league.admin
    )
    carry = league.table([1, 2, 5], pool_at_close="carry", starting_pool=7)
    league.record(carry, SOLO, SOLO)
    points = league.new_season("Points", "spanish")
    spanish_table = league.table([0, 2, 4, 6], season=points)
    league.record(spanish_table, spanish(0), spanish(1, "simple", 5, partner=3))
    league.close(spanish_table)
    friendly = client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Friendly",
            "variant": "american",
            "seats": league.players[:3],
        },
    )
    league.record({**friendly.json, "admin_token": league.club["admin_token"]}, SOLO)
    league.points = points
    return league


def export(league: League) -> dict:
    response = league.client.get(f"/api/v1/clubs/{league.club['id']}/export", headers=league.admin)
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    return response.json


def renamed(rows: list[dict], ids: dict[str, str]) -> list[dict]:
    return [{**row, "player_id": ids[row["player_id"]]} for row in rows]


def counts(app) -> dict[str, int]:
    with app.app_context():
        found = {
            model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
            for model in (ClubRow, PlayerRow, SeasonRow, TableRow, HandRow, SeasonPlayerRow)
        }
        db.session.remove()
    return found


def test_export_then_import_gives_identical_standings(client, busy_club):
    document = export(busy_club)
    assert document["format"] == "solo-scorekeeper/club-export"
    assert len(document["tables"]) == 5
    response = client.post(IMPORT_URL, json=document)
    assert response.status_code == 201, response.json
    imported = response.json
    assert imported["admin_token"] and imported["id"] != busy_club.club["id"]
    assert response.headers["Cache-Control"] == "no-store"
    assert imported["imported"] == {
        "players": 7,
        "seasons": 2,
        "tables": 5,
        "hands": 19,
        "nights": 0,
        "tournaments": 0,
    }
    ids = imported["ids"]
    headers = {"Authorization": f"Bearer {imported['admin_token']}"}
    for season in (busy_club.season, busy_club.points):
        for query in ({}, {"min_hands": 5}, {"from": "2020-01-01", "to": "2100-01-01"}):
            old = busy_club.standings(season, **query)["rows"]
            new = client.get(
                f"/api/v1/seasons/{ids['seasons'][season['id']]}/standings",
                query_string=query,
                headers=headers,
            ).json["rows"]
            assert new == renamed(old, ids["players"])
            assert any(row["rating"] is not None for row in new) or query
    for old_id, new_id in ids["tables"].items():
        old = client.get(f"/api/v1/tables/{old_id}", headers=busy_club.admin).json
        new = client.get(f"/api/v1/tables/{new_id}", headers=headers).json
        for key in (
            "pool",
            "couleur",
            "dealer",
            "status",
            "hands_played",
            "hands_recorded",
            "created_at",
            "closed_at",
        ):
            assert new[key] == old[key], key
        assert [s["balance"] for s in new["seats"]] == [s["balance"] for s in old["seats"]]
        old_ledger = client.get(f"/api/v1/tables/{old_id}/ledger", headers=busy_club.admin)
        new_ledger = client.get(f"/api/v1/tables/{new_id}/ledger", headers=headers)
        assert new_ledger.json["transfers"] == old_ledger.json["transfers"]
    player = busy_club.players[0]
    old_stats = client.get(f"/api/v1/players/{player}/stats", headers=busy_club.admin).json
    new_stats = client.get(f"/api/v1/players/{ids['players'][player]}/stats", headers=headers).json
    assert new_stats["career"] == old_stats["career"]
    assert [{**s, "season_id": None} for s in new_stats["seasons"]] == [
        {**s, "season_id": None} for s in old_stats["seasons"]
    ]


def test_an_imported_club_exports_the_same_document(client, busy_club):
    document = export(busy_club)
    imported = client.post(IMPORT_URL, json=document).json
    again = client.get(
        f"/api/v1/clubs/{imported['id']}/export",
        headers={"Authorization": f"Bearer {imported['admin_token']}"},
    ).json

    def without_ids(doc: dict) -> dict:
        doc = copy.deepcopy(doc)
        doc.pop("exported_at")
        doc.pop("club")
        for key in ("players", "seasons", "tables"):
            for item in doc[key]:
                item.pop("id")
        for table in doc["tables"]:
            table.pop("season_id")
            for seat in table["seats"]:
                seat.pop("player_id")
            for hand in table["hands"]:
                for revision in hand["revisions"]:
                    revision["changed_by"].pop("imported")
        return doc

    def imported_flags(doc: dict) -> set[bool]:
        return {
            r["changed_by"]["imported"]
            for t in doc["tables"]
            for h in t["hands"]
            for r in h["revisions"]
        }

    # The one difference: every revision read from the file is now marked as imported.
    assert imported_flags(document) == {False}
    assert imported_flags(again) == {True}
    assert without_ids(again) == without_ids(document)
    first_hand = again["tables"][0]["hands"][0]
    assert [r["revision"] for r in first_hand["revisions"]] == [1, 2]


def test_the_history_of_every_hand_survives_the_import(client, busy_club):
    document = export(busy_club)
    imported = client.post(IMPORT_URL, json=document).json
    headers = {"Authorization": f"Bearer {imported['admin_token']}"}
    for old_id, new_id in imported["ids"]["tables"].items():
        listed = client.get(f"/api/v1/tables/{old_id}/hands", headers=busy_club.admin).json
        for hand in listed:
            path = "/api/v1/tables/{}/hands/" + str(hand["number"]) + "/history"
            old = client.get(path.format(old_id), headers=busy_club.admin).json
            new = client.get(path.format(new_id), headers=headers).json
            for revision in old["revisions"]:  # what the import changes: the mark
                assert revision["changed_by"]["imported"] is False
                revision["changed_by"]["imported"] = True
            assert new == old


@pytest.mark.parametrize(
    "spoil",
    [
        "truncated",
        "not_an_object",
        "wrong_format",
        "bad_record",
        "unknown_player",
        "balance_differs",
        "hand_numbers_skip",
        "season_of_another_variant",
        "duplicate_player_name",
        "revision_missing",
        "bad_date",
    ],
)
def test_a_bad_file_is_422_and_imports_nothing(app, client, busy_club, spoil):
    document = export(busy_club)
    tables = document["tables"]
    body: bytes
    if spoil == "truncated":
        raw = json.dumps(document).encode()
        body = raw[: len(raw) * 2 // 3]
    else:
        if spoil == "not_an_object":
            document = [document]
        elif spoil == "wrong_format":
            document["version"] = 99
        elif spoil == "bad_record":
            tables[1]["hands"][3]["hand"]["tricks"] = 9
            tables[1]["hands"][3]["revisions"][-1]["hand"]["tricks"] = 9
        elif spoil == "unknown_player":
            tables[2]["seats"][1]["player_id"] = "nobody"
        elif spoil == "balance_differs":
            tables[0]["seats"][0]["balance"] += 1
        elif spoil == "hand_numbers_skip":
            tables[0]["hands"][2]["number"] = 7
        elif spoil == "season_of_another_variant":
            tables[0]["season_id"] = document["seasons"][1]["id"]
        elif spoil == "duplicate_player_name":
            document["players"][1]["name"] = document["players"][0]["name"]
        elif spoil == "revision_missing":
            tables[0]["hands"][1]["revisions"].pop(0)
        elif spoil == "bad_date":
            tables[0]["created_at"] = "yesterday"
        body = json.dumps(document).encode()
    before = counts(app)
    response = client.post(IMPORT_URL, data=body, content_type="application/json")
    assert response.status_code == 422, response.json
    assert response.content_type == "application/problem+json"
    assert response.json["errors"], response.json
    assert counts(app) == before


def test_the_error_names_the_place_in_the_file(client, busy_club):
    document = export(busy_club)
    document["tables"][1]["hands"][3]["hand"]["tricks"] = 9
    document["tables"][1]["hands"][3]["revisions"][-1]["hand"]["tricks"] = 9
    response = client.post(IMPORT_URL, json=document)
    assert list(response.json["errors"]) == ["tables.1.hands.3.hand.tricks"]
    del document["tables"][0]["hands"][0]["recorded_at"]
    response = client.post(IMPORT_URL, json=document)
    assert "tables.0.hands.0.recorded_at" in response.json["errors"]


def test_imports_may_be_larger_than_other_requests_but_not_without_bound(app, client, busy_club):
    document = export(busy_club)
    document["players"] += [
        {"id": f"extra{i}", "name": f"Guest {i} " + "x" * 60} for i in range(1000)
    ]
    body = json.dumps(document).encode()
    assert len(body) > 64 * 1024
    assert client.post(IMPORT_URL, data=body, content_type="application/json").status_code == 201
    elsewhere = client.post("/api/v1/clubs", data=body, content_type="application/json")
    assert elsewhere.status_code == 413
    app.config["IMPORT_MAX_CONTENT_LENGTH"] = 64 * 1024
    try:
        response = client.post(IMPORT_URL, data=body, content_type="application/json")
    finally:
        del app.config["IMPORT_MAX_CONTENT_LENGTH"]
    assert response.status_code == 413
