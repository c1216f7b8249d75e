"""Answers sent without a marshmallow dump are already in their schema's shape.

Recording a hand answers the dict the service built (``HandWithTableSchema`` is not run over it:
the dump cost about a twentieth of the request). This holds the schema's dump of every such
answer to the identity, key order included, for every variant, with and without a season, and
for a replayed answer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.schemas.tables import HandWithTableSchema
from tests.api.test_league import EVENING, League
from tests.api.test_variant_tables import ALL_PLAYERS, hands_of

SCHEMA = HandWithTableSchema()


def assert_in_schema_shape(answer: dict[str, Any]) -> None:
    assert json.dumps(SCHEMA.dump(answer)) == json.dumps(answer)
    assert SCHEMA.validate(answer) == {}


@pytest.mark.parametrize("variant", sorted(ALL_PLAYERS))
def test_a_recorded_hand_is_answered_in_the_schemas_shape(api: Any, variant: str) -> None:
    @settings(
        max_examples=5,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(sheet=st.lists(hands_of(variant), min_size=1, max_size=6))
    def play(sheet: list[dict[str, Any]]) -> None:
        table = api.table(players=ALL_PLAYERS[variant], variant=variant)
        for hand in sheet:
            response = api.record(table, hand)
            assert response.status_code == 201, response.json
            assert_in_schema_shape(response.json)

    play()


def test_a_season_table_and_a_replay_are_answered_in_the_schemas_shape(
    api: Any, client: Any
) -> None:
    league = League(api, client)
    table = league.table([0, 1, 2, 3])
    for hand in EVENING:
        first = api.record(table, hand, **{"Idempotency-Key": f"k-{len(hand)}-{hand}"})
        assert first.status_code == 201, first.json
        assert first.json["table"]["season_id"] == league.season["id"]
        assert_in_schema_shape(first.json)
    replay = api.record(
        table, EVENING[-1], **{"Idempotency-Key": f"k-{len(EVENING[-1])}-{EVENING[-1]}"}
    )
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert_in_schema_shape(replay.json)
