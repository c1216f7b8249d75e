"""The settlement rules of the Solo family. Pure: no Flask, SQLAlchemy or marshmallow.

``VARIANTS`` maps each variant's name to its implementation; ``get_variant`` looks one up and
``preview`` settles one hand from plain JSON-like values, as the preview endpoint does.

Each variant is a package of the same shape (``american``, ``spanish``, ``german``, ``solo66``):
``model`` (contracts, values, options, state and hand records), ``parse`` (reading and checking
them from JSON-like values), ``settle`` (settling one hand, with its explanation) and ``variant``
(the ``Variant`` object wiring them, and its description for ``GET /api/v1/variants``); its
``__init__`` exports what the rest of the code imports. Beside them: ``base`` (the ``Variant``
contract, ``Settlement``, ``RuleViolation``), ``common`` (helpers of the dealer-rotation
variants) and ``settle_up`` (clearing a sitting's balances).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .american import AMERICAN
from .base import (
    LEAGUE_STATISTICS,
    POOL,
    Phrase,
    Reason,
    RuleViolation,
    SessionOutcome,
    Settlement,
    Step,
    Transfer,
    Variant,
)
from .german import GERMAN
from .solo66 import SOLO66
from .spanish import SPANISH

VARIANTS: dict[str, Variant] = {v.name: v for v in (AMERICAN, SPANISH, GERMAN, SOLO66)}

__all__ = [
    "LEAGUE_STATISTICS",
    "POOL",
    "Phrase",
    "Reason",
    "RuleViolation",
    "SessionOutcome",
    "Settlement",
    "Step",
    "Transfer",
    "Variant",
    "VARIANTS",
    "get_variant",
    "preview",
]


def get_variant(name: object) -> Variant:
    """The variant called ``name``, or a RuleViolation on field ``variant``."""
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        known = ", ".join(sorted(VARIANTS))
        raise RuleViolation(
            "variant", "unknown variant %(name)s; known: %(known)s", name=repr(name), known=known
        )
    return variant


def preview(
    variant_name: object,
    players: object,
    options: Mapping[str, Any] | None,
    state: Mapping[str, Any] | None,
    hand: object,
) -> Settlement:
    """Settle one hand record at a given table state, storing nothing."""
    variant = get_variant(variant_name)
    n = variant.check_players(players)
    opts = variant.parse_options(options)
    st = variant.parse_state(state, n, opts)
    return variant.settle(n, opts, st, variant.parse_hand(hand, n, opts))
