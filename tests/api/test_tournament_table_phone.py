"""What a tournament table's phone reads of its result (``getTableResult``) and of its night
(``tournament_id``), and the one rule of the names the public results show (``display_name``,
also answered by ``previewDisplayNames`` for the registration page)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rules.tournament import display_name
from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_tournament_results import Day
from tests.api.test_tournaments import Host


@pytest.fixture
def host(api, client) -> Host:
    return Host(api, client)


def test_the_phone_reads_its_result_with_the_scorer_and_every_disputes_outcome(
    host: Host,
) -> None:
    day = Day(host)
    first, second = day.tables
    url = f"{day.url}/tables/{first['table_id']}/confirmations"
    night = host.client.get(
        f"/api/v1/nights/{day.tournament['night_id']}", headers=day.phone(first)
    ).json
    assert night["tournament_id"] == day.tournament["id"]
    read = host.client.get(url, headers=day.phone(first))
    assert read.status_code == 200, read.json
    shown = (read.json["scorer"], read.json["state"], read.json["confirmations"])
    assert shown == (0, "playing", [])
    assert read.json["confirmations_needed"] == 2  # two players other than the scorer
    day.play(first, SOLO, LOST_SOLO)
    assert day.confirm(first, 1).status_code == 200
    opened = day.dispute(first, 2).json
    read = host.client.get(url, headers=day.phone(first)).json
    assert read["state"] == "disputed" and read["confirmations"] == [1]
    assert [(d["id"], d["status"]) for d in read["disputes"]] == [(opened["id"], "open")]
    assert day.resolve(opened, outcome="rejected").status_code == 200
    read = host.client.get(url, headers=day.phone(first)).json
    # The phone keeps the outcome; the console lists open disputes only.
    assert [(d["hand"], d["status"]) for d in read["disputes"]] == [(2, "rejected")]
    assert read["state"] == "unconfirmed"
    assert day.row(first)["disputes"] == []
    # Another table's phone: refused; the director reads it; no such table: 404.
    assert host.client.get(url, headers=day.phone(second)).status_code == 403
    assert host.client.get(url, headers=host.admin).status_code == 200
    missing = f"{day.url}/tables/nope/confirmations"
    assert host.client.get(missing, headers=host.admin).status_code == 404


def test_a_nights_own_night_names_no_tournament(api, client) -> None:
    club = api.club()
    players = api.players(club, 4)
    body = {"name": "Donnerstag", "variant": "american", "players": players, "series": 1}
    headers = api.auth(club["admin_token"])
    night = client.post(f"/api/v1/clubs/{club['id']}/nights", json=body, headers=headers)
    assert night.status_code == 201, night.json
    assert night.json["tournament_id"] is None


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("María de los Ángeles Fernández", "María F."),
        ("María García López", "María G."),
        ("Anna-Katharina Berger", "Anna-Katharina B."),
        ("Ludwig van Beethoven", "Ludwig B."),
        ("María del Carmen de la Fuente", "María F."),
        ("Piet De Vries", "Piet V."),
        ("Cher", "Cher"),
        ("Anna de", "Anna de"),
    ],
)
def test_the_initial_is_the_family_names_particles_skipped(name: str, shown: str) -> None:
    assert display_name(name, "initial") == shown
    assert display_name(name, "full") == name


WORDS = st.sampled_from(["de", "los", "van", "Zu", "María", "Ángeles", "B", "Fernández", "Ö"])


@settings(max_examples=60)
@given(st.lists(WORDS | st.text(min_size=1, max_size=6).map(str.strip), max_size=6))
def test_an_initial_is_the_name_whole_or_a_first_word_and_one_letter(words: list[str]) -> None:
    name = " ".join(words)
    shown = display_name(name, "initial")
    parts = name.split()
    assert shown == name or (
        shown.startswith(f"{parts[0]} ") and len(shown) == len(parts[0]) + 3 and shown[-1] == "."
    )
    if shown != name:  # the letter begins a word of the name after the first, not a particle
        assert any(
            w[0] == shown[-2] and w.casefold() not in ("de", "los", "van", "zu") for w in parts[1:]
        )


def test_the_registration_pages_preview_is_the_services_rule(client) -> None:
    name = "María de los Ángeles Fernández"
    answer = client.get("/api/v1/public/display-names", query_string={"name": name})
    assert answer.status_code == 200, answer.json
    assert answer.json == {"full": name, "initial": "María F."}
    empty = client.get("/api/v1/public/display-names", query_string={"name": ""})
    assert empty.status_code == 422 and "name" in str(empty.json["errors"])
