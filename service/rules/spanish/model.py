"""Spanish Solo's contracts and values, and its option and hand records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..common import (
    TRICKS,
    CalledCard,
    DealerState,
    HandError,
)

TITLE: Final = "Spanish Solo"
PLAYERS: Final = 4
CONTRACTS: Final = ("simple", "solo", "tout")
VALUES: Final[Mapping[str, int]] = {"simple": 2, "solo": 4, "tout": 16}
"""Points of each contract in suit; in the colour they are doubled."""
TARGETS: Final[Mapping[str, int]] = {"simple": 5, "solo": 5, "tout": TRICKS}
CALLED_RANKS: Final = ("ace",)
DEFAULT_COULEUR: Final = "clubs"
MAX_TARGET_HANDS: Final = 10_000
MAX_TARGET_SCORE: Final = 1_000_000
OPTION_NAMES: Final = ("couleur", "target_hands", "target_score")
CONTRACT_TITLES: Final[Mapping[str, str]] = {
    "simple": "Simple game",
    "solo": "Solo",
    "tout": "Tout",
}
CONTRACT_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "simple": "declarer names trump and calls an ace; its holder is the partner; together they "
    "need 5 tricks",
    "solo": "declarer names trump and plays alone for 5 tricks",
    "tout": "declarer names trump and plays alone for all 8 tricks",
}
HAND_FIELDS: Final = (
    "kind",
    "contract",
    "trump",
    "declarer",
    "called",
    "partner",
    "tricks",
    "forced",
    "errors",
)

SpanishState = DealerState


@dataclass(frozen=True, slots=True)
class SpanishOptions:
    """``couleur`` (fixed for the session) and the optional session targets."""

    couleur: str = DEFAULT_COULEUR
    target_hands: int | None = None
    target_score: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "couleur": self.couleur,
            "target_hands": self.target_hands,
            "target_score": self.target_score,
        }


@dataclass(frozen=True, slots=True)
class SpanishHand:
    """A checked Spanish Solo hand record."""

    contract: str
    trump: str
    declarer: int
    called: CalledCard | None
    partner: int | None
    tricks: int
    forced: bool
    errors: tuple[HandError, ...]

    @property
    def side(self) -> tuple[int, ...]:
        """The declaring side: the declarer, and the partner in a simple (unless the declarer
        called an ace he holds himself: he then plays alone)."""
        if self.partner is None or self.partner == self.declarer:
            return (self.declarer,)
        return (self.declarer, self.partner)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "contract": self.contract,
            "trump": self.trump,
            "declarer": self.declarer,
            "called": None if self.called is None else self.called.to_dict(),
            "partner": self.partner,
            "tricks": self.tricks,
            "forced": self.forced,
            "errors": [e.to_dict() for e in self.errors],
        }
