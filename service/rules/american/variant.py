"""American Solo's variant object: the wiring of its parsing and settlement, and its description
for clients that build forms (``GET /api/v1/variants``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ..base import SUITS, LeagueHand, Result, Settlement, Suit, Variant, league_statistics
from ..common import (
    CONTRACT_FORM,
    DECLARER_FORM,
    EIGHT_TRICKS,
    ERRORS_FORM,
    KIND_FORM,
    SUIT_TITLES,
    TRICKS_FORM,
    TRUMP_FORM,
    called_form,
    choices,
    doubled_suit,
    partner_form,
    partner_game_league_hand,
    seat_in,
    with_forms,
)
from . import parse
from .model import (
    CONTRACT_RULES,
    MAX_ERRORS,
    PLAYED_FIELDS,
    PLAYER_COUNTS,
    TRICKS,
    AmericanHand,
    AmericanOptions,
    AmericanState,
    Contract,
    CouleurPolicy,
    ErrorKind,
    ForfeitHand,
    HandKind,
    MisdealHand,
    PlayedHand,
    Rank,
    Side,
    max_lower_matadores,
)
from .settle import settle_played, settle_redeal

_OPTION_DESCRIPTIONS: dict[str, str] = {
    "stake": "chips the dealer puts into the pool at the start of his turn to deal",
    "stamm": "size of a stamm, and the most a bête can be",
    "couleur": "the couleur (favoured suit, worth double) at the start of the session",
    "couleur_policy": "fixed: couleur never changes; first_won: it becomes the trump suit of "
    "the first game won at the table",
    "bete_on_lost_solo": "any: every lost solo pays a bête; couleur_only: only a lost solo "
    "in couleur does",
    "matadores": "either_side: matadores add to the payment whichever side holds them; "
    "declaring_side: only the declaring side's count",
    "incidental_tout": "double: an incidental tout is worth twice the game's value; literal: "
    "twice in suit, four times in couleur",
}
# Each option's and each of its values' title, as a form labels them.
_OPTION_TITLES: dict[str, str] = {
    "stake": "Stake",
    "stamm": "Stamm",
    "couleur": "Couleur",
    "couleur_policy": "How the couleur changes",
    "bete_on_lost_solo": "Bête on a lost solo",
    "matadores": "Matadores count for",
    "incidental_tout": "Tout after five is worth",
}
_VALUE_TITLES: dict[str, str] = {
    **SUIT_TITLES,
    "fixed": "Fixed",
    "first_won": "Trump of the first game won",
    "any": "Every lost solo",
    "couleur_only": "Only in couleur",
    "either_side": "Either side",
    "declaring_side": "The declaring side only",
    "double": "Double",
    "literal": "Twice in suit, four in couleur",
}
# Each error kind's short name, as a form labels it.
_ERROR_TITLES: dict[ErrorKind, str] = {
    ErrorKind.REVOKE: "Revoke",
    ErrorKind.LEAD_OUT_OF_TURN: "Lead out of turn",
    ErrorKind.PLAY_OUT_OF_TURN: "Play out of turn",
    ErrorKind.EXPOSED_CARD: "Exposed card",
    ErrorKind.UNANNOUNCED_VOID: "Unannounced void",
}
_ERROR_DESCRIPTIONS: dict[ErrorKind, str] = {
    ErrorKind.REVOKE: "a revoke, or a renege when not entitled (R15, R16): the offender's side "
    "loses",
    ErrorKind.LEAD_OUT_OF_TURN: "a lead out of turn (R10, R11): in a lone game a defender's "
    "makes the defenders lose and the soloist's costs nothing; in a "
    "partner game the offender's side loses and the offender pays a bête",
    ErrorKind.PLAY_OUT_OF_TURN: "a card played out of turn: as a lead out of turn",
    ErrorKind.EXPOSED_CARD: "an exposed card: as a lead out of turn",
    ErrorKind.UNANNOUNCED_VOID: "the caller of a partner game called the ace of a suit he holds "
    "none of and did not say so (R12): the declaring side loses",
}


_STATE_FIELDS: Final[list[dict[str, Any]]] = [
    {
        "name": "pool",
        "type": "integer",
        "min": 0,
        "max": parse.MAX_POOL,
        "default": 0,
        "description": "chips in the pool before the hand",
    },
    {
        "name": "couleur",
        "type": "string",
        "allowed": list(SUITS),
        "default": None,
        "description": "the couleur in force (omitted: the option couleur's suit)",
    },
    {
        "name": "dealer",
        "type": "integer",
        "seat": True,
        "default": 0,
        "description": "the seat that deals the hand",
    },
    {
        "name": "stake_due",
        "type": "boolean",
        "default": True,
        "amount_option": "stake",
        "description": "the dealer has not yet staked for this turn of dealing",
    },
    {
        "name": "first_game_won",
        "type": "boolean",
        "default": False,
        "description": "a declaring side has already won a game at the table",
    },
]
"""What a preview's ``state`` takes, with a fresh table's values."""


_CALLING = ["simple", "forcee_simple", "forcee_partout", "tout"]
_FORMS: Final[dict[str, Mapping[str, Any]]] = {
    "kind": KIND_FORM,
    "contract": CONTRACT_FORM,
    "trump": TRUMP_FORM,
    "declarer": DECLARER_FORM,
    "tricks": TRICKS_FORM,
    "called": called_form(
        shown_when=[{"contract": _CALLING}],
        required_when=[
            {"contract": ["simple"]},
            {"contract": ["forcee_simple"], "players": [4, 5]},
            {"given": ["partner"]},
        ],
    ),
    "partner": partner_form(
        shown_when=[{"contract": _CALLING}],
        required_when=[
            {"contract": ["simple"]},
            {"contract": ["forcee_simple"], "players": [4, 5]},
            {"given": ["called"]},
        ],
    ),
    "tout_after_five": {
        "title": "Tout after five",
        "shown_when": [{"contract": ["simple", "forcee_simple", "forcee_partout", "solo"]}],
        "required_when": [{"tricks": [TRICKS]}],
    },
    "matadores": {"title": "Matadores"},
    "errors": ERRORS_FORM,
}
"""What the pad's form needs of each hand field (``common.with_forms``): a forfeit's only
field is its ``seat`` (``hand_kinds``)."""


def _seat_field(name: str, description: str, required: bool = True) -> dict[str, Any]:
    return {
        "name": name,
        "type": "integer",
        "seat": True,
        "min": 0,
        "max_by_players": {str(n): n - 1 for n in PLAYER_COUNTS},
        "required": required,
        "nullable": not required,
        "description": description,
    }


_FORFEIT_SEAT: Final[Mapping[str, Any]] = {
    **_seat_field(
        "seat", "the seat that passed holding Spadilla and Basta: that player pays a bête"
    ),
    "title": "Who forfeits",
    "prompt": "tap who forfeits",
}
"""A forfeit's one field (its hand kind's ``hand_fields``, described as a played hand's)."""


def _hand_fields() -> list[dict[str, Any]]:
    """The fields of a played hand record, for describe() (a fresh list: callers may edit)."""
    return [
        {
            "name": "kind",
            "type": "string",
            "required": False,
            "default": "played",
            "allowed": [k.value for k in HandKind],
            "description": "played, or forfeit (with only seat) or misdeal (nothing else)",
        },
        {
            "name": "contract",
            "type": "string",
            "required": True,
            "allowed": [c.value for c in Contract],
            "description": "the game played",
        },
        {
            "name": "trump",
            "type": "string",
            "required": True,
            "allowed": list(SUITS),
            "description": "the trump suit; a game in the couleur is worth double",
        },
        _seat_field("declarer", "the seat that bid (or was forced to play)"),
        {
            "name": "called",
            "type": "object",
            "required": False,
            "nullable": True,
            "fields": {"rank": [r.value for r in Rank], "suit": list(SUITS)},
            "description": "the card called, never of the trump suit; required for a simple game "
            "(and a forcée simple with 4 or 5 players), never for a solo",
        },
        _seat_field(
            "partner",
            "the holder of the called card (the declarer himself if he holds it: then a lone game)",
            required=False,
        ),
        {
            "name": "tricks",
            "type": "integer",
            "required": True,
            "min": 0,
            "max": TRICKS,
            "description": "tricks taken by the declaring side",
        },
        {
            "name": "tout_after_five",
            "type": "boolean",
            "required": False,
            "default": False,
            "description": "the declaring side took the first five tricks and played on for all "
            "eight (not on a tout); required with 8 tricks on any other contract",
        },
        {
            "name": "matadores",
            "type": "object",
            "required": False,
            "nullable": True,
            "fields": {"side": [s.value for s in Side], "lower": "integer from 0 (see matadores)"},
            # The same two members as typed schemas read them (the bounds per trump suit and
            # players are in ``describe()["matadores"]``; the rules check those).
            "members": [
                {
                    "name": "side",
                    "type": "string",
                    "required": True,
                    "allowed": [s.value for s in Side],
                    "description": "The side holding Spadilla, Manilla and Basta.",
                },
                {
                    "name": "lower",
                    "type": "integer",
                    "required": True,
                    "min": 0,
                    "max": max(
                        max_lower_matadores(suit, players)
                        for suit in Suit
                        for players in PLAYER_COUNTS
                    ),
                    "description": "How many lower matadores follow unbroken (the most depends "
                    "on the trump suit and the players).",
                },
            ],
            "description": "the side holding all three higher matadores, and its lower ones (a "
            "lone declarer holds at most 5 lower ones)",
        },
        {
            "name": "errors",
            "type": "array",
            "item_seat": "seat",
            "required": False,
            "default": [],
            "max_items": MAX_ERRORS,
            "description": "errors as {kind, seat} in the order they happened; kind is one of "
            "error_kinds",
        },
    ]


class AmericanVariant(Variant):
    """American Solo, as ``shared/rules/american-solo.md`` settles it, in chips."""

    name = "american"
    title = "American Solo"
    units: Literal["chips", "points"] = "chips"
    player_counts = PLAYER_COUNTS

    def parse_options(self, raw: Mapping[str, Any] | None) -> AmericanOptions:
        return parse.parse_options(raw)

    def initial_state(self, players: int, options: Any, first_dealer: int = 0) -> AmericanState:
        return parse.initial_state(players, options, first_dealer)

    def parse_state(
        self, raw: Mapping[str, Any] | None, players: int, options: Any
    ) -> AmericanState:
        return parse.parse_state(raw, players, options)

    def parse_hand(self, raw: object, players: int, options: Any) -> AmericanHand:
        # The options never change what a valid hand is.
        return parse.parse_hand(raw, players)

    def trick_figures(self, options: Any) -> Mapping[str, int]:
        return EIGHT_TRICKS

    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        """A played hand: its declarer and partner, the contract as recorded, a tout the
        contract ``tout`` or ``tout_after_five``; a forfeit: no declarer, an error of its
        ``seat``; a misdeal: nothing."""
        if isinstance(record, Mapping) and record.get("kind") == "forfeit":
            seat = seat_in(record.get("seat"), players)
            return LeagueHand(None, (), None, None, False, () if seat is None else (seat,))
        return partner_game_league_hand(record, players, result, ("tout_after_five",))

    def read_stored_hand(self, record: object, players: int, options: Any) -> AmericanHand:
        """A stored record: eight tricks stored without ``tout_after_five`` are an incidental
        tout, and matadores stored before the "no deal gives them" Decision count as recorded
        (``parse.parse_hand``'s ``stored``)."""
        return parse.parse_hand(record, players, stored=True)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Settle one parsed hand at ``state``: transfers in the rulebook's order (stake, game
        payments, stamm, bêtes), each seat's net chips, the pool, the couleur, the next
        dealer, one line of explanation per step, and the state for the next hand.

        ``options``, ``state`` and ``hand`` are this variant's parsed values, ``hand`` parsed
        for the same number of ``players``."""
        if type(hand) is PlayedHand:
            return settle_played(players, options, state, hand)
        if type(hand) is ForfeitHand or type(hand) is MisdealHand:
            return settle_redeal(players, options, state, hand)
        raise TypeError(f"not an American Solo hand record: {hand!r}")

    def describe(self) -> dict[str, Any]:
        defaults = AmericanOptions().to_dict()
        options: list[dict[str, Any]] = []
        for name in parse.OPTION_NAMES:
            entry: dict[str, Any] = {"name": name, "title": _OPTION_TITLES[name]}
            if name in parse.OPTION_BOUNDS:
                low, high = parse.OPTION_BOUNDS[name]
                entry.update(type="integer", default=defaults[name], min=low, max=high)
            else:
                allowed = list(parse.OPTION_CHOICES[name])
                entry.update(type="string", default=defaults[name], allowed=allowed)
                entry["choices"] = choices(allowed, _VALUE_TITLES)
            entry["description"] = _OPTION_DESCRIPTIONS[name]
            options.append(entry)
        return {
            "name": self.name,
            "title": self.title,
            "units": self.units,
            "players": list(self.player_counts),
            "tricks": TRICKS,
            "contracts": [
                {
                    "name": contract.value,
                    "title": rule.title,
                    "in_suit": rule.in_suit,
                    "in_couleur": rule.in_couleur,
                    "target": rule.target,
                    "calls_partner": rule.call.value,
                    **(
                        {"own_card_ranks_as": Contract.SOLO.value}
                        if contract in (Contract.SIMPLE, Contract.FORCEE_SIMPLE)
                        else {}
                    ),
                    "description": rule.description,
                }
                for contract, rule in CONTRACT_RULES.items()
            ],
            "hand_kinds": [
                {
                    "name": HandKind.PLAYED.value,
                    "title": "Played",
                    "fields": list(PLAYED_FIELDS),
                    "deal_passes": True,
                    "description": "a game was bid and played (or decided by an error)",
                },
                {
                    "name": HandKind.FORFEIT.value,
                    "title": "Forfeit",
                    "fields": ["seat"],
                    "seat_fields": ["seat"],
                    "hand_fields": [_FORFEIT_SEAT],
                    "deal_passes": False,
                    "description": "seat passed holding Spadilla and Basta: that player pays a "
                    "bête and the same dealer deals again",
                },
                {
                    "name": HandKind.MISDEAL.value,
                    "title": "Misdeal",
                    "fields": [],
                    "deal_passes": False,
                    "description": "a fresh deal: only the stake moves, the same dealer deals "
                    "again",
                },
            ],
            "state_fields": _STATE_FIELDS,
            "hand_fields": with_forms(_hand_fields(), _FORMS),
            "error_kinds": [
                {
                    "name": kind.value,
                    "title": _ERROR_TITLES[kind],
                    "description": _ERROR_DESCRIPTIONS[kind],
                }
                for kind in ErrorKind
            ],
            "called_ranks": [rank.value for rank in Rank],
            "matadores": {
                "sides": [side.value for side in Side],
                "max_lower": {
                    f"{players}": {suit.value: max_lower_matadores(suit, players) for suit in Suit}
                    for players in PLAYER_COUNTS
                },
                "max_lower_lone_declarer": parse.LONE_MAX_LOWER,
            },
            "options": options,
            "suits": list(SUITS),
            "doubled_suit": doubled_suit(
                "Couleur", first_won_when={"couleur_policy": [CouleurPolicy.FIRST_WON.value]}
            ),
            "statistics": league_statistics(),
        }


AMERICAN = AmericanVariant()
