"""What one hand adds to the league's counters, and how rows are ranked (no app)."""

from __future__ import annotations

from service.rules import VARIANTS, preview
from service.services.league import competition_ranks, standings_csv
from service.services.league.standings import _rank_rows
from service.services.league.tally import HAND_COUNTERS
from service.services.league.tally import tally_hand as tally_league_hand


def tally_hand(
    record: dict, settlement: dict | None, players: int, variant: str = "american"
) -> list:
    """What the league counts of a stored record, as its variant reads it."""
    result = None if settlement is None else settlement["result"]
    league = VARIANTS[variant].league_hand(record, players, None, result)
    return tally_league_hand(league, settlement, players)


def counters(tally) -> dict[str, int]:
    return dict(zip(HAND_COUNTERS, tally.counters, strict=True))


def settled(
    variant: str, players: int, hand: dict, state: dict | None = None, options: dict | None = None
) -> dict:
    return preview(variant, players, options, state, hand).to_dict()


def test_the_hand_counters_are_the_aggregate_columns_but_sittings():
    from service.persistence.league import COUNTERS

    assert ("sittings", *HAND_COUNTERS) == COUNTERS


def test_a_won_solo_in_couleur_counts_for_its_declarer_with_the_stamm():
    hand = {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 6}
    settlement = settled("american", 4, hand, {"pool": 20, "couleur": "clubs"})
    tallies = [counters(t) for t in tally_hand(hand, settlement, 4)]
    assert [t["net"] for t in tallies] == settlement["deltas"]
    assert [t["hands"] for t in tallies] == [1, 1, 1, 1]
    assert tallies[1] | {"net": 0} == {
        "hands": 1,
        "net": 0,
        "declared": 1,
        "won": 1,
        "lost": 0,
        "solos_won": 1,
        "touts_won": 0,
        "betes_paid": 0,
        "stamms_drawn": 1,
        "errors": 0,
    }
    assert sum(t["declared"] for t in tallies) == 1
    assert tally_hand(hand, settlement, 4)[1].contract == "solo"


def test_an_error_in_a_partner_game_costs_its_offender_a_bete():
    hand = {
        "contract": "simple",
        "trump": "spades",
        "declarer": 0,
        "partner": 2,
        "called": {"rank": "ace", "suit": "hearts"},
        "tricks": 6,
        "errors": [{"kind": "lead_out_of_turn", "seat": 2}],
    }
    settlement = settled("american", 4, hand, {"pool": 20})
    tallies = tally_hand(hand, settlement, 4)
    assert [counters(t)["errors"] for t in tallies] == [0, 0, 1, 0]
    assert [counters(t)["betes_paid"] for t in tallies] == [0, 0, 1, 0]
    assert counters(tallies[0])["lost"] == 1 and tallies[0].outcome == "lost"
    assert tallies[2].contract is None  # the partner declared nothing


def test_forfeits_and_misdeals_are_hands_without_a_declarer():
    forfeit = {"kind": "forfeit", "seat": 3}
    tallies = tally_hand(forfeit, settled("american", 4, forfeit, {"pool": 20}), 4)
    assert [counters(t)["errors"] for t in tallies] == [0, 0, 0, 1]
    assert {counters(t)["declared"] for t in tallies} == {0}
    assert {counters(t)["hands"] for t in tallies} == {1}
    misdeal = {"kind": "misdeal"}
    assert {
        counters(t)["declared"] for t in tally_hand(misdeal, settled("american", 4, misdeal), 4)
    } == {0}


def test_a_void_hand_counts_nothing():
    hand = {"contract": "solo", "trump": "clubs", "declarer": 1, "tricks": 6}
    assert {t.counters for t in tally_hand(hand, None, 4)} == {(0,) * len(HAND_COUNTERS)}


def test_touts_are_the_contract_or_a_game_that_went_on():
    tout = {"contract": "tout", "trump": "hearts", "declarer": 2, "tricks": 8}
    assert counters(tally_hand(tout, settled("american", 4, tout), 4)[2])["touts_won"] == 1
    german = {
        "contract": "solo",
        "trump": "clubs",
        "declarer": 0,
        "tricks": 8,
        "tout_announced": True,
    }
    seat = counters(tally_hand(german, settled("german", 4, german), 4, "german")[0])
    assert (seat["won"], seat["solos_won"], seat["touts_won"]) == (1, 1, 1)


def test_a_solo66_soloist_declares_a_solo_and_a_game_without_trump_has_no_declarer():
    game = {"soloist": 4, "trump": "spades", "soloist_points": 80}
    tallies = tally_hand(game, settled("solo66", 5, game), 5, "solo66")
    assert tallies[4].contract == "solo" and counters(tallies[4])["solos_won"] == 1
    no_trump = {"trump": None, "last_trick": 1}
    assert {
        counters(t)["declared"]
        for t in tally_hand(no_trump, settled("solo66", 5, no_trump), 5, "solo66")
    } == {0}


def test_competition_ranks_share_a_rank_and_skip_the_next():
    assert competition_ranks([10, 7, 7, 3]) == [1, 2, 2, 4]
    assert competition_ranks([0, 0, 0]) == [1, 1, 1]
    assert competition_ranks([-5, 5]) == [2, 1]


def _row(player: str, net: int, won: int, lost: int) -> dict:
    return {
        "player_id": player,
        "name": player,
        "sittings": 1,
        "hands": 10,
        "net": net,
        "net_per_100_hands": net * 10.0,
        "declared": won + lost,
        "won": won,
        "lost": lost,
        "solos_won": 0,
        "touts_won": 0,
        "betes_paid": 0,
        "stamms_drawn": 0,
        "errors": 0,
        "rating": None,
    }


def test_ties_on_net_go_to_more_wins_then_fewer_losses():
    rows = _rank_rows(
        [
            _row("d", 5, 1, 1),
            _row("a", 5, 2, 0),
            _row("c", 5, 1, 0),
            _row("b", 9, 0, 0),
            _row("e", 5, 1, 1),
        ]
    )
    assert [(r["player_id"], r["rank"]) for r in rows] == [
        ("b", 1),
        ("a", 2),
        ("c", 3),
        ("d", 4),
        ("e", 4),
    ]


def test_csv_writes_null_as_an_empty_field_and_quotes_what_needs_it():
    row = {**_row('x, "y"', 1, 0, 0), "rank": 1}
    text = standings_csv([row])
    assert text.endswith('"x, ""y""",1,10,1,10,0,0,0,0,0,0,0,0,\r\n')
