"""German Solo's variant object: the wiring of its parsing and settlement, and its description
for clients that build forms (``GET /api/v1/variants``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ..base import SUITS, LeagueHand, Result, Settlement, league_statistics
from ..common import (
    CONTRACT_FORM,
    DEALER_STATE_FIELD,
    DECLARER_FORM,
    ERRORS_FORM,
    KIND_FORM,
    SUIT_TITLES,
    TRICKS,
    TRICKS_FORM,
    TRUMP_FORM,
    DealerRotationVariant,
    called_form,
    check_dealer_fits,
    choices,
    doubled_suit,
    errors_field,
    partner_form,
    partner_game_league_hand,
    played_kind_field,
    seat_field,
    with_forms,
)
from . import parse, settle
from .model import (
    ASKED_PARTNER_CONTRACTS,
    BASE,
    CALLED_RANKS,
    CONTRACT_DESCRIPTIONS,
    CONTRACTS,
    DECKS,
    DEFAULT_DECK,
    FIRST_WON,
    MATADORS,
    OPTION_CONTRACTS,
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
    GermanState,
)

_EVERY_TRICK: Final = [
    {"tricks": [tricks], "option": {"deck": [cards]}, "unset": ["tout_announced"]}
    for cards, (tricks, _) in DECKS.items()
]
"""Every trick taken, no tout announced: the party went on after five (the rules require it)."""

_FORMS: Final[dict[str, Mapping[str, Any]]] = {
    "kind": KIND_FORM,
    "contract": CONTRACT_FORM,
    "trump": TRUMP_FORM,
    "declarer": DECLARER_FORM,
    "called": called_form(
        shown_when=[{"contract": [*PARTNER_CONTRACTS, "mediateur"]}],
        required_when=[{"contract": list(PARTNER_CONTRACTS)}],
    ),
    "partner": partner_form(
        shown_when=[{"contract": list(PARTNER_CONTRACTS)}],
        required_when=[{"contract": list(PARTNER_CONTRACTS)}],
    ),
    "giver": {
        "title": "Giver of the ace",
        "none_title": "Nobody",
        "shown_when": [{"contract": ["mediateur"]}],
        "gives": "called",
    },
    "tricks": TRICKS_FORM,
    "stopped_after_five": {"title": "Stopped after five"},
    "continued_after_five": {"title": "Went on after five", "required_when": _EVERY_TRICK},
    "tout_announced": {"title": "Tout announced"},
    "asked_partner": {
        "title": "Asked for the partner",
        "shown_when": [{"contract": list(ASKED_PARTNER_CONTRACTS)}],
    },
    "matadors_together": {"title": "Matadors together"},
    "errors": ERRORS_FORM,
}
"""What the pad's form needs of each hand field (``common.with_forms``)."""

TOUT_FLAGS_OF_LEAGUE: Final = ("continued_after_five", "tout_announced")
"""The flags of a party that played for all the tricks (the prime stopped after five)."""


class GermanSolo(DealerRotationVariant):
    """German Solo: base value plus bonuses to each of the declaring party, won or lost."""

    name = "german"
    title = TITLE
    units: Literal["chips", "points"] = "points"
    player_counts = (PLAYERS,)
    options_type = GermanOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> GermanOptions:
        return parse.parse_options(raw)

    def initial_state(self, players: int, options: Any, first_dealer: int = 0) -> GermanState:
        return parse.initial_state(
            self.check_players(players), self._options(options), first_dealer
        )

    def parse_state(self, raw: Mapping[str, Any] | None, players: int, options: Any) -> GermanState:
        """``{"dealer": seat, "couleur": the preferred suit in force}``; missing keys take a
        fresh table's values."""
        return parse.parse_state(raw, self.check_players(players), self._options(options))

    def parse_hand(self, raw: object, players: int, options: Any) -> GermanHand:
        """A complete, rule-checked hand record (see the package docstring for every check)."""
        return parse.parse_hand(raw, self.check_players(players), self._options(options))

    def read_stored_hand(self, record: object, players: int, options: Any) -> GermanHand:
        """A stored record: all the tricks stored with no flag went on after the first five,
        and a stop stored with more tricks than the target is settled as recorded
        (``parse.parse_hand``'s ``stored``)."""
        return parse.parse_hand(
            record, self.check_players(players), self._options(options), stored=True
        )

    def _hand(self, hand: object, players: int, options: GermanOptions) -> GermanHand:
        return hand if isinstance(hand, GermanHand) else self.parse_hand(hand, players, options)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Score one hand: ``±value`` to each of the declaring party, 0 to the others."""
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, GermanState) else self.parse_state(state, n, opts)
        check_dealer_fits(st, n)
        return settle.settle(n, opts, st, self._hand(hand, n, opts))

    def trick_figures(self, options: Any) -> Mapping[str, int]:
        """The figures of the table's deck: 8, 5 and 8 with 32 cards; 6, 4 and 6 with 24."""
        opts = self._options(options)
        return {"per_hand": opts.tricks, "target": opts.target, "tout": opts.tricks}

    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        """The declarer and the partner, the contract; a tout is a party that went on after
        the first five tricks or announced it."""
        return partner_game_league_hand(record, players, result, TOUT_FLAGS_OF_LEAGUE)

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
                {
                    "name": contract,
                    "title": TITLES[contract],
                    "base": BASE[contract],
                    "target": TARGET,
                    "target_by_deck": {str(cards): target for cards, (_, target) in DECKS.items()},
                    "calls_partner": "required" if contract in PARTNER_CONTRACTS else "none",
                    "called_ranks": list(CALLED_RANKS.get(contract, ())),
                    **(
                        {"option": OPTION_CONTRACTS[contract]}
                        if contract in OPTION_CONTRACTS
                        else {}
                    ),
                    "description": CONTRACT_DESCRIPTIONS[contract],
                }
                for contract in CONTRACTS
            ],
            "tricks_by_deck": {str(cards): tricks for cards, (tricks, _) in DECKS.items()},
            "decks": [
                {"cards": cards, "tricks": tricks, "target": target, "tout": tricks}
                for cards, (tricks, target) in DECKS.items()
            ],
            "bonuses": [
                {
                    "field": "stopped_after_five",
                    "points": PRIME,
                    "description": "prime: won the first five tricks (four with 24 cards) and "
                    "stopped",
                },
                {
                    "field": "continued_after_five",
                    "points": TOUT_CONTINUED,
                    "target": TRICKS,
                    "target_by_deck": {str(cards): tricks for cards, (tricks, _) in DECKS.items()},
                    "description": "tout: went on after the first five (four), made or not",
                },
                {
                    "field": "tout_announced",
                    "points": TOUT_ANNOUNCED,
                    "target": TRICKS,
                    "target_by_deck": {str(cards): tricks for cards, (tricks, _) in DECKS.items()},
                    "description": "tout announced with the declaration",
                },
                {
                    "field": "matadors_together",
                    "points": MATADORS,
                    "description": "Spadille, Manille and Baste were dealt to one party",
                },
            ],
            "preferred_suit_multiplier": PREFERRED_MULTIPLIER,
            "scoring": "each of the declaring party scores +value if the target is made, "
            "-value if not; the others score 0",
            "state_fields": [
                DEALER_STATE_FIELD,
                {
                    "name": "couleur",
                    "type": "string",
                    "nullable": True,
                    "default": None,
                    "allowed": list(SUITS),
                    "description": "the preferred suit in force (it counts only with the option "
                    "preferred_suit first_won; otherwise the option's suit is used)",
                },
            ],
            "hand_fields": with_forms(
                [
                    played_kind_field(),
                    {
                        "name": "contract",
                        "type": "string",
                        "required": True,
                        "allowed": list(CONTRACTS),
                        "description": "the game declared (a mediateur only with the option "
                        "mediateur)",
                    },
                    {
                        "name": "trump",
                        "type": "string",
                        "required": True,
                        "allowed": list(SUITS),
                        "description": "the trump suit",
                    },
                    seat_field(
                        "declarer",
                        PLAYERS,
                        "the seat that declared (in a force, the holder of Spadille)",
                    ),
                    {
                        "name": "called",
                        "type": "object",
                        "required": False,
                        "nullable": True,
                        "fields": {"rank": ["ace", "king"], "suit": list(SUITS)},
                        "description": "the card called in a frage, grossfrage or force (not of "
                        "trumps; a king only in a frage); in a mediateur, the ace "
                        "demanded (optional, for the record)",
                    },
                    seat_field(
                        "partner",
                        PLAYERS,
                        "holder of the called card",
                        required=False,
                        nullable=True,
                    ),
                    {
                        **seat_field(
                            "giver",
                            PLAYERS,
                            "in a mediateur, the opponent who gave the "
                            "demanded ace (optional, for the record)",
                            required=False,
                            nullable=True,
                        ),
                        "contracts": ["mediateur"],
                    },
                    {
                        "name": "tricks",
                        "type": "integer",
                        "min": 0,
                        "max": TRICKS,
                        "required": True,
                        "max_by_deck": {str(cards): tricks for cards, (tricks, _) in DECKS.items()},
                        "description": "tricks taken by the declaring party",
                    },
                    {
                        "name": "stopped_after_five",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "description": "won the first five tricks (four with 24 cards) and stopped",
                    },
                    {
                        "name": "continued_after_five",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "description": "won the first five (four) and went on for all the tricks",
                    },
                    {
                        "name": "tout_announced",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "description": "tout announced with the declaration",
                    },
                    {
                        "name": "asked_partner",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "contracts": list(ASKED_PARTNER_CONTRACTS),
                        "description": 'the declarer asked "partner?" when the called card had '
                        "not been played by the fifth trick: then no tout and not all the tricks",
                    },
                    {
                        "name": "matadors_together",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "description": "Spadille, Manille and Baste were dealt to one party",
                    },
                    errors_field(),
                ],
                _FORMS,
            ),
            "error_kinds": [
                {
                    "name": "revoke",
                    "title": "Revoke",
                    "description": "the offender's side loses the game",
                }
            ],
            "options": [
                {
                    "name": "preferred_suit",
                    "title": "Preferred suit",
                    "none_title": "None",
                    "type": "string",
                    "default": None,
                    "nullable": True,
                    "allowed": [*SUITS, FIRST_WON],
                    "choices": choices(
                        [*SUITS, FIRST_WON],
                        {**SUIT_TITLES, FIRST_WON: "Trump of the first game won"},
                    ),
                    "description": "games with this suit as trump score double; first_won: the "
                    "trump of the first contract won, from the next hand on (null: "
                    "none)",
                },
                {
                    "name": "mediateur",
                    "title": "Mediateur",
                    "type": "boolean",
                    "default": False,
                    "description": "the mediateur is played: the declarer demands an ace, gives "
                    "back a card and plays alone (base 4)",
                },
                {
                    "name": "deck",
                    "title": "Deck",
                    "type": "integer",
                    "default": DEFAULT_DECK,
                    "allowed": list(DECKS),
                    "description": "32 cards; or 24 (Münsterland Sollo, no eights and nines): 6 "
                    "tricks, target 4, tout all 6",
                },
            ],
            "doubled_suit": doubled_suit(
                "Preferred suit", first_won_when={"preferred_suit": [FIRST_WON]}
            ),
            "statistics": league_statistics("betes_paid", "stamms_drawn"),
        }


GERMAN: Final = GermanSolo()
