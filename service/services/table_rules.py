"""A table's rules: its variant, player count and parsed options (``TableRules``), the value
every use case that settles, checks or tallies a table's hands starts from.

Its own module, below ``tables`` (which opens, shows and closes tables) and the league (which
tallies their hands): both need a table's rules, and the league is what ``tables`` calls when a
sitting closes, so with the rules inside ``tables`` the two imported each other."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import rules
from ..json_text import canonical_text
from ..persistence.table_keeping import TableRow
from ..rules import Variant
from .locking import TableState


@dataclass(frozen=True, slots=True)
class TableRules:
    """A table's variant with its options and player count, parsed once per request."""

    variant: Variant
    players: int
    options: Any
    has_pool: bool

    @classmethod
    def of(cls, table: TableRow | TableState) -> TableRules:
        return _table_rules(table.variant, table.players, _options_key(table.options))

    def state(self, raw: Mapping[str, Any]) -> Any:
        return self.variant.parse_state(raw, self.players, self.options)


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, Any, type], ...] | str:
    """A table's stored options as a cache key: their items, sorted (options are flat JSON
    scalars, and this costs a tenth of ``json.dumps``), or their canonical JSON should one
    ever hold a list or an object."""
    # Each value with its type: as keys, True and 1 are equal, but they are not one option.
    key = tuple(sorted((name, value, type(value)) for name, value in options.items()))
    try:
        hash(key)
    except TypeError:
        return canonical_text(options)
    return key


@lru_cache(maxsize=1024)
def _table_rules(
    variant_name: str, players: int, options_key: tuple[tuple[str, Any, type], ...] | str
) -> TableRules:
    """Stored options parse to the same immutable value every time: parse them once per
    process (a table's options never change)."""
    variant = rules.get_variant(variant_name)
    raw = (
        json.loads(options_key)
        if isinstance(options_key, str)
        else {name: value for name, value, _ in options_key}
    )
    options = variant.parse_options(variant_options(raw))
    state = variant.initial_state(players, options, 0).to_dict()
    return TableRules(variant, players, options, "pool" in state)


def variant_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options the variant knows, without the table's own (``pool_at_close`` …)."""
    return {k: v for k, v in options.items() if k not in ("pool_at_close", "starting_pool")}
