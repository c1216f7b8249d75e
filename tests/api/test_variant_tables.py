"""A table of every variant played over HTTP: twenty hands, a correction, a void, and the
sheet equal to a replay of the rules from scratch."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.rules import get_variant
from tests.strategies import american_hands
from tests.strategies_variants import HANDS, PLAYERS

ALL_PLAYERS = {"american": 4, **PLAYERS}


def hands_of(variant: str) -> st.SearchStrategy[dict[str, Any]]:
    return american_hands(4) if variant == "american" else HANDS[variant]


def replay(variant_name: str, players: int, sheet: list[dict[str, Any] | None]) -> list[int]:
    variant = get_variant(variant_name)
    options = variant.parse_options({})
    state = variant.initial_state(players, options, 0)
    totals = [0] * players
    for record in sheet:
        if record is None:
            continue
        settlement = variant.settle(
            players, options, state, variant.parse_hand(record, players, options)
        )
        totals = [t + d for t, d in zip(totals, settlement.deltas, strict=True)]
        state = settlement.state_after
    return totals


@pytest.mark.parametrize("variant", ["american", "spanish", "german", "solo66"])
def test_a_table_of_each_variant_keeps_twenty_hands(api, client, variant):
    @settings(
        max_examples=3,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(sheet=st.lists(hands_of(variant), min_size=20, max_size=20), fix=hands_of(variant))
    def play(sheet: list[dict[str, Any]], fix: dict[str, Any]) -> None:
        players = ALL_PLAYERS[variant]
        table = api.table(players=players, variant=variant)
        for number, hand in enumerate(sheet, start=1):
            response = api.record(table, hand)
            assert response.status_code == 201, response.json
            assert response.json["number"] == number
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
        assert [s["balance"] for s in shown["seats"]] == replay(variant, players, current)
        assert shown["hands_played"] == 19
        ledger = client.get(f"/api/v1/tables/{table['id']}/ledger", headers=auth).json
        if get_variant(variant).units == "chips":
            net = [0] * players
            for t in ledger["transfers"]:
                if t["from"] != "pool":
                    net[t["from"]] -= t["chips"]
                if t["to"] != "pool":
                    net[t["to"]] += t["chips"]
            assert net == [s["balance"] for s in shown["seats"]]
        else:
            assert ledger["transfers"] == []

    play()


def test_a_spanish_session_ends_at_its_target_and_refuses_more_hands(api):
    table = api.table(variant="spanish", options={"target_hands": 2})
    solo = {"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}
    assert api.record(table, solo).status_code == 201
    assert api.get_table(table)["session"]["over"] is False
    assert api.record(table, solo).status_code == 201
    session = api.get_table(table)["session"]
    assert session["over"] is True and session["winners"] == [1]
    late = api.record(table, solo)
    assert late.status_code == 409
    assert "over" in late.json["detail"]


def test_a_spanish_target_score_ends_the_session_when_reached(api):
    table = api.table(variant="spanish", options={"target_score": 10})
    tout = {"contract": "tout", "trump": "hearts", "declarer": 2, "tricks": 8}
    assert api.record(table, tout).status_code == 201
    session = api.get_table(table)["session"]
    assert session["over"] is True and session["winners"] == [2]
    assert api.record(table, tout).status_code == 409


def test_variant_player_counts_are_enforced_when_opening_a_table(api, client):
    club = api.club()
    seats = api.players(club, 4)
    response = client.post(
        "/api/v1/tables",
        json={"club_id": club["id"], "name": "T", "variant": "solo66", "seats": seats},
        headers=api.auth(club["admin_token"]),
    )
    assert response.status_code == 422
    assert "seats" in response.json["errors"]


def test_the_variants_endpoint_describes_every_game(client):
    variants = {v["name"]: v for v in client.get("/api/v1/variants").json}
    assert set(variants) == {"american", "spanish", "german", "solo66"}
    assert variants["american"]["players"] == [3, 4, 5]
    assert variants["solo66"]["units"] == "chips" and variants["german"]["units"] == "points"
    stake = next(o for o in variants["american"]["options"] if o["name"] == "stake")
    assert stake["default"] == 2


def test_the_variants_endpoint_shows_everything_each_variant_describes(client):
    from service.rules import VARIANTS

    shown = {v["name"]: v for v in client.get("/api/v1/variants").json}
    for name, variant in VARIANTS.items():
        assert shown[name] == variant.describe()
