"""``services.table_rules.TableRules``: a table's variant, player count and options, parsed once per
process and handed out again for every request of a table with the same ones."""

from __future__ import annotations

from types import SimpleNamespace

from service.services.table_rules import TableRules


def table(options: dict, variant: str = "american", players: int = 4) -> SimpleNamespace:
    return SimpleNamespace(variant=variant, players=players, options=options)


def test_the_same_options_are_parsed_once_and_the_same_rules_handed_out() -> None:
    first = TableRules.of(table({"stake": 3, "couleur": "hearts"}))
    # Another row's dict, its keys in another order: the same table rules, not parsed again.
    assert TableRules.of(table({"couleur": "hearts", "stake": 3})) is first
    assert first.options == first.variant.parse_options({"stake": 3, "couleur": "hearts"})


def test_other_options_players_or_games_are_rules_of_their_own() -> None:
    first = TableRules.of(table({"stake": 3}))
    assert TableRules.of(table({"stake": 4})) is not first
    assert TableRules.of(table({"stake": 3}, players=5)).players == 5
    assert TableRules.of(table({}, variant="german")).variant.name == "german"
    # The table's own options (not the variant's) ride along without changing the rules read.
    with_pool = TableRules.of(table({"stake": 3, "pool_at_close": "carry"}))
    assert with_pool.options == first.options and with_pool.has_pool


def test_true_and_one_are_not_one_option() -> None:
    """As cache keys True == 1: each value is keyed with its type, so a flag never takes a
    number's parsed rules (or the other way round)."""
    flag = TableRules.of(table({"starting_pool": True}))
    number = TableRules.of(table({"starting_pool": 1}))
    assert flag is not number
    assert TableRules.of(table({"starting_pool": 1})) is number
