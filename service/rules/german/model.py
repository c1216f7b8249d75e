"""German Solo's contracts, values and bonuses, and its option and hand records."""

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

PLAYERS: Final = 4
CONTRACTS: Final = ("frage", "grossfrage", "solo", "force")
BASE: Final[Mapping[str, int]] = {"force": 1, "frage": 2, "grossfrage": 3, "solo": 6}
PARTNER_CONTRACTS: Final = ("frage", "grossfrage", "force")
CALLED_RANKS: Final[Mapping[str, tuple[str, ...]]] = {
    "frage": ("ace", "king"), "grossfrage": ("ace",), "force": ("ace",)}
PRIME: Final = 2
TOUT_CONTINUED: Final = 4
TOUT_ANNOUNCED: Final = 6
MATADORS: Final = 2
PREFERRED_MULTIPLIER: Final = 2
TARGET: Final = 5
TOUT_FLAGS: Final = ("stopped_after_five", "continued_after_five", "tout_announced")
OPTION_NAMES: Final = ("preferred_suit",)
HAND_FIELDS: Final = ("kind", "contract", "trump", "declarer", "called", "partner", "tricks",
                      *TOUT_FLAGS, "matadors_together", "errors")
TITLE: Final = "German Solo"
TITLES: Final[Mapping[str, str]] = {"frage": "Frage", "grossfrage": "Grossfrage",
                                    "solo": "Solo", "force": "Force (Mussfrage)"}
CONTRACT_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "frage": "declarer names trump and calls a plain-suit ace (a king when holding all four "
             "aces); its holder is the hidden partner",
    "grossfrage": "holder of Spadille and Manille calls a plain-suit ace; its holder names trump "
                  "(not the called suit)",
    "solo": "declarer names trump and plays alone",
    "force": "Mussfrage: all passed; the holder of Spadille calls an ace, its holder names trump "
             "(not the called suit)",
}

GermanState = DealerState


@dataclass(frozen=True, slots=True)
class GermanOptions:
    """``preferred_suit``: games with that suit as trump score double (None: no such suit)."""

    preferred_suit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"preferred_suit": self.preferred_suit}


@dataclass(frozen=True, slots=True)
class GermanHand:
    """A checked German Solo hand record."""

    contract: str
    trump: str
    declarer: int
    called: CalledCard | None
    partner: int | None
    tricks: int
    stopped_after_five: bool
    continued_after_five: bool
    tout_announced: bool
    matadors_together: bool
    errors: tuple[HandError, ...]

    @property
    def side(self) -> tuple[int, ...]:
        """The declaring party: the declarer, and the partner in a partner game."""
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

    @property
    def target(self) -> int:
        """Tricks needed: all 8 after going on past five or announcing tout, else 5."""
        return TRICKS if self.continued_after_five or self.tout_announced else TARGET

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "contract": self.contract,
            "trump": self.trump,
            "declarer": self.declarer,
            "called": None if self.called is None else self.called.to_dict(),
            "partner": self.partner,
            "tricks": self.tricks,
            "stopped_after_five": self.stopped_after_five,
            "continued_after_five": self.continued_after_five,
            "tout_announced": self.tout_announced,
            "matadors_together": self.matadors_together,
            "errors": [e.to_dict() for e in self.errors],
        }


