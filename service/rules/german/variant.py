"""German Solo's variant object: the wiring of its parsing and settlement, and its description
for clients that build forms (``GET /api/v1/variants``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ..base import SUITS, Settlement
from ..common import (
    MAX_ERRORS,
    TRICKS,
    DealerRotationVariant,
    DealerState,
    check_dealer_fits,
    seat_field,
)
from . import parse, settle
from .model import (
    BASE,
    CALLED_RANKS,
    CONTRACT_DESCRIPTIONS,
    CONTRACTS,
    MATADORS,
    PARTNER_CONTRACTS,
    PLAYERS,
    PREFERRED_MULTIPLIER,
    PRIME,
    TARGET,
    TITLE,
    TITLES,
    TOUT_ANNOUNCED,
    TOUT_CONTINUED,
    GermanHand,
    GermanOptions,
)


class GermanSolo(DealerRotationVariant):
    """German Solo: base value plus bonuses to each of the declaring party, won or lost."""

    name = "german"
    title = TITLE
    units: Literal["chips", "points"] = "points"
    player_counts = (PLAYERS,)
    options_type = GermanOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> GermanOptions:
        """``preferred_suit``: a suit or null (the default)."""
        return parse.parse_options(raw)

    def parse_hand(self, raw: object, players: int, options: Any) -> GermanHand:
        """A complete, rule-checked hand record (see the package docstring for every check)."""
        return parse.parse_hand(raw, self.check_players(players))

    def _hand(self, hand: object, players: int, options: GermanOptions) -> GermanHand:
        return hand if isinstance(hand, GermanHand) else self.parse_hand(hand, players, options)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Score one hand: ``±value`` to each of the declaring party, 0 to the others."""
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else self.parse_state(state, n, opts)
        check_dealer_fits(st, n)
        return settle.settle(n, opts, st, self._hand(hand, n, opts))

    def describe(self) -> dict[str, Any]:
        """Contracts, values, bonuses, hand fields, error kinds and options, for clients that
        build forms."""
        return {
            "name": self.name,
            "title": self.title,
            "units": self.units,
            "players": list(self.player_counts),
            "suits": list(SUITS),
            "tricks": TRICKS,
            "contracts": [
                {"name": contract, "title": TITLES[contract], "base": BASE[contract],
                 "target": TARGET,
                 "calls_partner": "required" if contract in PARTNER_CONTRACTS else "none",
                 "called_ranks": list(CALLED_RANKS.get(contract, ())),
                 "description": CONTRACT_DESCRIPTIONS[contract]}
                for contract in CONTRACTS
            ],
            "bonuses": [
                {"field": "stopped_after_five", "points": PRIME,
                 "description": "prime: won the first five tricks and stopped"},
                {"field": "continued_after_five", "points": TOUT_CONTINUED, "target": TRICKS,
                 "description": "tout: went on after the first five, made or not"},
                {"field": "tout_announced", "points": TOUT_ANNOUNCED, "target": TRICKS,
                 "description": "tout announced with the declaration"},
                {"field": "matadors_together", "points": MATADORS,
                 "description": "Spadille, Manille and Baste were dealt to one party"},
            ],
            "preferred_suit_multiplier": PREFERRED_MULTIPLIER,
            "scoring": "each of the declaring party scores +value if the target is made, "
                       "-value if not; the others score 0",
            "hand_fields": [
                {"name": "kind", "type": "string", "required": False, "default": "played",
                 "allowed": ["played"], "description": "only played hands are recorded"},
                {"name": "contract", "type": "string", "required": True,
                 "allowed": list(CONTRACTS), "description": "the game declared"},
                {"name": "trump", "type": "string", "required": True, "allowed": list(SUITS),
                 "description": "the trump suit"},
                seat_field("declarer", PLAYERS, "the seat that declared (in a force, the "
                           "holder of Spadille)"),
                {"name": "called", "type": "object", "required": False, "nullable": True,
                 "fields": {"rank": ["ace", "king"], "suit": list(SUITS)},
                 "description": "the card called in a frage, grossfrage or force (not of "
                                "trumps; a king only in a frage)"},
                seat_field("partner", PLAYERS, "holder of the called card", required=False,
                           nullable=True),
                {"name": "tricks", "type": "integer", "min": 0, "max": TRICKS, "required": True,
                 "description": "tricks taken by the declaring party"},
                {"name": "stopped_after_five", "type": "boolean", "required": False,
                 "default": False, "description": "won the first five tricks and stopped"},
                {"name": "continued_after_five", "type": "boolean", "required": False,
                 "default": False, "description": "won the first five and went on for all 8"},
                {"name": "tout_announced", "type": "boolean", "required": False,
                 "default": False, "description": "tout announced with the declaration"},
                {"name": "matadors_together", "type": "boolean", "required": False,
                 "default": False,
                 "description": "Spadille, Manille and Baste were dealt to one party"},
                {"name": "errors", "type": "array", "required": False, "default": [],
                 "max_items": MAX_ERRORS,
                 "description": "errors as {kind, seat}; kind is one of error_kinds"},
            ],
            "error_kinds": [{"name": "revoke",
                             "description": "the offender's side loses the game"}],
            "options": [
                {"name": "preferred_suit", "type": "string", "default": None, "nullable": True,
                 "allowed": list(SUITS),
                 "description": "games with this suit as trump score double (null: none)"},
            ],
        }


GERMAN: Final = GermanSolo()
