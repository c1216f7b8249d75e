"""An open tournament in the club's export and import: its settings and entrants kept, its
night's series and tables rebuilt, its standings, prizes and cash sheet the same after the
round trip; a new registration link; a wrong file imports nothing and names the place."""

from __future__ import annotations

import copy

import pytest
from sqlalchemy import func, select

from service.extensions import db
from service.persistence.nights import ClubNightRow
from service.persistence.table_keeping import ClubRow
from service.persistence.tournaments import EntrantRow, TournamentRow
from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_tournaments import NAMES, Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def played_tournament(host: Host) -> dict:
    """A tournament two series in: guests and a host's player, one waiting, one withdrawn
    after his check-in, a guest never checked in."""
    tournament = host.created(
        cap=9,
        entry_fee_cents=1500,
        loss_fee_cents=50,
        series=3,
        hands_per_series=2,
        table_sizes=[4],
        prizes=[{"per_mille": 600}, {"per_mille": 250}, {"cents": 700}],
        scoring="place_points",
    )
    member = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/players",
        json={"name": "Dieter Hoffmann"},
        headers=host.admin,
    ).json
    entrants = [
        host.registered(tournament, name=name, club="SC Bonn", contact=f"{i}@example.org")
        for i, name in enumerate(NAMES[:9])
    ]
    late = host.client.post(
        f"/api/v1/tournaments/{tournament['id']}/entrants",
        json={"name": "Dieter Hoffmann", "player_id": member["id"]},
        headers=host.admin,
    )
    assert late.status_code == 201, late.json
    for entrant in entrants[:8]:
        host.check_in(tournament, entrant)
    for series in (1, 2):
        drawn = host.drawn(tournament, seed=series)
        for table in drawn["tables"]:
            host.record(table["table_id"], SOLO)
            host.record(table["table_id"], LOST_SOLO)
        if series == 1:
            assert host.status(tournament, entrants[7], "withdrawn").status_code == 200
            host.check_in(tournament, entrants[8])
    return tournament


def exported(host: Host) -> dict:
    response = host.client.get(f"/api/v1/clubs/{host.club['id']}/export", headers=host.admin)
    assert response.status_code == 200, response.json
    return response.json


def imported(host: Host, document: dict) -> dict:
    response = host.client.post("/api/v1/clubs/import", json=document)
    assert response.status_code == 201, response.json
    return response.json


def test_a_tournament_round_trips_with_its_entrants_standings_and_cash_sheet(host: Host) -> None:
    tournament = played_tournament(host)
    document = exported(host)
    (kept,) = document["tournaments"]
    assert kept["night_id"] == tournament["night_id"]
    assert [e["number"] for e in kept["entrants"]] == list(range(1, 11))
    assert "registration_token" not in kept  # the link is the old club's

    answer = imported(host, document)
    assert answer["imported"]["tournaments"] == 1
    new_id = answer["ids"]["tournaments"][tournament["id"]]
    admin = host.api.auth(answer["admin_token"])
    again = host.client.get(f"/api/v1/tournaments/{new_id}", headers=admin).json
    assert again["night_id"] == answer["ids"]["nights"][tournament["night_id"]]
    assert again["registration_token"] != tournament["registration_token"]
    same = {"id", "club_id", "night_id", "registration_token", "created_at", "version"}
    before = host.get(tournament).json
    assert {k: v for k, v in again.items() if k not in same} == {
        k: v for k, v in before.items() if k not in same
    }

    def entrants(tid: str, headers: dict) -> list[dict]:
        listed = host.client.get(f"/api/v1/tournaments/{tid}/entrants", headers=headers).json
        return [{k: e[k] for k in ("number", "name", "club", "contact", "status")} for e in listed]

    assert entrants(new_id, admin) == entrants(tournament["id"], host.admin)
    players = {v: k for k, v in answer["ids"]["players"].items()}

    def standings(tid: str, headers: dict, ids: dict) -> list[tuple]:
        lines = host.client.get(f"/api/v1/tournaments/{tid}/standings", headers=headers).json
        return [
            (line["rank"], ids.get(line["player_id"], line["player_id"]), line["total"])
            for line in lines["standings"]
        ]

    assert standings(new_id, admin, players) == standings(tournament["id"], host.admin, {})
    old_prizes = host.get(tournament, "/prizes").json
    new_prizes = host.client.get(f"/api/v1/tournaments/{new_id}/prizes", headers=admin).json
    assert new_prizes["cash_sheet"] == old_prizes["cash_sheet"]
    assert new_prizes["cash_sheet"]["paying"] == 9  # the withdrawn one paid his fee
    assert [p["cents"] for p in new_prizes["places"]] == [p["cents"] for p in old_prizes["places"]]
    # The restored tournament goes on: its third series is drawn from those checked in.
    third = host.client.post(
        f"/api/v1/tournaments/{new_id}/series", json={"seed": 3}, headers=admin
    )
    assert third.status_code == 201, third.json
    assert third.json["number"] == 3


def test_the_old_link_registers_nothing_in_the_restored_club_and_the_new_one_does(
    host: Host,
) -> None:
    tournament = host.created()
    host.registered(tournament, name="Marta Ruiz")
    answer = imported(host, exported(host))
    new_id = answer["ids"]["tournaments"][tournament["id"]]
    restored = {**tournament, "id": new_id}
    assert host.register(restored, name="Kai Lindner").status_code == 401
    admin = host.api.auth(answer["admin_token"])
    link = host.client.get(f"/api/v1/tournaments/{new_id}", headers=admin).json
    assert host.register(link, name="Kai Lindner").status_code == 201


def test_a_file_without_tournaments_imports_as_before(host: Host) -> None:
    host.created()
    document = exported(host)
    document.pop("tournaments")
    assert imported(host, document)["imported"]["tournaments"] == 0


# A confirmation and a dispute at a table the file does not have.
CONFIRMATION = {
    "table_id": "nowhere",
    "seat": None,
    "changes_since": 0,
    "token_id": "t1",
    "confirmed_at": "2026-12-07T10:00:00Z",
}
DISPUTE = {
    "id": "d1",
    "table_id": "nowhere",
    "hand": 1,
    "seat": 1,
    "reason": "Trumpf war Pik.",
    "status": "open",
    "opened_at": "2026-12-07T10:00:00Z",
    "resolved_at": None,
    "resolved_by": None,
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["tournaments"][0].update(night_id="nowhere"), "tournaments.0.night_id"),
        (
            lambda d: d["tournaments"].append(copy.deepcopy(d["tournaments"][0]) | {"id": "t2"}),
            "tournaments.1.night_id",
        ),
        (lambda d: d["tournaments"][0].update(table_sizes=[9]), "tournaments.0.table_sizes.0"),
        (lambda d: d["tournaments"][0].update(options={"bogus": 1}), "tournaments.0.options"),
        (
            lambda d: d["tournaments"][0].update(prizes=[{"per_mille": 700}, {"per_mille": 400}]),
            "tournaments.0.prizes",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][1].update(number=5),
            "tournaments.0.entrants.1.number",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][0].update(player_id="nobody"),
            "tournaments.0.entrants.0.player_id",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][1].update(
                player_id=d["tournaments"][0]["entrants"][0]["player_id"]
            ),
            "tournaments.0.entrants.1.player_id",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][0].update(checked_in_at=None),
            "tournaments.0.entrants.0.checked_in_at",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][1].update(
                withdrawn_at=None, status="withdrawn"
            ),
            "tournaments.0.entrants.1.withdrawn_at",
        ),
        (
            lambda d: d["tournaments"][0]["entrants"][0].update(status="famous"),
            "tournaments.0.entrants.0.status",
        ),
        (
            lambda d: d["tournaments"][0]["confirmations"].append(CONFIRMATION),
            "tournaments.0.confirmations.0.table_id",
        ),
        (
            lambda d: d["tournaments"][0]["disputes"].append(DISPUTE),
            "tournaments.0.disputes.0.table_id",
        ),
        (
            lambda d: d["tournaments"][0]["disputes"].append(DISPUTE | {"status": "famous"}),
            "tournaments.0.disputes.0.status",
        ),
    ],
)
def test_a_wrong_tournament_in_the_file_imports_nothing_and_names_the_place(
    app, host: Host, change, field: str
) -> None:
    tournament = host.created(entry_fee_cents=500, prizes=[{"per_mille": 1000}])
    for name in NAMES[:2]:
        host.check_in(tournament, host.registered(tournament, name=name))
    document = exported(host)
    change(document)
    before = counts(app)
    refused = host.client.post("/api/v1/clubs/import", json=document)
    assert refused.status_code == 422, refused.json
    assert any(place.startswith(field) for place in refused.json["errors"]), refused.json
    assert counts(app) == before


def counts(app) -> dict[str, int]:
    with app.app_context():
        found = {
            model.__tablename__: db.session.scalar(select(func.count()).select_from(model))
            for model in (ClubRow, ClubNightRow, TournamentRow, EntrantRow)
        }
        db.session.remove()
    return found


def test_confirmations_and_disputes_round_trip_standing_or_void_as_they_were(host: Host) -> None:
    """A table moved before its first hand and confirmed (the move is not in the file, the
    confirmation stands again), one confirmed and then voided by a resolved dispute (void
    again; its table plays on, a hand short), one with a dispute open: the console and the
    standings' marks the same."""
    from tests.api.test_tournament_results import Day

    day = Day(host, players=12)
    first, second, third = day.tables
    moved = host.client.post(
        f"{day.url}/seats",
        json={"entrant_id": day.entrants[0]["id"], "table": first["number"], "seat": 3},
        headers=host.admin,
    )
    assert moved.status_code == 200, moved.json
    for table in day.tables:
        day.play(table, SOLO, LOST_SOLO)
    for seat in (1, 2):
        assert day.confirm(first, seat).status_code == 200
    assert day.confirm(second, 1).status_code == 200
    voided = day.dispute(second, 1).json
    assert day.resolve(voided, outcome="voided").status_code == 200
    assert day.dispute(third, 2, seat=3).status_code == 201
    document = exported(host)
    (kept,) = document["tournaments"]
    assert sorted(c["changes_since"] for c in kept["confirmations"]) == [0, 0, 1]
    assert sorted(d["status"] for d in kept["disputes"]) == ["open", "voided"]

    answer = imported(host, document)
    new_id = answer["ids"]["tournaments"][day.tournament["id"]]
    admin = host.api.auth(answer["admin_token"])

    def console(url: str, headers: dict) -> list[tuple]:
        tables = host.client.get(f"{url}/console", headers=headers).json["tables"]
        return [
            (
                t["number"],
                t["state"],
                t["confirmations"],
                t["confirmed"],
                [(d["hand"], d["seat"], d["reason"], d["status"]) for d in t["disputes"]],
            )
            for t in tables
        ]

    before = console(day.url, host.admin)
    assert [row[1] for row in before] == ["disputed", "playing", "confirmed"]
    assert console(f"/api/v1/tournaments/{new_id}", admin) == before
    restored = host.client.get(f"/api/v1/tournaments/{new_id}/standings", headers=admin).json
    marks = {
        (s["series"], s["table"], s["confirmed"])
        for line in restored["standings"]
        for s in line["series"]
        if s is not None
    }
    old = host.get(day.tournament, "/standings").json
    assert marks == {
        (s["series"], s["table"], s["confirmed"])
        for line in old["standings"]
        for s in line["series"]
        if s is not None
    }
