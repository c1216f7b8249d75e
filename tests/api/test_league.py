"""The club league over HTTP: seasons, standings, corrections, ties, filters, CSV, ratings."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, time

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import update

from service.extensions import db
from service.persistence.table_keeping import TableRow

SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
LOST_SOLO = {"contract": "solo", "trump": "hearts", "declarer": 2, "tricks": 3}
COULEUR_SOLO = {"contract": "solo", "trump": "clubs", "declarer": 3, "tricks": 7}
SIMPLE = {
    "contract": "simple",
    "trump": "spades",
    "declarer": 0,
    "called": {"rank": "ace", "suit": "hearts"},
    "partner": 2,
    "tricks": 5,
}
REVOKE = {**SIMPLE, "errors": [{"kind": "revoke", "seat": 1}]}
TOUT = {"contract": "tout", "trump": "diamonds", "declarer": 0, "tricks": 8}
FORFEIT = {"kind": "forfeit", "seat": 2}
MISDEAL = {"kind": "misdeal"}
EVENING = [SOLO, LOST_SOLO, COULEUR_SOLO, SIMPLE, REVOKE, FORFEIT, TOUT, MISDEAL, LOST_SOLO]


def spanish(
    declarer: int, contract: str = "solo", tricks: int = 6, partner: int | None = None
) -> dict:
    hand = {"contract": contract, "trump": "hearts", "declarer": declarer, "tricks": tricks}
    if partner is not None:
        hand.update(called={"rank": "ace", "suit": "spades"}, partner=partner)
    return hand


class League:
    """A club with players and a season, and the calls the tests make against them."""

    def __init__(self, api, client, variant: str = "american", players: int = 6) -> None:
        self.api, self.client = api, client
        self.club = api.club()
        self.admin = api.auth(self.club["admin_token"])
        self.players = api.players(self.club, players)
        self.season = self.new_season("Spring", variant)

    def new_season(self, name: str, variant: str = "american") -> dict:
        response = self.client.post(
            f"/api/v1/clubs/{self.club['id']}/seasons",
            json={"name": name, "variant": variant},
            headers=self.admin,
        )
        assert response.status_code == 201, response.json
        return response.json

    def table(
        self, seats: list[int], season: dict | None = None, variant: str = "american", **options
    ) -> dict:
        season = season or self.season
        response = self.client.post(
            "/api/v1/tables",
            headers=self.admin,
            json={
                "club_id": self.club["id"],
                "name": "Evening",
                "variant": season["variant"],
                "seats": [self.players[i] for i in seats],
                "options": options,
                "season_id": season["id"],
            },
        )
        assert response.status_code == 201, response.json
        return response.json

    def record(self, table: dict, *hands: dict) -> None:
        for hand in hands:
            response = self.api.record(table, hand)
            assert response.status_code == 201, response.json

    def close(self, table: dict) -> None:
        response = self.client.post(f"/api/v1/tables/{table['id']}/close", headers=self.admin)
        assert response.status_code == 200, response.json

    def standings(self, season: dict | None = None, token: str | None = None, **query) -> dict:
        season = season or self.season
        headers = self.api.auth(token) if token else self.admin
        response = self.client.get(
            f"/api/v1/seasons/{season['id']}/standings", query_string=query, headers=headers
        )
        assert response.status_code == 200, response.json
        return response.json

    def balances_by_player(self, *tables: dict) -> dict[str, int]:
        totals: dict[str, int] = {}
        for table in tables:
            for seat in self.api.get_table(table)["seats"]:
                totals[seat["player_id"]] = totals.get(seat["player_id"], 0) + seat["balance"]
        return totals


@pytest.fixture
def league(api, client):
    return League(api, client)


def by_player(standings: dict) -> dict[str, dict]:
    return {row["player_id"]: row for row in standings["rows"]}


def test_standings_equal_the_sum_of_the_tables_balances(league):
    first = league.table([0, 1, 2, 3])
    second = league.table([2, 3, 4, 5])
    third = league.table(
        [5, 0, 4],
    )
    league.record(first, *EVENING)
    league.record(second, *reversed(EVENING))
    league.record(third, SOLO, {**SOLO, "declarer": 2, "trump": "clubs"}, LOST_SOLO)

    rows = by_player(league.standings())
    balances = league.balances_by_player(first, second, third)
    assert {p: r["net"] for p, r in rows.items()} == balances
    hands = {p: 0 for p in balances}
    sittings = {p: 0 for p in balances}
    for table in (first, second, third):
        shown = league.api.get_table(table)
        for seat in shown["seats"]:
            hands[seat["player_id"]] += shown["hands_played"]
            sittings[seat["player_id"]] += 1
    assert {p: r["hands"] for p, r in rows.items()} == hands
    assert {p: r["sittings"] for p, r in rows.items()} == sittings
    for row in rows.values():
        assert row["net_per_100_hands"] == round(row["net"] * 100 / row["hands"], 2)


def test_counts_follow_the_hands_of_the_sheet(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, *EVENING)
    rows = by_player(league.standings())
    seat = [rows[league.players[i]] for i in range(4)]
    # declarers: seat 0 SIMPLE, REVOKE (lost: the revoke is seat 1's, a defender), TOUT;
    # seat 1 SOLO; seat 2 LOST_SOLO twice; seat 3 COULEUR_SOLO.
    assert [s["declared"] for s in seat] == [3, 1, 2, 1]
    assert [s["won"] for s in seat] == [3, 1, 0, 1]
    assert [s["lost"] for s in seat] == [0, 0, 2, 0]
    assert [s["solos_won"] for s in seat] == [0, 1, 0, 1]
    assert [s["touts_won"] for s in seat] == [1, 0, 0, 0]
    assert [s["errors"] for s in seat] == [0, 1, 1, 0]  # the revoke; the forfeit
    ledger = league.client.get(f"/api/v1/tables/{table['id']}/ledger", headers=league.admin)
    betes = [0] * 4
    stamms = [0] * 4
    for t in ledger.json["transfers"]:
        if t["reason"] == "bete":
            betes[t["from"]] += 1
        if t["reason"] == "stamm":
            stamms[t["to"]] += 1
    assert [s["betes_paid"] for s in seat] == betes and sum(betes) > 0
    assert [s["stamms_drawn"] for s in seat] == stamms and sum(stamms) > 0


def test_a_correction_moves_the_standings_at_once(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO, LOST_SOLO, COULEUR_SOLO)
    before = by_player(league.standings())
    response = league.client.put(
        f"/api/v1/tables/{table['id']}/hands/1", json={**SOLO, "tricks": 2}, headers=league.admin
    )
    assert response.status_code == 200
    after = by_player(league.standings())
    assert after != before
    assert {p: r["net"] for p, r in after.items()} == league.balances_by_player(table)
    assert after[league.players[1]]["lost"] == 1 and after[league.players[1]]["won"] == 0

    voided = league.client.delete(f"/api/v1/tables/{table['id']}/hands/2", headers=league.admin)
    assert voided.status_code == 200
    rows = by_player(league.standings())
    assert {p: r["net"] for p, r in rows.items()} == league.balances_by_player(table)
    assert {r["hands"] for r in rows.values()} == {2}
    assert rows[league.players[2]]["declared"] == 0


def test_voiding_every_hand_of_a_sitting_removes_it(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    assert len(league.standings()["rows"]) == 4
    league.client.delete(f"/api/v1/tables/{table['id']}/hands/1", headers=league.admin)
    assert league.standings()["rows"] == []
    league.client.put(f"/api/v1/tables/{table['id']}/hands/1", json=SOLO, headers=league.admin)
    assert {r["sittings"] for r in league.standings()["rows"]} == {1}


def test_ties_share_a_rank_after_games_won_and_lost(api, client):
    league = League(api, client, variant="spanish", players=4)
    table = league.table([0, 1, 2, 3])
    league.record(
        table,
        spanish(1, "simple", 5, partner=2),  # +2 for 1 and 2; 1 won as declarer
        spanish(3, "solo", 6),  # +8 for 3
        spanish(3, "solo", 2),  # -8 for 3: net 0, won 1, lost 1
        spanish(0, "solo", 6),  # +8 for 0
        spanish(0, "solo", 2),
    )  # -8 for 0: net 0, won 1, lost 1
    rows = league.standings()["rows"]
    ids = league.players
    assert [(r["player_id"], r["rank"]) for r in rows][:2] == [(ids[1], 1), (ids[2], 2)]
    # Players 0 and 3: equal net, games won and lost: one rank, listed by name.
    assert [(r["player_id"], r["rank"]) for r in rows][2:] == [(ids[0], 3), (ids[3], 3)]
    assert [(r["net"], r["won"], r["lost"]) for r in rows] == [
        (2, 1, 0),
        (2, 0, 0),
        (0, 1, 1),
        (0, 1, 1),
    ]


def test_fewer_games_lost_breaks_a_tie_of_net_and_wins(api, client):
    league = League(api, client, variant="spanish", players=4)
    table = league.table([0, 1, 2, 3])
    league.record(
        table,
        spanish(0, "solo", 6),
        spanish(0, "solo", 2),  # 0: net 0, won 1, lost 1
        spanish(1, "solo", 6),  # 1: +4, won 1
        spanish(2, "simple", 4, partner=1),  # 1: -2; 2: -2, lost 1
        spanish(3, "simple", 4, partner=1),
    )  # 1: -2; 3: -2, lost 1
    rows = league.standings()["rows"]
    ids = league.players
    assert [(r["net"], r["won"], r["lost"]) for r in rows] == [
        (0, 1, 0),
        (0, 1, 1),
        (-2, 0, 1),
        (-2, 0, 1),
    ]
    assert [(r["player_id"], r["rank"]) for r in rows] == [
        (ids[1], 1),
        (ids[0], 2),
        (ids[2], 3),
        (ids[3], 3),
    ]


def test_min_hands_leaves_out_who_played_less(league):
    long, short = league.table([0, 1, 2, 3]), league.table([0, 1, 4, 5])
    league.record(long, SOLO, LOST_SOLO, SOLO, LOST_SOLO)
    league.record(short, SOLO)
    everybody = league.standings()
    assert len(everybody["rows"]) == 6
    qualified = league.standings(min_hands=4)
    assert {r["player_id"] for r in qualified["rows"]} == set(league.players[:4])
    assert qualified["min_hands"] == 4
    # Ranks are among the qualified only.
    assert sorted(r["rank"] for r in qualified["rows"])[0] == 1
    assert league.standings(min_hands=6)["rows"] == []
    bad = league.client.get(
        f"/api/v1/seasons/{league.season['id']}/standings?min_hands=-1", headers=league.admin
    )
    assert bad.status_code == 422


def test_dates_count_the_sittings_opened_on_those_days(app, league):
    january, today = league.table([0, 1, 2, 3]), league.table([0, 1, 2, 3])
    with app.app_context():
        db.session.execute(
            update(TableRow)
            .where(TableRow.id == january["id"])
            .values(created_at=datetime(2026, 1, 10, 20, 0, tzinfo=UTC))
        )
        db.session.commit()
    league.record(january, SOLO)
    league.record(today, LOST_SOLO, LOST_SOLO)
    in_january = by_player(league.standings(**{"from": "2026-01-01", "to": "2026-01-31"}))
    assert {p: r["net"] for p, r in in_january.items()} == league.balances_by_player(january)
    assert {r["hands"] for r in in_january.values()} == {1}
    whole = by_player(league.standings(**{"from": "2026-01-01"}))
    assert whole == by_player(league.standings())
    assert league.standings(**{"to": "2026-01-09"})["rows"] == []
    backwards = league.client.get(
        f"/api/v1/seasons/{league.season['id']}/standings?from=2026-02-01&to=2026-01-01",
        headers=league.admin,
    )
    assert backwards.status_code == 422 and "to" in backwards.json["errors"]


OPENED_ON = (
    date(2025, 12, 31),
    date(2026, 1, 1),
    date(2026, 1, 31),
    date(2026, 2, 1),
    date(2026, 3, 15),
    date(2026, 12, 31),
    date(2027, 1, 1),
)


def test_date_ranges_count_every_sitting_in_them_across_months_and_years(app, league):
    """Standings between two dates are read from whole days, months and years
    (services/league/periods.py): every range counts exactly the sittings opened in it."""
    tables = {}
    for index, day in enumerate(OPENED_ON):
        table = league.table([index % 6, (index + 1) % 6, (index + 2) % 6, (index + 3) % 6])
        with app.app_context():
            db.session.execute(
                update(TableRow)
                .where(TableRow.id == table["id"])
                .values(created_at=datetime.combine(day, time(21, 30), tzinfo=UTC))
            )
            db.session.commit()
        league.record(table, SOLO if index % 2 else LOST_SOLO)
        tables[day] = table
    for first, last in (
        (date(2025, 12, 31), date(2027, 1, 1)),
        (date(2026, 1, 1), date(2026, 12, 31)),
        (date(2026, 1, 2), date(2026, 12, 30)),
        (date(2026, 1, 31), date(2026, 2, 1)),
        (date(2026, 2, 1), date(2026, 2, 28)),
        (date(2026, 3, 15), date(2026, 3, 15)),
        (date(2026, 3, 16), date(2026, 12, 30)),
    ):
        inside = [t for day, t in tables.items() if first <= day <= last]
        read = by_player(league.standings(**{"from": first.isoformat(), "to": last.isoformat()}))
        assert {p: r["net"] for p, r in read.items()} == league.balances_by_player(*inside)
        hands: dict[str, int] = {}
        for table in inside:
            for seat in league.api.get_table(table)["seats"]:
                hands[seat["player_id"]] = hands.get(seat["player_id"], 0) + 1
        assert {p: r["hands"] for p, r in read.items()} == hands


def _parsed_csv(text: str) -> list[dict]:
    def value(column: str, raw: str):
        if raw == "":
            return None
        if column in ("player_id", "name"):
            return raw
        if column in ("net_per_100_hands", "rating"):
            return float(raw)
        return int(raw)

    reader = csv.DictReader(io.StringIO(text, newline=""))
    return [{k: value(k, v) for k, v in row.items()} for row in reader]


def test_csv_parses_back_to_the_json_rows(league):
    first = league.table([0, 1, 2, 3])
    league.record(first, *EVENING)
    league.close(first)
    league.record(league.table([2, 3, 4, 5]), SOLO)
    as_json = league.standings()["rows"]
    url = f"/api/v1/seasons/{league.season['id']}/standings"
    by_query = league.client.get(url + "?format=csv", headers=league.admin)
    by_accept = league.client.get(url, headers={**league.admin, "Accept": "text/csv"})
    for response in (by_query, by_accept):
        assert response.status_code == 200
        assert response.mimetype == "text/csv"
        text = response.get_data(as_text=True)
        assert text.splitlines()[0] == ",".join(as_json[0].keys())
        assert _parsed_csv(text) == as_json
    assert any(r["rating"] is None for r in as_json)  # players 4 and 5: no closed sitting yet
    as_json_anyway = league.client.get(
        url + "?format=json", headers={**league.admin, "Accept": "text/csv"}
    )
    assert as_json_anyway.json["rows"] == as_json


def test_a_csv_field_with_commas_and_quotes_survives(api, client):
    league = League(api, client, players=0)
    names = ['Smith, "Ace" Jr.', "O'Neill", "Ölaf", "Zoë"]  # formulas: test_league_admin.py
    for name in names:
        response = client.post(
            f"/api/v1/clubs/{league.club['id']}/players", json={"name": name}, headers=league.admin
        )
        league.players.append(response.json["id"])
    league.record(league.table([0, 1, 2, 3]), SOLO)
    url = f"/api/v1/seasons/{league.season['id']}/standings?format=csv"
    rows = _parsed_csv(client.get(url, headers=league.admin).get_data(as_text=True))
    assert sorted(r["name"] for r in rows) == sorted(names)
    assert rows == league.standings()["rows"]


def _expected_ratings(sittings: list[list[tuple[str, int]]]) -> dict[str, float]:
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for sitting in sittings:
        teams = [[ratings.get(p) or model.rating()] for p, _ in sitting]
        balances = [b for _, b in sitting]
        ranks = [1 + sum(other > b for other in balances) for b in balances]
        for (player, _), [rating] in zip(sitting, model.rate(teams, ranks=ranks), strict=True):
            ratings[player] = rating
    return {p: round(r.mu - 3 * r.sigma, 2) for p, r in ratings.items()}


def _sitting(league: League, table: dict) -> list[tuple[str, int]]:
    return [(s["player_id"], s["balance"]) for s in league.api.get_table(table)["seats"]]


def test_ratings_follow_closed_sittings_in_order(league):
    first, second = league.table([0, 1, 2, 3]), league.table([2, 3, 4, 5])
    league.record(first, SOLO, SOLO, LOST_SOLO)
    league.record(second, COULEUR_SOLO, SIMPLE)
    league.close(second)
    league.close(first)
    rows = by_player(league.standings())
    expected = _expected_ratings([_sitting(league, second), _sitting(league, first)])
    assert {p: r["rating"] for p, r in rows.items()} == expected
    assert {p: r["rating"] for p, r in rows.items()} != _expected_ratings(
        [_sitting(league, first), _sitting(league, second)]
    )


def test_an_open_sitting_is_not_rated(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    assert {r["rating"] for r in league.standings()["rows"]} == {None}


def test_correcting_a_closed_sitting_rebuilds_the_ratings_in_order(league):
    first, second = league.table([0, 1, 2, 3]), league.table([0, 1, 4, 5])
    league.record(first, SOLO, SOLO)
    league.record(second, LOST_SOLO, SIMPLE)
    league.close(first)
    league.close(second)
    before = {p: r["rating"] for p, r in by_player(league.standings()).items()}
    response = league.client.put(
        f"/api/v1/tables/{first['id']}/hands/2",
        json={**SOLO, "declarer": 3, "tricks": 2},
        headers=league.admin,
    )
    assert response.status_code == 200, response.json
    after = {p: r["rating"] for p, r in by_player(league.standings()).items()}
    assert after != before
    assert after == _expected_ratings([_sitting(league, first), _sitting(league, second)])
    stats = league.client.get(
        f"/api/v1/players/{league.players[0]}/stats", headers=league.admin
    ).json
    assert stats["seasons"][0]["rated_sittings"] == 2
    assert stats["seasons"][0]["rating"] == after[league.players[0]]


def test_a_table_joins_only_a_season_of_its_club_and_variant(api, client, league):
    points = league.new_season("Points", "spanish")
    other = League(api, client)
    cases = [
        (points["id"], "american"),
        (other.season["id"], "american"),
        ("no-such-season", "american"),
    ]
    for season_id, variant in cases:
        response = client.post(
            "/api/v1/tables",
            headers=league.admin,
            json={
                "club_id": league.club["id"],
                "name": "T",
                "variant": variant,
                "seats": league.players[:4],
                "season_id": season_id,
            },
        )
        assert response.status_code == 422, season_id
        assert "season_id" in response.json["errors"]
    plain = client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "T",
            "variant": "american",
            "seats": league.players[:4],
        },
    )
    assert plain.status_code == 201 and plain.json["season_id"] is None
    assert league.table([0, 1, 2, 3])["season_id"] == league.season["id"]


def test_a_table_outside_any_season_counts_for_the_career_only(league):
    response = league.client.post(
        "/api/v1/tables",
        headers=league.admin,
        json={
            "club_id": league.club["id"],
            "name": "Friendly",
            "variant": "american",
            "seats": league.players[:4],
        },
    )
    table = {**response.json, "admin_token": league.club["admin_token"]}
    league.record(table, SOLO)
    assert league.standings()["rows"] == []
    stats = league.client.get(
        f"/api/v1/players/{league.players[1]}/stats", headers=league.admin
    ).json
    assert stats["seasons"] == []
    assert stats["career"][0]["hands"] == 1 and stats["career"][0]["solos_won"] == 1


def test_seasons_are_created_listed_and_shown(league):
    club_url = f"/api/v1/clubs/{league.club['id']}/seasons"
    autumn = league.client.post(
        club_url,
        headers=league.admin,
        json={
            "name": "Autumn",
            "variant": "solo66",
            "starts_on": "2026-09-01",
            "ends_on": "2026-11-30",
        },
    )
    assert autumn.status_code == 201
    assert autumn.json["units"] == "chips" and autumn.json["starts_on"] == "2026-09-01"
    listed = league.client.get(club_url, headers=league.admin).json
    assert [s["name"] for s in listed] == ["Autumn", "Spring"]
    shown = league.client.get(f"/api/v1/seasons/{autumn.json['id']}", headers=league.admin)
    assert shown.json == autumn.json
    again = league.client.post(
        club_url, headers=league.admin, json={"name": "Autumn", "variant": "american"}
    )
    assert again.status_code == 409
    for body, field in (
        ({"name": "X", "variant": "bridge"}, "variant"),
        (
            {
                "name": "Y",
                "variant": "american",
                "starts_on": "2026-09-02",
                "ends_on": "2026-09-01",
            },
            "ends_on",
        ),
        ({"name": "Z", "variant": "american", "starts_on": "soon"}, "starts_on"),
    ):
        response = league.client.post(club_url, headers=league.admin, json=body)
        assert response.status_code == 422, body
        assert field in response.json["errors"], response.json


def test_who_may_read_and_write_the_league(api, client, league):
    table = league.table([0, 1, 2, 3])
    league.record(table, SOLO)
    stranger = League(api, client)
    season_url = f"/api/v1/seasons/{league.season['id']}"
    reads = [
        season_url,
        season_url + "/standings",
        f"/api/v1/players/{league.players[0]}/stats",
        f"/api/v1/clubs/{league.club['id']}/seasons",
    ]
    for url in reads:
        assert client.get(url).status_code == 401
        assert client.get(url, headers=api.auth(table["table_token"])).status_code == 200
        assert client.get(url, headers=stranger.admin).status_code == 403
    admin_only = [
        (
            "post",
            f"/api/v1/clubs/{league.club['id']}/seasons",
            {"name": "New", "variant": "american"},
        ),
        ("get", f"/api/v1/clubs/{league.club['id']}/export", None),
    ]
    for method, url, body in admin_only:
        for headers in (api.auth(table["table_token"]), stranger.admin):
            assert getattr(client, method)(url, json=body, headers=headers).status_code == 403
    for url in (
        "/api/v1/seasons/nope/standings",
        "/api/v1/players/nope/stats",
        "/api/v1/clubs/nope/seasons",
    ):
        assert client.get(url, headers=league.admin).status_code == 404


def test_player_stats_show_the_career_and_the_contract_mix(league):
    table = league.table([0, 1, 2, 3])
    league.record(table, *EVENING)
    stats = league.client.get(
        f"/api/v1/players/{league.players[0]}/stats", headers=league.admin
    ).json
    assert stats["name"] and stats["player_id"] == league.players[0]
    [career] = stats["career"]
    [season] = stats["seasons"]
    assert career["variant"] == "american" and career["units"] == "chips"
    season_row = by_player(league.standings())[league.players[0]]
    for key in ("hands", "net", "declared", "won", "lost", "touts_won", "sittings"):
        assert career[key] == season[key] == season_row[key]
    assert career["win_rate"] == 1.0
    assert {(m["contract"], m["declared"], m["won"]) for m in career["contracts"]} == {
        ("simple", 2, 2),
        ("tout", 1, 1),
    }
    loser = league.client.get(
        f"/api/v1/players/{league.players[2]}/stats", headers=league.admin
    ).json
    assert loser["career"][0]["win_rate"] == 0.0
    assert loser["seasons"][0]["contracts"] == [
        {"contract": "solo", "declared": 2, "won": 0, "lost": 2, "win_rate": 0.0}
    ]


def test_solo66_and_german_hands_count_their_declarer(api, client):
    league = League(api, client, variant="solo66", players=5)
    table = league.table([0, 1, 2, 3, 4])
    league.record(
        table,
        {"soloist": 2, "trump": "hearts", "soloist_points": 70},
        {"soloist": 2, "trump": "hearts", "soloist_points": 50},
        {"trump": None, "last_trick": 4},
    )
    row = by_player(league.standings())[league.players[2]]
    assert (row["declared"], row["won"], row["lost"], row["solos_won"]) == (2, 1, 1, 1)
    assert {r["hands"] for r in league.standings()["rows"]} == {3}

    german = League(api, client, variant="german", players=4)
    table = german.table([0, 1, 2, 3])
    german.record(
        table,
        {
            "contract": "solo",
            "trump": "clubs",
            "declarer": 3,
            "tricks": 8,
            "continued_after_five": True,
        },
    )
    row = by_player(german.standings())[german.players[3]]
    assert (row["won"], row["solos_won"], row["touts_won"]) == (1, 1, 1)
