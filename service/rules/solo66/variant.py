"""Solo 66's variant object: the wiring of its parsing and settlement, and its description for
clients that build forms (``GET /api/v1/variants``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ..base import NO_DECLARER, SUITS, LeagueHand, Result, Settlement, league_statistics
from ..common import (
    DEALER_STATE_FIELD,
    KIND_FORM,
    TRUMP_FORM,
    DealerRotationVariant,
    DealerState,
    check_dealer_fits,
    parse_dealer_state,
    played_kind_field,
    seat_in,
    with_forms,
)
from . import parse, settle
from .model import (
    CARD_POINTS,
    DEFAULT_STAKE,
    KITTY_CARDS,
    LAST_TRICK_POINTS,
    MAX_STAKE,
    PLAYERS,
    TITLE,
    TOTAL_POINTS,
    WIN_POINTS,
    Solo66Hand,
    Solo66Options,
)

_WITH_TRUMP = [{"given": ["trump"]}]
_FORMS: Final[dict[str, Mapping[str, Any]]] = {
    "kind": KIND_FORM,
    "trump": {**TRUMP_FORM, "none_title": "No trump"},
    "soloist": {
        "title": "Soloist",
        "prompt": "tap the soloist",
        "shown_when": _WITH_TRUMP,
        "required_when": _WITH_TRUMP,
    },
    "soloist_points": {
        "title": "Soloist’s card points",
        "prompt": "set soloist points",
        "shown_when": _WITH_TRUMP,
        "required_when": _WITH_TRUMP,
    },
    "defender_points": {"title": "Defenders’ card points", "shown_when": _WITH_TRUMP},
    "last_trick": {
        "title": "Last trick taken by",
        "prompt": "tap who took the last trick",
        "shown_when": [{"trump": [None]}],
        "required_when": [{"trump": [None]}],
    },
}
"""What the pad's form needs of each hand field (``common.with_forms``)."""

LEAGUE_CONTRACT: Final = "solo"
"""How the league counts a soloist's game: a solo, as the other games' solos."""


class Solo66(DealerRotationVariant):
    """Solo 66: the stake from each loser to each winner; nothing for a drawn game."""

    name = "solo66"
    title = TITLE
    units: Literal["chips", "points"] = "chips"
    player_counts = (PLAYERS,)
    options_type = Solo66Options

    def parse_options(self, raw: Mapping[str, Any] | None) -> Solo66Options:
        return parse.parse_options(raw)

    def parse_hand(self, raw: object, players: int, options: Any) -> Solo66Hand:
        """A complete, rule-checked hand record (see the package docstring for every check)."""
        return parse.parse_hand(raw, self.check_players(players))

    def _hand(self, hand: object, players: int, options: Solo66Options) -> Solo66Hand:
        return hand if isinstance(hand, Solo66Hand) else self.parse_hand(hand, players, options)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else parse_dealer_state(state, n)
        check_dealer_fits(st, n)
        return settle.settle(n, opts, st, self._hand(hand, n, opts))

    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        """The soloist's game counts as a ``solo`` of the soloist alone; a game without
        trump has no declarer; Solo 66 records no errors and no tout."""
        if not isinstance(record, Mapping):
            return NO_DECLARER
        soloist = seat_in(record.get("soloist"), players)
        if soloist is None:
            return NO_DECLARER
        return LeagueHand(soloist, (soloist,), LEAGUE_CONTRACT, result, False, (), solo=True)

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
                {
                    "name": "game",
                    "title": "Game",
                    "trump": "a suit",
                    "target_points": WIN_POINTS,
                    "description": "the soloist names trump and plays alone against four "
                    "defenders; 66 card points win, the defenders win with 66, "
                    "otherwise drawn",
                },
                {
                    "name": "no_trump",
                    "title": "No trump",
                    "trump": None,
                    "winner": "last_trick",
                    "description": "all passed: played without trump; whoever takes the last "
                    "trick wins",
                },
            ],
            "card_points": dict(CARD_POINTS),
            "last_trick_points": LAST_TRICK_POINTS,
            "total_points": TOTAL_POINTS,
            "kitty_cards": KITTY_CARDS,
            "payments": "the stake from each loser to each winner; nothing for a drawn game",
            "state_fields": [DEALER_STATE_FIELD],
            "hand_fields": with_forms(
                [
                    played_kind_field(),
                    {
                        "name": "trump",
                        "type": "string",
                        "required": True,
                        "nullable": True,
                        "allowed": list(SUITS),
                        "description": "the trump suit; null when all passed",
                    },
                    {
                        "name": "soloist",
                        "type": "integer",
                        "seat": True,
                        "min": 0,
                        "max": PLAYERS - 1,
                        "required": False,
                        "nullable": True,
                        "description": "the seat playing alone (required with a trump)",
                    },
                    {
                        "name": "soloist_points",
                        "type": "integer",
                        "min": 0,
                        "max": TOTAL_POINTS,
                        "required": False,
                        "nullable": True,
                        "description": "card points the soloist took (required with a trump)",
                    },
                    {
                        "name": "defender_points",
                        "type": "integer",
                        "min": 0,
                        "max": TOTAL_POINTS,
                        "required": False,
                        "nullable": True,
                        "default": f"{TOTAL_POINTS} - soloist_points",
                        "description": "card points the defenders took (with a trump)",
                    },
                    {
                        "name": "last_trick",
                        "type": "integer",
                        "seat": True,
                        "min": 0,
                        "max": PLAYERS - 1,
                        "required": False,
                        "nullable": True,
                        "description": "the seat that took the last trick (required, and only "
                        "allowed, without trump)",
                    },
                ],
                _FORMS,
            ),
            "error_kinds": [],
            "options": [
                {
                    "name": "stake",
                    "title": "Stake",
                    "type": "integer",
                    "default": DEFAULT_STAKE,
                    "min": 1,
                    "max": MAX_STAKE,
                    "description": "chips each loser pays each winner",
                },
            ],
            "doubled_suit": None,
            "statistics": league_statistics("touts_won", "betes_paid", "stamms_drawn"),
        }


SOLO66: Final = Solo66()
