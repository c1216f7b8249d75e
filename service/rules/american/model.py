"""American Solo's values: options, table state, hand records, and the rulebook's fixed tables.

Pure and immutable. Everything the settlement looks up on its hot path (contract values,
opponents, the partner-game pairing, matadores bounds) is computed once here, at import.
See ``shared/rules/american-solo.md``; the parsing of JSON into these values lives in
``parse`` and the settlement in ``settle``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, NamedTuple

from ..base import Result, Settlement, Suit, Transfer

PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5)
TRICKS = 8  # every player gets 8 cards, so there are always 8 tricks
MAX_ERRORS = 16  # a hand with more recorded errors than this is not a real hand


class Contract(StrEnum):
    SIMPLE = "simple"
    FORCEE_SIMPLE = "forcee_simple"
    FORCEE_PARTOUT = "forcee_partout"
    SOLO = "solo"
    TOUT = "tout"


class Rank(StrEnum):
    ACE = "ace"
    KING = "king"


class Side(StrEnum):
    DECLARERS = "declarers"
    DEFENDERS = "defenders"


class ErrorKind(StrEnum):
    REVOKE = "revoke"
    LEAD_OUT_OF_TURN = "lead_out_of_turn"
    PLAY_OUT_OF_TURN = "play_out_of_turn"
    EXPOSED_CARD = "exposed_card"
    UNANNOUNCED_VOID = "unannounced_void"


class HandKind(StrEnum):
    PLAYED = "played"
    FORFEIT = "forfeit"
    MISDEAL = "misdeal"


class CouleurPolicy(StrEnum):
    FIXED = "fixed"
    FIRST_WON = "first_won"


class BeteOnLostSolo(StrEnum):
    ANY = "any"
    COULEUR_ONLY = "couleur_only"


class MatadoresPolicy(StrEnum):
    EITHER_SIDE = "either_side"
    DECLARING_SIDE = "declaring_side"


class IncidentalTout(StrEnum):
    DOUBLE = "double"
    LITERAL = "literal"


class Call(StrEnum):
    """Whether a contract calls a card (whose holder is the partner)."""

    REQUIRED = "required"
    OPTIONAL = "optional"
    NONE = "none"


class ContractRule(NamedTuple):
    """One row of the rulebook's table of contract values."""

    title: str  # as a player says it, capitalised: "Simple game"
    in_suit: int
    in_couleur: int
    target: int  # tricks the declaring side needs
    call: Call
    description: str


CONTRACT_RULES: dict[Contract, ContractRule] = {
    Contract.SIMPLE: ContractRule(
        "Simple game",
        2,
        4,
        5,
        Call.REQUIRED,
        "calls an ace (a king when the caller holds all four aces); its holder is the partner",
    ),
    Contract.FORCEE_SIMPLE: ContractRule(
        "Forcée simple",
        2,
        4,
        5,
        Call.REQUIRED,
        "all passed: Spadilla's holder must play, calling an ace (alone with 3 players)",
    ),
    Contract.FORCEE_PARTOUT: ContractRule(
        "Forcée partout",
        4,
        8,
        5,
        Call.OPTIONAL,
        "the holder of Spadilla and Basta plays, alone or with a called ace",
    ),
    Contract.SOLO: ContractRule("Solo", 4, 8, 5, Call.NONE, "played alone against all the others"),
    Contract.TOUT: ContractRule(
        "Tout", 16, 32, TRICKS, Call.OPTIONAL, "all eight tricks, alone or with a called ace"
    ),
}


def max_lower_matadores(trump: Suit, players: int) -> int:
    """The most lower matadores a side can hold: trumps from the ace down in unbroken order.

    A black suit has 6 below the three higher matadores, a red one 7; the 40-card pack used
    by 5 players adds the Six and Five of trumps.
    """
    black = trump is Suit.CLUBS or trump is Suit.SPADES
    return (6 if black else 7) + (2 if players == 5 else 0)


def _opponents(players: int, declarer: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if s != declarer)


def _pairs(players: int, declarer: int, partner: int) -> tuple[tuple[int, int], ...]:
    # Decision (step 5): the declarer, then the partner, is paired with the first seat to his
    # left (s+1, s+2, ...) that is an opponent not yet paired.
    paired: list[int] = []
    pairs: list[tuple[int, int]] = []
    for seat in (declarer, partner):
        for step in range(1, players):
            other = (seat + step) % players
            if other not in (declarer, partner) and other not in paired:
                paired.append(other)
                pairs.append((seat, other))
                break
    return tuple(pairs)


# OPPONENTS[players][declarer] -> the opponents of a lone game, in ascending seat order.
OPPONENTS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(_opponents(n, d) for d in range(n)) for n in PLAYER_COUNTS
}
# PAIRS[players][declarer][partner] -> ((declarer, his opponent), (partner, his opponent)).
PAIRS: dict[int, tuple[tuple[tuple[tuple[int, int], ...], ...], ...]] = {
    n: tuple(tuple(_pairs(n, d, p) if p != d else () for p in range(n)) for d in range(n))
    for n in PLAYER_COUNTS
}
# UNPAIRED[players][declarer][partner] -> the defenders left out of the pairing (5 players).
UNPAIRED: dict[int, tuple[tuple[tuple[int, ...], ...], ...]] = {
    n: tuple(
        tuple(
            tuple(s for s in range(n) if s not in (d, p) and all(s != o for _, o in PAIRS[n][d][p]))
            for p in range(n)
        )
        for d in range(n)
    )
    for n in PLAYER_COUNTS
}


_OPTION_ENUMS: tuple[tuple[str, type[StrEnum]], ...] = (
    ("couleur", Suit),
    ("couleur_policy", CouleurPolicy),
    ("bete_on_lost_solo", BeteOnLostSolo),
    ("matadores", MatadoresPolicy),
    ("incidental_tout", IncidentalTout),
)


@dataclass(frozen=True, slots=True)
class AmericanOptions:
    """A table's options (``options`` in the rulebook), defaults filled in."""

    stake: int = 2
    stamm: int = 16
    couleur: Suit = Suit.CLUBS
    couleur_policy: CouleurPolicy = CouleurPolicy.FIXED
    bete_on_lost_solo: BeteOnLostSolo = BeteOnLostSolo.ANY
    matadores: MatadoresPolicy = MatadoresPolicy.EITHER_SIDE
    incidental_tout: IncidentalTout = IncidentalTout.DOUBLE

    def __post_init__(self) -> None:
        # Built from stored strings ("hearts", "first_won"), the fields still become members,
        # which the settlement compares by identity.
        for name, kind in _OPTION_ENUMS:
            value = getattr(self, name)
            if type(value) is not kind:
                object.__setattr__(self, name, kind(value))

    def to_dict(self) -> dict[str, Any]:
        return {
            "stake": self.stake,
            "stamm": self.stamm,
            "couleur": self.couleur.value,
            "couleur_policy": self.couleur_policy.value,
            "bete_on_lost_solo": self.bete_on_lost_solo.value,
            "matadores": self.matadores.value,
            "incidental_tout": self.incidental_tout.value,
        }


@dataclass(frozen=True, slots=True)
class AmericanState:
    """What carries from hand to hand: the pool, the couleur in force, who deals next,
    whether his stake is still due, and whether a game has been won at the table yet."""

    pool: int = 0
    couleur: Suit = Suit.CLUBS
    dealer: int = 0
    stake_due: bool = True
    first_game_won: bool = False

    def __post_init__(self) -> None:
        if type(self.couleur) is not Suit:  # built from a stored string: make it the member
            object.__setattr__(self, "couleur", Suit(self.couleur))

    def to_dict(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "couleur": self.couleur.value,
            "dealer": self.dealer,
            "stake_due": self.stake_due,
            "first_game_won": self.first_game_won,
        }


class CalledCard(NamedTuple):
    """The card the declarer calls; its holder is his partner."""

    rank: Rank
    suit: Suit

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank.value, "suit": self.suit.value}


class Matadores(NamedTuple):
    """All three higher matadores held by one side, plus ``lower`` unbroken trumps below."""

    side: Side
    lower: int

    @property
    def chips(self) -> int:
        return 1 + self.lower

    def to_dict(self) -> dict[str, Any]:
        return {"side": self.side.value, "lower": self.lower}


class HandError(NamedTuple):
    """An error at play (R10-R16), committed by ``seat``."""

    kind: ErrorKind
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A game that was bid and played (or decided by an error).

    ``tricks`` are the declaring side's. ``partner`` is the holder of the called card; when
    it is the declarer himself the game is a lone game.
    """

    kind: ClassVar[HandKind] = HandKind.PLAYED

    contract: Contract
    trump: Suit
    declarer: int
    tricks: int
    called: CalledCard | None = None
    partner: int | None = None
    tout_after_five: bool = False
    matadores: Matadores | None = None
    errors: tuple[HandError, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        called = self.called
        matadores = self.matadores
        return {
            "kind": "played",
            "contract": self.contract.value,
            "trump": self.trump.value,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "called": None if called is None else called.to_dict(),
            "partner": self.partner,
            "tout_after_five": self.tout_after_five,
            "matadores": None if matadores is None else matadores.to_dict(),
            "errors": [e.to_dict() for e in self.errors],
        }


@dataclass(frozen=True, slots=True)
class ForfeitHand:
    """``seat`` passed holding Spadilla and Basta when he had to announce (R7)."""

    kind: ClassVar[HandKind] = HandKind.FORFEIT

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "forfeit", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class MisdealHand:
    """A fresh deal was required (R3)."""

    kind: ClassVar[HandKind] = HandKind.MISDEAL

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "misdeal"}


AmericanHand = PlayedHand | ForfeitHand | MisdealHand


# --- building values on the hot path --------------------------------------------------------
# A frozen dataclass's __init__ stores each field through object.__setattr__, which costs about
# twice what the slot's own descriptor does. A settlement, a state and a hand record are built
# for every hand parsed and settled, so these builders set the slots directly. Each makes
# exactly the value its constructor would (tests/unit/test_american_validation.py checks it)
# and runs the same checks: none for states and hands (the parser and the settlement have
# checked every field), Settlement.__post_init__ for a settlement.


def _slot_setters(cls: type, names: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(cls.__dict__[name].__set__ for name in names)


PLAYED_FIELDS: tuple[str, ...] = (
    "contract",
    "trump",
    "declarer",
    "tricks",
    "called",
    "partner",
    "tout_after_five",
    "matadores",
    "errors",
)
"""The fields of a played hand's record, in the order the setters below and ``GET /variants``
list them (a record also carries ``kind``)."""

_new_object = object.__new__
(_set_pool, _set_couleur, _set_dealer, _set_stake_due, _set_first_game_won) = _slot_setters(
    AmericanState, ("pool", "couleur", "dealer", "stake_due", "first_game_won")
)
(
    _set_contract,
    _set_trump,
    _set_declarer,
    _set_tricks,
    _set_called,
    _set_partner,
    _set_tout_after_five,
    _set_matadores,
    _set_errors,
) = _slot_setters(PlayedHand, PLAYED_FIELDS)


def make_state(
    pool: int, couleur: Suit, dealer: int, stake_due: bool, first_game_won: bool
) -> AmericanState:
    """``AmericanState(pool, couleur, dealer, stake_due, first_game_won)``, faster."""
    state: AmericanState = _new_object(AmericanState)
    _set_pool(state, pool)
    _set_couleur(state, couleur)
    _set_dealer(state, dealer)
    _set_stake_due(state, stake_due)
    _set_first_game_won(state, first_game_won)
    return state


def make_played_hand(
    contract: Contract,
    trump: Suit,
    declarer: int,
    tricks: int,
    called: CalledCard | None,
    partner: int | None,
    tout_after_five: bool,
    matadores: Matadores | None,
    errors: tuple[HandError, ...],
) -> PlayedHand:
    """``PlayedHand(...)`` with every field given, faster."""
    hand: PlayedHand = _new_object(PlayedHand)
    _set_contract(hand, contract)
    _set_trump(hand, trump)
    _set_declarer(hand, declarer)
    _set_tricks(hand, tricks)
    _set_called(hand, called)
    _set_partner(hand, partner)
    _set_tout_after_five(hand, tout_after_five)
    _set_matadores(hand, matadores)
    _set_errors(hand, errors)
    return hand


_SETTLEMENT_FIELDS = (
    "result",
    "in_couleur",
    "value",
    "transfers",
    "deltas",
    "pool_before",
    "pool_after",
    "couleur_before",
    "couleur_after",
    "next_dealer",
    "explanation",
    "state_after",
)
(
    _set_result,
    _set_in_couleur,
    _set_value,
    _set_transfers,
    _set_deltas,
    _set_pool_before,
    _set_pool_after,
    _set_couleur_before,
    _set_couleur_after,
    _set_next_dealer,
    _set_explanation,
    _set_state_after,
) = _slot_setters(Settlement, _SETTLEMENT_FIELDS)


def _build_settlement(
    result: Result | None,
    in_couleur: bool | None,
    value: int | None,
    transfers: tuple[Transfer, ...],
    deltas: tuple[int, ...],
    pool_before: int,
    pool_after: int,
    couleur_before: str,
    couleur_after: str,
    next_dealer: int,
    explanation: tuple[str, ...],
    state_after: AmericanState,
) -> Settlement:
    settlement: Settlement = _new_object(Settlement)
    _set_result(settlement, result)
    _set_in_couleur(settlement, in_couleur)
    _set_value(settlement, value)
    _set_transfers(settlement, transfers)
    _set_deltas(settlement, deltas)
    _set_pool_before(settlement, pool_before)
    _set_pool_after(settlement, pool_after)
    _set_couleur_before(settlement, couleur_before)
    _set_couleur_after(settlement, couleur_after)
    _set_next_dealer(settlement, next_dealer)
    _set_explanation(settlement, explanation)
    _set_state_after(settlement, state_after)
    settlement.__post_init__()  # the settlement checks its own invariants, as always
    return settlement


# Should Settlement ever change shape, its constructor takes over rather than a stale builder.
make_settlement: Callable[..., Settlement] = (
    _build_settlement
    if tuple(f.name for f in fields(Settlement)) == _SETTLEMENT_FIELDS
    else Settlement
)
