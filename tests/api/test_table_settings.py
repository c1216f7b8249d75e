"""A table's settings after it was opened (``PATCH /tables/{id}``): its season, with the
standings and ratings of both seasons following, and its rate; each change kept in the
table's history; who may change what; If-Match; nothing stored on a refusal."""

from __future__ import annotations

from typing import Any

import pytest

from service.rules.base import with_parties
from tests.api.test_league import EVENING, SOLO, League, by_player


@pytest.fixture
def league(api: Any, client: Any) -> League:
    return League(api, client)


def patch(league: League, table: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    return league.client.patch(
        f"/api/v1/tables/{table['id']}", json=body, headers={**league.admin, **headers}
    )


def history(league: League, table: dict[str, Any]) -> list[dict[str, Any]]:
    response = league.client.get(f"/api/v1/tables/{table['id']}/history", headers=league.admin)
    assert response.status_code == 200, response.json
    return list(response.json["changes"])


def unattached_table(league: League, seats: list[int]) -> dict[str, Any]:
    response = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Played on the pad",
            "variant": "american",
            "seats": [league.players[i] for i in seats],
        },
    )
    assert response.status_code == 201, response.json
    assert response.json["season_id"] is None
    return dict(response.json)


def test_a_table_played_without_a_season_counts_once_attached(league: League) -> None:
    table = unattached_table(league, [0, 1, 2, 3])
    league.record(table, *EVENING)
    assert league.standings()["rows"] == []
    answer = patch(league, table, {"season_id": league.season["id"]}, **{"If-Match": '"10"'})
    assert answer.status_code == 200, answer.json
    assert answer.json["season_id"] == league.season["id"]
    assert answer.json["version"] == 11
    assert answer.headers["ETag"] == '"11"'
    rows = by_player(league.standings())
    balances = league.balances_by_player(table)
    assert {p: r["net"] for p, r in rows.items()} == balances
    assert {r["hands"] for r in rows.values()} == {answer.json["hands_played"]}
    assert {r["sittings"] for r in rows.values()} == {1}
    [change] = history(league, table)
    assert change["setting"] == "season"
    assert (change["before"], change["after"]) == (None, league.season["id"])
    assert change["changed_by"]["kind"] == "admin"
    assert change["version"] == 11


def test_moving_a_closed_sitting_moves_its_standings_and_ratings(league: League) -> None:
    autumn = league.new_season("Autumn")
    first = league.table([0, 1, 2, 3])
    second = league.table([0, 1, 2, 4])
    league.record(first, *EVENING)
    league.record(second, SOLO, SOLO)
    league.close(first)
    league.close(second)
    before = by_player(league.standings())
    assert all(r["rating"] is not None for r in before.values())

    moved = patch(league, first, {"season_id": autumn["id"]})
    assert moved.status_code == 200, moved.json

    spring = by_player(league.standings())
    # Only the second sitting is left in spring, and it is the players' first rated one.
    assert {p: r["net"] for p, r in spring.items()} == league.balances_by_player(second)
    assert set(spring) == {league.players[i] for i in (0, 1, 2, 4)}
    assert {r["sittings"] for r in spring.values()} == {1}
    autumn_rows = by_player(league.standings(autumn))
    assert {p: r["net"] for p, r in autumn_rows.items()} == league.balances_by_player(first)
    assert all(r["rating"] is not None for r in autumn_rows.values())
    # The same sitting rated alone in a season of its own gives the same ratings as the
    # second one rated alone: the rating of a player at one sitting depends only on it.
    fresh = league.new_season("Only the second")
    back = patch(league, second, {"season_id": fresh["id"]})
    assert back.status_code == 200, back.json
    assert league.standings()["rows"] == []
    assert by_player(league.standings(fresh)) == spring

    out = patch(league, first, {"season_id": None})
    assert out.status_code == 200 and out.json["season_id"] is None
    assert league.standings(autumn)["rows"] == []
    assert [c["after"] for c in history(league, first)] == [autumn["id"], None]


def test_moving_a_sitting_away_and_back_gives_the_standings_it_had(league: League) -> None:
    autumn = league.new_season("Autumn")
    tables = [league.table([0, 1, 2, 3]), league.table([2, 3, 4, 5]), league.table([0, 2, 4, 5])]
    for table, hands in zip(tables, (EVENING, EVENING[:4], EVENING[3:]), strict=True):
        league.record(table, *hands)
    league.close(tables[0])
    league.close(tables[2])
    before = league.standings()
    for season in (autumn, league.season):
        assert patch(league, tables[0], {"season_id": season["id"]}).status_code == 200
    assert league.standings() == before  # ratings replayed in the same order: the same
    assert league.standings(autumn)["rows"] == []


def test_a_player_s_career_stays_as_it_was_when_the_season_changes(league: League) -> None:
    table = league.table([0, 1, 2, 3])
    league.record(table, *EVENING)
    player = league.players[1]

    def career() -> Any:
        response = league.client.get(f"/api/v1/players/{player}/stats", headers=league.admin)
        assert response.status_code == 200, response.json
        return response.json["career"]

    before = career()
    assert patch(league, table, {"season_id": None}).status_code == 200
    assert career() == before


def test_a_table_s_token_cannot_move_its_table_to_another_season(league: League) -> None:
    table = league.table([0, 1, 2, 3])
    other = league.new_season("Autumn")
    for season_id in (other["id"], None, "no-such-season"):
        refused = league.client.patch(
            f"/api/v1/tables/{table['id']}",
            json={"season_id": season_id},
            headers=league.api.auth(table["table_token"]),
        )
        assert refused.status_code == 403, refused.json
        assert "admin" in refused.json["detail"]
    assert league.api.get_table(table)["season_id"] == league.season["id"]
    assert history(league, table) == []


@pytest.mark.parametrize(
    ("season", "message"),
    [("no-such-season", "no season"), ("german", "is played in")],
)
def test_a_season_of_another_variant_or_club_is_refused_naming_the_field(
    league: League, season: str, message: str
) -> None:
    table = league.table([0, 1, 2, 3])
    season_id = league.new_season("German", "german")["id"] if season == "german" else season
    refused = patch(league, table, {"season_id": season_id})
    assert refused.status_code == 422, refused.json
    assert message in refused.json["errors"]["season_id"][0]
    assert league.api.get_table(table)["version"] == table["version"]


def test_an_old_version_is_refused_and_changes_nothing(league: League) -> None:
    table = unattached_table(league, [0, 1, 2, 3])
    league.record(table, SOLO)
    refused = patch(league, table, {"season_id": league.season["id"]}, **{"If-Match": '"1"'})
    assert refused.status_code == 412, refused.json
    assert league.api.get_table(table)["season_id"] is None
    assert league.standings()["rows"] == []


def test_setting_what_the_table_has_changes_nothing(league: League) -> None:
    table = league.table([0, 1, 2, 3])
    same = patch(league, table, {"season_id": league.season["id"], "rate": None})
    assert same.status_code == 200 and same.json["version"] == table["version"]
    assert history(league, table) == []


def test_a_rate_is_set_by_the_table_and_kept_in_its_history(league: League) -> None:
    table = league.table([0, 1, 2, 3])
    token = league.api.auth(table["table_token"])
    answer = league.client.patch(
        f"/api/v1/tables/{table['id']}", json={"rate": {"cents": 10}}, headers=token
    )
    assert answer.status_code == 200, answer.json
    rate = {
        "cents": 10,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 0,
        "point_settlement": None,
    }
    assert answer.json["rate"] == rate
    [change] = history(league, table)
    assert (change["setting"], change["before"], change["after"]) == ("rate", None, rate)
    assert change["changed_by"]["kind"] == "table"
    league.close(table)
    refused = league.client.patch(
        f"/api/v1/tables/{table['id']}", json={"rate": {"cents": 20}}, headers=token
    )
    assert refused.status_code == 403, refused.json
    assert patch(league, table, {"rate": {"cents": 20}}).status_code == 200


@pytest.mark.parametrize(
    ("rate", "field"),
    [
        ({"cents": -1}, "rate.cents"),
        ({"cents": 1.5}, "rate.cents"),
        ({"cents": 10, "per": 0}, "rate.per"),
        ({"cents": 10, "currency": "EURO"}, "rate.currency"),
        ({"cents": 10, "currency": "XYZ"}, "rate.currency"),
        ({"cents": 10, "table_fee_cents": -100}, "rate.table_fee_cents"),
        ({"cents": 10, "point_settlement": "pairs"}, "rate.point_settlement"),
        ({"per": 2}, "rate.cents"),
    ],
)
def test_a_bad_rate_is_refused_naming_its_field(
    league: League, rate: dict[str, Any], field: str
) -> None:
    table = league.table([0, 1, 2, 3])
    refused = patch(league, table, {"rate": rate})
    assert refused.status_code == 422, refused.json
    assert field in refused.json["errors"], refused.json
    assert league.api.get_table(table)["rate"] is None


def open_with_rate(
    league: League, variant: str, seats: list[int], rate: dict[str, Any] | None, **options: Any
) -> dict[str, Any]:
    response = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "For money",
            "variant": variant,
            "seats": [league.players[i] for i in seats],
            "rate": rate,
            "options": options,
        },
    )
    assert response.status_code == 201, response.json
    return dict(response.json)


def settle_up(league: League, table: dict[str, Any]) -> dict[str, Any]:
    response = league.client.get(f"/api/v1/tables/{table['id']}/settle-up", headers=league.admin)
    assert response.status_code == 200, response.json
    return dict(response.json)


def cleared(money: dict[str, Any]) -> bool:
    left = {n["party"]: n["cents"] for n in money["net"]}
    for transfer in money["transfers"]:
        assert transfer["cents"] > 0
        left[transfer["from"]] += transfer["cents"]
        left[transfer["to"]] -= transfer["cents"]
    return set(left.values()) <= {0}


def test_a_point_game_with_a_rate_settles_each_pair_s_difference_in_cents(
    league: League,
) -> None:
    from tests.api.test_league import spanish

    table = open_with_rate(league, "spanish", [0, 1, 2, 3], {"cents": 5, "table_fee_cents": 150})
    assert table["rate"] == {
        "cents": 5,
        "per": 1,
        "currency": "EUR",
        "table_fee_cents": 150,
        "point_settlement": "pairs",
    }
    league.record(table, spanish(0), spanish(1, tricks=3), spanish(2, tricks=7))
    answer = settle_up(league, table)
    assert answer["transfers"] == []  # in points nobody pays anybody; the money says who does
    money = answer["money"]
    assert money["currency"] == "EUR" and money["rounding"] == "down-largest-remainder"
    scores = [s["balance"] for s in league.api.get_table(table)["seats"]]
    assert len(set(scores)) > 1
    expected = [(4 * s - sum(scores)) * 5 for s in scores]
    assert [n["cents"] for n in money["net"]] == expected
    assert [n["party"] for n in money["net"]] == [0, 1, 2, 3]
    assert sum(expected) == 0 and money["transfers"] and cleared(money)
    assert money["fees"] == [
        with_parties({"from": seat, "to": "club"}) | {"cents": 150} for seat in range(4)
    ]


def test_against_the_average_and_in_the_club_s_currency(api: Any, client: Any) -> None:
    from tests.api.test_league import spanish

    made = client.post("/api/v1/clubs", json={"name": "Zürich", "currency": "CHF"})
    assert made.status_code == 201 and made.json["currency"] == "CHF"
    league = League.__new__(League)
    league.api, league.client, league.club = api, client, made.json
    league.admin = api.auth(made.json["admin_token"])
    league.players = api.players(made.json, 4)
    table = open_with_rate(
        league, "spanish", [0, 1, 2, 3], {"cents": 1, "point_settlement": "average"}
    )
    league.record(table, spanish(0), spanish(1, tricks=2))
    money = settle_up(league, table)["money"]
    assert money["currency"] == "CHF" and money["fees"] == []
    scores = [s["balance"] for s in league.api.get_table(table)["seats"]]
    exact = [s - sum(scores) / 4 for s in scores]
    assert sum(n["cents"] for n in money["net"]) == 0
    assert all(abs(n["cents"] - e) < 1 for n, e in zip(money["net"], exact, strict=True))
    assert cleared(money)


def test_a_chip_game_s_money_includes_the_pool_the_club_carries(league: League) -> None:
    table = open_with_rate(
        league, "american", [0, 1, 2, 3], {"cents": 10, "per": 3}, pool_at_close="carry"
    )
    league.record(table, *EVENING)
    answer = settle_up(league, table)
    money = answer["money"]
    chips = {n["party"]: n["amount"] for n in answer["net"]}
    assert "pool" in chips
    assert [n["party"] for n in money["net"]] == list(chips)
    for net in money["net"]:
        assert abs(net["cents"] - chips[net["party"]] * 10 / 3) < 1
    assert sum(n["cents"] for n in money["net"]) == 0 and cleared(money)


def test_no_rate_no_money(league: League) -> None:
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    assert settle_up(league, table)["money"] is None


def test_a_bad_rate_when_opening_stores_no_table(league: League) -> None:
    response = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Refused",
            "variant": "german",
            "seats": league.players[:4],
            "rate": {"cents": 10, "currency": "ABC"},
        },
    )
    assert response.status_code == 422 and "rate.currency" in response.json["errors"]
    tables = league.client.get(f"/api/v1/clubs/{league.club['id']}/tables", headers=league.admin)
    assert tables.json == []


def test_the_export_keeps_the_rate_the_money_and_the_changes(league: League) -> None:
    from tests.api.test_league import spanish

    table = open_with_rate(league, "spanish", [0, 1, 2, 3], {"cents": 5, "table_fee_cents": 100})
    league.record(table, spanish(0), spanish(1, tricks=3))
    spanish_season = league.new_season("Spanish spring", "spanish")
    assert patch(league, table, {"season_id": spanish_season["id"]}).status_code == 200
    assert patch(league, table, {"rate": {"cents": 10, "per": 4}}).status_code == 200
    document = league.client.get(
        f"/api/v1/clubs/{league.club['id']}/export", headers=league.admin
    ).json
    assert document["club"]["currency"] == "EUR"
    [exported] = [t for t in document["tables"] if t["id"] == table["id"]]
    assert exported["rate"]["cents"] == 10 and exported["rate"]["per"] == 4
    assert exported["money"] == settle_up(league, table)["money"]
    assert [c["setting"] for c in exported["changes"]] == ["season", "rate"]

    imported = league.client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.json
    new_table = imported.json["ids"]["tables"][table["id"]]
    auth = league.api.auth(imported.json["admin_token"])
    again = league.client.get(f"/api/v1/tables/{new_table}/settle-up", headers=auth).json
    assert again["money"] == exported["money"]
    changes = league.client.get(f"/api/v1/tables/{new_table}/history", headers=auth).json
    assert [c["changed_by"]["imported"] for c in changes["changes"]] == [True, True]
    new_season = imported.json["ids"]["seasons"][spanish_season["id"]]
    assert changes["changes"][0]["after"] == new_season


def test_the_settle_up_as_csv_has_the_money_in_cents_with_its_currency(league: League) -> None:
    import csv
    import io

    from tests.api.test_league import spanish

    table = open_with_rate(league, "spanish", [0, 1, 2, 3], {"cents": 5, "table_fee_cents": 100})
    league.record(table, spanish(0), spanish(1, tricks=3))
    response = league.client.get(
        f"/api/v1/tables/{table['id']}/settle-up.csv", headers=league.admin
    )
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    money = settle_up(league, table)["money"]
    nets = [r for r in rows if r["kind"] == "net"]
    assert [int(r["cents"]) for r in nets] == [n["cents"] for n in money["net"]]
    assert {r["currency"] for r in nets} == {"EUR"} and {r["units"] for r in nets} == {"points"}
    payments = [
        (int(r["from"]), int(r["to"]), int(r["cents"])) for r in rows if r["kind"] == "payment"
    ]
    assert payments == [(x["from"], x["to"], x["cents"]) for x in money["transfers"]]
    fees = [r for r in rows if r["kind"] == "fee"]
    assert [(r["to_name"], r["cents"]) for r in fees] == [("club", "100")] * 4
    names = [s["name"] for s in league.api.get_table(table)["seats"]]
    assert [r["from_name"] for r in nets] == names


GERMAN_TOUT = {
    "contract": "solo",
    "trump": "clubs",
    "declarer": 3,
    "tricks": 8,
    "continued_after_five": True,
}
SOLO66_HANDS = (
    {"soloist": 2, "trump": "hearts", "soloist_points": 70},
    {"soloist": 2, "trump": "hearts", "soloist_points": 50},
    {"trump": None, "last_trick": 4},
)


@pytest.mark.parametrize(
    ("variant", "players", "hands"),
    [("german", 4, (GERMAN_TOUT,)), ("solo66", 5, SOLO66_HANDS)],
)
def test_every_game_settles_in_money(
    api: Any, client: Any, variant: str, players: int, hands: tuple[dict[str, Any], ...]
) -> None:
    league = League(api, client, variant=variant, players=players)
    table = open_with_rate(league, variant, list(range(players)), {"cents": 20})
    league.record(table, *hands)
    answer = settle_up(league, table)
    money = answer["money"]
    scores = [n["amount"] for n in answer["net"]]
    if answer["units"] == "chips":  # Solo 66: its stakes are chips, the rate is per chip
        assert [n["cents"] for n in money["net"]] == [20 * s for s in scores]
    else:
        assert [n["cents"] for n in money["net"]] == [
            20 * (players * s - sum(scores)) for s in scores
        ]
    assert money["transfers"] and cleared(money)


@pytest.mark.parametrize(
    "values",
    [
        {"rate_cents": 10},  # a rate without its currency
        {"rate_cents": -1, "rate_per": 1, "currency": "EUR", "table_fee_cents": 0},
        {"rate_cents": 1, "rate_per": 0, "currency": "EUR", "table_fee_cents": 0},
        {"rate_cents": 1, "rate_per": 1, "currency": "EURO", "table_fee_cents": 0},
        {"point_settlement": "each"},
    ],
)
def test_the_database_refuses_a_malformed_rate(
    app: Any, league: League, values: dict[str, Any]
) -> None:
    from sqlalchemy import update
    from sqlalchemy.exc import IntegrityError, StatementError

    from service.extensions import db
    from service.persistence.table_keeping import TableRow

    table = league.table([0, 1, 2, 3])
    with app.app_context():
        with pytest.raises((IntegrityError, StatementError)):
            db.session.execute(update(TableRow).where(TableRow.id == table["id"]).values(**values))
            db.session.commit()
        db.session.rollback()


def test_a_bad_rate_beside_a_good_season_stores_neither(league: League) -> None:
    table = unattached_table(league, [0, 1, 2, 3])
    league.record(table, *EVENING)
    refused = league.client.patch(
        f"/api/v1/tables/{table['id']}",
        json={"season_id": league.season["id"], "rate": {"cents": 5, "point_settlement": "pairs"}},
        headers=league.admin,
    )
    assert refused.status_code == 422, refused.json
    assert "rate.point_settlement" in refused.json["errors"]
    assert league.api.get_table(table)["season_id"] is None
    assert league.standings()["rows"] == []
    assert history(league, table) == []


def test_the_club_s_currency_is_what_new_rates_are_in(league: League) -> None:
    url = f"/api/v1/clubs/{league.club['id']}"
    refused = league.client.patch(url, json={"currency": "XYZ"}, headers=league.admin)
    assert refused.status_code == 422 and "currency" in refused.json["errors"]
    table = league.table([0, 1, 2, 3])
    as_table = league.client.patch(
        url, json={"currency": "CHF"}, headers=league.api.auth(table["table_token"])
    )
    assert as_table.status_code == 403
    before = patch(league, table, {"rate": {"cents": 10}})
    assert before.json["rate"]["currency"] == "EUR"
    changed = league.client.patch(url, json={"currency": "CHF"}, headers=league.admin)
    assert changed.status_code == 200 and changed.json["currency"] == "CHF"
    assert league.api.get_table(table)["rate"]["currency"] == "EUR"  # kept
    other = league.table([2, 3, 4, 5])
    assert patch(league, other, {"rate": {"cents": 10}}).json["rate"]["currency"] == "CHF"
