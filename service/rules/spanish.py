"""Spanish Solo (variant ``spanish``): four players, a fixed colour suit, scores in points.

The contract is ``shared/rules/other-variants.md``. A declarer plays a ``simple`` (with the holder
of a called Ace), a ``solo`` or a ``tout`` (alone), in suit or in the colour (``couleur``, fixed
for the session), for

============  =======  =========  ==========
contract      in suit  in colour  target
============  =======  =========  ==========
``simple``    2        4          5 tricks
``solo``      4        8          5 tricks
``tout``      16       32         all 8
============  =======  =========  ==========

If the declaring side makes its target the declarer and the partner each score ``+V``, otherwise
each scores ``-V``; opponents score 0. There are no chips, transfers or pool. A ``revoke`` makes
the offender's side lose (the first one recorded decides). A table may set ``target_hands`` and
``target_score``; the session ends when either is reached and the highest total wins.

Checks made on a hand record (each a RuleViolation on the path given):

- ``hand``: a JSON object; ``hand.<key>`` for an unknown field.
- ``hand.kind``: optional, only ``played`` (the shape shared with American Solo).
- ``hand.contract``: ``simple``, ``solo`` or ``tout``. ``hand.trump``: a suit.
- ``hand.declarer``, ``hand.partner``: seats 0-3; ``hand.tricks``: 0-8, taken by the declaring
  side (declarer and partner together in a simple).
- ``hand.called``: ``{"rank": "ace", "suit": …}`` (``hand.called.rank``, ``hand.called.suit``);
  a ``simple`` needs it and its holder ``hand.partner``, who is not the declarer; a ``solo`` or
  ``tout`` has neither. The seed lets the declarer call "any one of the four aces", so the
  Ace of trumps may be called.
- ``hand.forced``: a bool, true only on a ``simple`` (all passed; Q♣'s holder had to play).
- ``hand.errors``: at most 16 ``{"kind": "revoke", "seat"}`` (``hand.errors.<i>.kind`` …).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .base import SUITS, RuleViolation, SessionOutcome, Settlement
from .common import (
    MAX_ERRORS,
    MISSING,
    TRICKS,
    CalledCard,
    DealerRotationVariant,
    DealerState,
    HandError,
    as_object,
    check_dealer_fits,
    get,
    optional_called,
    optional_seat,
    parse_errors,
    reject_unknown,
    require_bool,
    require_choice,
    require_int,
    require_kind_played,
    require_seat,
    require_suit,
    seat_field,
    seat_list,
    settle_points_game,
)

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
CONTRACT_TITLES: Final[Mapping[str, str]] = {"simple": "Simple game", "solo": "Solo",
                                             "tout": "Tout"}
CONTRACT_DESCRIPTIONS: Final[Mapping[str, str]] = {
    "simple": "declarer names trump and calls an ace; its holder is the partner; together they "
              "need 5 tricks",
    "solo": "declarer names trump and plays alone for 5 tricks",
    "tout": "declarer names trump and plays alone for all 8 tricks",
}
HAND_FIELDS: Final = ("kind", "contract", "trump", "declarer", "called", "partner", "tricks",
                      "forced", "errors")

SpanishState = DealerState


@dataclass(frozen=True, slots=True)
class SpanishOptions:
    """``couleur`` (fixed for the session) and the optional session targets."""

    couleur: str = DEFAULT_COULEUR
    target_hands: int | None = None
    target_score: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"couleur": self.couleur, "target_hands": self.target_hands,
                "target_score": self.target_score}


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
        """The declaring side: the declarer, and the partner in a simple."""
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

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


def _optional_target(value: object, path: str, high: int) -> int | None:
    if value is MISSING or value is None:
        return None
    return require_int(value, path, 1, high)


class SpanishSolo(DealerRotationVariant):
    """Spanish Solo: points for the declaring side, a fixed colour, optional session targets."""

    name = "spanish"
    title = "Spanish Solo"
    units: Literal["chips", "points"] = "points"
    player_counts = (PLAYERS,)
    options_type = SpanishOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> SpanishOptions:
        """``couleur`` (default clubs), ``target_hands`` and ``target_score`` (null or ≥ 1)."""
        if raw is None:
            return SpanishOptions()
        obj = as_object(raw, "options")
        reject_unknown(obj, OPTION_NAMES, "options", "unknown option")
        couleur = get(obj, "couleur")
        return SpanishOptions(
            couleur=DEFAULT_COULEUR if couleur is MISSING
            else require_suit(couleur, "options.couleur"),
            target_hands=_optional_target(get(obj, "target_hands"), "options.target_hands",
                                          MAX_TARGET_HANDS),
            target_score=_optional_target(get(obj, "target_score"), "options.target_score",
                                          MAX_TARGET_SCORE),
        )

    def parse_hand(self, raw: object, players: int, options: Any) -> SpanishHand:
        """A complete, rule-checked hand record (see the module docstring for every check)."""
        n = self.check_players(players)
        obj = as_object(raw, "hand")
        reject_unknown(obj, HAND_FIELDS, "hand")
        require_kind_played(get(obj, "kind"), "hand.kind", self.title)
        contract = require_choice(get(obj, "contract"), "hand.contract", CONTRACTS, "a contract")
        trump = require_suit(get(obj, "trump"), "hand.trump")
        declarer = require_seat(get(obj, "declarer"), "hand.declarer", n)
        called = optional_called(get(obj, "called"), "hand.called", CALLED_RANKS)
        partner = optional_seat(get(obj, "partner"), "hand.partner", n)
        tricks = require_int(get(obj, "tricks"), "hand.tricks", 0, TRICKS)
        forced = require_bool(get(obj, "forced"), "hand.forced")
        errors = parse_errors(get(obj, "errors"), "hand.errors", n)
        if contract == "simple":
            if called is None:
                raise RuleViolation("hand.called", "a simple game calls an ace: give the card")
            if partner is None:
                raise RuleViolation("hand.partner",
                                    "a simple game needs the seat holding the called ace")
            if partner == declarer:
                raise RuleViolation("hand.partner",
                                    "the partner (holder of the called ace) must be another "
                                    "seat than the declarer")
        else:
            if called is not None:
                raise RuleViolation("hand.called", f"a {contract} is played alone: no called card")
            if partner is not None:
                raise RuleViolation("hand.partner", f"a {contract} is played alone: no partner")
            if forced:
                raise RuleViolation("hand.forced",
                                    "only a simple game can be forced (when all passed)")
        return SpanishHand(contract, trump, declarer, called, partner, tricks, forced, errors)

    def _hand(self, hand: object, players: int, options: SpanishOptions) -> SpanishHand:
        return hand if isinstance(hand, SpanishHand) else self.parse_hand(hand, players, options)

    def value(self, hand: SpanishHand, options: SpanishOptions) -> int:
        """The points of the contract: doubled when the trump suit is the colour."""
        base = VALUES[hand.contract]
        return 2 * base if hand.trump == options.couleur else base

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Score one hand: ``±V`` to the declarer and the partner, 0 to the opponents."""
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else self.parse_state(state, n, opts)
        check_dealer_fits(st, n)
        h = self._hand(hand, n, opts)
        in_couleur = h.trump == opts.couleur
        value = self.value(h, opts)
        target = TARGETS[h.contract]
        side = h.side
        lines = [self._contract_line(h, opts, value, target)]
        return settle_points_game(
            players=n, dealer=st.dealer, side=side, value=value, tricks=h.tricks,
            target=target, errors=h.errors, lines=lines, party="declaring side",
            others="the opponents", in_couleur=in_couleur, couleur=opts.couleur)

    @staticmethod
    def _contract_line(h: SpanishHand, opts: SpanishOptions, value: int, target: int) -> str:
        where = "in colour" if h.trump == opts.couleur else "in suit"
        needs = f"target all {target} tricks" if target == TRICKS else f"target {target} tricks"
        if h.contract == "simple" and h.called is not None:
            name = "Forced simple game (all passed)" if h.forced else "Simple game"
            return (f"{name} in {h.trump}, {where}: {value} points, {needs}; seat {h.declarer} "
                    f"declares with seat {h.partner}, holder of the ace of {h.called.suit}")
        name = "Solo" if h.contract == "solo" else "Tout"
        return f"{name} in {h.trump}, {where}: {value} points, {needs}; seat {h.declarer} alone"

    def session_outcome(self, options: Any, totals: tuple[int, ...],
                        hands_played: int) -> SessionOutcome | None:
        """None without targets. Otherwise over once ``hands_played >= target_hands`` or any
        total ``>= target_score``; the winners are the seats with the highest total."""
        opts = self._options(options)
        if opts.target_hands is None and opts.target_score is None:
            return None
        reasons: list[str] = []
        if opts.target_hands is not None and hands_played >= opts.target_hands:
            reasons.append(f"{hands_played} of {opts.target_hands} hands played")
        if opts.target_score is not None:
            reached = [seat for seat, total in enumerate(totals) if total >= opts.target_score]
            if reached:
                reasons.append(f"{seat_list(reached)} reached the target score "
                               f"of {opts.target_score}")
        if not reasons:
            progress = [f"{hands_played} hands played"]
            if opts.target_hands is not None:
                progress[0] += f" of {opts.target_hands}"
            if opts.target_score is not None:
                progress.append(f"target score {opts.target_score} not reached")
            return SessionOutcome(over=False, winners=(), reason="; ".join(progress))
        if not totals:
            return SessionOutcome(over=True, winners=(), reason="; ".join(reasons))
        best = max(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == best)
        return SessionOutcome(over=True, winners=winners,
                              reason="; ".join(reasons) + f"; highest total {best}")

    def describe(self) -> dict[str, Any]:
        """Contracts, values, hand fields, error kinds and options, for clients that build
        forms."""
        return {
            "name": self.name,
            "title": self.title,
            "units": self.units,
            "players": list(self.player_counts),
            "suits": list(SUITS),
            "tricks": TRICKS,
            "contracts": [
                {"name": contract, "title": CONTRACT_TITLES[contract],
                 "in_suit": VALUES[contract], "in_couleur": 2 * VALUES[contract],
                 "target": TARGETS[contract],
                 "calls_partner": "required" if contract == "simple" else "none",
                 "called_ranks": list(CALLED_RANKS) if contract == "simple" else [],
                 "description": CONTRACT_DESCRIPTIONS[contract]}
                for contract in CONTRACTS
            ],
            "scoring": "declarer and partner each score +value if the target is made, "
                       "-value if not; opponents score 0",
            "hand_fields": [
                {"name": "kind", "type": "string", "required": False, "default": "played",
                 "allowed": ["played"], "description": "only played hands are recorded"},
                {"name": "contract", "type": "string", "required": True,
                 "allowed": list(CONTRACTS), "description": "the game declared"},
                {"name": "trump", "type": "string", "required": True, "allowed": list(SUITS),
                 "description": "the trump suit; the colour doubles the value"},
                seat_field("declarer", PLAYERS, "the seat that declared (or, if all passed, "
                           "the holder of the queen of clubs)"),
                {"name": "called", "type": "object", "required": False, "nullable": True,
                 "fields": {"rank": list(CALLED_RANKS), "suit": list(SUITS)},
                 "description": "the ace called in a simple game; absent otherwise"},
                seat_field("partner", PLAYERS, "holder of the called ace (simple only)",
                           required=False, nullable=True),
                {"name": "tricks", "type": "integer", "min": 0, "max": TRICKS, "required": True,
                 "description": "tricks taken by the declaring side"},
                {"name": "forced", "type": "boolean", "required": False, "default": False,
                 "description": "all passed and the holder of the queen of clubs had to play a "
                                "simple game (kept for the record only)"},
                {"name": "errors", "type": "array", "required": False, "default": [],
                 "max_items": MAX_ERRORS,
                 "description": "errors as {kind, seat}; kind is one of error_kinds"},
            ],
            "error_kinds": [{"name": "revoke",
                             "description": "the offender's side loses the game"}],
            "options": [
                {"name": "couleur", "type": "string", "default": DEFAULT_COULEUR,
                 "allowed": list(SUITS),
                 "description": "the colour: games with it as trump score double"},
                {"name": "target_hands", "type": "integer", "default": None, "nullable": True,
                 "min": 1, "max": MAX_TARGET_HANDS,
                 "description": "the session ends after this many hands (null: no limit)"},
                {"name": "target_score", "type": "integer", "default": None, "nullable": True,
                 "min": 1, "max": MAX_TARGET_SCORE,
                 "description": "the session ends when a total reaches this (null: no limit)"},
            ],
        }


SPANISH: Final = SpanishSolo()
