"""Reading American Solo's options, state and hand records from plain JSON-like values.

Every function here either returns a complete, rule-checked value or raises ``RuleViolation``
naming the offending field by its JSON path (``options.stake``, ``state.pool``,
``hand.called.suit``, ``hand.errors.0.seat`` ...) with a message in plain English. No other
exception escapes, whatever the input. ``bool`` is never accepted where an integer is due,
and floats never are.

``parse_hand`` is on the hot path of every settlement, so its common case is written as
straight-line code over prebuilt lookup tables; the careful diagnosis of what exactly is
wrong only runs once something is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from ..base import Phrase, RuleViolation, Suit
from .model import (
    CONTRACT_RULES,
    MAX_ERRORS,
    PLAYED_FIELDS,
    PLAYER_COUNTS,
    TRICKS,
    AmericanHand,
    AmericanOptions,
    AmericanState,
    BeteOnLostSolo,
    Call,
    CalledCard,
    Contract,
    CouleurPolicy,
    ErrorKind,
    ForfeitHand,
    HandError,
    HandKind,
    IncidentalTout,
    Matadores,
    MatadoresPolicy,
    MisdealHand,
    PlayedHand,
    Rank,
    Side,
    make_played_hand,
    max_lower_matadores,
)

MAX_STAKE = 10_000
MAX_STAMM = 10_000
MAX_POOL = 10**12  # far beyond any evening, small enough to stay an exact JSON number

E = TypeVar("E", bound=str)

_CONTRACTS: dict[str, Contract] = {c.value: c for c in Contract}
_SUITS: dict[str, Suit] = {s.value: s for s in Suit}
_RANKS: dict[str, Rank] = {r.value: r for r in Rank}
_SIDES: dict[str, Side] = {s.value: s for s in Side}
_ERROR_KINDS: dict[str, ErrorKind] = {k.value: k for k in ErrorKind}
_HAND_KINDS: dict[str, HandKind] = {k.value: k for k in HandKind}

# Hand values with few possible instances are built once and shared.
_CALLED: dict[tuple[str, str], CalledCard] = {
    (r.value, s.value): CalledCard(r, s) for r in Rank for s in Suit
}
_MOST_LOWER = max(max_lower_matadores(s, n) for s in Suit for n in PLAYER_COUNTS)
_MATADORES: dict[tuple[str, int], Matadores] = {
    (side.value, k): Matadores(side, k) for side in Side for k in range(_MOST_LOWER + 1)
}
_HAND_ERRORS: dict[tuple[str, int], HandError] = {
    (k.value, s): HandError(k, s) for k in ErrorKind for s in range(max(PLAYER_COUNTS))
}
_MISDEAL = MisdealHand()
# Enum members bound once: an Enum class attribute lookup is slow, and parsing is hot.
_CALL_NONE = Call.NONE
_CALL_REQUIRED = Call.REQUIRED
_SIMPLE = Contract.SIMPLE
_TOUT = Contract.TOUT
_FORCEES = frozenset({Contract.FORCEE_SIMPLE, Contract.FORCEE_PARTOUT})
_DECLARERS = Side.DECLARERS
_ACE = Rank.ACE
_KING = Rank.KING
LONE_MAX_LOWER = TRICKS - 3
"""A lone declarer's 8 cards hold the three higher matadores and at most five lower ones."""
LONE_MAX_LOWER_BESIDE_ACE = LONE_MAX_LOWER - 1
"""Beside his own called Ace (never a trump), a lone declarer has room for four lower ones."""
LONE_MAX_LOWER_BESIDE_KING = 1
"""Beside his own called King he holds the four Aces as well: the trump Ace is his one lower."""
_VOID = ErrorKind.UNANNOUNCED_VOID
_MAX_LOWER: dict[tuple[Suit, int], int] = {
    (s, n): max_lower_matadores(s, n) for s in Suit for n in PLAYER_COUNTS
}
_ABSENT = object()
_UNKNOWN_FIELD = Phrase("unknown field")
# "a simple game calls a card": the contracts that must call one, as the sentence names them.
_A_CONTRACT = {
    Contract.SIMPLE: Phrase("a simple game"),
    Contract.FORCEE_SIMPLE: Phrase("a forcée simple"),
}

_PLAYED_FIELDS = frozenset({"kind", *PLAYED_FIELDS})
_FORFEIT_FIELDS = frozenset({"kind", "seat"})
_MISDEAL_FIELDS = frozenset({"kind"})
_CALLED_FIELDS = frozenset({"rank", "suit"})
_MATADORES_FIELDS = frozenset({"side", "lower"})
_ERROR_FIELDS = frozenset({"kind", "seat"})


# --- small checks shared by options, state and hands ---------------------------------------


def _object(raw: object, path: str, what: str | Phrase) -> Mapping[str, Any]:
    if isinstance(raw, Mapping):
        return raw
    raise RuleViolation(
        path, "%(what)s must be a JSON object, not %(type)s", what=what, type=_json_type(raw)
    )


def _shown(value: object) -> str | Phrase:
    """``value`` for a message, cut short: a client may send a number or a string of any size
    (and ``str`` refuses an int of more than 4300 digits)."""
    if type(value) is int and not -(10**9) < value < 10**9:
        return Phrase("a number that large") if value > 0 else Phrase("a number that small")
    if type(value) is str and len(value) > 24:
        return repr(value[:20] + "...")
    return repr(value)


def _json_type(value: object) -> str | Phrase:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return Phrase("a boolean")
    if isinstance(value, int):
        return Phrase("an integer")
    if isinstance(value, float):
        return Phrase("a number with a fraction")
    if isinstance(value, str):
        return Phrase("a string")
    if isinstance(value, list | tuple):
        return Phrase("a list")
    if isinstance(value, Mapping):
        return Phrase("an object")
    return type(value).__name__


def _reject_unknown(
    raw: Mapping[str, Any],
    allowed: frozenset[str],
    path: str,
    message: Phrase = _UNKNOWN_FIELD,
) -> None:
    for key in raw:
        if key not in allowed:
            raise RuleViolation(f"{path}.{key if type(key) is str else _shown(key)}", message)


def _int(value: object, path: str, low: int, high: int, what: str | Phrase) -> int:
    if type(value) is not int:
        raise RuleViolation(
            path,
            "%(what)s must be a whole number from %(low)s to %(high)s, not %(type)s",
            what=what,
            low=low,
            high=high,
            type=_json_type(value),
        )
    if not low <= value <= high:
        raise RuleViolation(
            path,
            "%(what)s must be from %(low)s to %(high)s, not %(value)s",
            what=what,
            low=low,
            high=high,
            value=_shown(value),
        )
    return value


def _bool(value: object, path: str, what: str) -> bool:
    if type(value) is not bool:
        raise RuleViolation(
            path, "%(what)s must be true or false, not %(type)s", what=what, type=_json_type(value)
        )
    return value


def _choice(value: object, table: Mapping[str, E], path: str, what: str | Phrase) -> E:
    if type(value) is str and value in table:
        return table[value]
    allowed = ", ".join(table)
    if type(value) is str:
        raise RuleViolation(
            path,
            "unknown %(what)s %(value)s; expected one of: %(allowed)s",
            what=what,
            value=_shown(value),
            allowed=allowed,
        )
    raise RuleViolation(
        path,
        "the %(what)s must be one of: %(allowed)s; not %(type)s",
        what=what,
        allowed=allowed,
        type=_json_type(value),
    )


def _seat(value: object, path: str, players: int, what: Phrase) -> int:
    if type(value) is not int:
        raise RuleViolation(
            path,
            "%(what)s must be a seat number from 0 to %(last)s, not %(type)s",
            what=what,
            last=players - 1,
            type=_json_type(value),
        )
    if not 0 <= value < players:
        raise RuleViolation(
            path,
            "%(what)s must be a seat of this %(players)s-player table "
            "(0 to %(last)s), not %(value)s",
            what=what,
            players=players,
            last=players - 1,
            value=_shown(value),
        )
    return value


# --- options and state -----------------------------------------------------------------------

_DEFAULT_OPTIONS = AmericanOptions()
OPTION_CHOICES: dict[str, Mapping[str, Any]] = {
    "couleur": _SUITS,
    "couleur_policy": {p.value: p for p in CouleurPolicy},
    "bete_on_lost_solo": {b.value: b for b in BeteOnLostSolo},
    "matadores": {m.value: m for m in MatadoresPolicy},
    "incidental_tout": {i.value: i for i in IncidentalTout},
}
OPTION_BOUNDS: dict[str, tuple[int, int]] = {"stake": (0, MAX_STAKE), "stamm": (1, MAX_STAMM)}
OPTION_NAMES: tuple[str, ...] = (*OPTION_BOUNDS, *OPTION_CHOICES)
_OPTION_FIELDS = frozenset(OPTION_NAMES)


def parse_options(raw: Mapping[str, Any] | None) -> AmericanOptions:
    """A table's options; absent ones take their defaults, unknown names are refused."""
    if raw is None:
        return _DEFAULT_OPTIONS
    raw = _object(raw, "options", "options")
    if not raw:
        return _DEFAULT_OPTIONS
    _reject_unknown(raw, _OPTION_FIELDS, "options", Phrase("unknown option"))
    values: dict[str, Any] = {}
    for name, (low, high) in OPTION_BOUNDS.items():
        if name in raw:
            values[name] = _int(raw[name], f"options.{name}", low, high, name)
    for name, choices in OPTION_CHOICES.items():
        if name in raw:
            values[name] = _choice(raw[name], choices, f"options.{name}", name)
    return AmericanOptions(**values)


def initial_state(players: int, options: AmericanOptions, first_dealer: int = 0) -> AmericanState:
    """A fresh table: empty pool, the session's couleur, ``first_dealer`` to deal and stake."""
    dealer = _seat(first_dealer, "first_dealer", players, Phrase("the first dealer"))
    return AmericanState(
        pool=0, couleur=options.couleur, dealer=dealer, stake_due=True, first_game_won=False
    )


_STATE_FIELDS = frozenset({"pool", "couleur", "dealer", "stake_due", "first_game_won"})


def parse_state(
    raw: Mapping[str, Any] | None, players: int, options: AmericanOptions
) -> AmericanState:
    """A table state given by a client; absent keys take a fresh table's values."""
    fresh = initial_state(players, options)
    if raw is None:
        return fresh
    raw = _object(raw, "state", Phrase("the state"))
    _reject_unknown(raw, _STATE_FIELDS, "state")
    return AmericanState(
        pool=_int(raw["pool"], "state.pool", 0, MAX_POOL, Phrase("the pool"))
        if "pool" in raw
        else fresh.pool,
        couleur=_choice(raw["couleur"], _SUITS, "state.couleur", Phrase("suit"))
        if "couleur" in raw
        else fresh.couleur,
        dealer=_seat(raw["dealer"], "state.dealer", players, Phrase("the dealer"))
        if "dealer" in raw
        else fresh.dealer,
        stake_due=_bool(raw["stake_due"], "state.stake_due", "stake_due")
        if "stake_due" in raw
        else fresh.stake_due,
        first_game_won=_bool(raw["first_game_won"], "state.first_game_won", "first_game_won")
        if "first_game_won" in raw
        else fresh.first_game_won,
    )


# --- hands -----------------------------------------------------------------------------------


def parse_hand(raw: object, players: int, stored: bool = False) -> AmericanHand:
    """A complete, rule-checked hand record; the rulebook's "Bad input" list is refused.

    ``stored``: the record is one the service took earlier, read as the rules read it then:
    eight tricks without ``tout_after_five`` (stored before that Decision) are an incidental
    tout, as the Decision says they must have been, and matadores stored before the
    Decisions on what a deal can give (a lone declarer's five lower at most, and fewer beside
    his own called card; the defenders' in a forcée or a King call) are settled as recorded,
    within what a side of the suit's trumps can hold. Every other check still holds."""
    if type(raw) is not dict:
        if not isinstance(raw, Mapping):
            raise RuleViolation(
                "hand", "a hand record must be a JSON object, not %(type)s", type=_json_type(raw)
            )
        raw = dict(raw)
    kind = raw.get("kind", "played")
    if kind == "played":
        return _played(raw, players, stored)
    if kind == "forfeit":
        _reject_unknown(raw, _FORFEIT_FIELDS, "hand", Phrase("unknown field for a forfeit"))
        if "seat" not in raw:
            raise RuleViolation("hand.seat", "a forfeit names the seat that pays the bête")
        return ForfeitHand(_seat(raw["seat"], "hand.seat", players, Phrase("the forfeiting seat")))
    if kind == "misdeal":
        _reject_unknown(raw, _MISDEAL_FIELDS, "hand", Phrase("unknown field for a misdeal"))
        return _MISDEAL
    _choice(kind, _HAND_KINDS, "hand.kind", Phrase("hand kind"))
    raise AssertionError("unreachable")  # pragma: no cover - _choice raised


def _played(raw: dict[str, Any], n: int, stored: bool = False) -> PlayedHand:
    if not raw.keys() <= _PLAYED_FIELDS:
        _reject_unknown(raw, _PLAYED_FIELDS, "hand")

    # Each field on its own. Lookups on a value of the wrong type fail with KeyError (or
    # TypeError when unhashable); the precise complaint is then worked out off the fast path.
    try:
        contract = _CONTRACTS[raw["contract"]]
    except (KeyError, TypeError):
        _missing(raw, "contract", Phrase("the contract"))
        contract = _choice(raw["contract"], _CONTRACTS, "hand.contract", Phrase("contract"))
    try:
        trump = _SUITS[raw["trump"]]
    except (KeyError, TypeError):
        _missing(raw, "trump", Phrase("the trump suit"))
        trump = _choice(raw["trump"], _SUITS, "hand.trump", Phrase("trump suit"))
    declarer: Any = raw.get("declarer")
    if type(declarer) is not int or not 0 <= declarer < n:
        _missing(raw, "declarer", Phrase("the declarer"))
        _seat(declarer, "hand.declarer", n, Phrase("the declarer"))
    tricks: Any = raw.get("tricks")
    if type(tricks) is not int or not 0 <= tricks <= TRICKS:
        _missing(raw, "tricks", Phrase("the number of tricks the declaring side took"))
        _int(tricks, "hand.tricks", 0, TRICKS, Phrase("tricks"))
    called_raw = raw.get("called")
    called = None
    if called_raw is not None:
        try:
            called = _CALLED[called_raw["rank"], called_raw["suit"]]
        except (KeyError, TypeError):
            called = _called(called_raw)  # raises, naming what is wrong
        if len(called_raw) != 2:
            _called(called_raw)  # a field too many: raises
    partner = raw.get("partner")
    if partner is not None and (type(partner) is not int or not 0 <= partner < n):
        _seat(partner, "hand.partner", n, Phrase("the partner"))
    tout_after_five = raw.get("tout_after_five", False)
    if type(tout_after_five) is not bool:
        _bool(tout_after_five, "hand.tout_after_five", "tout_after_five")
    matadores_raw = raw.get("matadores")
    matadores = None if matadores_raw is None else _matadores(matadores_raw)
    errors_raw = raw.get("errors", _ABSENT)
    errors = () if errors_raw is _ABSENT else _errors(errors_raw, n)

    # How the fields go together.
    rule = CONTRACT_RULES[contract]
    if rule.call is _CALL_NONE:
        if called is not None:
            raise RuleViolation("hand.called", "a solo is played alone: no called card")
        if partner is not None:
            raise RuleViolation("hand.partner", "a solo is played alone: no partner")
    elif called is None:
        if rule.call is _CALL_REQUIRED and (n > 3 or contract is _SIMPLE):
            raise RuleViolation(
                "hand.called",
                "%(contract)s calls a card: give the called card",
                contract=_A_CONTRACT[contract],
            )
        if partner is not None:
            raise RuleViolation(
                "hand.partner", "a partner is the holder of a called card, and none was called"
            )
    else:
        if partner is None:
            raise RuleViolation(
                "hand.partner", "who holds the called card? give its holder as the partner"
            )
        if called.suit is trump:
            raise RuleViolation(
                "hand.called.suit",
                "the called card cannot be of the trump suit (%(trump)s)",
                trump=trump.value,
            )
        if n == 3 and partner != declarer:
            raise RuleViolation(
                "hand.partner",
                "with 3 players there are no partner games: "
                "the partner must be the declarer himself",
            )
    if tout_after_five:
        if contract is _TOUT:
            raise RuleViolation(
                "hand.tout_after_five",
                "a tout already plays for all eight tricks: no incidental tout",
            )
        if tricks < 5:
            raise RuleViolation(
                "hand.tout_after_five",
                "an incidental tout needs the first five tricks, and the "
                "declaring side took only %(tricks)s",
                tricks=tricks,
            )
    elif tricks == TRICKS and contract is not _TOUT:
        if stored:
            tout_after_five = True  # a side that took all eight led to the sixth
        else:
            raise RuleViolation(
                "hand.tout_after_five",
                "a side that took all eight tricks led to the sixth: set "
                "tout_after_five (or record fewer tricks)",
            )
    lone = partner is None or partner == declarer
    if matadores is not None:
        if matadores.lower > _MAX_LOWER[trump, n]:
            most = _MAX_LOWER[trump, n]
            raise RuleViolation(
                "hand.matadores.lower",
                "with %(trump)s as trumps and %(players)s players a side can hold "
                "at most %(most)s lower matadores, not %(lower)s",
                trump=trump.value,
                players=n,
                most=most,
                lower=_shown(matadores.lower),
            )
        if not stored:  # what a deal gives: Decisions later than some stored hands
            if lone and matadores.side is _DECLARERS and matadores.lower > LONE_MAX_LOWER:
                raise RuleViolation(
                    "hand.matadores.lower",
                    "a lone declarer holds %(cards)s cards: the three higher "
                    "matadores and at most %(most)s lower ones, not %(lower)s",
                    cards=TRICKS,
                    most=LONE_MAX_LOWER,
                    lower=_shown(matadores.lower),
                )
            _check_matadores_dealt(contract, declarer, called, partner, matadores)
    if errors:
        for i, error in enumerate(errors):
            if error.kind is _VOID:
                if lone:
                    raise RuleViolation(
                        f"hand.errors.{i}.kind",
                        "an unannounced void only happens in a partner game",
                    )
                if error.seat != declarer:
                    raise RuleViolation(
                        f"hand.errors.{i}.seat",
                        "only the declarer (the caller) can leave a void in "
                        "the called suit unannounced",
                    )
    return make_played_hand(
        contract, trump, declarer, tricks, called, partner, tout_after_five, matadores, errors
    )


def _check_matadores_dealt(
    contract: Contract,
    declarer: int,
    called: CalledCard | None,
    partner: int | None,
    matadores: Matadores,
) -> None:
    """Refuse matadores that no deal can give (the rulebook's Decision, counting the cards it
    names): beside his own called card a lone declarer has fewer cards left for lower ones; in
    a forcée the declarer holds Spadilla; a King's caller holds the trump Ace."""
    lower = matadores.lower
    if matadores.side is _DECLARERS:
        if called is None or partner != declarer:
            return
        if called.rank is _ACE and lower > LONE_MAX_LOWER_BESIDE_ACE:
            raise RuleViolation(
                "hand.matadores.lower",
                "a lone declarer who holds the called ace holds at most %(most)s lower "
                "matadores beside it, not %(lower)s",
                most=LONE_MAX_LOWER_BESIDE_ACE,
                lower=_shown(lower),
            )
        if called.rank is _KING and lower > LONE_MAX_LOWER_BESIDE_KING:
            raise RuleViolation(
                "hand.matadores.lower",
                "a lone declarer who holds the called king holds the four aces too: at "
                "most %(most)s lower matadore, not %(lower)s",
                most=LONE_MAX_LOWER_BESIDE_KING,
                lower=_shown(lower),
            )
        return
    if contract in _FORCEES:
        raise RuleViolation(
            "hand.matadores.side",
            "in a forcée the declarer holds Spadilla: the defenders cannot hold the "
            "three higher matadores",
        )
    if called is not None and called.rank is _KING and lower > 0:
        raise RuleViolation(
            "hand.matadores.lower",
            "a king is called by the holder of the four aces, the trump ace among them: "
            "the defenders hold no lower matadores, not %(lower)s",
            lower=_shown(lower),
        )


def _missing(raw: Mapping[str, Any], key: str, what: Phrase) -> None:
    if raw.get(key) is None:
        said = Phrase("missing") if key not in raw else "null"
        raise RuleViolation(
            f"hand.{key}", "%(what)s is required (it is %(said)s)", what=what, said=said
        )


def _called(raw: object) -> CalledCard:
    called = _object(raw, "hand.called", Phrase("the called card"))
    _reject_unknown(called, _CALLED_FIELDS, "hand.called")
    if "rank" not in called:
        raise RuleViolation("hand.called.rank", "the called card's rank is required")
    if "suit" not in called:
        raise RuleViolation("hand.called.suit", "the called card's suit is required")
    return CalledCard(
        _choice(called["rank"], _RANKS, "hand.called.rank", Phrase("rank to call")),
        _choice(called["suit"], _SUITS, "hand.called.suit", Phrase("suit")),
    )


def _matadores(raw: object) -> Matadores:
    if type(raw) is dict and len(raw) == 2:
        side = raw.get("side")
        lower = raw.get("lower")
        if type(side) is str and type(lower) is int:
            found = _MATADORES.get((side, lower))
            if found is not None:
                return found
    matadores = _object(raw, "hand.matadores", Phrase("matadores"))
    _reject_unknown(matadores, _MATADORES_FIELDS, "hand.matadores")
    if "side" not in matadores:
        raise RuleViolation("hand.matadores.side", "say which side holds the matadores")
    side_ = _choice(matadores["side"], _SIDES, "hand.matadores.side", Phrase("side"))
    if "lower" not in matadores:
        raise RuleViolation(
            "hand.matadores.lower", "the count of lower matadores is required (0 for none)"
        )
    lower_ = matadores["lower"]
    if type(lower_) is not int:
        raise RuleViolation(
            "hand.matadores.lower",
            "the count of lower matadores must be a whole number, not %(type)s",
            type=_json_type(lower_),
        )
    if lower_ < 0:
        raise RuleViolation(
            "hand.matadores.lower",
            "the count of lower matadores cannot be negative (%(lower)s)",
            lower=_shown(lower_),
        )
    # The bound, which depends on the trump suit and the pack, is checked by the caller.
    return Matadores(side_, lower_)


def _errors(raw: object, n: int) -> tuple[HandError, ...]:
    if type(raw) is not list:
        if isinstance(raw, tuple):
            raw = list(raw)
        else:
            raise RuleViolation(
                "hand.errors",
                "errors must be a list of {kind, seat} objects, not %(type)s",
                type=_json_type(raw),
            )
    if len(raw) > MAX_ERRORS:
        raise RuleViolation(
            "hand.errors", "at most %(most)s errors can be recorded in one hand", most=MAX_ERRORS
        )
    out: list[HandError] = []
    for i, item in enumerate(raw):
        found = None
        if type(item) is dict and len(item) == 2:
            kind = item.get("kind")
            seat = item.get("seat")
            if type(kind) is str and type(seat) is int and 0 <= seat < n:
                found = _HAND_ERRORS.get((kind, seat))
        if found is None:
            found = _error(item, i, n)
        out.append(found)
    return tuple(out)


def _error(raw: object, i: int, n: int) -> HandError:
    path = f"hand.errors.{i}"
    error = _object(raw, path, Phrase("an error"))
    _reject_unknown(error, _ERROR_FIELDS, path)
    if "kind" not in error:
        raise RuleViolation(f"{path}.kind", "the kind of error is required")
    kind = _choice(error["kind"], _ERROR_KINDS, f"{path}.kind", Phrase("error kind"))
    if "seat" not in error:
        raise RuleViolation(f"{path}.seat", "the seat that made the error is required")
    return HandError(kind, _seat(error["seat"], f"{path}.seat", n, Phrase("the offender")))
