"""German Solo's options over HTTP (the variants answer, tables, corrections, standings), and the
hands no table can produce refused with a 422 naming the field, nothing stored."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import get_variant
from tests.api.test_league import League, by_player
from tests.strategies_variants import german_hands

OPTIONS = {"preferred_suit": "first_won", "mediateur": True, "deck": 24}
FRAGE = {
    "contract": "frage",
    "trump": "hearts",
    "declarer": 1,
    "tricks": 4,
    "called": {"rank": "ace", "suit": "spades"},
    "partner": 2,
}
MEDIATEUR = {"contract": "mediateur", "trump": "clubs", "declarer": 0, "tricks": 4, "giver": 3}


def test_the_variants_answer_offers_the_german_options(client) -> None:
    [german] = [v for v in client.get("/api/v1/variants").json if v["name"] == "german"]
    contracts = {c["name"]: c for c in german["contracts"]}
    assert (
        contracts["mediateur"]["base"],
        contracts["mediateur"]["option"],
        contracts["mediateur"]["calls_partner"],
    ) == (4, "mediateur", "none")
    assert german["decks"] == [
        {"cards": 32, "tricks": 8, "target": 5, "tout": 8},
        {"cards": 24, "tricks": 6, "target": 4, "tout": 6},
    ]
    assert german["tricks_by_deck"] == {"32": 8, "24": 6}
    assert {c["name"]: c["target_by_deck"] for c in german["contracts"]}["frage"] == {
        "32": 5,
        "24": 4,
    }
    options = {o["name"]: o for o in german["options"]}
    assert "first_won" in options["preferred_suit"]["allowed"]
    assert (options["mediateur"]["default"], options["deck"]["default"]) == (False, 32)
    giver = next(f for f in german["hand_fields"] if f["name"] == "giver")
    assert giver["contracts"] == ["mediateur"]


def test_a_german_table_keeps_its_options_and_its_preferred_suit(api, client) -> None:
    table = api.table(variant="german", options=OPTIONS)
    assert table["options"] == OPTIONS and table["couleur"] is None
    lost = api.record(table, {**FRAGE, "tricks": 3})
    assert lost.status_code == 201, lost.json
    won = api.record(table, FRAGE)
    assert won.json["settlement"]["couleur"] == {"before": None, "after": "hearts"}
    assert api.get_table(table)["couleur"] == "hearts"
    doubled = api.record(table, {**MEDIATEUR, "trump": "hearts"})
    assert doubled.json["settlement"]["value"] == 8
    assert [s["balance"] for s in api.get_table(table)["seats"]] == [8, 2 - 2, 2 - 2, 0]

    # Voiding the hand that set the preferred suit settles the later ones again without it.
    auth = api.auth(table["table_token"])
    assert client.delete(f"/api/v1/tables/{table['id']}/hands/2", headers=auth).status_code == 200
    shown = api.get_table(table)
    assert shown["couleur"] == "hearts"  # the mediateur, won in hearts, is now the first won
    assert [s["balance"] for s in shown["seats"]] == [4, -2, -2, 0]


def replay(
    players: int, options: dict[str, Any], sheet: list[dict[str, Any] | None]
) -> tuple[list[int], str | None]:
    variant = get_variant("german")
    opts = variant.parse_options(options)
    state = variant.initial_state(players, opts, 0)
    totals = [0] * players
    for record in sheet:
        if record is not None:
            settlement = variant.settle(
                players, opts, state, variant.parse_hand(record, players, opts)
            )
            totals = [t + d for t, d in zip(totals, settlement.deltas, strict=True)]
            state = settlement.state_after
    return totals, state.to_dict()["couleur"]


def test_a_table_with_every_german_option_keeps_twenty_hands(api, client) -> None:
    @settings(
        max_examples=3,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(
        sheet=st.lists(german_hands(OPTIONS), min_size=20, max_size=20), fix=german_hands(OPTIONS)
    )
    def play(sheet: list[dict[str, Any]], fix: dict[str, Any]) -> None:
        table = api.table(variant="german", options=OPTIONS)
        for hand in sheet:
            response = api.record(table, hand)
            assert response.status_code == 201, response.json
        auth = api.auth(table["table_token"])
        assert (
            client.put(f"/api/v1/tables/{table['id']}/hands/5", json=fix, headers=auth).status_code
            == 200
        )
        assert (
            client.delete(f"/api/v1/tables/{table['id']}/hands/9", headers=auth).status_code == 200
        )
        current: list[dict[str, Any] | None] = list(sheet)
        current[4], current[8] = fix, None
        shown = api.get_table(table)
        balances, couleur = replay(4, OPTIONS, current)
        assert [s["balance"] for s in shown["seats"]] == balances
        assert shown["couleur"] == couleur

    play()


IMPOSSIBLE = [
    (
        "american",
        4,
        None,
        {
            "contract": "solo",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 6,
            "matadores": {"side": "declarers", "lower": 6},
        },
        "hand.matadores.lower",
    ),
    (
        "american",
        5,
        None,
        {
            "contract": "solo",
            "trump": "hearts",
            "declarer": 0,
            "tricks": 6,
            "matadores": {"side": "declarers", "lower": 9},
        },
        "hand.matadores.lower",
    ),
    (
        "american",
        4,
        None,
        {
            "contract": "simple",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 8,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
        },
        "hand.tout_after_five",
    ),
    (
        "german",
        4,
        None,
        {
            "contract": "solo",
            "trump": "clubs",
            "declarer": 0,
            "tricks": 6,
            "stopped_after_five": True,
        },
        "hand.stopped_after_five",
    ),
    (
        "german",
        4,
        None,
        {"contract": "solo", "trump": "clubs", "declarer": 0, "tricks": 8},
        "hand.continued_after_five",
    ),
    ("german", 4, None, MEDIATEUR, "hand.contract"),
    ("german", 4, {"deck": 24}, {**FRAGE, "tricks": 7}, "hand.tricks"),
    (
        "german",
        4,
        {"deck": 24},
        {**FRAGE, "tricks": 5, "stopped_after_five": True},
        "hand.stopped_after_five",
    ),
]


@pytest.mark.parametrize(("variant", "players", "options", "hand", "field"), IMPOSSIBLE)
def test_a_hand_no_table_can_produce_is_422_naming_the_field_and_stores_nothing(
    api,
    client,
    variant: str,
    players: int,
    options: dict[str, Any] | None,
    hand: dict[str, Any],
    field: str,
) -> None:
    table = api.table(players=players, variant=variant, options=options)
    response = api.record(table, hand)
    assert response.status_code == 422, response.json
    assert list(response.json["errors"]) == [field]
    shown = api.get_table(table)
    assert (shown["hands_recorded"], shown["version"]) == (0, table["version"])
    preview = client.post(
        "/api/v1/settlements/preview",
        json={"variant": variant, "players": players, "options": options, "hand": hand},
    )
    assert preview.status_code == 422 and list(preview.json["errors"]) == [field]


def test_a_spanish_declarer_calling_his_own_ace_over_http(api) -> None:
    table = api.table(variant="spanish")
    response = api.record(
        table,
        {
            "contract": "simple",
            "trump": "spades",
            "declarer": 2,
            "tricks": 6,
            "called": {"rank": "ace", "suit": "hearts"},
            "partner": 2,
        },
    )
    assert response.status_code == 201, response.json
    assert response.json["settlement"]["deltas"] == [0, 0, 2, 0]


def test_german_standings_count_a_mediateur_and_a_24_card_tout(api, client) -> None:
    league = League(api, client, variant="german", players=4)
    table = league.table([0, 1, 2, 3], mediateur=True, deck=24)
    league.record(
        table,
        MEDIATEUR,
        {
            "contract": "solo",
            "trump": "spades",
            "declarer": 0,
            "tricks": 6,
            "continued_after_five": True,
        },
    )
    row = by_player(league.standings())[league.players[0]]
    assert (row["declared"], row["won"], row["solos_won"], row["touts_won"], row["net"]) == (
        2,
        2,
        1,
        1,
        4 + 10,
    )
    stats = client.get(f"/api/v1/players/{league.players[0]}/stats", headers=league.admin).json
    assert {(m["contract"], m["won"]) for m in stats["career"][0]["contracts"]} == {
        ("mediateur", 1),
        ("solo", 1),
    }


def test_the_tables_answer_gives_the_tricks_of_its_deck(api):
    short = api.get_table(api.table(variant="german", options={"deck": 24}))
    assert short["tricks"] == {"per_hand": 6, "target": 4, "tout": 6}
    full = api.get_table(api.table(variant="german"))
    assert full["tricks"] == {"per_hand": 8, "target": 5, "tout": 8}
    assert api.get_table(api.table(variant="american"))["tricks"] == full["tricks"]
    assert api.get_table(api.table(players=5, variant="solo66"))["tricks"] is None
