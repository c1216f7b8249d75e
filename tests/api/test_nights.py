"""Club nights over HTTP: start one, presence, the draws of its series (tables opened in the
season), the standings live from the tables' hands, closing it, and who may do what."""

from __future__ import annotations

import re
from itertools import combinations

import pytest
from sqlalchemy.exc import IntegrityError

from tests.api.test_league import LOST_SOLO, SIMPLE, SOLO


class Night:
    """A club with ten players and a season of American Solo."""

    def __init__(self, api, client) -> None:
        self.api, self.client = api, client
        self.club = api.club()
        self.admin = api.auth(self.club["admin_token"])
        self.players = api.players(self.club, 10)
        season = client.post(
            f"/api/v1/clubs/{self.club['id']}/seasons",
            json={"name": "Winter", "variant": "american"},
            headers=self.admin,
        )
        assert season.status_code == 201
        self.season = season.json

    def start(self, **body):
        body = {"name": "Spieleabend", "variant": "american", **body}
        return self.client.post(
            f"/api/v1/clubs/{self.club['id']}/nights", json=body, headers=self.admin
        )

    def started(self, **body) -> dict:
        response = self.start(**body)
        assert response.status_code == 201, response.json
        return response.json

    def draw(self, night: dict, **body):
        return self.client.post(
            f"/api/v1/nights/{night['id']}/series", json=body, headers=self.admin
        )

    def drawn(self, night: dict, **body) -> dict:
        response = self.draw(night, **body)
        assert response.status_code == 201, response.json
        return response.json

    def presence(self, night: dict, **body):
        return self.client.patch(
            f"/api/v1/nights/{night['id']}/presence", json=body, headers=self.admin
        )

    def record(self, table_id: str, hand: dict) -> None:
        response = self.client.post(
            f"/api/v1/tables/{table_id}/hands", json=hand, headers=self.admin
        )
        assert response.status_code == 201, response.json

    def standings(self, night: dict, headers: dict | None = None):
        return self.client.get(
            f"/api/v1/nights/{night['id']}/standings", headers=headers or self.admin
        )


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def seated(series: dict) -> list[str]:
    return [s["player_id"] for t in series["tables"] for s in t["seats"]]


def test_a_night_starts_with_the_players_present_and_new_ones_added_to_the_club(club):
    night = club.started(
        players=club.players[:8], new_players=["Maximiliane"], hands_per_series=2, series=2
    )
    assert night["status"] == "open" and night["next_series"] == 1 and night["series"] == []
    assert night["hands_per_series"] == 2 and night["series_planned"] == 2
    names = {p["name"] for p in night["players"]}
    assert "Maximiliane" in names and len(names) == 9
    assert all(p["present"] for p in night["players"])
    listed = club.client.get(f"/api/v1/clubs/{club.club['id']}/players", headers=club.admin)
    assert "Maximiliane" in {p["name"] for p in listed.json}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"players": ["nobody"]}, "players.0"),
        ({"players": []}, "players"),
        ({"variant": "skat"}, "variant"),
        ({"series": 0}, "series"),
        ({"hands_per_series": 0}, "hands_per_series"),
        ({"season_id": "nope"}, "season_id"),
        ({"new_players": ["Player 1"]}, "new_players.0"),
        ({"new_players": [" "]}, "new_players.0"),
    ],
)
def test_a_bad_night_is_refused_naming_the_field_and_nothing_is_stored(club, body, field):
    body = {"players": club.players[:4], **body}
    response = club.start(**body)
    assert response.status_code == 422, response.json
    assert field in response.json["errors"]
    listed = club.client.get(f"/api/v1/clubs/{club.club['id']}/nights", headers=club.admin)
    assert listed.json == []


def test_a_repeated_player_is_refused(club):
    response = club.start(players=[club.players[0], club.players[0], *club.players[1:4]])
    assert response.status_code == 422 and "players" in response.json["errors"]


def test_the_draw_opens_tables_of_the_season_with_every_player_once_and_shows_its_seed(club):
    night = club.started(players=club.players[:9], series=2, season_id=club.season["id"])
    series = club.drawn(night, seed=42)
    assert series["number"] == 1 and series["seed"] == 42
    assert sorted(seated(series)) == sorted(club.players[:9])
    assert sorted(len(t["seats"]) for t in series["tables"]) == [4, 5]
    for table in series["tables"]:
        shown = club.client.get(f"/api/v1/tables/{table['table_id']}", headers=club.admin).json
        assert shown["season_id"] == club.season["id"] and shown["status"] == "open"
        assert [s["player_id"] for s in shown["seats"]] == [s["player_id"] for s in table["seats"]]
        assert shown["dealer"] == table["first_dealer"]


def test_the_same_seed_draws_the_same_seats(club):
    first = club.started(players=club.players[:8])
    second = club.started(players=club.players[:8])
    one, two = club.drawn(first, seed=7), club.drawn(second, seed=7)
    assert [[s["player_id"] for s in t["seats"]] for t in one["tables"]] == [
        [s["player_id"] for s in t["seats"]] for t in two["tables"]
    ]
    assert [t["first_dealer"] for t in one["tables"]] == [t["first_dealer"] for t in two["tables"]]


def test_a_late_arrival_and_an_early_leaver_change_the_next_draw(club):
    night = club.started(players=club.players[:8], series=2)
    first = club.drawn(night, seed=1)
    assert sorted(seated(first)) == sorted(club.players[:8])
    changed = club.presence(night, arrived=[club.players[8]], left=[club.players[0]])
    assert changed.status_code == 200, changed.json
    second = club.drawn(night, seed=2)
    assert sorted(seated(second)) == sorted(club.players[1:9])
    # The first series' tables were closed by the second draw.
    for table in first["tables"]:
        shown = club.client.get(f"/api/v1/tables/{table['table_id']}", headers=club.admin).json
        assert shown["status"] == "closed"


def test_a_count_no_table_size_takes_is_refused_with_a_clear_message(club, client):
    response = club.start(variant="german", players=club.players[:6])
    night = response.json
    refused = club.draw(night)
    assert refused.status_code == 422
    assert "present" in refused.json["errors"]
    assert "6" in refused.json["detail"] and "4" in refused.json["detail"]
    assert club.client.get(f"/api/v1/nights/{night['id']}", headers=club.admin).json["series"] == []
    german = client.post(
        f"/api/v1/nights/{night['id']}/series",
        json={},
        headers={**club.admin, "Accept-Language": "de"},
    )
    assert "6 Anwesende passen an keine Tische zu 4 Plätzen" in german.json["detail"]


def test_the_second_draw_avoids_the_first_series_tablemates(club):
    night = club.started(players=club.players[:8], series=2)
    first = club.drawn(night, seed=3)
    second = club.drawn(night, seed=4)
    before = {
        frozenset(p)
        for t in first["tables"]
        for p in combinations([s["player_id"] for s in t["seats"]], 2)
    }
    again = [
        p
        for t in second["tables"]
        for p in combinations([s["player_id"] for s in t["seats"]], 2)
        if frozenset(p) in before
    ]
    # Two tables of four, twice: at best each new table takes two players of each earlier
    # one, so one pair of each meets again (2 a table, 4 in all); the draw finds that best.
    assert second["repeats"] == len(again) == 4


def test_the_standings_follow_the_hands_and_break_ties_by_series_won(club):
    night = club.started(players=club.players[:8], series=2, hands_per_series=1)
    first = club.drawn(night, seed=5)
    etag = club.standings(night).headers["ETag"]
    table = first["tables"][0]
    club.record(table["table_id"], SOLO)
    again = club.client.get(
        f"/api/v1/nights/{night['id']}/standings",
        headers={**club.admin, "If-None-Match": etag},
    )
    assert again.status_code == 200  # a hand arrived: a new answer
    body = again.json
    shown = club.client.get(f"/api/v1/tables/{table['table_id']}", headers=club.admin).json
    by_player = {r["player_id"]: r for r in body["standings"]}
    for seat in shown["seats"]:
        line = by_player[seat["player_id"]]
        assert line["total"] == seat["balance"]
        assert line["series"][0]["result"] == seat["balance"]
    totals = [r["total"] for r in body["standings"]]
    assert totals == sorted(totals, reverse=True)
    unchanged = club.client.get(
        f"/api/v1/nights/{night['id']}/standings",
        headers={**club.admin, "If-None-Match": again.headers["ETag"]},
    )
    assert unchanged.status_code == 304
    # Table 2 has not played its hand: the next draw waits for it.
    pending = club.draw(night)
    assert pending.status_code == 409
    assert pending.json["type"] == "urn:solo:problem:night-tables-pending"
    assert pending.json["detail"].endswith("let the tables finish, or end the series now anyway.")
    assert "early" not in pending.json["detail"]
    club.record(first["tables"][1]["table_id"], LOST_SOLO)
    second = club.drawn(night, seed=6)
    for t in second["tables"]:
        club.record(t["table_id"], SIMPLE)
    body = club.standings(night).json
    for line in body["standings"]:
        assert line["total"] == sum(r["result"] for r in line["series"] if r)
    ranks = [(r["total"], r["series_won"], r["best"]) for r in body["standings"]]
    assert ranks == sorted(ranks, reverse=True)
    for before, after in zip(body["standings"], body["standings"][1:], strict=False):
        same = (before["total"], before["series_won"], before["best"]) == (
            after["total"],
            after["series_won"],
            after["best"],
        )
        assert (after["rank"] == before["rank"]) == same


def test_closing_waits_for_the_tables_unless_early_and_closes_them(club):
    night = club.started(players=club.players[:4], hands_per_series=2)
    series = club.drawn(night)
    table_id = series["tables"][0]["table_id"]
    club.record(table_id, SOLO)
    url = f"/api/v1/nights/{night['id']}/close"
    refused = club.client.post(url, json={}, headers=club.admin)
    assert refused.status_code == 409, refused.json
    assert "1 of 2" in refused.json["detail"]
    # Said in the admin's words, as the button beside it on the admin screen (the API's
    # `early: true` is the problem type's documentation), in every language.
    assert refused.json["detail"].endswith("or close the night anyway.")
    german = club.client.post(url, json={}, headers={**club.admin, "Accept-Language": "de"})
    assert german.json["detail"].endswith("den Spieleabend trotzdem schließen.")
    spanish = club.client.post(url, json={}, headers={**club.admin, "Accept-Language": "es"})
    assert spanish.json["detail"].endswith("cierra la noche de todos modos.")
    closed = club.client.post(url, json={"early": True}, headers=club.admin)
    assert closed.status_code == 200 and closed.json["status"] == "closed"
    shown = club.client.get(f"/api/v1/tables/{table_id}", headers=club.admin).json
    assert shown["status"] == "closed"
    assert club.client.post(url, json={}, headers=club.admin).json["type"] == (
        "urn:solo:problem:night-closed"
    )
    assert club.draw(night).status_code == 409


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Ask the director."), ("de", "Spielleitung"), ("es", "quien dirige la noche")],
)
def test_a_night_table_is_closed_by_the_director_never_by_its_phone(club, language, words):
    night = club.started(players=club.players[:4], hands_per_series=2)
    table_id = club.drawn(night)["tables"][0]["table_id"]
    cards = club.client.post(f"/nights/{night['id']}/cards/1", headers=club.admin)
    token = re.search(r"&amp;token=([^\"]+)\"", cards.get_data(as_text=True)).group(1)
    phone = {**club.api.auth(token), "Accept-Language": language}
    club.record(table_id, SOLO)
    refused = club.client.post(f"/api/v1/tables/{table_id}/close", headers=phone)
    assert refused.status_code == 403, refused.json
    assert refused.json["type"] == "urn:solo:problem:night-table-closed-by-director"
    assert words in refused.json["detail"] and night["name"] in refused.json["detail"]
    # Nothing changed: the table still plays, its token still works, and the next draw waits.
    table = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json
    assert table["status"] == "open"
    assert club.draw(night).status_code == 409
    # The director (the club's admin token) may close it.
    closed = club.client.post(f"/api/v1/tables/{table_id}/close", headers=club.admin)
    assert closed.status_code == 200 and closed.json["status"] == "closed"


def test_a_table_outside_a_night_is_still_closed_by_its_phone(club):
    table = club.api.table(club=club.club)
    answer = club.client.post(
        f"/api/v1/tables/{table['id']}/close", headers=club.api.auth(table["table_token"])
    )
    assert answer.status_code == 200 and answer.json["status"] == "closed"


def test_read_only_tokens_read_and_only_the_admin_writes(club, client):
    viewer = client.post(f"/api/v1/clubs/{club.club['id']}/viewer-token", headers=club.admin).json[
        "token"
    ]
    night = club.started(players=club.players[:4])
    reader = club.api.auth(viewer)
    assert client.get(f"/api/v1/nights/{night['id']}", headers=reader).status_code == 200
    assert club.standings(night, reader).status_code == 200
    assert (
        client.post(f"/api/v1/nights/{night['id']}/series", json={}, headers=reader).status_code
        == 403
    )
    other = club.api.club("Other")
    stranger = club.api.auth(other["admin_token"])
    assert client.get(f"/api/v1/nights/{night['id']}", headers=stranger).status_code == 403
    assert client.get("/api/v1/nights/nope", headers=club.admin).status_code == 404


def test_a_draw_with_an_idempotency_key_is_drawn_once(club, client):
    night = club.started(players=club.players[:8], series=2)
    headers = {**club.admin, "Idempotency-Key": "draw-1"}
    url = f"/api/v1/nights/{night['id']}/series"
    first = client.post(url, json={"seed": 9}, headers=headers)
    again = client.post(url, json={"seed": 9}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    shown = client.get(f"/api/v1/nights/{night['id']}", headers=club.admin).json
    assert len(shown["series"]) == 1


def test_the_export_keeps_the_night_and_the_import_rebuilds_its_standings(club, client):
    night = club.started(players=club.players[:9], series=2, season_id=club.season["id"])
    first = club.drawn(night, seed=13)
    for table in first["tables"]:
        club.record(table["table_id"], SOLO)
    club.presence(night, left=[club.players[0]])
    club.drawn(night, seed=14)
    document = client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    assert [n["id"] for n in document["nights"]] == [night["id"]]
    assert [s["seed"] for s in document["nights"][0]["series"]] == [13, 14]
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    assert imported.json["imported"]["nights"] == 1
    ids = imported.json["ids"]
    headers = club.api.auth(imported.json["admin_token"])
    new_id = ids["nights"][night["id"]]
    old = club.standings(night).json
    new = client.get(f"/api/v1/nights/{new_id}/standings", headers=headers).json
    assert new["night"]["season_id"] == ids["seasons"][club.season["id"]]
    assert [(s["name"], s["total"], s["rank"]) for s in new["standings"]] == [
        (s["name"], s["total"], s["rank"]) for s in old["standings"]
    ]
    assert [p["present"] for p in new["night"]["players"]] == [
        p["present"] for p in old["night"]["players"]
    ]
    assert [
        [ids["tables"][t["table_id"]] for t in s["tables"]] for s in old["night"]["series"]
    ] == [[t["table_id"] for t in s["tables"]] for s in new["night"]["series"]]


def test_an_import_with_a_night_naming_a_table_not_in_the_file_imports_nothing(club, client):
    night = club.started(players=club.players[:4])
    club.drawn(night)
    document = client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    document["nights"][0]["series"][0]["tables"][0]["table_id"] = "elsewhere"
    refused = client.post("/api/v1/clubs/import", json=document)
    assert refused.status_code == 422
    assert "nights.0.series.0.tables.0.table_id" in refused.json["errors"]
    document.pop("nights")  # an export made before nights imports as it did
    assert client.post("/api/v1/clubs/import", json=document).status_code == 201


@pytest.mark.parametrize(
    "values",
    [
        {"series_planned": 0},
        {"series_planned": 21},
        {"hands_per_series": 0},
        {"status": "paused"},
        {"status": "closed"},  # a closed night without its closing time
        {"name": ""},
    ],
)
def test_the_database_refuses_a_malformed_night(app, api, values):
    from sqlalchemy import insert

    from service.extensions import db
    from service.persistence.columns import utcnow
    from service.persistence.nights import ClubNightRow

    club = api.club()
    row = {
        "id": "n" * 32,
        "club_id": club["id"],
        "name": "Night",
        "variant": "american",
        "series_planned": 2,
        "status": "open",
        "version": 1,
        "created_at": utcnow(),
        **values,
    }
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(insert(ClubNightRow).values(**row))


def test_the_database_refuses_a_table_of_a_series_never_drawn(app, club):
    from sqlalchemy import insert

    from service.extensions import db
    from service.persistence.nights import ClubNightTableRow

    night = club.started(players=club.players[:4])
    club.drawn(night)
    outside = club.api.table()  # a table of no night: only the series is wrong
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(
            insert(ClubNightTableRow).values(
                night_id=night["id"], series=2, number=1, table_id=outside["id"]
            )
        )


def test_an_early_draw_ends_the_series_though_a_table_is_short_of_hands(club):
    night = club.started(players=club.players[:8], series=2, hands_per_series=3)
    first = club.drawn(night, seed=1)
    club.record(first["tables"][0]["table_id"], SOLO)
    assert club.draw(night).status_code == 409
    second = club.drawn(night, seed=2, early=True)
    assert second["number"] == 2
    for table in first["tables"]:
        shown = club.client.get(f"/api/v1/tables/{table['table_id']}", headers=club.admin).json
        assert shown["status"] == "closed"


def test_a_table_of_the_night_reads_the_night_and_another_table_does_not(club, client):
    night = club.started(players=club.players[:4])
    series = club.drawn(night)
    table_id = series["tables"][0]["table_id"]
    token = client.post(f"/api/v1/tables/{table_id}/token", headers=club.admin).json["table_token"]
    phone = club.api.auth(token)
    assert club.standings(night, phone).status_code == 200
    assert (
        client.post(f"/api/v1/nights/{night['id']}/close", json={}, headers=phone).status_code
        == 403
    )
    # A table of the same club that is not the night's reads nothing of it.
    elsewhere = client.post(
        "/api/v1/tables",
        json={
            "club_id": club.club["id"],
            "name": "Friendly",
            "variant": "american",
            "seats": club.players[4:8],
        },
        headers=club.admin,
    ).json
    stranger = club.api.auth(elsewhere["table_token"])
    assert club.standings(night, stranger).status_code == 403


def test_a_whole_club_night_counts_for_its_season(club, client):
    """Nine players, a late arrival, two series of two tables, hands at every table, the
    night closed: the night's standings and the season's agree on every player's chips."""
    night = club.started(
        players=club.players[:9], series=2, hands_per_series=2, season_id=club.season["id"]
    )
    first = club.drawn(night, seed=100)
    assert sorted(len(t["seats"]) for t in first["tables"]) == [4, 5]
    for table in first["tables"]:
        club.record(table["table_id"], SOLO)
        club.record(table["table_id"], LOST_SOLO)
    assert club.presence(night, arrived=[club.players[9]]).status_code == 200
    second = club.drawn(night, seed=101)
    assert sorted(len(t["seats"]) for t in second["tables"]) == [5, 5]
    assert sorted(seated(second)) == sorted(club.players)
    for table in second["tables"]:
        club.record(table["table_id"], SIMPLE)
        club.record(table["table_id"], SOLO)
    closed = client.post(f"/api/v1/nights/{night['id']}/close", json={}, headers=club.admin)
    assert closed.status_code == 200, closed.json
    night_lines = {line["player_id"]: line for line in club.standings(night).json["standings"]}
    season = client.get(f"/api/v1/seasons/{club.season['id']}/standings", headers=club.admin).json[
        "rows"
    ]
    assert {row["player_id"]: row["net"] for row in season} == {
        player: line["total"] for player, line in night_lines.items()
    }
    late = night_lines[club.players[9]]
    assert late["series"][0] is None and late["series"][1] is not None
    assert {row["player_id"]: row["sittings"] for row in season}[club.players[0]] == 2
