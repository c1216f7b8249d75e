"""A tournament's results in the host club's season, when the director chooses: at creation,
or later, when every table drawn moves into the season with its hands (the standings follow,
each move logged under the director's token), and out of it again."""

from __future__ import annotations

import pytest

from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_tournaments import NAMES, Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def new_season(host: Host, variant: str = "american") -> dict:
    response = host.client.post(
        f"/api/v1/clubs/{host.club['id']}/seasons",
        json={"name": f"Saison 2026 ({variant})", "variant": variant},
        headers=host.admin,
    )
    assert response.status_code == 201, response.json
    return response.json


def season_hands(host: Host, season: dict) -> dict[str, int]:
    response = host.client.get(f"/api/v1/seasons/{season['id']}/standings", headers=host.admin)
    assert response.status_code == 200, response.json
    return {row["player_id"]: row["hands"] for row in response.json["rows"]}


def change(host: Host, tournament: dict, **body):
    return host.client.patch(
        f"/api/v1/tournaments/{tournament['id']}", json=body, headers=host.admin
    )


def started(host: Host, **settings) -> tuple[dict, dict]:
    """A tournament of eight, its first series drawn and two hands played at each table."""
    tournament = host.created(series=2, table_sizes=[4], **settings)
    for name in NAMES[:8]:
        host.check_in(tournament, host.registered(tournament, name=name))
    first = host.drawn(tournament, seed=5)
    for table in first["tables"]:
        host.record(table["table_id"], SOLO)
        host.record(table["table_id"], LOST_SOLO)
    return tournament, first


def test_the_director_counts_a_tournament_in_the_season_after_it_started(host: Host) -> None:
    season = new_season(host)
    tournament, first = started(host)
    assert host.get(tournament).json["season_id"] is None
    assert season_hands(host, season) == {}

    moved = change(host, tournament, season_id=season["id"])
    assert moved.status_code == 200, moved.json
    assert moved.json["season_id"] == season["id"]
    seated = [s["player_id"] for t in first["tables"] for s in t["seats"]]
    assert season_hands(host, season) == {player: 2 for player in seated}
    for table in first["tables"]:
        history = host.client.get(f"/api/v1/tables/{table['table_id']}/history", headers=host.admin)
        (logged,) = history.json["changes"]
        assert logged["setting"] == "season" and logged["after"] == season["id"]
        assert logged["changed_by"]["kind"] == "admin"
    # The next series opens in the season, and its hands count there too.
    second = host.drawn(tournament, seed=6)
    for table in second["tables"]:
        shown = host.client.get(f"/api/v1/tables/{table['table_id']}", headers=host.admin).json
        assert shown["season_id"] == season["id"]
        host.record(table["table_id"], SOLO)
    assert season_hands(host, season) == {player: 3 for player in seated}

    # Taken out again: the season forgets every hand of it.
    assert change(host, tournament, season_id=None).status_code == 200
    assert season_hands(host, season) == {}


def test_a_tournament_created_in_a_season_counts_from_its_first_hand(host: Host) -> None:
    season = new_season(host)
    tournament, first = started(host, season_id=season["id"])
    assert tournament["season_id"] == season["id"]
    assert set(season_hands(host, season).values()) == {2}


@pytest.mark.parametrize("which", ["unknown", "other_game", "other_club"])
def test_a_season_it_cannot_count_in_is_refused_naming_season_id(
    host: Host, api, which: str
) -> None:
    tournament, first = started(host)
    if which == "unknown":
        season_id = "no-such-season"
    elif which == "other_game":
        season_id = new_season(host, "german")["id"]
    else:
        other = Host(api, host.client)
        season_id = new_season(other)["id"]
    refused = change(host, tournament, season_id=season_id)
    assert refused.status_code == 422, refused.json
    assert "season_id" in refused.json["errors"]
    assert host.get(tournament).json["season_id"] is None
    for table in first["tables"]:
        shown = host.client.get(f"/api/v1/tables/{table['table_id']}", headers=host.admin).json
        assert shown["season_id"] is None
    created = host.create(season_id=season_id)
    assert created.status_code == 422 and "season_id" in created.json["errors"]


def test_a_tournaments_changes_are_events_of_its_club_without_names(host: Host, api) -> None:
    from tests.api.test_changes import all_events

    tournament = host.created(cap=2, series=2, table_sizes=[4])
    first = host.registered(tournament, name="Anna-Katharina Berger", contact="anna@example.org")
    host.registered(tournament, name="Carla Moser-Lindqvist")
    waiting = host.registered(tournament, name="Jonas Weber")
    assert host.status(tournament, first, "withdrawn").status_code == 200  # Jonas moves up
    assert change(host, tournament, cap=5, new_registration_link=True).status_code == 200
    assert change(host, tournament).status_code == 200  # nothing changed: no event
    refused = host.register(tournament, name="Late")  # the old link: refused, no event
    assert refused.status_code == 401

    events = [e for e in all_events(api, host.club) if e["type"].startswith("tournament.")]
    assert [(e["type"], e["data"].get("changed")) for e in events] == [
        ("tournament.created", None),
        ("tournament.changed", "entrants"),
        ("tournament.changed", "entrants"),
        ("tournament.changed", "entrants"),
        ("tournament.changed", "entrants"),
        ("tournament.changed", ["cap", "registration_link"]),
    ]
    assert [e["data"].get("status") for e in events[1:5]] == [
        "registered",
        "registered",
        "waiting",
        "withdrawn",
    ]
    assert events[3]["data"]["entrant"] == waiting["id"]
    assert all(
        e["links"]["tournament"] == f"/api/v1/tournaments/{tournament['id']}" for e in events
    )
    assert events[0]["data"]["night"] == tournament["night_id"]
    said = repr([e["data"] for e in events])
    assert "Anna" not in said and "example.org" not in said
    assert tournament["registration_token"] not in said
