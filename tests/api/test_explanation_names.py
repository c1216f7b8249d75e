"""A settlement's explanation calls the players by name where the table knows them (issue 39,
trap 14): the transfers beside it count seats from 0 (`from: 0`), so "Dealer (seat 1)" beside
them read as another player. Where no name is known (a preview without `names`), the number
says its count ("seat 1 of 4"), in every language the same way."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import ApiClient

NAMES = [
    "Anna-Katharina Berger",
    "Maximiliane Lüdenscheidt",
    "José Ángel Fernández",
    "Inmaculada Concepción Ruiz",
]
# Seat 1 (Maximiliane) plays a solo in hearts and wins; seat 0 (Anna-Katharina) deals.
SOLO = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
PREVIEW = "/api/v1/settlements/preview"
SEAT_WORDS = ("seat", "Seat", "Platz", "asiento", "Asiento")


def _named_table(api: ApiClient) -> dict[str, Any]:
    club = api.club()
    admin = api.auth(club["admin_token"])
    ids = []
    for name in NAMES:
        made = api.client.post(
            f"/api/v1/clubs/{club['id']}/players", json={"name": name}, headers=admin
        )
        assert made.status_code == 201, made.json
        ids.append(made.json["id"])
    opened = api.client.post(
        "/api/v1/tables",
        json={"club_id": club["id"], "name": "Donnerstag", "variant": "american", "seats": ids},
        headers=admin,
    )
    assert opened.status_code == 201, opened.json
    return {**opened.json, "admin_token": club["admin_token"], "player_ids": ids}


@pytest.mark.parametrize(
    ("language", "stake", "next_dealer"),
    [
        (
            "en",
            "Dealer (Anna-Katharina Berger) stakes 2 into the pool",
            "Maximiliane Lüdenscheidt deals next",
        ),
        (
            "de",
            "Anna-Katharina Berger gibt und setzt 2 in die Kasse",
            "Als Nächstes gibt Maximiliane Lüdenscheidt",
        ),
        (
            "es",
            "Anna-Katharina Berger reparte y pone 2 en el bote",
            "La siguiente mano la reparte Maximiliane Lüdenscheidt",
        ),
    ],
)
def test_a_recorded_hand_names_the_players_its_transfers_count_from_0(
    api: ApiClient, language: str, stake: str, next_dealer: str
) -> None:
    table = _named_table(api)
    recorded = api.record(table, SOLO, **{"Accept-Language": language})
    assert recorded.status_code == 201, recorded.json
    settlement = recorded.json["settlement"]
    lines = settlement["explanation"]
    assert (lines[0], lines[-1]) == (stake, next_dealer)
    # The stake's transfer is the same player the first line names: seat 0 of the API.
    stake_transfer = next(t for t in settlement["transfers"] if t["reason"] == "stake")
    assert stake_transfer["from"] == 0
    assert table["seats"][stake_transfer["from"]]["name"] == NAMES[0]
    assert any(NAMES[1] in line for line in lines[1:-1])  # the declarer, by name
    assert not any(word in line.split() for line in lines for word in SEAT_WORDS)


def test_every_answer_with_the_hand_names_the_players(api: ApiClient) -> None:
    table = _named_table(api)
    assert api.record(table, SOLO).status_code == 201
    token = api.auth(table["table_token"])
    base = f"/api/v1/tables/{table['id']}/hands"
    german = {**token, "Accept-Language": "de"}
    one = api.client.get(f"{base}/1", headers=german)
    listed = api.client.get(base, headers=german)
    assert one.status_code == listed.status_code == 200
    assert one.json["settlement"]["explanation"][0] == (
        "Anna-Katharina Berger gibt und setzt 2 in die Kasse"
    )
    assert listed.json[0]["settlement"]["explanation"] == one.json["settlement"]["explanation"]
    corrected = api.client.put(f"{base}/1?dry_run=true", json={**SOLO, "tricks": 4}, headers=german)
    assert corrected.status_code == 200, corrected.json
    assert corrected.json["settlement"]["explanation"][0] == (
        "Anna-Katharina Berger gibt und setzt 2 in die Kasse"
    )
    assert "Maximiliane Lüdenscheidt" in corrected.json["settlement"]["explanation"][1]


def test_a_renamed_player_is_named_anew_in_the_list(api: ApiClient) -> None:
    table = _named_table(api)
    assert api.record(table, SOLO).status_code == 201
    token = api.auth(table["table_token"])
    base = f"/api/v1/tables/{table['id']}/hands"
    assert api.client.get(base, headers=token).json[0]["settlement"]["explanation"][0] == (
        "Dealer (Anna-Katharina Berger) stakes 2 into the pool"
    )
    renamed = api.client.patch(
        f"/api/v1/players/{table['player_ids'][0]}",
        json={"name": "Anna-Katharina Berger-Schulz"},
        headers=api.auth(table["admin_token"]),
    )
    assert renamed.status_code == 200, renamed.json
    # The same hand row, rendered before under the old name (the worker keeps renderings).
    assert api.client.get(base, headers=token).json[0]["settlement"]["explanation"][0] == (
        "Dealer (Anna-Katharina Berger-Schulz) stakes 2 into the pool"
    )


@pytest.mark.parametrize(
    ("language", "stake", "next_dealer"),
    [
        ("en", "Dealer (seat 1 of 4) stakes 2 into the pool", "Seat 2 of 4 deals next"),
        ("de", "Platz 1 von 4 gibt und setzt 2 in die Kasse", "Als Nächstes gibt Platz 2 von 4"),
        (
            "es",
            "Asiento 1 de 4 reparte y pone 2 en el bote",
            "La siguiente mano la reparte asiento 2 de 4",
        ),
    ],
)
def test_a_preview_without_names_says_how_it_counts(
    client: Any, language: str, stake: str, next_dealer: str
) -> None:
    answer = client.post(
        PREVIEW,
        json={"variant": "american", "players": 4, "hand": SOLO},
        headers={"Accept-Language": language},
    )
    assert answer.status_code == 200, answer.json
    lines = answer.json["explanation"]
    assert (lines[0], lines[-1]) == (stake, next_dealer)


def test_a_preview_with_names_names_them(client: Any) -> None:
    answer = client.post(
        PREVIEW,
        json={"variant": "american", "players": 4, "hand": SOLO, "names": NAMES},
        headers={"Accept-Language": "es"},
    )
    assert answer.status_code == 200, answer.json
    lines = answer.json["explanation"]
    assert lines[0] == "Anna-Katharina Berger reparte y pone 2 en el bote"
    assert lines[-1] == "La siguiente mano la reparte Maximiliane Lüdenscheidt"


@pytest.mark.parametrize(
    ("names", "language", "message"),
    [
        (NAMES[:3], "en", "must name each of the 4 players once, in seat order"),
        (
            NAMES[:3],
            "de",
            "muss die 4 Spielenden je einmal nennen, in der Reihenfolge der Plätze",
        ),
        ([*NAMES[:3], "   "], "en", "Must not be blank."),
    ],
)
def test_names_that_do_not_fit_the_table_are_refused_naming_the_field(
    client: Any, names: list[str], language: str, message: str
) -> None:
    answer = client.post(
        PREVIEW,
        json={"variant": "american", "players": 4, "hand": SOLO, "names": names},
        headers={"Accept-Language": language},
    )
    assert answer.status_code == 422
    errors = answer.json["errors"]
    found = errors.get("names") or errors.get("names.3")
    assert found == [message], errors
