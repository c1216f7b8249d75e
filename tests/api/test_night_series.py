"""A club night's series as its tables and its standings see them: a series' length that the
tables keep (a hand beyond it refused, unless the director lengthens it), a table's view of its
night, and a series not yet played that nobody has won."""

from __future__ import annotations

import pytest

from tests.api.test_league import LOST_SOLO, SOLO
from tests.api.test_nights import Night


@pytest.fixture
def club(api, client) -> Night:
    return Night(api, client)


def test_a_table_with_no_hand_yet_wins_no_series_for_anyone(club: Night) -> None:
    night = club.started(players=club.players[:8], series=2, hands_per_series=1)
    first = club.drawn(night, seed=5)
    one, two = first["tables"]
    club.record(one["table_id"], SOLO)
    club.record(two["table_id"], LOST_SOLO)
    club.drawn(night, seed=6)  # series 2 drawn, nobody has played in it yet
    body = club.standings(night).json
    for line in body["standings"]:
        second = line["series"][1]
        assert second is not None and second["hands"] == 0
        assert second["place"] is None
        first_place = line["series"][0]["place"]
        assert line["series_won"] == (1 if first_place == 1 else 0)
        # The best series is one that was played: not the 0 of a table without hands.
        assert line["best"] == line["series"][0]["result"]
