"""Random sequences of record / correct / void through the service, beside a plain model that
replays the rules from scratch after every step: the two must always agree."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from service.rules import get_variant
from tests.strategies import american_hands, american_options
from tests.support import ApiClient


def replay(
    players: int,
    options: dict[str, Any],
    first_dealer: int,
    sheet: list[tuple[str, dict[str, Any]]],
) -> dict[str, Any]:
    """The plain model: settle every current hand in order from a fresh table."""
    variant = get_variant("american")
    opts = variant.parse_options(options)
    state = variant.initial_state(players, opts, first_dealer)
    balances = [0] * players
    for status, record in sheet:
        if status == "void":
            continue
        settlement = variant.settle(players, opts, state, variant.parse_hand(record, players, opts))
        balances = [b + d for b, d in zip(balances, settlement.deltas, strict=True)]
        state = settlement.state_after
    shown = state.to_dict()
    return {
        "balances": balances,
        "pool": shown["pool"],
        "couleur": shown["couleur"],
        "dealer": shown["dealer"],
        "stake_due": shown["stake_due"],
        "hands_played": sum(1 for status, _ in sheet if status == "recorded"),
    }


class TableMachine(RuleBasedStateMachine):
    api: ApiClient

    @initialize(players=st.integers(3, 5), options=american_options(), data=st.data())
    def open_table(self, players: int, options: dict[str, Any], data: st.DataObject) -> None:
        self.players = players
        self.options = options
        self.first_dealer = data.draw(st.integers(0, players - 1))
        self.table = self.api.table(
            players=players, options=options, first_dealer=self.first_dealer
        )
        self.sheet: list[tuple[str, dict[str, Any]]] = []

    def _url(self, number: int) -> str:
        return f"/api/v1/tables/{self.table['id']}/hands/{number}"

    @rule(data=st.data())
    def record(self, data: st.DataObject) -> None:
        hand = data.draw(american_hands(self.players))
        response = self.api.record(self.table, hand)
        assert response.status_code == 201, response.json
        assert response.json["number"] == len(self.sheet) + 1
        self.sheet.append(("recorded", hand))

    @precondition(lambda self: self.sheet)
    @rule(data=st.data())
    def correct(self, data: st.DataObject) -> None:
        number = data.draw(st.integers(1, len(self.sheet)))
        hand = data.draw(american_hands(self.players))
        response = self.api.client.put(
            self._url(number), json=hand, headers=self.api.auth(self.table["table_token"])
        )
        assert response.status_code == 200, response.json
        self.sheet[number - 1] = ("recorded", hand)

    @precondition(lambda self: any(status == "recorded" for status, _ in self.sheet))
    @rule(data=st.data())
    def void(self, data: st.DataObject) -> None:
        recorded = [n for n, (status, _) in enumerate(self.sheet, start=1) if status == "recorded"]
        number = data.draw(st.sampled_from(recorded))
        response = self.api.client.delete(
            self._url(number), headers=self.api.auth(self.table["table_token"])
        )
        assert response.status_code == 200, response.json
        self.sheet[number - 1] = ("void", self.sheet[number - 1][1])

    @invariant()
    def service_agrees_with_the_model(self) -> None:
        if not hasattr(self, "table"):
            return
        shown = self.api.get_table(self.table)
        expected = replay(self.players, self.options, self.first_dealer, self.sheet)
        balances = [seat["balance"] for seat in shown["seats"]]
        assert balances == expected["balances"]
        assert shown["pool"] == expected["pool"]
        assert shown["couleur"] == expected["couleur"]
        assert shown["dealer"] == expected["dealer"]
        assert shown["stake_due"] == expected["stake_due"]
        assert shown["hands_played"] == expected["hands_played"]
        assert sum(balances) + shown["pool"] == 0


@pytest.mark.slow
def test_the_service_always_agrees_with_a_replay_from_scratch(client):
    TableMachine.api = ApiClient(client)
    run_state_machine_as_test(
        TableMachine,
        settings=settings(
            max_examples=40,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
