"""Running a club's league over HTTP: the club's tables, renaming and retiring players, the
rating history, who may read what, the admin, read-only and table tokens, safe CSV, and
imports that cannot forge who changed what."""

from __future__ import annotations

import csv
import io
import json

import pytest

from service.services.spreadsheet import spreadsheet_safe
from tests.api.test_league import LOST_SOLO, SIMPLE, SOLO, League, _expected_ratings


@pytest.fixture
def league(api, client):
    return League(api, client)


def tables_of(league: League, token: str | None = None, **query) -> tuple[list[dict], dict]:
    headers = league.api.auth(token) if token else league.admin
    response = league.client.get(
        f"/api/v1/clubs/{league.club['id']}/tables", query_string=query, headers=headers
    )
    assert response.status_code == 200, response.json
    return response.json, json.loads(response.headers["X-Pagination"])


def patch_player(league: League, player: str, **body):
    return league.client.patch(f"/api/v1/players/{player}", json=body, headers=league.admin)


# --- the club's tables ---------------------------------------------------------------------


def test_the_club_tables_list_newest_first_with_players_hands_and_balances(league):
    first = league.table([0, 1, 2, 3])
    league.record(first, SOLO, SIMPLE)
    league.close(first)
    second = league.table([2, 3, 4, 5])
    league.record(second, LOST_SOLO)
    outside = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Friendly",
            "variant": "american",
            "seats": league.players[:3],
        },
    ).json

    listed, paging = tables_of(league)
    assert [t["id"] for t in listed] == [outside["id"], second["id"], first["id"]]
    assert paging["total"] == 3
    closed = listed[2]
    table = league.api.get_table(first)
    assert closed["status"] == "closed" and closed["closed_at"] == table["closed_at"]
    assert closed["hands"] == 2 and closed["season_id"] == league.season["id"]
    assert closed["players"] == [
        {"seat": s["seat"], "player_id": s["player_id"], "name": s["name"]} for s in table["seats"]
    ]
    assert closed["balances"] == [s["balance"] for s in table["seats"]]
    assert sum(closed["balances"]) + table["pool"] == 0
    assert closed["units"] == "chips" and closed["variant"] == "american"
    assert [t["name"] for t in listed] == ["Friendly", "Evening", "Evening"]

    assert [t["id"] for t in tables_of(league, status="open")[0]] == [outside["id"], second["id"]]
    assert [t["id"] for t in tables_of(league, status="closed")[0]] == [first["id"]]
    assert [t["id"] for t in tables_of(league, season_id=league.season["id"])[0]] == [
        second["id"],
        first["id"],
    ]
    page, paging = tables_of(league, page=2, page_size=2)
    assert [t["id"] for t in page] == [first["id"]] and paging["total"] == 3


def test_the_club_tables_refuse_bad_filters_and_other_tokens(api, client, league):
    table = league.table([0, 1, 2, 3])
    url = f"/api/v1/clubs/{league.club['id']}/tables"
    for query, field in (
        ({"status": "done"}, "status"),
        ({"season_id": "nope"}, "season_id"),
        ({"page_size": 0}, "page_size"),
    ):
        response = client.get(url, query_string=query, headers=league.admin)
        assert response.status_code == 422, query
        assert response.mimetype == "application/problem+json"
        assert field in json.dumps(response.json), response.json
    other = League(api, client)
    response = client.get(url, query_string={"season_id": other.season["id"]}, headers=league.admin)
    assert response.status_code == 422
    assert client.get(url).status_code == 401
    assert client.get(url, headers=other.admin).status_code == 403
    assert client.get(url, headers=api.auth(table["table_token"])).status_code == 403
    assert client.get("/api/v1/clubs/nope/tables", headers=league.admin).status_code == 404


# --- players: rename, retire ---------------------------------------------------------------


def test_a_renamed_player_keeps_his_history_under_the_new_name(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    version = league.api.get_table(table)["version"]  # rendered now, at this version
    response = patch_player(league, league.players[1], name="Anna-Katharina Berger")
    assert response.status_code == 200
    assert response.json == {
        "id": league.players[1],
        "name": "Anna-Katharina Berger",
        "retired": False,
        "retired_at": None,
    }
    rows = {r["player_id"]: r for r in league.standings()["rows"]}
    assert rows[league.players[1]]["name"] == "Anna-Katharina Berger"
    shown = league.api.get_table(table)
    assert shown["seats"][1]["name"] == "Anna-Katharina Berger"
    assert shown["version"] == version + 1  # the phones polling the table see the new name
    taken = patch_player(league, league.players[2], name="Anna-Katharina Berger")
    assert taken.status_code == 409
    for body, field in (
        ({"name": " "}, "name"),
        ({"name": "x" * 81}, "name"),
        ({}, "body"),
        ({"retired": "maybe"}, "retired"),
    ):
        response = patch_player(league, league.players[2], **body)
        assert response.status_code == 422, body
        assert field in response.json["errors"], response.json


def test_a_retired_player_keeps_his_history_and_cannot_be_seated(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    before = league.standings()["rows"]
    response = patch_player(league, league.players[2], retired=True)
    assert response.status_code == 200 and response.json["retired"] is True
    assert response.json["retired_at"] is not None
    assert league.standings()["rows"] == before
    players_url = f"/api/v1/clubs/{league.club['id']}/players"
    offered = league.client.get(players_url, headers=league.admin).json
    assert league.players[2] not in [p["id"] for p in offered]
    everyone = league.client.get(
        players_url, query_string={"include_retired": "true"}, headers=league.admin
    ).json
    assert [p["retired"] for p in everyone if p["id"] == league.players[2]] == [True]
    refused = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Next",
            "variant": "american",
            "seats": [league.players[i] for i in (0, 1, 3, 2)],
        },
    )
    assert refused.status_code == 422
    assert list(refused.json["errors"]) == ["seats.3"]
    assert "retired" in refused.json["errors"]["seats.3"][0]
    tables_before = tables_of(league)[1]["total"]
    assert tables_before == 1  # nothing was stored
    back = patch_player(league, league.players[2], retired=False)
    assert back.json["retired"] is False and back.json["retired_at"] is None
    league.table([0, 1, 3, 2])


def test_only_the_clubs_admin_changes_a_player(api, client, league):
    table = league.table([0, 1, 2, 3])
    other = League(api, client)
    url = f"/api/v1/players/{league.players[0]}"
    for headers in (api.auth(table["table_token"]), other.admin):
        assert client.patch(url, json={"name": "X"}, headers=headers).status_code == 403
    assert client.patch(url, json={"name": "X"}).status_code == 401
    assert (
        client.patch("/api/v1/players/nope", json={"name": "X"}, headers=league.admin).status_code
        == 404
    )


# --- the rating history --------------------------------------------------------------------


def sittings_of(league: League, player: str, token: str | None = None, **query):
    headers = league.api.auth(token) if token else league.admin
    return league.client.get(
        f"/api/v1/players/{player}/sittings", query_string=query, headers=headers
    )


def test_the_rating_history_has_the_rating_after_each_closed_sitting(league):
    first = league.table([0, 1, 2, 3])
    league.record(first, SOLO, LOST_SOLO)
    league.close(first)
    second = league.table([0, 1, 4, 5])
    league.record(second, SIMPLE)
    league.close(second)
    third = league.table([0, 2, 4, 5])
    league.record(third, SOLO)  # open: not rated yet

    def seated(table: dict) -> list[tuple[str, int]]:
        return [(s["player_id"], s["balance"]) for s in league.api.get_table(table)["seats"]]

    player = league.players[0]
    answer = sittings_of(league, player).json
    assert [s["table_id"] for s in answer["sittings"]] == [first["id"], second["id"], third["id"]]
    assert [s["net"] for s in answer["sittings"]] == [
        dict(seated(t))[player] for t in (first, second, third)
    ]
    assert [s["rated_sitting"] for s in answer["sittings"]] == [1, 2, None]
    after_first = _expected_ratings([seated(first)])[player]
    after_both = _expected_ratings([seated(first), seated(second)])[player]
    assert [s["rating"] for s in answer["sittings"]] == [after_first, after_both, None]
    standing = {r["player_id"]: r for r in league.standings()["rows"]}[player]
    assert standing["rating"] == after_both

    # A correction of the first sitting replays the history too.
    response = league.client.put(
        f"/api/v1/tables/{first['id']}/hands/2", json=SIMPLE, headers=league.admin
    )
    assert response.status_code == 200, response.json
    replayed = sittings_of(league, player).json["sittings"]
    assert replayed[0]["rating"] == _expected_ratings([seated(first)])[player]
    assert replayed[1]["rating"] == _expected_ratings([seated(first), seated(second)])[player]

    other_season = league.new_season("Autumn")
    assert sittings_of(league, player, season_id=other_season["id"]).json["sittings"] == []
    assert len(sittings_of(league, player, season_id=league.season["id"]).json["sittings"]) == 3


# --- who may read what ---------------------------------------------------------------------


def test_a_table_token_reads_its_season_and_players_only_while_open(api, client, league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    token = api.auth(table["table_token"])
    autumn = league.new_season("Autumn")
    allowed = [
        f"/api/v1/seasons/{league.season['id']}",
        f"/api/v1/seasons/{league.season['id']}/standings",
        f"/api/v1/players/{league.players[0]}/stats",
        f"/api/v1/players/{league.players[0]}/sittings",
    ]
    refused = [
        f"/api/v1/seasons/{autumn['id']}",
        f"/api/v1/seasons/{autumn['id']}/standings",
        f"/api/v1/players/{league.players[5]}/stats",
        f"/api/v1/players/{league.players[5]}/sittings",
        f"/api/v1/players/{league.players[0]}/sittings?season_id={autumn['id']}",
        f"/api/v1/clubs/{league.club['id']}/tables",
        f"/api/v1/clubs/{league.club['id']}/players",
    ]
    for url in allowed:
        assert client.get(url, headers=token).status_code == 200, url
    for url in refused:
        assert client.get(url, headers=token).status_code == 403, url
    seasons = client.get(f"/api/v1/clubs/{league.club['id']}/seasons", headers=token).json
    assert [s["id"] for s in seasons] == [league.season["id"]]
    league.close(table)
    for url in allowed:
        response = client.get(url, headers=token)
        assert response.status_code == 403, url
        assert "open" in response.json["detail"]
    assert client.get(f"/api/v1/tables/{table['id']}", headers=token).status_code == 200


def test_the_read_only_token_reads_the_league_and_writes_nothing(api, client, league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    url = f"/api/v1/clubs/{league.club['id']}/viewer-token"
    assert client.post(url, headers=api.auth(table["table_token"])).status_code == 403
    issued = client.post(url, headers=league.admin)
    assert issued.status_code == 201
    assert issued.headers["Cache-Control"] == "no-store"
    assert issued.json["kind"] == "viewer" and issued.json["club_id"] == league.club["id"]
    viewer = api.auth(issued.json["token"])
    club = league.club["id"]
    for read in (
        f"/api/v1/clubs/{club}",
        f"/api/v1/clubs/{club}/seasons",
        f"/api/v1/clubs/{club}/tables",
        f"/api/v1/clubs/{club}/players",
        f"/api/v1/seasons/{league.season['id']}/standings",
        f"/api/v1/seasons/{league.season['id']}/standings?format=csv",
        f"/api/v1/players/{league.players[5]}/stats",
        f"/api/v1/players/{league.players[0]}/sittings",
        f"/api/v1/clubs/{club}/export",
        f"/api/v1/tables/{table['id']}",
        f"/api/v1/tables/{table['id']}/hands",
        f"/api/v1/tables/{table['id']}/ledger",
        f"/api/v1/tables/{table['id']}/settle-up",
    ):
        assert client.get(read, headers=viewer).status_code == 200, read
    writes = [
        ("post", f"/api/v1/clubs/{club}/players", {"name": "New"}),
        ("post", f"/api/v1/clubs/{club}/seasons", {"name": "N", "variant": "american"}),
        (
            "post",
            "/api/v1/tables",
            {"club_id": club, "name": "T", "variant": "american", "seats": league.players[:4]},
        ),
        ("post", f"/api/v1/tables/{table['id']}/hands", SOLO),
        ("post", f"/api/v1/tables/{table['id']}/close", None),
        ("patch", f"/api/v1/players/{league.players[0]}", {"name": "X"}),
        ("post", f"/api/v1/clubs/{club}/viewer-token", None),
        ("post", f"/api/v1/clubs/{club}/admin-token", None),
        ("delete", f"/api/v1/tables/{table['id']}/token", None),
        ("post", f"/api/v1/clubs/{club}/viewer-tokens", {"name": "bot"}),
        ("get", f"/api/v1/clubs/{club}/viewer-tokens", None),
    ]
    for method, path, body in writes:
        response = getattr(client, method)(path, json=body, headers=viewer)
        assert response.status_code == 403, (method, path, response.json)
    # Made anew, the old read-only token stops working; revoked, the new one too.
    again = client.post(url, headers=league.admin).json["token"]
    stale = client.get(f"/api/v1/clubs/{club}/tables", headers=viewer)
    assert stale.status_code == 401
    assert stale.json["type"] == "urn:solo:problem:token-revoked"
    assert client.delete(url, headers=league.admin).status_code == 204
    assert client.get(f"/api/v1/clubs/{club}", headers=api.auth(again)).status_code == 401
    assert client.delete(url, headers=league.admin).status_code == 404


def test_rotating_the_admin_token_stops_the_old_one(api, client, league):
    url = f"/api/v1/clubs/{league.club['id']}/admin-token"
    rotated = client.post(url, headers=league.admin)
    assert rotated.status_code == 201 and rotated.json["kind"] == "admin"
    assert rotated.headers["Cache-Control"] == "no-store"
    old = client.get(f"/api/v1/clubs/{league.club['id']}", headers=league.admin)
    assert old.status_code == 401
    assert old.json["type"] == "urn:solo:problem:token-revoked"
    assert "revoked" in old.json["detail"]
    new = api.auth(rotated.json["token"])
    assert client.get(f"/api/v1/clubs/{league.club['id']}", headers=new).status_code == 200
    other = League(api, client)
    assert client.post(url, headers=other.admin).status_code == 403
    assert client.post("/api/v1/clubs/nope/admin-token", headers=new).status_code == 404


def test_a_revoked_table_link_stops_working_and_a_new_one_can_be_given(api, client, league):
    table = league.table([0, 1, 2, 3])
    token = api.auth(table["table_token"])
    url = f"/api/v1/tables/{table['id']}/token"
    assert client.get(f"/api/v1/tables/{table['id']}", headers=token).status_code == 200
    assert client.delete(url, headers=token).status_code == 403
    assert client.delete(url, headers=league.admin).status_code == 204
    for method, path, body in (
        ("get", f"/api/v1/tables/{table['id']}", None),
        ("post", f"/api/v1/tables/{table['id']}/hands", SOLO),
    ):
        response = getattr(client, method)(path, json=body, headers=token)
        assert response.status_code == 401
        assert response.json["type"] == "urn:solo:problem:token-revoked"
        assert "table's link was revoked" in response.json["detail"]
    assert client.get(f"/api/v1/tables/{table['id']}", headers=league.admin).status_code == 200
    assert client.delete(url, headers=league.admin).status_code == 409
    fresh = client.post(url, headers=league.admin)
    assert fresh.status_code == 201 and fresh.headers["Cache-Control"] == "no-store"
    league.record({**table, "table_token": fresh.json["table_token"]}, SOLO)
    league.close(table)
    assert client.post(url, headers=league.admin).status_code == 409
    assert client.delete("/api/v1/tables/nope/token", headers=league.admin).status_code == 404


# --- safe exports --------------------------------------------------------------------------


def test_formula_cells_of_the_csv_are_neutralised(api, client):
    league = League(api, client, players=0)
    names = [
        '=HYPERLINK("http://x","y")',
        "+1",
        "-2",
        "@SUM(A1)",
        " =1+1",  # after a space, as a spreadsheet skips it
        '＝HYPERLINK("http://x")',  # full-width
        "Anna-Katharina Berger",
        "Carla Moser",
    ]
    for name in names:
        response = client.post(
            f"/api/v1/clubs/{league.club['id']}/players", json={"name": name}, headers=league.admin
        )
        assert response.status_code == 201, response.json
        league.players.append(response.json["id"])
    for seats in ([0, 1, 2, 3], [4, 5, 0, 1], [6, 7, 2, 3]):
        league.record(league.table(seats), SOLO, LOST_SOLO)
    text = client.get(
        f"/api/v1/seasons/{league.season['id']}/standings?format=csv", headers=league.admin
    ).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    shown = {row["player_id"]: row for row in rows}
    by_id = dict(zip(league.players, names, strict=True))
    for player, name in by_id.items():
        expected = name if name[0].isalpha() else "'" + name
        assert shown[player]["name"] == expected
    assert any(int(row["net"]) < 0 for row in rows)  # numbers stay numbers: -5 is not '-5
    assert all(not row["net"].startswith("'") for row in rows)


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("\tTab", "'\tTab"),
        ("\rCR", "'\rCR"),
        ("=1", "'=1"),
        ("a=1", "a=1"),
        (" =1+1", "' =1+1"),
        ("   @SUM(A1)", "'   @SUM(A1)"),
        ("\u00a0-2", "'\u00a0-2"),
        ("\u3000+1", "'\u3000+1"),
        ("\nhi", "\nhi"),  # a line break, then nothing a formula starts with
        ("＝1+1", "'＝1+1"),
        ("＋1", "'＋1"),
        ("－1", "'－1"),
        ("＠SUM(A1)", "'＠SUM(A1)"),
        (" ＝1", "' ＝1"),
        ("﹦1", "'﹦1"),
        ("Anna-Katharina Berger", "Anna-Katharina Berger"),
        ("  Anna", "  Anna"),
        ("−5 (a minus sign, no formula)", "−5 (a minus sign, no formula)"),
        (-5, -5),
        (None, None),
        ("", ""),
    ],
)
def test_spreadsheet_safe_prefixes_every_formula_start(cell, written):
    # A name cannot start with a tab or CR (the API refuses a blank start), but a cell that
    # did would be neutralised too.
    assert spreadsheet_safe(cell) == written


def test_an_import_cannot_forge_who_changed_what(api, client, league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    document = client.get(f"/api/v1/clubs/{league.club['id']}/export", headers=league.admin).json
    admin_token_id = document["tables"][0]["hands"][0]["revisions"][0]["changed_by"]["token_id"]
    for revision in document["tables"][0]["hands"][0]["revisions"]:
        revision["changed_by"] = {"token_id": admin_token_id, "kind": "admin", "imported": False}
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    new_table = imported.json["ids"]["tables"][table["id"]]
    history = client.get(
        f"/api/v1/tables/{new_table}/hands/1/history",
        headers=api.auth(imported.json["admin_token"]),
    ).json
    assert [r["changed_by"] for r in history["revisions"]] == [
        {"token_id": admin_token_id, "kind": "admin", "imported": True}
    ]
    own = client.get(f"/api/v1/tables/{table['id']}/hands/1/history", headers=league.admin).json
    assert own["revisions"][0]["changed_by"]["imported"] is False


def test_retirement_survives_export_and_import(client, league):
    league.record(league.table([0, 1, 2, 3]), SOLO)
    patch_player(league, league.players[3], retired=True)
    document = client.get(f"/api/v1/clubs/{league.club['id']}/export", headers=league.admin).json
    imported = client.post("/api/v1/clubs/import", json=document).json
    players = client.get(
        f"/api/v1/clubs/{imported['id']}/players",
        query_string={"include_retired": "true"},
        headers={"Authorization": f"Bearer {imported['admin_token']}"},
    ).json
    retired = [p["id"] for p in players if p["retired"]]
    assert retired == [imported["ids"]["players"][league.players[3]]]
