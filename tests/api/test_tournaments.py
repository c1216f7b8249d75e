"""Open tournaments over HTTP: created by the host club's admin, registered for through the
public link (its token, no club's), a cap and its waiting list, check-in one call per player,
late entries and withdrawals between series, each series drawn by the club night's draw, the
standings under either scoring, the prize list and the host's cash sheet summing to the fees."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import IntegrityError

from service.rules import seat_draw
from service.rules.tournament import place_points, shared_ranks
from tests.api.test_league import LOST_SOLO, SOLO

NAMES = [
    "Anna-Katharina Berger",
    "Carla Moser-Lindqvist",
    "Jonas Weber",
    "Marta Ruiz",
    "María García López",
    "Dieter Hoffmann",
    "Lucía Fernández",
    "Henrike Schäfer",
    "Pablo Ortega",
    "Friedrich Wilhelm Baumann",
    "Inés Navarro",
    "Kai Lindner",
]


class Host:
    """A host club and what its director and the public link do with a tournament."""

    def __init__(self, api, client) -> None:
        self.api, self.client = api, client
        self.club = api.club("Skatfreunde Köln")
        self.admin = api.auth(self.club["admin_token"])

    def create(self, **body):
        body = {"name": "Preis-Solo 2026", "variant": "american", **body}
        return self.client.post(
            f"/api/v1/clubs/{self.club['id']}/tournaments", json=body, headers=self.admin
        )

    def created(self, **body) -> dict:
        response = self.create(**body)
        assert response.status_code == 201, response.json
        return response.json

    def register(self, tournament: dict, token: str | None = None, **body):
        body = {"name": "Anna-Katharina Berger", **body}
        token = tournament["registration_token"] if token is None else token
        return self.client.post(
            f"/api/v1/tournaments/{tournament['id']}/registrations",
            json=body,
            headers=self.api.auth(token) if token else {},
        )

    def registered(self, tournament: dict, **body) -> dict:
        response = self.register(tournament, **body)
        assert response.status_code == 201, response.json
        return response.json

    def status(self, tournament: dict, entrant: dict, status: str, headers=None):
        return self.client.patch(
            f"/api/v1/tournaments/{tournament['id']}/entrants/{entrant['id']}",
            json={"status": status},
            headers=headers or self.admin,
        )

    def check_in(self, tournament: dict, entrant: dict) -> dict:
        response = self.status(tournament, entrant, "checked_in")
        assert response.status_code == 200, response.json
        return response.json

    def entrants(self, tournament: dict, **query) -> list[dict]:
        response = self.client.get(
            f"/api/v1/tournaments/{tournament['id']}/entrants",
            query_string=query,
            headers=self.admin,
        )
        assert response.status_code == 200, response.json
        return response.json

    def draw(self, tournament: dict, **body):
        return self.client.post(
            f"/api/v1/tournaments/{tournament['id']}/series", json=body, headers=self.admin
        )

    def drawn(self, tournament: dict, **body) -> dict:
        response = self.draw(tournament, **body)
        assert response.status_code == 201, response.json
        return response.json

    def record(self, table_id: str, hand: dict) -> None:
        response = self.client.post(
            f"/api/v1/tables/{table_id}/hands", json=hand, headers=self.admin
        )
        assert response.status_code == 201, response.json

    def get(self, tournament: dict, what: str = "", headers=None):
        return self.client.get(
            f"/api/v1/tournaments/{tournament['id']}{what}", headers=headers or self.admin
        )


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def seated(series: dict) -> list[str]:
    return [s["player_id"] for t in series["tables"] for s in t["seats"]]


def test_a_tournament_from_registration_to_the_prize_list(host: Host) -> None:
    tournament = host.created(
        cap=9,
        entry_fee_cents=1000,
        series=2,
        hands_per_series=1,
        table_sizes=[4],
        prizes=[{"per_mille": 500}, {"per_mille": 300}, {"cents": 500}],
    )
    assert tournament["status"] == "open" and tournament["registration_open"]
    assert tournament["table_sizes"] == [4] and tournament["next_series"] == 1
    assert tournament["tie_breaks"] == ["total", "series_won", "best"]
    entrants = [
        host.registered(tournament, name=name, club="SC Bonn", display="initial")
        for name in NAMES[:10]
    ]
    assert [e["status"] for e in entrants] == ["registered"] * 9 + ["waiting"]
    assert entrants[9]["waiting_position"] == 1 and entrants[0]["waiting_position"] is None
    assert entrants[0]["display_name"] == "Anna-Katharina B."
    # A withdrawal frees a place: the first waiting moves up.
    withdrawn = host.status(tournament, entrants[2], "withdrawn")
    assert withdrawn.status_code == 200 and withdrawn.json["status"] == "withdrawn"
    moved_up = {e["id"]: e for e in host.entrants(tournament)}[entrants[9]["id"]]
    assert moved_up["status"] == "registered" and moved_up["waiting_position"] is None
    # Check-in, one call per player: eight of the nine holding a place.
    playing = [e for i, e in enumerate(entrants) if i not in (2, 3)]
    for entrant in playing:
        checked = host.check_in(tournament, entrant)
        assert checked["status"] == "checked_in" and checked["player_id"]
    players = {e["player_id"] for e in host.entrants(tournament, status="checked_in")}
    assert len(players) == 8
    first = host.drawn(tournament, seed=11)
    assert first["seed"] == 11 and first["tournament_id"] == tournament["id"]
    assert sorted(seated(first)) == sorted(players)
    assert [len(t["seats"]) for t in first["tables"]] == [4, 4]
    for table in first["tables"]:
        host.record(table["table_id"], SOLO)
    second = host.drawn(tournament, seed=12)
    assert sorted(seated(second)) == sorted(players)
    for table in second["tables"]:
        host.record(table["table_id"], LOST_SOLO)
    standings = host.get(tournament, "/standings").json
    lines = standings["standings"]
    assert {line["player_id"] for line in lines} == players
    assert all(len(line["series"]) == 2 for line in lines)
    assert [line["rank"] for line in lines] == sorted(line["rank"] for line in lines)
    prizes = host.get(tournament, "/prizes").json
    assert prizes["currency"] == "EUR" and prizes["final"] is False
    # 8 checked in × 10.00 €: 40.00 € and 24.00 € as shares, 5.00 € fixed.
    assert [p["cents"] for p in prizes["places"]] == [4000, 2400, 500]
    sheet = prizes["cash_sheet"]
    assert sheet == {
        "entry_fee_cents": 1000,
        "paying": 8,
        "fees_cents": 8000,
        "loss_fee_cents": 0,
        "lost_games": 0,
        "losses_cents": 0,
        "prizes_cents": sum(p["cents"] for p in prizes["prize_list"]),
        "remains_cents": 8000 - sum(p["cents"] for p in prizes["prize_list"]),
    }
    assert sheet["prizes_cents"] == 6900  # every place reached is paid
    ranked = {line["entrant_id"]: line["rank"] for line in lines}
    assert all(ranked[p["entrant_id"]] == p["rank"] for p in prizes["prize_list"])


def test_the_registration_link_alone_registers(host: Host, api) -> None:
    tournament = host.created()
    other = host.created(name="Another")
    for token in ("", "not-the-link", host.club["admin_token"], other["registration_token"]):
        refused = host.register(tournament, token=token)
        assert refused.status_code == 401, (token, refused.json)
    # The link reads nothing: not the tournament, not its entrants.
    link = api.auth(tournament["registration_token"])
    assert host.get(tournament, headers=link).status_code == 401
    assert host.get(tournament, "/entrants", headers=link).status_code == 401
    # A new link stops the old one; a closed registration refuses the new one too.
    url = f"/api/v1/tournaments/{tournament['id']}"
    renewed = host.client.patch(url, json={"new_registration_link": True}, headers=host.admin)
    assert renewed.status_code == 200
    assert host.register(tournament).status_code == 401
    assert host.register(renewed.json).status_code == 201
    closed = host.client.patch(url, json={"registration_open": False}, headers=host.admin)
    assert closed.status_code == 200 and closed.json["registration_open"] is False
    refused = host.register(renewed.json, name="Jonas Weber")
    assert refused.status_code == 409
    assert refused.json["type"] == "urn:solo:problem:registration-closed"
    assert [e["name"] for e in host.entrants(tournament)] == ["Anna-Katharina Berger"]
    # Only the admin sees the link.
    viewer = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/viewer-tokens", json={"name": "Board"}, headers=host.admin
    ).json
    read = host.get(tournament, headers=api.auth(viewer["token"]))
    assert read.status_code == 200 and read.json["registration_token"] is None
    assert host.get(tournament, "/entrants", headers=api.auth(viewer["token"])).status_code == 403


def test_a_keyed_registration_asks_for_the_link_first_and_registers_once(host: Host, api) -> None:
    tournament = host.created()
    url = f"/api/v1/tournaments/{tournament['id']}/registrations"
    key = {"Idempotency-Key": "registration-1"}
    link = {**key, **api.auth(tournament["registration_token"])}
    first = host.client.post(url, json={"name": "Jonas Weber"}, headers=link)
    again = host.client.post(url, json={"name": "Jonas Weber"}, headers=link)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true" and again.json == first.json
    # Without the link the same key is no one's: 401, never the link holders' 409 or replay.
    for body in ({"name": "Jonas Weber"}, {"name": "Marta Ruiz"}):
        refused = host.client.post(url, json=body, headers=key)
        assert refused.status_code == 401, refused.json
    assert [e["name"] for e in host.entrants(tournament)] == ["Jonas Weber"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": "skat"}, "variant"),
        ({"table_sizes": [4, 6]}, "table_sizes.1"),
        ({"table_sizes": []}, "table_sizes"),
        ({"variant": "german", "table_sizes": [5]}, "table_sizes.0"),
        ({"prizes": [{"per_mille": 600}, {"per_mille": 500}]}, "prizes.1.per_mille"),
        ({"prizes": [{"cents": 100, "per_mille": 10}]}, "prizes.0"),
        ({"prizes": [{"cents": -5}]}, "prizes.0.cents"),
        ({"options": {"pool_at_close": "keep"}}, "options.pool_at_close"),
        ({"cap": 0}, "cap"),
        ({"entry_fee_cents": -1}, "entry_fee_cents"),
        ({"scoring": "elo"}, "scoring"),
        ({"name": " "}, "name"),
    ],
)
def test_a_bad_tournament_is_refused_naming_the_field_and_nothing_is_stored(
    host: Host, body: dict, field: str
) -> None:
    response = host.create(**body)
    assert response.status_code == 422, response.json
    assert field in response.json["errors"], response.json
    nights = host.client.get(f"/api/v1/clubs/{host.club['id']}/nights", headers=host.admin)
    assert nights.json == []


def test_a_bad_registration_names_the_field_and_stores_nothing(host: Host) -> None:
    tournament = host.created()
    for body, field in (
        ({"name": ""}, "name"),
        ({"display": "nickname"}, "display"),
        ({"contact": "x" * 121}, "contact"),
        ({"club": "\u0007"}, "club"),
    ):
        refused = host.register(tournament, **body)
        assert refused.status_code == 422 and field in refused.json["errors"], refused.json
    assert host.entrants(tournament) == []


def test_a_waiting_entrant_is_checked_in_only_when_a_place_is_free(host: Host) -> None:
    tournament = host.created(cap=1)
    first = host.registered(tournament, name="Jonas Weber")
    second = host.registered(tournament, name="Marta Ruiz")
    assert second["status"] == "waiting"
    refused = host.status(tournament, second, "checked_in")
    assert refused.status_code == 409
    assert refused.json["type"] == "urn:solo:problem:no-place-free"
    assert {e["name"]: e["status"] for e in host.entrants(tournament)} == {
        "Jonas Weber": "registered",
        "Marta Ruiz": "waiting",
    }
    # A late entry checked in at once is refused alike, and nothing is stored.
    late = host.client.post(
        f"/api/v1/tournaments/{tournament['id']}/entrants",
        json={"name": "Kai Lindner", "check_in": True},
        headers=host.admin,
    )
    assert late.status_code == 409 and len(host.entrants(tournament)) == 2
    # A withdrawn entrant entered again goes to the end of the list: waiting while it is full.
    assert host.status(tournament, second, "withdrawn").status_code == 200
    again = host.status(tournament, second, "registered")
    assert again.status_code == 200, again.json
    assert again.json["status"] == "waiting" and again.json["number"] == 3
    # The cap cannot fall below the places held; raised, it moves the waiting list up.
    url = f"/api/v1/tournaments/{tournament['id']}"
    assert host.client.patch(url, json={"cap": 2}, headers=host.admin).status_code == 200
    assert host.check_in(tournament, second)["status"] == "checked_in"
    lower = host.client.patch(url, json={"cap": 1}, headers=host.admin)
    assert lower.status_code == 422 and "cap" in lower.json["errors"]
    assert host.check_in(tournament, first)["status"] == "checked_in"


def test_late_entries_and_withdrawals_between_series(host: Host) -> None:
    tournament = host.created(series=2, hands_per_series=1, table_sizes=[4])
    entrants = [host.registered(tournament, name=name) for name in NAMES[:8]]
    for entrant in entrants:
        host.check_in(tournament, entrant)
    first = host.drawn(tournament, seed=3)
    for table in first["tables"]:
        host.record(table["table_id"], SOLO)
    # Between series: one withdraws, and a late entry on the day is checked in at once.
    assert host.status(tournament, entrants[0], "withdrawn").status_code == 200
    late = host.client.post(
        f"/api/v1/tournaments/{tournament['id']}/entrants",
        json={"name": "Kai Lindner", "club": "Doko Aachen", "check_in": True},
        headers=host.admin,
    )
    assert late.status_code == 201 and late.json["status"] == "checked_in", late.json
    second = host.drawn(tournament, seed=4)
    players = seated(second)
    assert late.json["player_id"] in players
    withdrawn_player = {e["id"]: e for e in host.entrants(tournament)}[entrants[0]["id"]]
    assert withdrawn_player["player_id"] not in players and len(players) == 8
    # His first series stays in the standings; the late entry has none.
    lines = {
        line["entrant_id"]: line for line in host.get(tournament, "/standings").json["standings"]
    }
    assert lines[entrants[0]["id"]]["status"] == "withdrawn"
    assert lines[entrants[0]["id"]]["series"][0] is not None
    assert lines[entrants[0]["id"]]["series"][1] is None
    assert lines[late.json["id"]]["series"][0] is None
    # He paid at check-in: the cash sheet counts nine fees.
    assert host.get(tournament, "/prizes").json["cash_sheet"]["paying"] == 9


def test_a_guest_named_as_a_host_player_keeps_his_club_beside_his_name(host: Host) -> None:
    member = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/players", json={"name": "Jonas Weber"}, headers=host.admin
    ).json
    tournament = host.created()
    picked = host.client.post(
        f"/api/v1/tournaments/{tournament['id']}/entrants",
        json={"name": "Jonas Weber", "player_id": member["id"]},
        headers=host.admin,
    ).json
    guest = host.registered(tournament, name="Jonas Weber", club="SC Bonn")
    host.check_in(tournament, picked)
    checked = host.check_in(tournament, guest)
    assert picked["player_id"] == member["id"] and checked["player_id"] != member["id"]
    players = host.client.get(f"/api/v1/clubs/{host.club['id']}/players", headers=host.admin)
    assert sorted(p["name"] for p in players.json) == ["Jonas Weber", "Jonas Weber (SC Bonn)"]
    # A member enters once.
    again = host.client.post(
        f"/api/v1/tournaments/{tournament['id']}/entrants",
        json={"name": "Jonas Weber", "player_id": member["id"]},
        headers=host.admin,
    )
    assert again.status_code == 422 and "player_id" in again.json["errors"]


def test_place_points_score_each_table_the_same_and_rank_by_the_named_rules(host: Host) -> None:
    tournament = host.created(scoring="place_points", hands_per_series=1, series=1)
    assert tournament["tie_breaks"] == ["total", "result", "series_won"]
    for name in NAMES[:8]:
        host.check_in(tournament, host.registered(tournament, name=name))
    series = host.drawn(tournament, seed=9)
    for table in series["tables"]:
        host.record(table["table_id"], SOLO)
    lines = host.get(tournament, "/standings").json["standings"]
    assert all(line["total"] == line["place_points"] for line in lines)
    for table in series["tables"]:
        at_table = [line for line in lines if line["series"][0]["table"] == table["number"]]
        results = [line["result"] for line in at_table]
        # The table's points are the place points of its results: 24 the winner, 48 in all.
        assert [line["total"] for line in at_table] == place_points(results)
        assert sum(line["total"] for line in at_table) == 48
        assert max(line["total"] for line in at_table) == 24
    # Ranked by the points, then the game's own result, then the series won.
    strengths = [(line["total"], line["result"], line["series_won"]) for line in lines]
    assert strengths == sorted(strengths, reverse=True)
    assert [line["rank"] for line in lines] == shared_ranks(strengths)
    assert lines[0]["total"] == 24 and lines[0]["rank"] == 1


def test_a_tournaments_night_is_drawn_only_through_the_tournament(host: Host) -> None:
    tournament = host.created()
    night = f"/api/v1/nights/{tournament['night_id']}"
    refused = host.client.post(f"{night}/series", json={}, headers=host.admin)
    assert refused.status_code == 409 and tournament["id"] in refused.json["detail"]
    presence = host.client.patch(f"{night}/presence", json={"left": []}, headers=host.admin)
    assert presence.status_code == 409


def test_only_the_host_runs_it_and_its_readers_read_it(host: Host, api) -> None:
    tournament = host.created()
    entrant = host.registered(tournament)
    stranger = api.club("Other")
    other = api.auth(stranger["admin_token"])
    assert host.status(tournament, entrant, "checked_in", headers=other).status_code == 403
    assert host.get(tournament, headers=other).status_code == 403
    assert host.get(tournament, "/prizes", headers=other).status_code == 403
    assert host.draw(tournament).status_code == 422  # one player fits no table
    url = f"/api/v1/tournaments/{tournament['id']}"
    assert host.client.patch(url, json={"cap": 5}, headers=other).status_code == 403
    assert host.client.get("/api/v1/tournaments/nope", headers=host.admin).status_code == 404


def test_the_game_is_fixed_once_the_first_series_is_drawn(host: Host) -> None:
    tournament = host.created(table_sizes=[4])
    for name in NAMES[:4]:
        host.check_in(tournament, host.registered(tournament, name=name))
    host.drawn(tournament, seed=1)
    url = f"/api/v1/tournaments/{tournament['id']}"
    refused = host.client.patch(url, json={"table_sizes": [3, 4]}, headers=host.admin)
    assert refused.status_code == 422 and "table_sizes" in refused.json["errors"]
    changed = host.client.patch(url, json={"prizes": [{"cents": 1000}]}, headers=host.admin)
    assert changed.status_code == 200 and changed.json["prizes"] == [{"cents": 1000}]


def test_the_draw_opens_tables_of_its_sizes_with_its_options(host: Host) -> None:
    tournament = host.created(table_sizes=[3, 5], options={"pool_at_close": "carry"})
    for name in NAMES[:8]:
        host.check_in(tournament, host.registered(tournament, name=name))
    series = host.drawn(tournament, seed=2)
    assert sorted(len(t["seats"]) for t in series["tables"]) == [3, 5]  # not 4 + 4
    for table in series["tables"]:
        shown = host.client.get(f"/api/v1/tables/{table['table_id']}", headers=host.admin).json
        assert shown["options"]["pool_at_close"] == "carry"
        assert shown["name"] == f"Preis-Solo 2026 · 1.{table['number']}"


def test_every_checked_in_player_is_seated_once_per_series_reproducibly(host: Host) -> None:
    @settings(
        max_examples=6,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        count=st.integers(6, 12),
        seeds=st.lists(st.integers(0, 2**31 - 1), min_size=3, max_size=3),
        leaving=st.lists(st.integers(0, 11), max_size=3),
    )
    def play(count: int, seeds: list[int], leaving: list[int]) -> None:
        tournament = host.created(series=3, table_sizes=[3, 4, 5])
        entrants = [host.registered(tournament, name=name) for name in NAMES[:count]]
        for entrant in entrants:
            host.check_in(tournament, entrant)
        history: list[list[str]] = []
        for number, seed in enumerate(seeds, start=1):
            if number == 2:  # withdrawals between series, as many as leave 6 or more
                for index in sorted(set(leaving))[: count - 6]:
                    if index < count:
                        host.status(tournament, entrants[index], "withdrawn")
            playing = {e["player_id"] for e in host.entrants(tournament, status="checked_in")}
            series = host.drawn(tournament, seed=seed, early=True)
            assert Counter(seated(series)) == Counter({p: 1 for p in playing})
            again = seat_draw.draw(
                sorted(playing), [3, 4, 5], seed, seat_draw.pair_history(history)
            )
            assert [list(t.seats) for t in again.tables] == [
                [s["player_id"] for s in t["seats"]] for t in series["tables"]
            ]
            history += [[s["player_id"] for s in t["seats"]] for t in series["tables"]]

    play()


@pytest.mark.parametrize(
    "values",
    [
        {"status": "checked_in"},  # checked in with no time of it
        {"status": "withdrawn"},  # withdrawn with no time of it
        {"status": "gone"},
        {"display": "nickname"},
        {"number": 0},
        {"name": ""},
    ],
)
def test_the_database_refuses_an_entrant_no_use_case_makes(app, host: Host, values) -> None:
    from sqlalchemy import insert

    from service.extensions import db
    from service.persistence.columns import utcnow
    from service.persistence.tournaments import EntrantRow

    tournament = host.created()
    row = {
        "id": "e" * 32,
        "tournament_id": tournament["id"],
        "number": 1,
        "name": "Jonas Weber",
        "display": "full",
        "status": "registered",
        "registered_at": utcnow(),
        **values,
    }
    with app.app_context(), pytest.raises(IntegrityError), db.engine.begin() as connection:
        connection.execute(insert(EntrantRow).values(**row))


def test_losses_money_counts_each_game_a_declarer_lost_and_joins_the_pot(host: Host) -> None:
    tournament = host.created(
        series=1,
        hands_per_series=2,
        table_sizes=[4],
        entry_fee_cents=500,
        loss_fee_cents=50,
        prizes=[{"per_mille": 1000}],
    )
    assert tournament["loss_fee_cents"] == 50
    for name in NAMES[:8]:
        host.check_in(tournament, host.registered(tournament, name=name))
    series = host.drawn(tournament, seed=21)
    for table in series["tables"]:
        host.record(table["table_id"], SOLO)  # seat 1 declares and wins: no losses money
        host.record(table["table_id"], LOST_SOLO)  # seat 2 declares and loses
    losers = {t["seats"][2]["player_id"] for t in series["tables"]}
    prizes = host.get(tournament, "/prizes").json
    entrants = {e["id"]: e for e in host.entrants(tournament)}
    assert {entrants[loss["entrant_id"]]["player_id"] for loss in prizes["losses"]} == losers
    assert all(loss == {**loss, "lost_games": 1, "cents": 50} for loss in prizes["losses"])
    sheet = prizes["cash_sheet"]
    assert (sheet["fees_cents"], sheet["lost_games"], sheet["losses_cents"]) == (4000, 2, 100)
    # The whole pot (fees and losses money) goes to the first place: nothing remains.
    assert prizes["places"] == [{"place": 1, "cents": 4100}]
    assert sheet["prizes_cents"] == 4100 and sheet["remains_cents"] == 0
    # A voided lost game costs nothing.
    table_id = series["tables"][0]["table_id"]
    voided = host.client.delete(f"/api/v1/tables/{table_id}/hands/2", headers=host.admin)
    assert voided.status_code == 200, voided.json
    assert host.get(tournament, "/prizes").json["cash_sheet"]["lost_games"] == 1
