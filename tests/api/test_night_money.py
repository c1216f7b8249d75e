"""A club night's money over HTTP: the rate it starts with (validated, naming the field), the
tables its draws open carrying it, a later change kept in the night's and its tables'
histories, the settle-up over all its tables (each player's cents summed, the fewest
payments, the fees apart), its CSV, the standings, and the export and import."""

from __future__ import annotations

import csv
import io

import pytest

from tests.api.test_league import LOST_SOLO, SIMPLE, SOLO
from tests.api.test_nights import Night

RATE = {"cents": 5, "per": 1, "table_fee_cents": 150}


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def _table(club: Night, table_id: str) -> dict:
    response = club.client.get(f"/api/v1/tables/{table_id}", headers=club.admin)
    assert response.status_code == 200
    return response.json


def _table_money(club: Night, table_id: str) -> dict:
    response = club.client.get(f"/api/v1/tables/{table_id}/settle-up", headers=club.admin)
    assert response.status_code == 200
    return response.json


def _settle_up(club: Night, night: dict):
    return club.client.get(f"/api/v1/nights/{night['id']}/settle-up", headers=club.admin)


def _played_night(club: Night) -> tuple[dict, list[dict]]:
    """Eight players, two series of two tables, a hand or two at each table."""
    night = club.started(players=club.players[:8], series=2, hands_per_series=1, rate=RATE)
    first = club.drawn(night, seed=21)
    club.record(first["tables"][0]["table_id"], SOLO)
    club.record(first["tables"][1]["table_id"], LOST_SOLO)
    second = club.drawn(night, seed=22)
    club.record(second["tables"][0]["table_id"], SIMPLE)
    club.record(second["tables"][1]["table_id"], SOLO)
    return night, [first, second]


def test_a_night_starts_with_a_rate_in_the_clubs_currency_and_its_tables_carry_it(club):
    night = club.started(players=club.players[:4], rate=RATE)
    assert night["rate"] == {
        "cents": 5,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 150,
        "point_settlement": None,
    }
    series = club.drawn(night)
    assert _table(club, series["tables"][0]["table_id"])["rate"] == night["rate"]
    without = club.started(players=club.players[4:8])
    assert without["rate"] is None
    drawn = club.drawn(without)
    assert _table(club, drawn["tables"][0]["table_id"])["rate"] is None
    assert _settle_up(club, without).status_code == 404


@pytest.mark.parametrize(
    ("rate", "field"),
    [
        ({"cents": -1}, "rate.cents"),
        ({"cents": 1.5}, "rate.cents"),
        ({"cents": 5, "per": 0}, "rate.per"),
        ({"cents": 5, "currency": "euro"}, "rate.currency"),
        ({"cents": 5, "table_fee_cents": -5}, "rate.table_fee_cents"),
        ({"cents": 5, "point_settlement": "pairs"}, "rate.point_settlement"),
        ({"per": 2}, "rate.cents"),
    ],
)
def test_a_bad_rate_is_refused_naming_the_field_and_nothing_is_stored(club, rate, field):
    response = club.start(players=club.players[:4], rate=rate)
    assert response.status_code == 422, response.json
    assert field in str(response.json), response.json
    listed = club.client.get(f"/api/v1/clubs/{club.club['id']}/nights", headers=club.admin)
    assert listed.json == []


def test_a_point_game_night_settles_in_pairs_unless_it_says_average(api, client):
    club = Night(api, client)
    body = {"name": "Noche", "variant": "spanish", "players": club.players[:4]}
    url = f"/api/v1/clubs/{club.club['id']}/nights"
    night = client.post(url, json={**body, "rate": {"cents": 10}}, headers=club.admin).json
    assert night["rate"]["point_settlement"] == "pairs"
    average = {"cents": 10, "point_settlement": "average"}
    night = client.post(url, json={**body, "rate": average}, headers=club.admin).json
    assert night["rate"]["point_settlement"] == "average"


def test_the_settle_up_sums_each_players_tables_and_clears_them_in_the_fewest_payments(club):
    night, series = _played_night(club)
    response = _settle_up(club, night)
    assert response.status_code == 200, response.json
    money = response.json
    assert money["currency"] == "EUR" and money["rounding"] == "tables-down-largest-remainder"
    expected: dict[str, int] = {}
    fees: dict[str, int] = {}
    by_series: dict[tuple[str, int], int] = {}
    for drawn in series:
        for table in drawn["tables"]:
            shown = _table(club, table["table_id"])
            settled = _table_money(club, table["table_id"])["money"]
            for net in settled["net"]:
                if net["party"] == "pool":
                    continue
                player = shown["seats"][net["party"]]["player_id"]
                expected[player] = expected.get(player, 0) + net["cents"]
                by_series[(player, drawn["number"])] = net["cents"]
            for fee in settled["fees"]:
                player = shown["seats"][fee["from"]]["player_id"]
                fees[player] = fees.get(player, 0) + fee["cents"]
    assert {p["player_id"]: p["cents"] for p in money["players"]} == expected
    assert {p["player_id"]: p["fees_cents"] for p in money["players"]} == fees
    assert all(f == 2 * 150 for f in fees.values())  # two tables each, a fee at each
    assert money["fees_cents"] == sum(fees.values())
    for player in money["players"]:
        for entry in player["series"]:
            assert entry["cents"] == by_series[(player["player_id"], entry["series"])]
    # The amounts sum to zero in cents, and the payments clear them, each positive.
    assert sum(expected.values()) + (money["pool_cents"] or 0) == 0
    left = {p["player_id"]: p["cents"] for p in money["players"]}
    left["pool"] = money["pool_cents"] or 0
    for transfer in money["transfers"]:
        assert transfer["cents"] > 0
        payer = transfer["from"]["player_id"] or "pool"
        payee = transfer["to"]["player_id"] or "pool"
        left[payer] += transfer["cents"]
        left[payee] -= transfer["cents"]
    assert set(left.values()) == {0}
    debtors = sum(1 for v in expected.values() if v)
    assert len(money["transfers"]) < max(debtors, 1) + 1
    # The standings carry each player's money, and the settle-up itself.
    standings = club.standings(night).json
    assert {s["player_id"]: s["cents"] for s in standings["standings"]} == expected
    assert standings["money"] == money


def test_a_later_rate_is_kept_in_the_nights_and_its_tables_histories(club):
    night, series = _played_night(club)
    agreed = series[1]["tables"][1]["table_id"]  # its players agreed their own rate
    own = {"rate": {"cents": 2, "per": 1}}
    assert (
        club.client.patch(f"/api/v1/tables/{agreed}", json=own, headers=club.admin).status_code
        == 200
    )
    before = _settle_up(club, night).json
    changed = club.client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 10}}, headers=club.admin
    )
    assert changed.status_code == 200, changed.json
    assert changed.json["rate"]["cents"] == 10 and changed.json["rate"]["table_fee_cents"] == 0
    history = club.client.get(f"/api/v1/nights/{night['id']}/history", headers=club.admin).json
    assert [
        (c["setting"], c["before"]["cents"], c["after"]["cents"]) for c in history["changes"]
    ] == [("rate", 5, 10)]
    assert history["changes"][0]["changed_by"]["kind"] == "admin"
    for drawn in series:
        for table in drawn["tables"]:
            cents = _table(club, table["table_id"])["rate"]["cents"]
            assert cents == (2 if table["table_id"] == agreed else 10)
    kept = club.client.get(
        f"/api/v1/tables/{series[0]['tables'][0]['table_id']}/history", headers=club.admin
    ).json
    assert kept["changes"][-1]["after"]["cents"] == 10
    after = _settle_up(club, night).json
    # The fee was the night's: gone with the new rate; the agreed table never had one.
    assert before["fees_cents"] == (8 + 4) * 150 and after["fees_cents"] == 0
    # The same rate again changes nothing.
    again = club.client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 10}}, headers=club.admin
    )
    assert again.json["version"] == changed.json["version"]


def test_only_the_admin_changes_the_rate_and_a_bad_one_names_its_field(club, client):
    night = club.started(players=club.players[:4], rate=RATE)
    viewer = client.post(f"/api/v1/clubs/{club.club['id']}/viewer-token", headers=club.admin)
    reader = club.api.auth(viewer.json["token"])
    refused = client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 1}}, headers=reader
    )
    assert refused.status_code == 403
    assert client.get(f"/api/v1/nights/{night['id']}/settle-up", headers=reader).status_code == 200
    stranger = club.api.auth(club.api.club("Other")["admin_token"])
    assert client.get(f"/api/v1/nights/{night['id']}/history", headers=stranger).status_code == 403
    bad = client.patch(
        f"/api/v1/nights/{night['id']}",
        json={"rate": {"cents": 1, "per": 5000}},
        headers=club.admin,
    )
    assert bad.status_code == 422 and "rate.per" in str(bad.json)
    missing = client.patch(f"/api/v1/nights/{night['id']}", json={}, headers=club.admin)
    assert missing.status_code == 422 and "rate" in str(missing.json)
    assert client.get(f"/api/v1/nights/{night['id']}", headers=club.admin).json["rate"] == {
        **RATE,
        "currency": "EUR",
        "point_settlement": None,
    }


def test_the_settle_up_csv_has_every_players_money_the_payments_and_the_fees(club):
    night, _ = _played_night(club)
    money = _settle_up(club, night).json
    response = club.client.get(f"/api/v1/nights/{night['id']}/settle-up.csv", headers=club.admin)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    nets = {r["player_id"]: int(r["cents"]) for r in rows if r["kind"] == "net"}
    assert nets == {
        **{p["player_id"]: p["cents"] for p in money["players"]},
        **({"pool": money["pool_cents"]} if money["pool_cents"] is not None else {}),
    }
    payments = [r for r in rows if r["kind"] == "payment"]
    assert [int(r["cents"]) for r in payments] == [t["cents"] for t in money["transfers"]]
    assert sum(int(r["cents"]) for r in rows if r["kind"] == "fee") == money["fees_cents"]
    assert {r["currency"] for r in rows} == {"EUR"}


def test_the_export_keeps_the_rate_and_its_history_and_the_import_settles_the_same(club, client):
    night, _ = _played_night(club)
    club.client.patch(
        f"/api/v1/nights/{night['id']}", json={"rate": {"cents": 7, "per": 2}}, headers=club.admin
    )
    money = _settle_up(club, night).json
    document = client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    exported = document["nights"][0]
    assert exported["rate"]["cents"] == 7 and exported["money"]["players"] == money["players"]
    assert len(exported["changes"]) == 1
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    headers = club.api.auth(imported.json["admin_token"])
    new_id = imported.json["ids"]["nights"][night["id"]]
    again = client.get(f"/api/v1/nights/{new_id}/settle-up", headers=headers).json
    players = imported.json["ids"]["players"]
    assert [(players[p["player_id"]], p["cents"], p["fees_cents"]) for p in money["players"]] == [
        (p["player_id"], p["cents"], p["fees_cents"]) for p in again["players"]
    ]
    history = client.get(f"/api/v1/nights/{new_id}/history", headers=headers).json
    assert [c["changed_by"]["imported"] for c in history["changes"]] == [True]


def test_an_import_with_a_bad_night_rate_imports_nothing_and_names_the_field(club, client):
    club.started(players=club.players[:4], rate=RATE)
    document = client.get(f"/api/v1/clubs/{club.club['id']}/export", headers=club.admin).json
    document["nights"][0]["rate"] = {"cents": 5, "point_settlement": "average"}
    refused = client.post("/api/v1/clubs/import", json=document)
    assert refused.status_code == 422
    assert "nights.0.rate.point_settlement" in str(refused.json), refused.json


def test_a_rate_change_with_an_idempotency_key_is_made_once(club, client):
    night = club.started(players=club.players[:4], rate=RATE)
    headers = {**club.admin, "Idempotency-Key": "night-rate-1"}
    url = f"/api/v1/nights/{night['id']}"
    first = client.patch(url, json={"rate": {"cents": 9}}, headers=headers)
    again = client.patch(url, json={"rate": {"cents": 9}}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json == again.json
    history = client.get(f"{url}/history", headers=club.admin).json
    assert len(history["changes"]) == 1


@pytest.mark.parametrize("settlement", ["pairs", "average"])
def test_a_point_game_night_settles_each_table_by_its_rule_and_sums_them(api, client, settlement):
    club = Night(api, client)
    url = f"/api/v1/clubs/{club.club['id']}/nights"
    body = {
        "name": "Noche",
        "variant": "spanish",
        "players": club.players[:8],
        "rate": {"cents": 10, "point_settlement": settlement},
    }
    night = client.post(url, json=body, headers=club.admin).json
    series = club.drawn(night, seed=3)
    for table in series["tables"]:
        club.record(table["table_id"], SOLO)
    money = _settle_up(club, night).json
    expected: dict[str, int] = {}
    for table in series["tables"]:
        shown = _table(club, table["table_id"])
        settled = _table_money(club, table["table_id"])["money"]
        assert settled["rate"]["point_settlement"] == settlement
        for net in settled["net"]:
            expected[shown["seats"][net["party"]]["player_id"]] = net["cents"]
    assert {p["player_id"]: p["cents"] for p in money["players"]} == expected
    assert sum(expected.values()) == 0 and money["pool_cents"] is None
    assert any(expected.values())  # a solo moved money
    assert all(t["cents"] > 0 for t in money["transfers"])
