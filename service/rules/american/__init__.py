"""American Solo (variant ``american``), as ``shared/rules/american-solo.md`` settles it.

``model``: the contracts, values, options, state and hand records; ``parse``: reading and
checking them from JSON-like values; ``settle``: settling a hand; ``variant``: the variant object
``AMERICAN`` wiring them, and its description for ``GET /api/v1/variants``.
"""

from .model import (
    AmericanHand,
    AmericanOptions,
    AmericanState,
    ForfeitHand,
    MisdealHand,
    PlayedHand,
)
from .variant import AMERICAN, AmericanVariant

__all__ = [
    "AMERICAN",
    "AmericanHand",
    "AmericanOptions",
    "AmericanState",
    "AmericanVariant",
    "ForfeitHand",
    "MisdealHand",
    "PlayedHand",
]
