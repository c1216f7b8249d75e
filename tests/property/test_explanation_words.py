"""Properties of the explanation lines and of German Solo's preferred suit over an evening.

- Every variant's explanation names each seat on its own, numbered from 1 as the players number
  them (never "seat 0", never "Seats 0, 2 and 3"), and spells bête so.
- With ``preferred_suit: first_won`` the preferred suit is set by the first hand a declaring
  party wins, to its trump, and never changes after; a fixed one never changes at all.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.i18n import explain
from service.rules import VARIANTS, preview
from service.rules.base import Settlement
from tests.strategies import american_cases
from tests.strategies_variants import german_hands, tables

SEAT = re.compile(r"\b[Ss]eats? (\d+)")


def check_words(settlement: Settlement, players: int) -> None:
    for line in explain(settlement.explanation):
        assert "seats" not in line.lower(), line
        for number in SEAT.findall(line):
            assert 1 <= int(number) <= players, line
        assert not re.search(r"\bbetes?\b", line, re.IGNORECASE), line


@given(case=american_cases())
def test_american_explanations_number_seats_from_one(
    case: tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]],
) -> None:
    players, options, state, hand = case
    check_words(preview("american", players, options, state, hand), players)


@pytest.mark.parametrize("name", ["spanish", "german", "solo66"])
@given(data=st.data())
def test_every_variants_explanations_number_seats_from_one(name: str, data: st.DataObject) -> None:
    options, state, hand = data.draw(tables(name))
    players = VARIANTS[name].player_counts[0]
    check_words(preview(name, players, options, state, hand), players)


@given(
    data=st.data(),
    preferred=st.sampled_from(["first_won", "hearts", None]),
    count=st.integers(min_value=1, max_value=12),
)
def test_the_preferred_suit_is_set_once_by_the_first_game_won(
    data: st.DataObject, preferred: str | None, count: int
) -> None:
    options = {
        "preferred_suit": preferred,
        "mediateur": data.draw(st.booleans()),
        "deck": data.draw(st.sampled_from((32, 24))),
    }
    state: dict[str, Any] = {}
    first_won: str | None = None
    for _ in range(count):
        hand = data.draw(german_hands(options))
        settlement = preview("german", 4, options, state, hand)
        in_force = first_won if preferred == "first_won" else preferred
        assert settlement.in_couleur is (hand["trump"] == in_force)
        if preferred == "first_won" and first_won is None and settlement.result == "won":
            first_won = hand["trump"]
        state = settlement.state_after.to_dict()
        assert state["couleur"] == (first_won if preferred == "first_won" else preferred)
