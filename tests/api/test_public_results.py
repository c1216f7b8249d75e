"""A tournament's public results (issue 42): published and taken back by its director, read by
anyone with the address and no token; names as each entrant chose, nothing else of them; the
standings per series and in total, each table's progress; cacheable (ETag and 304, a second's
Cache-Control, nginx's X-Accel-Expires); the page that follows them, in each language."""

from __future__ import annotations

import re
import time

import pytest

from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_tournaments import NAMES, Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def publish(host: Host, tournament: dict, **changes) -> dict:
    response = host.client.patch(
        f"/api/v1/tournaments/{tournament['id']}", json=changes, headers=host.admin
    )
    assert response.status_code == 200, response.json
    return response.json


def public(client, public_id: str, **headers):
    return client.get(f"/api/v1/public/results/{public_id}", headers=headers)


def playing(host: Host, count: int = 8, **settings) -> tuple[dict, list[dict]]:
    """A tournament with ``count`` entrants checked in, half of them named by the initial."""
    tournament = host.created(entry_fee_cents=1000, table_sizes=[4], **settings)
    entrants = []
    for index, name in enumerate(NAMES[:count]):
        entrant = host.registered(
            tournament,
            name=name,
            club="SC Bonn",
            contact=f"player{index}@example.org",
            display="initial" if index % 2 else "full",
        )
        entrants.append(host.check_in(tournament, entrant))
    return tournament, entrants


def test_the_director_publishes_and_takes_back_the_results(host: Host, client) -> None:
    tournament, _ = playing(host, 4)
    assert tournament["public_results"] is False and tournament["public_id"] is None
    shown = publish(host, tournament, public_results=True)
    public_id = shown["public_id"]
    assert shown["public_results"] is True and shown["public_prizes"] is False
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", public_id)  # 96 random bits: unguessable
    assert public(client, public_id).status_code == 200  # no token at all
    # Taken back: 404, the same as an address that never was, and nothing said of the tournament.
    hidden = publish(host, tournament, public_results=False)
    assert hidden["public_id"] == public_id  # kept for the next time
    gone = public(client, public_id)
    assert gone.status_code == 404 and tournament["name"] not in gone.get_data(as_text=True)
    assert public(client, "x" * 16).status_code == 404
    # Published again: the same address, which the director may have shared already.
    assert publish(host, tournament, public_results=True)["public_id"] == public_id
    assert public(client, public_id).status_code == 200
    # The tournament's own id is no public address.
    assert public(client, tournament["id"]).status_code == 404


def test_only_the_host_admin_publishes(host: Host, api, client) -> None:
    tournament, _ = playing(host, 4)
    other = api.club("Other club")
    refused = client.patch(
        f"/api/v1/tournaments/{tournament['id']}",
        json={"public_results": True},
        headers=api.auth(other["admin_token"]),
    )
    assert refused.status_code == 403
    assert host.get(tournament).json["public_id"] is None
    bad = client.patch(
        f"/api/v1/tournaments/{tournament['id']}",
        json={"public_results": "yes please"},
        headers=host.admin,
    )
    assert bad.status_code == 422 and "public_results" in bad.get_data(as_text=True)


def test_names_as_each_chose_and_nothing_else_of_them(host: Host, client) -> None:
    tournament, entrants = playing(host, 8, series=2, hands_per_series=2)
    public_id = publish(host, tournament, public_results=True)["public_id"]
    drawn = host.drawn(tournament, seed=5)
    for table in drawn["tables"]:
        host.record(table["table_id"], SOLO)
    answer = public(client, public_id)
    assert answer.status_code == 200
    results = answer.json
    names = sorted(line["name"] for line in results["standings"])
    expected = sorted(e["display_name"] for e in entrants)
    assert names == expected
    assert "Anna-Katharina Berger" in names  # display: full
    assert "Carla M." in names and "Carla Moser-Lindqvist" not in names  # display: initial
    text = answer.get_data(as_text=True)
    for entrant in entrants:
        assert entrant["contact"] not in text
        assert entrant["id"] not in text and entrant["player_id"] not in text
        if entrant["display"] == "initial":
            assert entrant["name"] not in text
    assert "SC Bonn" not in text and tournament["id"] not in text
    assert tournament["club_id"] not in text
    for table in drawn["tables"]:
        assert table["table_id"] not in text


def test_standings_per_series_and_total_and_each_tables_progress(host: Host, client) -> None:
    tournament, _ = playing(host, 8, series=2, hands_per_series=2)
    public_id = publish(host, tournament, public_results=True)["public_id"]
    empty = public(client, public_id).json
    assert empty["series_drawn"] == 0 and empty["tables"] == [] and empty["hands_recorded"] == 0
    assert empty["last_hand_at"] is None and empty["prizes"] is None
    first = host.drawn(tournament, seed=3)
    for table in first["tables"]:
        host.record(table["table_id"], SOLO)
    host.record(first["tables"][0]["table_id"], LOST_SOLO)
    results = public(client, public_id).json
    assert results["series_drawn"] == 1 and results["series_planned"] == 2
    assert results["hands_recorded"] == 3 and results["last_hand_at"] is not None
    progress = [
        (t["series"], t["table"], t["hands_played"], t["hands_limit"], t["done"])
        for t in results["tables"]
    ]
    assert progress == [(1, 1, 2, 2, True), (1, 2, 1, 2, False)]
    assert all(t["last_hand_at"] for t in results["tables"])
    # The same lines, ranks, series and totals as the director's standings (one path).
    own = host.get(tournament, "/standings").json["standings"]
    assert [
        (line["rank"], line["total"], [s and s["result"] for s in line["series"]]) for line in own
    ] == [(line["rank"], line["total"], line["series"]) for line in results["standings"]]
    assert all(line["total"] == line["series"][0] for line in results["standings"])
    host.record(first["tables"][1]["table_id"], LOST_SOLO)  # the series played out
    second = host.drawn(tournament, seed=4)
    host.record(second["tables"][1]["table_id"], SOLO)
    later = public(client, public_id).json
    assert [t["series"] for t in later["tables"]] == [2, 2]  # the current series' tables
    assert [t["hands_played"] for t in later["tables"]] == [0, 1]
    assert all(len(line["series"]) == 2 for line in later["standings"])


def test_place_points_show_each_series_points(host: Host, client) -> None:
    tournament, _ = playing(host, 4, scoring="place_points", hands_per_series=1)
    public_id = publish(host, tournament, public_results=True)["public_id"]
    table = host.drawn(tournament, seed=1)["tables"][0]
    host.record(table["table_id"], SOLO)
    lines = public(client, public_id).json["standings"]
    # The place points of a table of four (24, 16, 8, 0; shared on ties), not the game's result.
    assert sum(line["series"][0] for line in lines) == 48
    assert all(line["series"][0] in range(0, 25) for line in lines)
    assert all(line["total"] == line["series"][0] for line in lines)


def test_prize_places_only_when_the_director_shows_them(host: Host, client) -> None:
    tournament, _ = playing(host, 4, prizes=[{"per_mille": 600}, {"per_mille": 400}])
    public_id = publish(host, tournament, public_results=True)["public_id"]
    table = host.drawn(tournament, seed=2)["tables"][0]
    host.record(table["table_id"], SOLO)
    hidden = public(client, public_id).json
    assert hidden["prizes"] is None
    assert all(line["prize_cents"] is None for line in hidden["standings"])
    publish(host, tournament, public_prizes=True)
    shown = public(client, public_id).json
    assert shown["prizes"] == {
        "currency": "EUR",
        "final": False,
        "places": [{"place": 1, "cents": 2400}, {"place": 2, "cents": 1600}],
    }
    paid = host.get(tournament, "/prizes").json["prize_list"]
    assert sorted(line["prize_cents"] for line in shown["standings"]) == sorted(
        [p["cents"] for p in paid] + [0] * (4 - len(paid))
    )


def test_cacheable_with_an_etag_and_a_304(host: Host, client) -> None:
    tournament, _ = playing(host, 4, hands_per_series=3)
    public_id = publish(host, tournament, public_results=True)["public_id"]
    table = host.drawn(tournament, seed=7)["tables"][0]
    first = public(client, public_id)
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    control = first.headers["Cache-Control"]
    assert "public" in control and "max-age=1" in control and "stale-while-revalidate" in control
    # For nginx alone: valid until the current second ends (docs/scaling.md).
    expires = int(first.headers["X-Accel-Expires"].removeprefix("@"))
    assert abs(expires - time.time()) < 5
    again = public(client, public_id, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == etag and "max-age=1" in again.headers["Cache-Control"]
    host.record(table["table_id"], SOLO)
    changed = public(client, public_id, **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.json["hands_recorded"] == 1


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Results", "Standings", "withdrawn"]),
        ("de", ["Ergebnisse", "Tabelle", "abgemeldet"]),
        ("es", ["Resultados", "Clasificación", "baja"]),
    ],
)
def test_the_page_is_a_shell_in_each_language(host: Host, client, language, words) -> None:
    tournament, _ = playing(host, 4)
    public_id = publish(host, tournament, public_results=True)["public_id"]
    page = client.get(f"/results/{public_id}?lang={language}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert f'lang="{language}"' in text and "/night-assets/results.js" in text
    assert f"/api/v1/public/results/{public_id}" in text
    for word in words:
        assert word in text
