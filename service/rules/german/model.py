"""German Solo's contracts, values and bonuses, and its option and hand records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..common import CalledCard, HandError

PLAYERS: Final = 4
CONTRACTS: Final = ("frage", "grossfrage", "mediateur", "solo", "force")
BASE: Final[Mapping[str, int]] = {
    "force": 1,
    "frage": 2,
    "grossfrage": 3,
    "mediateur": 4,
    "solo": 6,
}
"""**Decision** of the rulebook: the mediateur, which ranks between Grossfrage and Solo, is 4."""
PARTNER_CONTRACTS: Final = ("frage", "grossfrage", "force")
CALLED_RANKS: Final[Mapping[str, tuple[str, ...]]] = {
    "frage": ("ace", "king"),
    "grossfrage": ("ace",),
    "force": ("ace",),
    "mediateur": ("ace",),
}
"""The ranks each contract may call (a mediateur's is the Ace it demands, for the record)."""
OPTION_CONTRACTS: Final[Mapping[str, str]] = {"mediateur": "mediateur"}
"""Contracts a table plays only with the option of that name."""
PRIME: Final = 2
TOUT_CONTINUED: Final = 4
TOUT_ANNOUNCED: Final = 6
MATADORS: Final = 2
PREFERRED_MULTIPLIER: Final = 2
FIRST_WON: Final = "first_won"
"""``preferred_suit: first_won``: the trump of the first contract won becomes the preferred suit."""
DECKS: Final[Mapping[int, tuple[int, int]]] = {32: (8, 5), 24: (6, 4)}
"""Cards in the pack -> (tricks in a hand, the target). **Decision** of the rulebook: the 24-card
Münsterland Sollo deals 6 cards each, so 6 tricks, target 4, tout all 6."""
DEFAULT_DECK: Final = 32
TARGET: Final = DECKS[DEFAULT_DECK][1]
TOUT_FLAGS: Final = ("stopped_after_five", "continued_after_five", "tout_announced")
ASKED_PARTNER_CONTRACTS: Final = ("frage", "grossfrage")
"""The contracts whose declarer may ask "partner?" (*Helfer?*) when the called card has not
been played by the fifth trick; after the question a slam is not permitted (the seed)."""
OPTION_NAMES: Final = ("preferred_suit", "mediateur", "deck")
HAND_FIELDS: Final = (
    "kind",
    "contract",
    "trump",
    "declarer",
    "called",
    "partner",
    "giver",
    "tricks",
    *TOUT_FLAGS,
    "asked_partner",
    "matadors_together",
    "errors",
)
TITLE: Final = "German Solo"
TITLES: Final[Mapping[str, str]] = {
    "frage": "Frage",
    "grossfrage": "Grossfrage",
    "mediateur": "Mediateur",
    "solo": "Solo",
    "force": "Force (Mussfrage)",
}
CONTRACT_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "frage": "declarer names trump and calls a plain-suit ace (a king when holding all four "
    "aces); its holder is the hidden partner",
    "grossfrage": "holder of Spadille and Manille calls a plain-suit ace; its holder names trump "
    "(not the called suit)",
    "mediateur": "declarer names trump, demands the ace of a plain suit from the opponent "
    "holding it, gives back another card and plays alone (only with the option "
    "mediateur)",
    "solo": "declarer names trump and plays alone",
    "force": "Mussfrage: all passed; the holder of Spadille calls an ace, its holder names trump "
    "(not the called suit)",
}


@dataclass(frozen=True, slots=True)
class GermanOptions:
    """``preferred_suit``: games with that suit as trump score double (None: no such suit;
    ``first_won``: the trump of the first contract won); ``mediateur``: the contract is played;
    ``deck``: 32 cards, or the Münsterland 24."""

    preferred_suit: str | None = None
    mediateur: bool = False
    deck: int = DEFAULT_DECK

    @property
    def tricks(self) -> int:
        """Tricks in a hand: 8 with 32 cards, 6 with 24."""
        return DECKS[self.deck][0]

    @property
    def target(self) -> int:
        """Tricks a declaring party needs unless it plays for all: 5, or 4 with 24 cards."""
        return DECKS[self.deck][1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "preferred_suit": self.preferred_suit,
            "mediateur": self.mediateur,
            "deck": self.deck,
        }


@dataclass(frozen=True, slots=True)
class GermanState:
    """Who deals next, and ``couleur``: the preferred suit in force for the next hand (the
    option's suit; with ``first_won``, null until a declaring party first wins)."""

    dealer: int
    couleur: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer, "couleur": self.couleur}


@dataclass(frozen=True, slots=True)
class GermanHand:
    """A checked German Solo hand record. ``giver`` (a mediateur's opponent who gave the
    demanded Ace) and a mediateur's ``called`` are kept for the record only."""

    contract: str
    trump: str
    declarer: int
    called: CalledCard | None
    partner: int | None
    giver: int | None
    tricks: int
    stopped_after_five: bool
    continued_after_five: bool
    tout_announced: bool
    matadors_together: bool
    errors: tuple[HandError, ...]
    asked_partner: bool = False

    @property
    def side(self) -> tuple[int, ...]:
        """The declaring party: the declarer, and the partner in a partner game."""
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

    @property
    def plays_for_all(self) -> bool:
        """Went on after the first five (four) tricks, or announced tout: all tricks needed."""
        return self.continued_after_five or self.tout_announced

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "contract": self.contract,
            "trump": self.trump,
            "declarer": self.declarer,
            "called": None if self.called is None else self.called.to_dict(),
            "partner": self.partner,
            "giver": self.giver,
            "tricks": self.tricks,
            "stopped_after_five": self.stopped_after_five,
            "continued_after_five": self.continued_after_five,
            "tout_announced": self.tout_announced,
            "asked_partner": self.asked_partner,
            "matadors_together": self.matadors_together,
            "errors": [e.to_dict() for e in self.errors],
        }
