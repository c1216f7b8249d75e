"""Solo 66 (variant ``solo66``): five players, one soloist against four defenders, in chips.

The contract is ``shared/rules/other-variants.md``. 32 cards, 6 to each player and 2 to a kitty
that is not played. Card points: A 11, 10 11, K 4, Q 3, J 2, 7-9 nothing, and 10 for the last
trick: 134 in all. The soloist wins with 66 card points or more; otherwise the defenders win if
they have 66 or more; otherwise the game is drawn. If all passed (``trump: null``) the game is
played without trump and whoever takes the last trick (``last_trick``) wins.

Payments (**Decision** of the rulebook, option ``stake``, default 1): a winning soloist receives
the stake from each defender, a losing one pays it to each, the winner of a game without trump
receives it from each other player, a drawn game moves nothing. Transfers are listed in
ascending seat order of the paying (or, for a lost game, receiving) seats; there is no pool.

Checks made on a hand record (each a RuleViolation on the path given):

- ``hand``: a JSON object; ``hand.<key>`` for an unknown field; ``hand.kind`` only ``played``.
- ``hand.trump``: required, a suit or null (all passed).
- With a trump: ``hand.soloist`` (a seat 0-4) and ``hand.soloist_points`` (0-134) are required;
  ``hand.defender_points`` (0-134) defaults to ``134 - soloist_points``; ``hand.last_trick`` is
  refused (the last trick's 10 points are in the sums).
- Without trump: ``hand.last_trick`` (a seat) is required and ``hand.soloist``,
  ``hand.soloist_points`` and ``hand.defender_points`` are refused (a null counts as absent).
- The card points must be possible: no pile of cards is worth 1 or 133
  (``hand.soloist_points`` / ``hand.defender_points``); the two sums may not exceed 134
  (**Decision** of the rulebook) and, since the kitty's two cards hold at most 22 points, may not
  fall below 112 (``hand.defender_points``); and the pair must come from one deal of the cards,
  the soloist taking five cards a trick (``hand.defender_points``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .base import SUITS, Reason, RuleViolation, Settlement, Transfer
from .common import (
    MISSING,
    DealerRotationVariant,
    DealerState,
    as_object,
    check_dealer_fits,
    get,
    is_absent,
    optional_seat,
    optional_suit,
    reject_unknown,
    require_int,
    require_kind_played,
    require_present,
    seat_list,
)

PLAYERS: Final = 5
TOTAL_POINTS: Final = 134
WIN_POINTS: Final = 66
LAST_TRICK_POINTS: Final = 10
KITTY_CARDS: Final = 2
CARDS_PER_TRICK: Final = PLAYERS
TRICKS: Final = 6
CARD_POINTS: Final[Mapping[str, int]] = {
    "ace": 11, "ten": 11, "king": 4, "queen": 3, "jack": 2, "nine": 0, "eight": 0, "seven": 0}
MAX_KITTY_POINTS: Final = 22
MIN_COUNTED: Final = TOTAL_POINTS - MAX_KITTY_POINTS
DEFAULT_STAKE: Final = 1
MAX_STAKE: Final = 10_000
OPTION_NAMES: Final = ("stake",)
HAND_FIELDS: Final = ("kind", "soloist", "trump", "soloist_points", "defender_points",
                      "last_trick")

Solo66State = DealerState


@functools.cache
def possible_points() -> frozenset[tuple[int, int]]:
    """Every ``(soloist_points, defender_points)`` that one deal and play can produce.

    The 32 cards are split into the soloist's tricks (5 cards each, ``k`` of 6 tricks), the
    defenders' tricks (the other ``30 - 5k`` cards) and the kitty (2 cards, not counted); the
    last trick's 10 points go to the soloist if ``k >= 1`` took it, else to the defenders.
    """
    counts: dict[int, int] = {}
    for points in CARD_POINTS.values():
        counts[points] = counts.get(points, 0) + 4
    zeros = counts.pop(0)
    # (soloist's point cards, kitty cards, soloist's points, defenders' points)
    states = {(0, 0, 0, 0)}
    for points, number in sorted(counts.items()):
        states = {
            (taken + a, kitty + c, s + a * points, d + (number - a - c) * points)
            for taken, kitty, s, d in states
            for c in range(min(number, KITTY_CARDS - kitty) + 1)
            for a in range(number - c + 1)
        }
    pairs: set[tuple[int, int]] = set()
    for taken, kitty, s, d in states:
        free_zeros = zeros - (KITTY_CARDS - kitty)
        for zeros_to_soloist in range(free_zeros + 1):
            cards = taken + zeros_to_soloist
            if cards % CARDS_PER_TRICK:
                continue
            tricks = cards // CARDS_PER_TRICK
            if tricks >= 1:
                pairs.add((s + LAST_TRICK_POINTS, d))
            if tricks < TRICKS:
                pairs.add((s, d + LAST_TRICK_POINTS))
    return frozenset(pairs)


@functools.cache
def possible_pile_points() -> frozenset[int]:
    """Every number of card points one side can take (all but 1 and 133)."""
    return frozenset(s for s, _ in possible_points())


@dataclass(frozen=True, slots=True)
class Solo66Options:
    """``stake``: chips each payment moves."""

    stake: int = DEFAULT_STAKE

    def to_dict(self) -> dict[str, Any]:
        return {"stake": self.stake}


@dataclass(frozen=True, slots=True)
class Solo66Hand:
    """A checked Solo 66 hand: a soloist's game with its card points, or (``trump`` None) a
    game without trump won by ``last_trick``."""

    trump: str | None
    soloist: int | None
    soloist_points: int | None
    defender_points: int | None
    last_trick: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "soloist": self.soloist,
            "trump": self.trump,
            "soloist_points": self.soloist_points,
            "defender_points": self.defender_points,
            "last_trick": self.last_trick,
        }


def _points(value: object, path: str) -> int:
    points = require_int(value, path, 0, TOTAL_POINTS, "a number of card points")
    if points not in possible_pile_points():
        raise RuleViolation(path, f"no pile of cards is worth {points} points")
    return points


class Solo66(DealerRotationVariant):
    """Solo 66: the stake from each loser to each winner; nothing for a drawn game."""

    name = "solo66"
    title = "Solo 66"
    units: Literal["chips", "points"] = "chips"
    player_counts = (PLAYERS,)
    options_type = Solo66Options

    def parse_options(self, raw: Mapping[str, Any] | None) -> Solo66Options:
        """``stake``: an integer from 1 to 10000 (default 1)."""
        if raw is None:
            return Solo66Options()
        obj = as_object(raw, "options")
        reject_unknown(obj, OPTION_NAMES, "options", "unknown option")
        stake = get(obj, "stake")
        return Solo66Options(DEFAULT_STAKE if stake is MISSING
                             else require_int(stake, "options.stake", 1, MAX_STAKE))

    def parse_hand(self, raw: object, players: int, options: Any) -> Solo66Hand:
        """A complete, rule-checked hand record (see the module docstring for every check)."""
        n = self.check_players(players)
        obj = as_object(raw, "hand")
        reject_unknown(obj, HAND_FIELDS, "hand")
        require_kind_played(get(obj, "kind"), "hand.kind", self.title)
        raw_trump = get(obj, "trump")
        require_present(raw_trump, "hand.trump",
                        "is required: the trump suit, or null when all passed")
        trump = optional_suit(raw_trump, "hand.trump")
        soloist = optional_seat(get(obj, "soloist"), "hand.soloist", n)
        raw_soloist_points = get(obj, "soloist_points")
        raw_defender_points = get(obj, "defender_points")
        soloist_points = (None if is_absent(raw_soloist_points)
                          else _points(raw_soloist_points, "hand.soloist_points"))
        defender_points = (None if is_absent(raw_defender_points)
                           else _points(raw_defender_points, "hand.defender_points"))
        last_trick = optional_seat(get(obj, "last_trick"), "hand.last_trick", n)

        if trump is None:
            if last_trick is None:
                raise RuleViolation("hand.last_trick", "is required when all passed (trump "
                                    "null): the seat that took the last trick wins")
            for path, value in (("hand.soloist", soloist),
                                ("hand.soloist_points", soloist_points),
                                ("hand.defender_points", defender_points)):
                if value is not None:
                    raise RuleViolation(path, "a game without trump has no soloist and its "
                                        "card points are not counted")
            return Solo66Hand(None, None, None, None, last_trick)

        if soloist is None:
            raise RuleViolation("hand.soloist", "is required: the seat that plays alone")
        if soloist_points is None:
            raise RuleViolation("hand.soloist_points",
                                "is required: the card points the soloist took")
        if last_trick is not None:
            raise RuleViolation("hand.last_trick", "is recorded only for a game without trump; "
                                "with a trump its 10 points are in the card points")
        if defender_points is None:
            defender_points = TOTAL_POINTS - soloist_points
        counted = soloist_points + defender_points
        if counted > TOTAL_POINTS:
            raise RuleViolation("hand.defender_points",
                                f"soloist and defenders together have {counted} points; "
                                f"there are only {TOTAL_POINTS}")
        if counted < MIN_COUNTED:
            raise RuleViolation("hand.defender_points",
                                f"soloist and defenders together have only {counted} points; "
                                f"the two kitty cards hold at most {MAX_KITTY_POINTS}, so at "
                                f"least {MIN_COUNTED} are taken in tricks")
        if (soloist_points, defender_points) not in possible_points():
            raise RuleViolation("hand.defender_points",
                                f"no deal of the cards gives the soloist {soloist_points} and "
                                f"the defenders {defender_points} points")
        return Solo66Hand(trump, soloist, soloist_points, defender_points, None)

    def _hand(self, hand: object, players: int, options: Solo66Options) -> Solo66Hand:
        return hand if isinstance(hand, Solo66Hand) else self.parse_hand(hand, players, options)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        """Pay the stake from each loser to each winner, in ascending seat order."""
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else self.parse_state(state, n, opts)
        check_dealer_fits(st, n)
        h = self._hand(hand, n, opts)
        stake = opts.stake
        lines: list[str] = []
        transfers: list[Transfer] = []
        result: Literal["won", "lost", "drawn"]
        if h.trump is None and h.last_trick is not None:
            winner = h.last_trick
            others = [seat for seat in range(n) if seat != winner]
            result = "won"
            lines.append(f"All passed: played without trump; seat {winner} took the last trick "
                         "and wins")
            transfers = [Transfer(seat, winner, stake, Reason.GAME) for seat in others]
            lines.append(f"{seat_list(others).capitalize()} each pay {self._chips(stake)} "
                         f"to seat {winner}")
        elif h.soloist is not None and h.soloist_points is not None \
                and h.defender_points is not None:
            soloist = h.soloist
            defenders = [seat for seat in range(n) if seat != soloist]
            lines.append(f"Seat {soloist} plays alone with {h.trump} as trump: "
                         f"{h.soloist_points} card points against the defenders' "
                         f"{h.defender_points}")
            if h.soloist_points >= WIN_POINTS:
                result = "won"
                lines.append(f"The soloist has {WIN_POINTS} or more: won")
                transfers = [Transfer(seat, soloist, stake, Reason.GAME) for seat in defenders]
                lines.append(f"{seat_list(defenders).capitalize()} each pay "
                             f"{self._chips(stake)} to seat {soloist}")
            elif h.defender_points >= WIN_POINTS:
                result = "lost"
                lines.append(f"The soloist has less than {WIN_POINTS} and the defenders "
                             f"{WIN_POINTS} or more: lost")
                transfers = [Transfer(soloist, seat, stake, Reason.GAME) for seat in defenders]
                lines.append(f"Seat {soloist} pays {self._chips(stake)} to each of "
                             f"{seat_list(defenders)}")
            else:
                result = "drawn"
                lines.append(f"Neither side reached {WIN_POINTS}: drawn, no chips move")
        else:  # only a hand built by hand, bypassing parse_hand, can get here
            raise RuleViolation("hand", "is not a complete Solo 66 hand")
        deltas = [0] * n
        for t in transfers:
            if isinstance(t.source, int):
                deltas[t.source] -= t.chips
            if isinstance(t.target, int):
                deltas[t.target] += t.chips
        next_dealer = (st.dealer + 1) % n
        lines.append(f"Seat {next_dealer} deals next")
        return Settlement(
            result=result,
            in_couleur=None,
            value=0 if result == "drawn" else stake,
            transfers=tuple(transfers),
            deltas=tuple(deltas),
            pool_before=None,
            pool_after=None,
            couleur_before=None,
            couleur_after=None,
            next_dealer=next_dealer,
            explanation=tuple(lines),
            state_after=DealerState(next_dealer),
        )

    @staticmethod
    def _chips(stake: int) -> str:
        return f"{stake} chip" if stake == 1 else f"{stake} chips"

    def describe(self) -> dict[str, Any]:
        """Card points, the ways to win, hand fields and options, for clients that build
        forms."""
        return {
            "name": self.name,
            "title": self.title,
            "units": self.units,
            "players": list(self.player_counts),
            "suits": list(SUITS),
            "contracts": [
                {"name": "game", "trump": "a suit", "target_points": WIN_POINTS,
                 "description": "the soloist names trump and plays alone against four "
                                "defenders; 66 card points win, the defenders win with 66, "
                                "otherwise drawn"},
                {"name": "no_trump", "trump": None, "winner": "last_trick",
                 "description": "all passed: played without trump; whoever takes the last "
                                "trick wins"},
            ],
            "card_points": dict(CARD_POINTS),
            "last_trick_points": LAST_TRICK_POINTS,
            "total_points": TOTAL_POINTS,
            "kitty_cards": KITTY_CARDS,
            "payments": "the stake from each loser to each winner; nothing for a drawn game",
            "hand_fields": [
                {"name": "kind", "type": "string", "required": False, "default": "played",
                 "allowed": ["played"], "description": "only played hands are recorded"},
                {"name": "trump", "type": "string", "required": True, "nullable": True,
                 "allowed": list(SUITS),
                 "description": "the trump suit; null when all passed"},
                {"name": "soloist", "type": "integer", "min": 0, "max": PLAYERS - 1,
                 "required": False, "nullable": True,
                 "description": "the seat playing alone (required with a trump)"},
                {"name": "soloist_points", "type": "integer", "min": 0, "max": TOTAL_POINTS,
                 "required": False, "nullable": True,
                 "description": "card points the soloist took (required with a trump)"},
                {"name": "defender_points", "type": "integer", "min": 0, "max": TOTAL_POINTS,
                 "required": False, "nullable": True,
                 "default": f"{TOTAL_POINTS} - soloist_points",
                 "description": "card points the defenders took (with a trump)"},
                {"name": "last_trick", "type": "integer", "min": 0, "max": PLAYERS - 1,
                 "required": False, "nullable": True,
                 "description": "the seat that took the last trick (required, and only "
                                "allowed, without trump)"},
            ],
            "error_kinds": [],
            "options": [
                {"name": "stake", "type": "integer", "default": DEFAULT_STAKE, "min": 1,
                 "max": MAX_STAKE, "description": "chips each loser pays each winner"},
            ],
        }


SOLO66: Final = Solo66()
