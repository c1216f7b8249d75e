"""A club night's series as its tables and its standings see them: a series' length that the
tables keep (a hand beyond it refused, unless the director lengthens it), a table's view of its
night, and a series not yet played that nobody has won."""

from __future__ import annotations

import pytest

from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_nights import Night


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def test_a_table_with_no_hand_yet_wins_no_series_for_anyone(club: Night) -> None:
    night = club.started(players=club.players[:8], series=2, hands_per_series=1)
    first = club.drawn(night, seed=5)
    one, two = first["tables"]
    club.record(one["table_id"], SOLO)
    club.record(two["table_id"], LOST_SOLO)
    club.drawn(night, seed=6)  # series 2 drawn, nobody has played in it yet
    body = club.standings(night).json
    for line in body["standings"]:
        second = line["series"][1]
        assert second is not None and second["hands"] == 0
        assert second["place"] is None
        first_place = line["series"][0]["place"]
        assert line["series_won"] == (1 if first_place == 1 else 0)
        # The best series is one that was played: not the 0 of a table without hands.
        assert line["best"] == line["series"][0]["result"]


def test_a_table_stops_at_its_series_end_until_the_director_lengthens_it(club: Night) -> None:
    night = club.started(players=club.players[:4], series=2, hands_per_series=2)
    series = club.drawn(night, seed=3)
    table_id = series["tables"][0]["table_id"]
    assert series["tables"][0]["hands_limit"] == 2
    token = club.client.post(f"/api/v1/tables/{table_id}/token", headers=club.admin).json
    phone = club.api.auth(token["table_token"])
    shown = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json
    assert shown["night_id"] == night["id"] and shown["hands_limit"] == 2
    for hand in (SOLO, LOST_SOLO):
        assert club.client.post(f"/api/v1/tables/{table_id}/hands", json=hand, headers=phone)
    url = f"/api/v1/tables/{table_id}/hands"
    beyond = club.client.post(url, json=SOLO, headers={**phone, "Accept-Language": "de"})
    assert beyond.status_code == 409, beyond.json
    assert beyond.json["type"] == "urn:solo:problem:series-over"
    assert "2" in beyond.json["detail"] and "Serie" in beyond.json["detail"]
    after = club.client.get(f"/api/v1/tables/{table_id}", headers=phone).json
    assert after["hands_played"] == 2  # nothing stored
    # The night's standings count the two hands, not a third.
    line = club.standings(night).json["standings"][0]
    assert line["series"][0]["hands"] == 2
    # Only the director lengthens it: a table's phone may not.
    length = f"/api/v1/nights/{night['id']}/series/1"
    assert club.client.patch(length, json={"hands": 3}, headers=phone).status_code == 403
    lengthened = club.client.patch(length, json={"hands": 3}, headers=club.admin)
    assert lengthened.status_code == 200, lengthened.json
    assert lengthened.json["tables"][0]["hands_limit"] == 3
    assert club.client.post(url, json=SOLO, headers=phone).status_code == 201
    assert club.client.post(url, json=SOLO, headers=phone).status_code == 409
    # The next draw waits for the lengthened series: the 2 due were played, and a third too.
    assert club.draw(night).status_code == 201


def test_a_series_cannot_be_shorter_than_a_table_has_played_and_names_the_field(
    club: Night,
) -> None:
    night = club.started(players=club.players[:8], hands_per_series=3)
    series = club.drawn(night, seed=3)
    one, two = (t["table_id"] for t in series["tables"])
    club.record(one, SOLO)
    club.record(one, SOLO)
    length = f"/api/v1/nights/{night['id']}/series/1"
    short = club.client.patch(length, json={"hands": 1}, headers=club.admin)
    assert short.status_code == 422
    assert "hands" in short.json["errors"]
    unknown = club.client.patch(length, json={"hands": 4, "table": 9}, headers=club.admin)
    assert unknown.status_code == 422 and "table" in unknown.json["errors"]
    no_series = club.client.patch(
        f"/api/v1/nights/{night['id']}/series/2", json={"hands": 4}, headers=club.admin
    )
    assert no_series.status_code == 404
    bad = club.client.patch(length, json={"hands": 0}, headers=club.admin)
    assert bad.status_code == 422
    # One table only: table 2 plays 2 hands, table 1 keeps its 3.
    only = club.client.patch(length, json={"hands": 2, "table": 2}, headers=club.admin)
    assert only.status_code == 200, only.json
    assert [t["hands_limit"] for t in only.json["tables"]] == [3, 2]
    tables = {
        t: club.client.get(f"/api/v1/tables/{t}", headers=club.admin).json for t in (one, two)
    }
    assert tables[one]["hands_limit"] == 3 and tables[two]["hands_limit"] == 2
    # Its version moved (1 when opened, no hand since): a phone holding it learns of it.
    assert tables[two]["version"] == 2 and tables[one]["version"] == 3


def test_a_table_of_its_own_has_no_limit_and_no_night(club: Night) -> None:
    table = club.client.post(
        "/api/v1/tables",
        json={
            "club_id": club.club["id"],
            "name": "Friendly",
            "variant": "american",
            "seats": club.players[:4],
        },
        headers=club.admin,
    ).json
    assert table["night_id"] is None and table["hands_limit"] is None


def test_the_export_keeps_each_tables_series_length_and_the_import_restores_it(
    club: Night,
) -> None:
    night = club.started(players=club.players[:8], hands_per_series=2)
    club.drawn(night, seed=3)
    length = f"/api/v1/nights/{night['id']}/series/1"
    assert club.client.patch(length, json={"hands": 5, "table": 1}, headers=club.admin)
    document = club.client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    links = document["nights"][0]["series"][0]["tables"]
    assert [t["hands_limit"] for t in links] == [5, 2]
    imported = club.client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    admin = club.api.auth(imported.json["admin_token"])
    new_id = imported.json["ids"]["nights"][night["id"]]
    shown = club.client.get(f"/api/v1/nights/{new_id}", headers=admin).json
    tables = shown["series"][0]["tables"]
    assert [t["hands_limit"] for t in tables] == [5, 2]
    table = club.client.get(f"/api/v1/tables/{tables[0]['table_id']}", headers=admin).json
    assert table["night_id"] == new_id and table["hands_limit"] == 5
    # A file of before the series' length was kept: the night's hands per series.
    for link in links:
        del link["hands_limit"]
    again = club.client.post("/api/v1/clubs/import", json=document)
    assert again.status_code == 201, again.json
    admin = club.api.auth(again.json["admin_token"])
    new_id = again.json["ids"]["nights"][night["id"]]
    shown = club.client.get(f"/api/v1/nights/{new_id}", headers=admin).json
    assert [t["hands_limit"] for t in shown["series"][0]["tables"]] == [2, 2]


def test_a_series_number_beyond_any_is_not_found(club: Night) -> None:
    night = club.started(players=club.players[:4], hands_per_series=2)
    club.drawn(night)
    huge = f"/api/v1/nights/{night['id']}/series/{2**70}"
    answer = club.client.patch(huge, json={"hands": 3}, headers=club.admin)
    assert answer.status_code == 404


def test_the_pools_share_is_shown_where_the_money_counts_it_and_money_follows_the_standings(
    club: Night,
) -> None:
    night = club.started(
        players=club.players[:8], hands_per_series=2, rate={"cents": 5, "table_fee_cents": 200}
    )
    series = club.drawn(night, seed=4)
    one, two = (t["table_id"] for t in series["tables"])
    for hand in (LOST_SOLO, SOLO):
        club.record(one, hand)
    club.record(two, SOLO)
    pools = [
        club.client.get(f"/api/v1/tables/{t}", headers=club.admin).json["pool"] for t in (one, two)
    ]
    assert any(pools)  # a pool to share out
    body = club.standings(night).json
    cents = {p["player_id"]: p["cents"] for p in body["money"]["players"]}
    for line in body["standings"]:
        # 5 cents a chip, exactly: the chips and the pool's share are the money, to the cent.
        assert (line["total"] + line["pool_chips"]) * 5 == cents[line["player_id"]] == line["cents"]
        assert line["pool_chips"] == sum(r["pool_share"] for r in line["series"] if r)
    assert sum(line["pool_chips"] for line in body["standings"]) == sum(pools)
    # The money's players in the standings' order.
    assert [p["player_id"] for p in body["money"]["players"]] == [
        line["player_id"] for line in body["standings"]
    ]
    board = club.client.get(
        f"/nights/{night['id']}/screen/board", headers={**club.admin, "Accept-Language": "de"}
    ).get_data(as_text=True)
    assert "<th>+ Kasse</th>" in board


@pytest.mark.parametrize(
    ("basis", "fee", "each", "words"),
    [
        ("series", 200, 400, "Tischgeld 2,00\u00a0€ pro Person und Serie"),
        ("night", 200, 200, "Tischgeld 2,00\u00a0€ pro Person für den Abend"),
        ("table", 400, 200, "Tischgeld 4,00\u00a0€ pro Tisch, geteilt unter den Spielenden"),
    ],
)
def test_the_table_fee_is_charged_per_series_per_night_or_per_table_as_chosen(
    club: Night, basis: str, fee: int, each: int, words: str
) -> None:
    night = club.started(
        players=club.players[:8],
        hands_per_series=1,
        series=2,
        rate={"cents": 5, "table_fee_cents": fee},
        fee_basis=basis,
    )
    assert night["fee_basis"] == basis
    for seed in (1, 2):
        drawn = club.drawn(night, seed=seed)
        for table in drawn["tables"]:
            club.record(table["table_id"], SOLO)
    money = club.standings(night).json["money"]
    # Eight players, each at a table of four in both series.
    assert [p["fees_cents"] for p in money["players"]] == [each] * 8
    assert money["fees_cents"] == 8 * each
    board = club.client.get(
        f"/nights/{night['id']}/screen/board", headers={**club.admin, "Accept-Language": "de"}
    ).get_data(as_text=True)
    assert words in board
    document = club.client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    assert document["nights"][0]["fee_basis"] == basis
    imported = club.client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    admin = club.api.auth(imported.json["admin_token"])
    new_id = imported.json["ids"]["nights"][night["id"]]
    again = club.client.get(f"/api/v1/nights/{new_id}/settle-up", headers=admin).json
    assert [p["fees_cents"] for p in again["players"]] == [each] * 8


def test_an_unknown_fee_basis_is_refused_naming_the_field(club: Night) -> None:
    answer = club.start(players=club.players[:4], fee_basis="hour")
    assert answer.status_code == 422 and "fee_basis" in answer.json["errors"]


def test_the_nights_standings_and_money_come_as_csv_in_the_readers_language(
    club: Night,
) -> None:
    night = club.started(
        players=club.players[:4],
        new_players=["=1+1", "＝SUMME(A1)", "@Anna", "-Bob"],
        hands_per_series=2,
        rate={"cents": 5, "table_fee_cents": 150},
    )
    series = club.drawn(night, seed=9)
    for table in series["tables"]:
        club.record(table["table_id"], SOLO)
        club.record(table["table_id"], LOST_SOLO)
    url = f"/api/v1/nights/{night['id']}/standings.csv"
    german = club.client.get(url, headers={**club.admin, "Accept-Language": "de"})
    assert german.status_code == 200 and german.mimetype == "text/csv"
    lines = german.get_data(as_text=True).split("\r\n")
    assert lines[0] == "Rang;Personen-ID;Name;S1;Gesamt;Kassenanteil;Geld;Tischgeld;Währung"
    body = club.standings(night).json
    for line, text in zip(body["standings"], lines[1:], strict=False):
        cells = text.split(";")
        euros, cents = divmod(abs(line["cents"]), 100)
        sign = "-" if line["cents"] < 0 else ""
        assert cells[6] == f"{sign}{euros},{cents:02d}"  # a decimal comma, an ASCII minus
        assert cells[4] == str(line["total"]) and cells[7] == "1,50"
        assert cells[2][:1] not in "=+-@＝＠"  # a formula start is neutralised
    names = [text.split(";")[2] for text in lines[1:-1]]
    assert {"'=1+1", "'＝SUMME(A1)", "'@Anna", "'-Bob"} <= set(names)
    spanish = club.client.get(url, headers={**club.admin, "Accept-Language": "es"})
    assert spanish.get_data(as_text=True).startswith(
        "Puesto;ID de persona;Nombre;R1;Total;Parte del bote;Dinero;Cuotas de mesa;Moneda\r\n"
    )
    english = club.client.get(url, headers=club.admin).get_data(as_text=True)
    assert english.startswith(
        "rank,player_id,name,series_1,total,pool_chips,money,fees,currency\r\n"
    )
    assert ",1.50,EUR\r\n" in english
    money = club.client.get(
        f"/api/v1/nights/{night['id']}/settle-up.csv",
        headers={**club.admin, "Accept-Language": "de"},
    ).get_data(as_text=True)
    assert money.startswith("Art;Personen-ID;Name;An Personen-ID;An;Cent;Währung\r\n")
    assert "'=1+1" in money


def test_the_nights_csvs_answer_an_accept_of_csv_and_refuse_one_of_json_only(
    club: Night,
) -> None:
    """A client that asks for the type it wants (the admin screen: ``Accept: text/csv``) gets
    it; one that takes JSON alone is told (406) that the operation answers CSV."""
    night = club.started(players=club.players[:4], rate={"cents": 5, "table_fee_cents": 0})
    club.drawn(night)
    for name in ("standings.csv", "settle-up.csv"):
        url = f"/api/v1/nights/{night['id']}/{name}"
        csv = club.client.get(url, headers={**club.admin, "Accept": "text/csv"})
        assert csv.status_code == 200 and csv.mimetype == "text/csv", name
        json_only = club.client.get(url, headers={**club.admin, "Accept": "application/json"})
        assert json_only.status_code == 406 and "text/csv" in json_only.json["detail"], name


def test_the_season_csv_speaks_the_readers_language_and_writes_whole_numbers_whole(
    club: Night,
) -> None:
    night = club.started(players=club.players[:4], season_id=club.season["id"])
    series = club.drawn(night)
    club.record(series["tables"][0]["table_id"], SOLO)
    url = f"/api/v1/seasons/{club.season['id']}/standings.csv"
    german = club.client.get(url, headers={**club.admin, "Accept-Language": "de"})
    text = german.get_data(as_text=True)
    header, *rows = text.split("\r\n")
    assert header.startswith("Rang;Personen-ID;Name;Tische gespielt;Spiele;Saldo;")
    assert "Saldo pro 100 Spiele" in header
    assert rows[0] and ".0" not in text
    english = club.client.get(url, headers=club.admin).get_data(as_text=True)
    assert english.startswith("rank,player_id,name,sittings,hands,net,net_per_100_hands,")
    assert ".0," not in english


def test_the_season_and_the_night_name_their_order_in_the_answer_and_in_words(
    club: Night,
) -> None:
    night = club.started(players=club.players[:4], season_id=club.season["id"])
    series = club.drawn(night)
    club.record(series["tables"][0]["table_id"], SOLO)
    season = club.client.get(
        f"/api/v1/seasons/{club.season['id']}/standings", headers=club.admin
    ).json
    assert season["tie_breaks"] == ["net", "won", "fewer_lost"]
    assert club.standings(night).json["tie_breaks"] == ["total", "series_won", "best"]
    board = club.client.get(
        f"/nights/{night['id']}/screen/board", headers={**club.admin, "Accept-Language": "de"}
    ).get_data(as_text=True)
    assert "Reihenfolge: Gesamtergebnis, dann mehr gewonnene Serien, dann die beste Serie" in board
