"""Parsing helpers and small values shared by the Spanish, German and Solo 66 packages.

Pure: imports only the standard library and ``.base``. Every ``require_*``/``optional_*``
helper takes a plain JSON-like value and its JSON path and either returns a checked value or
raises ``RuleViolation`` naming that path. JSON types are checked strictly: a bool is not an
integer, a float is never an integer (not even ``5.0``), and nothing else is coerced.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from .base import (
    NO_DECLARER,
    SUITS,
    LeagueHand,
    Phrase,
    Result,
    RuleViolation,
    Settlement,
    Step,
    Variant,
    VariantState,
)

MAX_ERRORS: Final = 16
"""The most errors one hand record may list."""

TRICKS: Final = 8
"""Every Solo game of the 32-card pack has eight tricks."""
TARGET: Final = 5
"""The tricks a plain game of the 32-card pack needs."""
EIGHT_TRICKS: Final[Mapping[str, int]] = {"per_hand": TRICKS, "target": TARGET, "tout": TRICKS}
"""``Variant.trick_figures`` of the games of eight tricks (American and Spanish Solo)."""


class _Missing(Enum):
    MISSING = "missing"


MISSING: Final = _Missing.MISSING

UNKNOWN_FIELD: Final = Phrase("unknown field")
IS_REQUIRED: Final = Phrase("is required")
A_WHOLE_NUMBER: Final = Phrase("a whole number")


def join(path: str, key: object) -> str:
    """``path.key``: the JSON path of ``key`` inside the object at ``path``."""
    return f"{path}.{key}"


def as_object(raw: object, path: str) -> Mapping[str, Any]:
    """``raw`` if it is a JSON object, else a RuleViolation on ``path``."""
    if not isinstance(raw, Mapping):
        raise RuleViolation(path, "must be a JSON object")
    return raw


def reject_unknown(
    obj: Mapping[Any, Any],
    allowed: Collection[str],
    path: str,
    message: Phrase = UNKNOWN_FIELD,
) -> None:
    """Refuse the first key of ``obj`` (in its own order) that is not in ``allowed``."""
    for key in obj:
        if not isinstance(key, str) or key not in allowed:
            raise RuleViolation(join(path, key), message)


def get(obj: Mapping[str, Any], key: str) -> Any:
    """The value under ``key`` or ``MISSING``."""
    return obj.get(key, MISSING)


def is_absent(value: object) -> bool:
    """True for a missing key or a JSON null (used only for fields documented as nullable)."""
    return value is MISSING or value is None


def require_present(value: object, path: str, message: Phrase = IS_REQUIRED) -> None:
    if value is MISSING:
        raise RuleViolation(path, message)


def require_int(
    value: object, path: str, low: int, high: int, what: Phrase = A_WHOLE_NUMBER
) -> int:
    """An integer (not a bool, not a float) with ``low <= value <= high``."""
    require_present(value, path)
    if type(value) is not int or not low <= value <= high:
        raise RuleViolation(
            path, "must be %(what)s from %(low)s to %(high)s", what=what, low=low, high=high
        )
    return value


def require_seat(value: object, path: str, players: int) -> int:
    """A seat number ``0 … players-1``."""
    return require_int(value, path, 0, players - 1, Phrase("a seat"))


def optional_seat(value: object, path: str, players: int) -> int | None:
    """A seat number, or None when the field is absent or null."""
    return None if is_absent(value) else require_seat(value, path, players)


def require_bool(value: object, path: str, default: bool = False) -> bool:
    """``true`` or ``false``; ``default`` when absent. A null is refused."""
    if value is MISSING:
        return default
    if type(value) is not bool:
        raise RuleViolation(path, "must be true or false")
    return value


def require_choice(value: object, path: str, choices: Collection[str], what: Phrase) -> str:
    """One of the strings in ``choices`` (listed in the message when it is not)."""
    require_present(value, path)
    if not isinstance(value, str) or value not in choices:
        raise RuleViolation(
            path, "must be %(what)s (%(choices)s)", what=what, choices=", ".join(choices)
        )
    return value


def require_suit(value: object, path: str) -> str:
    """One of ``clubs``, ``spades``, ``hearts``, ``diamonds``."""
    return require_choice(value, path, SUITS, Phrase("a suit"))


def optional_suit(value: object, path: str) -> str | None:
    """A suit, or None when the field is absent or null."""
    return None if is_absent(value) else require_suit(value, path)


def require_kind_played(value: object, path: str, title: str) -> None:
    """The optional ``kind`` field shared with American Solo's hand record: only ``played``."""
    if value is MISSING:
        return
    if not isinstance(value, str) or value != "played":
        raise RuleViolation(
            path,
            "%(variant)s records only played hands: kind must be 'played'",
            variant=Phrase(title),
        )


@dataclass(frozen=True, slots=True)
class DealerState:
    """The table state of a variant that carries nothing but the deal: the next dealer."""

    dealer: int

    def to_dict(self) -> dict[str, Any]:
        return {"dealer": self.dealer}


def initial_dealer_state(players: int, first_dealer: object) -> DealerState:
    """A fresh table whose first hand is dealt by ``first_dealer``."""
    return DealerState(require_seat(first_dealer, "first_dealer", players))


def parse_dealer_state(raw: object, players: int) -> DealerState:
    """``{"dealer": seat}``; a missing key or a missing state means a fresh table (seat 0)."""
    if raw is None:
        return DealerState(0)
    obj = as_object(raw, "state")
    reject_unknown(obj, ("dealer",), "state")
    dealer = get(obj, "dealer")
    return DealerState(0 if dealer is MISSING else require_seat(dealer, "state.dealer", players))


@dataclass(frozen=True, slots=True)
class CalledCard:
    """The card whose holder becomes the declarer's partner."""

    rank: str
    suit: str

    def to_dict(self) -> dict[str, Any]:
        return {"rank": self.rank, "suit": self.suit}


def optional_called(value: object, path: str, ranks: Collection[str]) -> CalledCard | None:
    """``{"rank", "suit"}`` with the rank one of ``ranks``; None when absent or null."""
    if is_absent(value):
        return None
    obj = as_object(value, path)
    reject_unknown(obj, ("rank", "suit"), path)
    rank = require_choice(get(obj, "rank"), join(path, "rank"), ranks, Phrase("a rank"))
    suit = require_suit(get(obj, "suit"), join(path, "suit"))
    return CalledCard(rank, suit)


@dataclass(frozen=True, slots=True)
class HandError:
    """An error recorded in a hand (these variants know only ``revoke``) and its offender."""

    kind: str
    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


def parse_errors(
    value: object, path: str, players: int, kinds: Collection[str] = ("revoke",)
) -> tuple[HandError, ...]:
    """A list of ``{"kind", "seat"}`` (at most ``MAX_ERRORS``); ``[]`` when absent."""
    if value is MISSING:
        return ()
    if not isinstance(value, list | tuple):
        raise RuleViolation(path, "must be a list of errors (use [] for none)")
    if len(value) > MAX_ERRORS:
        raise RuleViolation(
            path, "at most %(most)s errors can be recorded in one hand", most=MAX_ERRORS
        )
    errors: list[HandError] = []
    for index, item in enumerate(value):
        item_path = join(path, index)
        obj = as_object(item, item_path)
        reject_unknown(obj, ("kind", "seat"), item_path)
        kind = require_choice(
            get(obj, "kind"), join(item_path, "kind"), kinds, Phrase("an error kind")
        )
        seat = require_seat(get(obj, "seat"), join(item_path, "seat"), players)
        errors.append(HandError(kind, seat))
    return tuple(errors)


def first_revoke(errors: tuple[HandError, ...]) -> HandError | None:
    """The first revoke recorded: as in American Solo, the first error that decides the game
    decides it."""
    return next((e for e in errors if e.kind == "revoke"), None)


def seat_list(seats: Collection[int]) -> tuple[int, ...]:
    """Seats in ascending order, as an explanation step's ``seats`` value: the edge names each
    on its own ("seat 2 and seat 4"), numbered from 1 as the players do, so that a client can
    put the player's name in its place."""
    return tuple(sorted(seats))


def check_dealer_fits(state: VariantState, players: int) -> None:
    """A state built for another table size (a programming slip, or a hand-made value)."""
    if type(state.dealer) is not int or not 0 <= state.dealer < players:
        raise RuleViolation("state.dealer", "must be a seat from 0 to %(last)s", last=players - 1)


DEALER_STATE_FIELD: dict[str, Any] = {
    "name": "dealer",
    "type": "integer",
    "seat": True,
    "default": 0,
    "description": "the seat that deals the hand",
}
"""The ``state_fields`` entry of the seat that deals: the whole state of a dealer-rotation
variant (a preview's ``state`` takes this key and no other)."""


def seat_field(
    name: str, players: int, description: str, required: bool = True, nullable: bool = False
) -> dict[str, Any]:
    """A ``describe()`` entry for a hand field that holds a seat."""
    return {
        "name": name,
        "type": "integer",
        "seat": True,
        "min": 0,
        "max": players - 1,
        "required": required,
        "nullable": nullable,
        "description": description,
    }


def settle_points_game(
    *,
    players: int,
    dealer: int,
    side: tuple[int, ...] | frozenset[int],
    value: int,
    tricks: int,
    target: int,
    errors: tuple[HandError, ...],
    lines: list[Step],
    party: str,
    in_couleur: bool | None,
    couleur: str | None,
) -> Settlement:
    """The end of a points game (Spanish, German Solo): the first revoke decides, else the
    tricks; each of the declaring ``side`` scores ``±value`` and the others nothing.

    ``party`` is the variant whose words the explanation uses for the two sides ("german":
    the declaring party and the others, "spanish": the declaring side and the opponents).
    """
    revoke = first_revoke(errors)
    result = Step("result.won")
    if revoke is not None:
        won = revoke.seat not in side
        if not won:
            result = Step("result.lost")
        code = f"{party}.revoke_opponents" if won else f"{party}.revoke_party"
        lines.append(Step(code, {"seat": revoke.seat, "result": result}))
    else:
        won = tricks >= target
        if not won:
            result = Step("result.lost")
        lines.append(
            Step(f"{party}.tricks", {"tricks": tricks, "target": target, "result": result})
        )
    points = value if won else -value
    deltas = tuple(points if seat in side else 0 for seat in range(players))
    code = f"{party}.scores_each" if len(side) > 1 else f"{party}.scores"
    lines.append(Step(code, {"seats": seat_list(side), "score": points}))
    next_dealer = (dealer + 1) % players
    lines.append(Step("deals_next", {"seat": next_dealer}))
    return Settlement(
        result="won" if won else "lost",
        in_couleur=in_couleur,
        value=value,
        transfers=(),
        deltas=deltas,
        pool_before=None,
        pool_after=None,
        couleur_before=couleur,
        couleur_after=couleur,
        next_dealer=next_dealer,
        explanation=tuple(lines),
        state_after=DealerState(next_dealer),
    )


class DealerRotationVariant(Variant):
    """A variant whose only state is who deals next (Spanish, German Solo, Solo 66).

    Subclasses set ``options_type`` to their options class; options given as that value are
    used as they are, a mapping (or None) is parsed first.
    """

    options_type: type

    def _options(self, options: object) -> Any:
        if isinstance(options, self.options_type):
            return options
        if options is None or isinstance(options, Mapping):
            return self.parse_options(options)
        raise RuleViolation("options", "must be a JSON object")

    def initial_state(self, players: int, options: Any, first_dealer: int = 0) -> VariantState:
        return initial_dealer_state(self.check_players(players), first_dealer)

    def parse_state(
        self, raw: Mapping[str, Any] | None, players: int, options: Any
    ) -> VariantState:
        """``{"dealer": seat}``; missing keys take a fresh table's values."""
        return parse_dealer_state(raw, self.check_players(players))


def seat_in(value: object, players: int) -> int | None:
    """``value`` if it is a seat of a table of ``players``, else None (a stored record read
    for the league, defensively)."""
    return value if type(value) is int and 0 <= value < players else None


def error_seats(record: Mapping[str, Any], players: int) -> tuple[int, ...]:
    """The seat of each error of a stored record's ``errors`` (``[{kind, seat}]``)."""
    seats = []
    for error in record.get("errors") or ():
        seat = seat_in(error.get("seat"), players) if isinstance(error, Mapping) else None
        if seat is not None:
            seats.append(seat)
    return tuple(seats)


def partner_game_league_hand(
    record: object, players: int, result: Result | None, tout_flags: tuple[str, ...] = ()
) -> LeagueHand:
    """What a stored played hand of a declarer, his partner (none, or himself: alone) and a
    contract means for the league: a tout is the contract ``tout`` or one of ``tout_flags``
    set; the errors are the record's. The record is read as it is stored, so that a hand is
    always counted from the same words it was first counted from."""
    if not isinstance(record, Mapping) or record.get("kind", "played") != "played":
        return NO_DECLARER
    declarer = seat_in(record.get("declarer"), players)
    errors = error_seats(record, players)
    if declarer is None:
        return LeagueHand(None, (), None, None, False, errors)
    partner = seat_in(record.get("partner"), players)
    side = (declarer,) if partner is None or partner == declarer else (declarer, partner)
    contract = record.get("contract")
    contract = contract if isinstance(contract, str) else None
    tout = contract == "tout" or any(record.get(flag) is True for flag in tout_flags)
    return LeagueHand(declarer, side, contract, result, tout, errors, solo=contract == "solo")


def doubled_suit(
    word: str,
    *,
    fixed_option: str | None = None,
    first_won_when: Mapping[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The ``doubled_suit`` of a ``describe()``: the suit whose games are worth double, as a
    client shows it (a game without one says ``None``).

    - ``word``: what the game calls it, a message id of the pad's catalogs ("Couleur", German
      Solo's "Preferred suit"): the pad has its phrases ("in couleur", "couleur ♥") for each.
    - ``fixed_option``: the option naming it where it never changes and the table's state does
      not carry it (Spanish Solo's colour); null: it is the table's ``couleur``.
    - ``first_won_when``: the options (``{name: [values]}``) with which it becomes the trump of
      the first game won, so that it is settled only once a game is won (until then a hand
      waiting to be sent may change it); null: settled from the start.
    """
    return {
        "word": word,
        "fixed_option": fixed_option,
        "first_won_when": dict(first_won_when) if first_won_when else None,
    }


SUIT_TITLES: Final[Mapping[str, str]] = {
    "clubs": "Clubs",
    "spades": "Spades",
    "hearts": "Hearts",
    "diamonds": "Diamonds",
}
"""A suit as an option's value is titled (the couleur, the colour, the preferred suit)."""


def choices(allowed: Iterable[str], titles: Mapping[str, str]) -> list[dict[str, str]]:
    """An option's ``choices`` in a ``describe()``: each of its ``allowed`` values, in order,
    with its title, so that a client's form words the values as it words the option (by its
    ``title``, and a nullable one's empty choice by its ``none_title``) and names none of them
    itself. A value without a title is a KeyError here, not a bare name in a form."""
    return [{"value": value, "title": titles[value]} for value in allowed]


def played_kind_field() -> dict[str, Any]:
    """The hand field ``kind`` of a ``describe()`` for a game that records played hands only."""
    return {
        "name": "kind",
        "type": "string",
        "required": False,
        "default": "played",
        "allowed": ["played"],
        "description": "only played hands are recorded",
    }


def errors_field() -> dict[str, Any]:
    """The hand field ``errors`` of a ``describe()``, as ``parse_errors`` reads it."""
    return {
        "name": "errors",
        "type": "array",
        "item_seat": "seat",
        "required": False,
        "default": [],
        "max_items": MAX_ERRORS,
        "description": "errors as {kind, seat}; kind is one of error_kinds",
    }


def with_forms(
    fields: list[dict[str, Any]], forms: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The hand fields of a ``describe()``, each with what a form needs of it from ``forms``
    (the pad builds its hand form from these alone, in the order of the fields):

    - ``title``: the field's name for a player; ``prompt``: what a form asks for while the field
      is missing ("tap the declarer"); ``none_title``: the choice that leaves a nullable field
      empty ("Alone", "No trump"). All three are words in the catalogs.
    - ``shown_when`` / ``required_when``: a list of conditions, any of which holds (absent:
      always shown; required as ``required`` says). A condition maps a fact of the hand or the
      table to the values it may take: ``contract``, ``kind``, ``players``, ``tricks``,
      ``trump`` (``[null]``: no trump), ``given`` (the fields that are filled in), ``unset``
      (the fields that are not) and ``option`` (``{name: [values]}``). A boolean that is
      required is required *true*: a form sets it itself while its condition holds.
    - ``starts_at``: ``"target"``: a new hand starts at the contract's target (tricks).
    - ``not_suit_of``: the field (a card) is never of the suit that field names (the trump).
    - ``own_card_of``: the field (a seat) may be that field's seat: the declarer holds his own
      called card, and the game is played alone.
    - ``gives``: the field (a seat) gave the card that field names: while the field is shown,
      that card was demanded of it (German Solo's mediateur: the ace demanded, and its giver).
    """
    return [{**field, **forms.get(field["name"], {})} for field in fields]


CONTRACT_FORM: Final[Mapping[str, Any]] = {"title": "Contract", "prompt": "choose the contract"}
TRUMP_FORM: Final[Mapping[str, Any]] = {"title": "Trump", "prompt": "choose the trump"}
DECLARER_FORM: Final[Mapping[str, Any]] = {"title": "Declarer", "prompt": "tap the declarer"}
TRICKS_FORM: Final[Mapping[str, Any]] = {"title": "Tricks taken", "starts_at": "target"}
KIND_FORM: Final[Mapping[str, Any]] = {"title": "Kind of hand"}
ERRORS_FORM: Final[Mapping[str, Any]] = {"title": "Errors"}


def called_form(
    shown_when: list[dict[str, Any]], required_when: list[dict[str, Any]]
) -> dict[str, Any]:
    """The form of a partner game's ``called`` card: never of the trump suit."""
    return {
        "title": "Called card",
        "prompt": "choose the called card",
        "not_suit_of": "trump",
        "shown_when": shown_when,
        "required_when": required_when,
    }


def partner_form(
    shown_when: list[dict[str, Any]], required_when: list[dict[str, Any]]
) -> dict[str, Any]:
    """The form of a partner game's ``partner``: the holder of the called card, who may be the
    declarer himself (then he plays alone)."""
    return {
        "title": "Partner (holds the called card)",
        "prompt": "tap the partner",
        "none_title": "Alone",
        "own_card_of": "declarer",
        "shown_when": shown_when,
        "required_when": required_when,
    }
