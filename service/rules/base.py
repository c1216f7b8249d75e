"""Values shared by every Solo variant: parties, transfers, settlements, the variant interface.

Pure: imports only the standard library. Everything here is immutable; a ``Settlement``
checks its own invariants when it is built and refuses to exist if they do not hold.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple, Protocol

POOL: Literal["pool"] = "pool"
Party = int | Literal["pool"]


def party_object(party: int | str) -> dict[str, Any]:
    """A party (a seat, ``"pool"``, or the ``"club"`` a table fee goes to) as the object the
    API shows beside the bare value: ``{"kind": "seat", "seat": 2}``, ``{"kind": "pool",
    "seat": None}``. One shape, an enum and a nullable integer, that every client generator
    types (a bare ``2 | "pool"`` some cannot tell apart; docs/api.md)."""
    if isinstance(party, int) and not isinstance(party, bool):
        return {"kind": "seat", "seat": party}
    return {"kind": party, "seat": None}


def with_parties(transfer: Mapping[str, Any]) -> dict[str, Any]:
    """A transfer (``from``, ``to`` …) with its parties as objects too (``from_party``,
    ``to_party``), as every answer shows a transfer."""
    return {
        **transfer,
        "from_party": party_object(transfer["from"]),
        "to_party": party_object(transfer["to"]),
    }


Result = Literal["won", "lost", "drawn"]


class Suit(StrEnum):
    CLUBS = "clubs"
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"


SUITS: tuple[str, ...] = tuple(s.value for s in Suit)


class Reason(StrEnum):
    STAKE = "stake"
    GAME = "game"
    STAMM = "stamm"
    BETE = "bete"


class Phrase:
    """Words the rules say, as a value: the English text (the catalogs' message id) with a
    ``%(name)s`` for each of ``values``. A value is a number, a name the client sent (printed
    as it is) or a phrase itself (a word: "the declarer", "an integer"). The rules build no
    sentence in any language but English: ``service.i18n.word`` words a phrase in the reader's
    language, and ``str()`` gives the English.

    ``make translations`` extracts the text of every ``Phrase("…")`` and ``RuleViolation(field,
    "…")`` written in the code (babel's keywords ``Phrase:1`` and ``RuleViolation:2``): so a
    message is written once, where it is said, as a string literal.
    """

    __slots__ = ("text", "values")

    def __init__(self, text: str, /, **values: Any) -> None:
        self.text = text
        self.values: Mapping[str, Any] = values

    def __str__(self) -> str:
        if not self.values:
            return self.text
        return self.text % {
            name: str(value) if isinstance(value, Phrase) else value
            for name, value in self.values.items()
        }

    def __repr__(self) -> str:
        return f"Phrase({self.text!r}, **{dict(self.values)!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Phrase)
            and self.text == other.text
            and dict(self.values) == dict(other.values)
        )

    def __hash__(self) -> int:
        return hash(self.text)


class RuleViolation(Exception):
    """Input that the rules do not allow; ``errors`` maps each bad field's JSON path to messages.

    ``message`` is a ``Phrase``, or its text with ``values`` (``RuleViolation("hand.tricks",
    "must be from %(low)s to %(high)s", low=0, high=8)``); ``phrase`` keeps it for the edge to
    word in the reader's language, ``message`` and ``errors`` hold the English."""

    def __init__(self, field: str, message: str | Phrase, /, **values: Any) -> None:
        self.phrase = message if isinstance(message, Phrase) else Phrase(message, **values)
        self.field = field
        self.message = str(self.phrase)
        super().__init__(f"{field}: {self.message}")
        self.errors: dict[str, list[str]] = {field: [self.message]}


class SettlementInvariantError(AssertionError):
    """A settlement that would make or lose chips; always a bug in the rules, never bad input."""


class Transfer(NamedTuple):
    """``chips`` (> 0) move from ``source`` to ``target`` (a seat number or ``"pool"``)."""

    source: Party
    target: Party
    chips: int
    reason: Reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "chips": self.chips,
            "reason": self.reason.value,
        }


class Step(NamedTuple):
    """One step of a settlement's explanation: what happened, as a code and its values.

    Seats are the API's numbers (from 0), counts and chips plain ints, and words (a suit, a
    contract, a phrase) nested steps. The rules say no sentence: ``service.i18n`` words each
    step in the reader's language (the English is in its catalog's message ids).
    """

    code: str
    args: Mapping[str, Any] = {}

    def to_dict(self) -> dict[str, Any]:
        """``{"code": …, "args": {…}}``, nested steps and lists as plain JSON values."""
        if not self.args:
            return {"code": self.code}
        return {"code": self.code, "args": {k: _plain(v) for k, v in self.args.items()}}


def _plain(value: Any) -> Any:
    if isinstance(value, Step):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


class VariantState(Protocol):
    """What every variant's table state offers: the seat that deals the next hand."""

    @property
    def dealer(self) -> int: ...

    def to_dict(self) -> dict[str, Any]: ...


class VariantValue(Protocol):
    """Options and hand records: immutable values that can be written back as JSON."""

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome of one hand. Building one checks that chips are conserved.

    For chip variants ``deltas`` are each seat's net chips from ``transfers``, and
    ``sum(deltas) + (pool_after - pool_before) == 0``. Points variants have no transfers and
    no pool (``pool_before``/``pool_after`` are None); their deltas are points.
    """

    result: Result | None
    in_couleur: bool | None
    value: int | None
    transfers: tuple[Transfer, ...]
    deltas: tuple[int, ...]
    pool_before: int | None
    pool_after: int | None
    couleur_before: str | None
    couleur_after: str | None
    next_dealer: int
    explanation: tuple[Step, ...]
    state_after: Any  # the variant's own state value, carried to the next hand

    def __post_init__(self) -> None:
        seats = len(self.deltas)
        net = [0] * seats
        pool_net = 0
        for source, target, chips, _reason in self.transfers:
            if type(chips) is not int or chips <= 0:
                raise SettlementInvariantError(f"transfer of {chips!r} chips is not positive")
            if source == target:
                raise SettlementInvariantError(f"transfer from {source!r} to itself")
            # Seats are tested first: they are the common case, and an int never equals "pool".
            if type(source) is int and 0 <= source < seats:
                net[source] -= chips
            elif source == POOL:
                pool_net -= chips
            else:
                raise SettlementInvariantError(f"transfer names unknown party {source!r}")
            if type(target) is int and 0 <= target < seats:
                net[target] += chips
            elif target == POOL:
                pool_net += chips
            else:
                raise SettlementInvariantError(f"transfer names unknown party {target!r}")
        if self.pool_before is None or self.pool_after is None:
            if self.transfers and pool_net:
                raise SettlementInvariantError("chips moved to a pool this variant does not keep")
            if self.transfers and tuple(net) != self.deltas:
                raise SettlementInvariantError("deltas do not match the transfers")
            return
        if tuple(net) != self.deltas:
            raise SettlementInvariantError(f"deltas {self.deltas} do not match transfers {net}")
        if self.pool_after - self.pool_before != pool_net:
            raise SettlementInvariantError("pool change does not match the transfers")
        if sum(self.deltas) + pool_net != 0:
            raise SettlementInvariantError("chips were made or lost")

    def to_dict(self) -> dict[str, Any]:
        """The settlement as the HTTP contract shows it."""
        return {
            "result": self.result,
            "in_couleur": self.in_couleur,
            "value": self.value,
            "transfers": [t.to_dict() for t in self.transfers],
            "deltas": list(self.deltas),
            "pool": None
            if self.pool_before is None
            else {"before": self.pool_before, "after": self.pool_after},
            "couleur": None
            if self.couleur_before is None and self.couleur_after is None
            else {"before": self.couleur_before, "after": self.couleur_after},
            "next_dealer": self.next_dealer,
            "explanation": [step.to_dict() for step in self.explanation],
        }


@dataclass(frozen=True, slots=True)
class SessionOutcome:
    """A session's progress (Spanish Solo's targets): whether it is over, who won, and why, as
    explanation steps (``service.i18n.explain_session`` words them)."""

    over: bool
    winners: tuple[int, ...]
    reason: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class LeagueHand:
    """What a settled hand means for the league, as its variant reads it: the seat that
    declared (None: nobody did, as in a forfeit, a misdeal or a Solo 66 game without trump),
    the declaring side (the declarer first), the contract as the league counts it, whether the
    declaring side ``won``, ``lost`` or ``drawn`` (None without a declarer), whether it was a
    tout (played for all the tricks) and whether a solo (for the standings' solos won), and
    the seat of each error (a forfeit is one)."""

    declarer: int | None
    declaring_side: tuple[int, ...]
    contract: str | None
    outcome: Result | None
    tout: bool
    errors: tuple[int, ...]
    solo: bool = False


NO_DECLARER: LeagueHand = LeagueHand(None, (), None, None, False, ())

LEAGUE_STATISTICS: tuple[str, ...] = (
    "hands",
    "net",
    "declared",
    "won",
    "lost",
    "solos_won",
    "touts_won",
    "betes_paid",
    "stamms_drawn",
    "errors",
)
"""What the league counts of every hand, in its order (the standings' and a player's page's
counters): a variant's ``describe()`` lists under ``statistics`` those its game has (Solo 66
has no tout; only American Solo pays bêtes and draws stamms), and a client shows only these."""


def league_statistics(*lacking: str) -> list[str]:
    """The ``statistics`` of a ``describe()``: every league statistic but those ``lacking``."""
    unknown = set(lacking) - set(LEAGUE_STATISTICS)
    if unknown:
        raise ValueError(f"not league statistics: {sorted(unknown)}")
    return [name for name in LEAGUE_STATISTICS if name not in lacking]


class Variant(abc.ABC):
    """One game of the Solo family. A new variant is one package beside the others (``model``,
    ``parse``, ``settle``, ``variant``) whose variant object subclasses this, registered in
    ``service.rules.VARIANTS``; nothing else changes.

    Every ``parse_*`` method takes plain JSON-like values (as decoded from a request or stored
    record), checks them completely and returns immutable values, or raises ``RuleViolation``
    naming the field by its JSON path (``options.stake``, ``state.pool``, ``hand.tricks`` …).
    No other exception escapes for any input.
    """

    name: str
    title: str
    units: Literal["chips", "points"]
    player_counts: tuple[int, ...]

    @property
    def type_name(self) -> str:
        """The variant's name as typed schemas spell it (``solo66`` → ``Solo66``,
        ``AmericanPlayedHand``, ``Solo66Hand`` in ``openapi.yaml``): the name in CamelCase."""
        return "".join(part[:1].upper() + part[1:] for part in self.name.split("_"))

    def check_players(self, players: object) -> int:
        if type(players) is not int or players not in self.player_counts:
            allowed = ", ".join(str(n) for n in self.player_counts)
            raise RuleViolation(
                "players",
                "%(variant)s is played by %(allowed)s players",
                variant=Phrase(self.title),
                allowed=allowed,
            )
        return players

    @abc.abstractmethod
    def parse_options(self, raw: Mapping[str, Any] | None) -> VariantValue:
        """Options with defaults filled in; unknown names or bad values raise RuleViolation."""

    @abc.abstractmethod
    def initial_state(self, players: int, options: Any, first_dealer: int = 0) -> VariantState:
        """The state of a fresh table whose first hand is dealt by ``first_dealer``."""

    @abc.abstractmethod
    def parse_state(
        self, raw: Mapping[str, Any] | None, players: int, options: Any
    ) -> VariantState:
        """A state given by a client (missing keys take the fresh table's values)."""

    @abc.abstractmethod
    def parse_hand(self, raw: object, players: int, options: Any) -> VariantValue:
        """A complete, rule-checked hand record (fields under ``hand.``)."""

    def read_stored_hand(self, record: object, players: int, options: Any) -> VariantValue:
        """A hand record the service stored earlier, read as the rules read it when it was
        taken: a check added since (a new **Decision** of the rulebook) does not refuse it,
        the variant reads it the way the Decision says such a hand was played. So a hand
        stored before a check existed never blocks the settling again of its table (a
        correction, a void, a re-seating, an import). By default, as ``parse_hand``."""
        return self.parse_hand(record, players, options)

    @abc.abstractmethod
    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Settle a parsed hand at ``state``; may still raise RuleViolation for rules that
        depend on the state."""

    @abc.abstractmethod
    def describe(self) -> dict[str, Any]:
        """Contracts, values, options and defaults, for clients that build forms."""

    def session_outcome(
        self, options: Any, totals: tuple[int, ...], hands_played: int
    ) -> SessionOutcome | None:
        """Whether the session has reached its end (only variants with targets have one)."""
        return None

    def trick_figures(self, options: Any) -> Mapping[str, int] | None:
        """The tricks of a hand at a table with ``options``: ``per_hand``, the ``target`` of a
        plain game and the tricks a ``tout`` needs; None for a game not counted in tricks."""
        return None

    @abc.abstractmethod
    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        """What a stored hand ``record`` (read as ``read_stored_hand`` reads it) means for the
        league, its settlement's ``result`` given; the league counts from this alone."""

    def seat_keys(self) -> tuple[frozenset[str], Mapping[str, str]]:
        """The keys of a hand record whose value is a seat, and the lists of objects whose
        items each name a seat (list key -> item key), as ``describe()`` marks them
        (``"seat": true`` on a hand field or in a hand kind's ``seat_fields``, ``item_seat``
        on a list). Re-seating renumbers exactly these."""
        described = self.describe()
        seats = {f["name"] for f in described["hand_fields"] if f.get("seat")}
        for kind in described.get("hand_kinds") or ():
            seats.update(kind.get("seat_fields", ()))
        lists = {f["name"]: f["item_seat"] for f in described["hand_fields"] if "item_seat" in f}
        return frozenset(seats), lists
