"""German Solo (variant ``german``): four players, the anthology scoring, in points.

The contract is ``shared/rules/other-variants.md``. Contracts and base values: ``force``
(*Mussfrage*) 1, ``frage`` 2, ``grossfrage`` 3, ``solo`` 6 (**Decision** of the rulebook: the
seed's "2 for a Frage or Solo … and 6 for Solo" is read as Solo = 6). Added to the base: prime +2
(``stopped_after_five``), tout +4 (``continued_after_five``, made or not), tout +6
(``tout_announced``), and +2 when the three matadors were dealt to one party
(``matadors_together``). A game whose trump is the option ``preferred_suit`` scores double (the
whole value, bonuses included). The target is 5 tricks, all 8 after going on or announcing tout.
Only the declaring party scores: ``+value`` each on success, ``-value`` each on failure. A
``revoke`` makes the offender's side lose (the first one recorded decides).

Checks made on a hand record (each a RuleViolation on the path given):

- ``hand``: a JSON object; ``hand.<key>`` for an unknown field; ``hand.kind`` only ``played``.
- ``hand.contract``: ``frage``, ``grossfrage``, ``solo`` or ``force``; ``hand.trump``: a suit.
- ``hand.declarer``, ``hand.partner``: seats 0-3; ``hand.tricks``: 0-8 for the declaring party.
- ``hand.called`` (``.rank``, ``.suit``): required with its holder ``hand.partner`` in a
  ``frage``, ``grossfrage`` or ``force``, forbidden (both) in a ``solo``. The rank is ``ace``, or
  ``king`` in a ``frage`` (when the declarer holds all four aces). The called card is of a plain
  suit, never of the trump suit (``hand.called.suit``). The partner is not the declarer (the
  declarer calls an ace he does not hold).
- ``hand.stopped_after_five``, ``hand.continued_after_five``, ``hand.tout_announced``: bools, at
  most one true (the second one true is named); stopping or going on after five needs
  ``tricks >= 5`` (the party won the first five).
- ``hand.matadors_together``: a bool. ``hand.errors``: at most 16 ``{"kind": "revoke", "seat"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .base import SUITS, RuleViolation, Settlement
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
    optional_suit,
    parse_errors,
    reject_unknown,
    require_bool,
    require_choice,
    require_int,
    require_kind_played,
    require_seat,
    require_suit,
    seat_field,
    settle_points_game,
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


class GermanSolo(DealerRotationVariant):
    """German Solo: base value plus bonuses to each of the declaring party, won or lost."""

    name = "german"
    title = "German Solo"
    units: Literal["chips", "points"] = "points"
    player_counts = (PLAYERS,)
    options_type = GermanOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> GermanOptions:
        """``preferred_suit``: a suit or null (the default)."""
        if raw is None:
            return GermanOptions()
        obj = as_object(raw, "options")
        reject_unknown(obj, OPTION_NAMES, "options", "unknown option")
        preferred = get(obj, "preferred_suit")
        return GermanOptions(None if preferred is MISSING
                             else optional_suit(preferred, "options.preferred_suit"))

    def parse_hand(self, raw: object, players: int, options: Any) -> GermanHand:
        """A complete, rule-checked hand record (see the module docstring for every check)."""
        n = self.check_players(players)
        obj = as_object(raw, "hand")
        reject_unknown(obj, HAND_FIELDS, "hand")
        require_kind_played(get(obj, "kind"), "hand.kind", self.title)
        contract = require_choice(get(obj, "contract"), "hand.contract", CONTRACTS, "a contract")
        trump = require_suit(get(obj, "trump"), "hand.trump")
        declarer = require_seat(get(obj, "declarer"), "hand.declarer", n)
        ranks = CALLED_RANKS.get(contract, ("ace", "king"))
        called = optional_called(get(obj, "called"), "hand.called", ranks)
        partner = optional_seat(get(obj, "partner"), "hand.partner", n)
        tricks = require_int(get(obj, "tricks"), "hand.tricks", 0, TRICKS)
        flags = {f: require_bool(get(obj, f), f"hand.{f}") for f in TOUT_FLAGS}
        matadors = require_bool(get(obj, "matadors_together"), "hand.matadors_together")
        errors = parse_errors(get(obj, "errors"), "hand.errors", n)

        if contract in PARTNER_CONTRACTS:
            if called is None:
                raise RuleViolation("hand.called",
                                    f"a {contract} calls a card whose holder is the partner: "
                                    "give the card")
            if called.suit == trump:
                raise RuleViolation("hand.called.suit",
                                    "the called card must be of a plain suit, not of trumps")
            if partner is None:
                raise RuleViolation("hand.partner",
                                    f"a {contract} needs the seat holding the called card")
            if partner == declarer:
                raise RuleViolation("hand.partner",
                                    "the partner (holder of the called card) must be another "
                                    "seat than the declarer")
        else:
            if called is not None:
                raise RuleViolation("hand.called", "a solo is played alone: no called card")
            if partner is not None:
                raise RuleViolation("hand.partner", "a solo is played alone: no partner")

        raised = [f for f in TOUT_FLAGS if flags[f]]
        if len(raised) > 1:
            raise RuleViolation(f"hand.{raised[1]}",
                                "at most one of stopped_after_five, continued_after_five and "
                                "tout_announced may be true")
        for flag in ("stopped_after_five", "continued_after_five"):
            if flags[flag] and tricks < TARGET:
                action = "stop" if flag == "stopped_after_five" else "go on"
                raise RuleViolation(f"hand.{flag}",
                                    f"the declaring party can {action} after five only when it "
                                    f"won the first five tricks (tricks must be at least 5)")
        return GermanHand(contract, trump, declarer, called, partner, tricks,
                          flags["stopped_after_five"], flags["continued_after_five"],
                          flags["tout_announced"], matadors, errors)

    def _hand(self, hand: object, players: int, options: GermanOptions) -> GermanHand:
        return hand if isinstance(hand, GermanHand) else self.parse_hand(hand, players, options)

    @staticmethod
    def value_terms(hand: GermanHand) -> list[tuple[str, int]]:
        """The base and each bonus that applies, in the rulebook's order."""
        terms = [("base", BASE[hand.contract])]
        if hand.stopped_after_five:
            terms.append(("prime", PRIME))
        if hand.continued_after_five:
            terms.append(("tout after five", TOUT_CONTINUED))
        if hand.tout_announced:
            terms.append(("tout announced", TOUT_ANNOUNCED))
        if hand.matadors_together:
            terms.append(("matadors together", MATADORS))
        return terms

    def value(self, hand: GermanHand, options: GermanOptions) -> int:
        """Base plus bonuses, doubled when the trump is the preferred suit."""
        total = sum(points for _, points in self.value_terms(hand))
        return total * PREFERRED_MULTIPLIER if hand.trump == options.preferred_suit else total

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Score one hand: ``±value`` to each of the declaring party, 0 to the others."""
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else self.parse_state(state, n, opts)
        check_dealer_fits(st, n)
        h = self._hand(hand, n, opts)
        preferred = opts.preferred_suit is not None and h.trump == opts.preferred_suit
        terms = self.value_terms(h)
        value = self.value(h, opts)
        side = h.side
        lines = [self._contract_line(h)]
        sum_text = " + ".join(f"{label} {points}" for label, points in terms)
        if len(terms) > 1:
            sum_text += f" = {sum(points for _, points in terms)}"
        if preferred:
            sum_text += f", doubled for the preferred suit {h.trump} = {value}"
        lines.append(f"Value: {sum_text}")
        return settle_points_game(
            players=n, dealer=st.dealer, side=side, value=value, tricks=h.tricks,
            target=h.target, errors=h.errors, lines=lines, party="declaring party",
            others="the others", in_couleur=preferred, couleur=None)

    @staticmethod
    def _contract_line(h: GermanHand) -> str:
        name = TITLES[h.contract]
        if h.continued_after_five:
            needs = "all 8 tricks (went on after five)"
        elif h.tout_announced:
            needs = "all 8 tricks (tout announced)"
        elif h.stopped_after_five:
            needs = "5 tricks (stopped after five for prime)"
        else:
            needs = "5 tricks"
        if h.called is None:
            return f"{name} in {h.trump}: seat {h.declarer} plays alone; target {needs}"
        return (f"{name} in {h.trump}: seat {h.declarer} declares with seat {h.partner}, holder "
                f"of the {h.called.rank} of {h.called.suit}; target {needs}")

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
