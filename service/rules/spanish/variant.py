"""Spanish Solo's variant object: the wiring of its parsing and settlement, and its description for
clients that build forms (``GET /api/v1/variants``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from ..base import SUITS, LeagueHand, Result, SessionOutcome, Settlement, Step, league_statistics
from ..common import (
    CONTRACT_FORM,
    DEALER_STATE_FIELD,
    DECLARER_FORM,
    EIGHT_TRICKS,
    ERRORS_FORM,
    KIND_FORM,
    SUIT_TITLES,
    TRICKS,
    TRICKS_FORM,
    TRUMP_FORM,
    DealerRotationVariant,
    DealerState,
    called_form,
    check_dealer_fits,
    choices,
    doubled_suit,
    errors_field,
    parse_dealer_state,
    partner_form,
    partner_game_league_hand,
    played_kind_field,
    seat_field,
    seat_list,
    with_forms,
)
from . import parse, settle
from .model import (
    CALLED_RANKS,
    CONTRACT_DESCRIPTIONS,
    CONTRACT_TITLES,
    CONTRACTS,
    DEFAULT_COULEUR,
    MAX_TARGET_HANDS,
    MAX_TARGET_SCORE,
    PLAYERS,
    TARGETS,
    TITLE,
    VALUES,
    SpanishHand,
    SpanishOptions,
)

_FORMS: Final[dict[str, Mapping[str, Any]]] = {
    "kind": KIND_FORM,
    "contract": CONTRACT_FORM,
    "trump": TRUMP_FORM,
    "declarer": DECLARER_FORM,
    "called": called_form(
        shown_when=[{"contract": ["simple"]}], required_when=[{"contract": ["simple"]}]
    ),
    "partner": partner_form(
        shown_when=[{"contract": ["simple"]}], required_when=[{"contract": ["simple"]}]
    ),
    "tricks": TRICKS_FORM,
    "forced": {"title": "Forced", "shown_when": [{"contract": ["simple"]}]},
    "errors": ERRORS_FORM,
}
"""What the pad's form needs of each hand field (``common.with_forms``)."""


class SpanishSolo(DealerRotationVariant):
    """Spanish Solo: points for the declaring side, a fixed colour, optional session targets."""

    name = "spanish"
    title = TITLE
    units: Literal["chips", "points"] = "points"
    player_counts = (PLAYERS,)
    options_type = SpanishOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> SpanishOptions:
        return parse.parse_options(raw)

    def parse_hand(self, raw: object, players: int, options: Any) -> SpanishHand:
        """A complete, rule-checked hand record (see the package docstring for every check)."""
        return parse.parse_hand(raw, self.check_players(players))

    def _hand(self, hand: object, players: int, options: SpanishOptions) -> SpanishHand:
        return hand if isinstance(hand, SpanishHand) else self.parse_hand(hand, players, options)

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else parse_dealer_state(state, n)
        check_dealer_fits(st, n)
        return settle.settle(n, opts, st, self._hand(hand, n, opts))

    def session_outcome(
        self, options: Any, totals: tuple[int, ...], hands_played: int
    ) -> SessionOutcome | None:
        """None without targets. Otherwise over once ``hands_played >= target_hands`` or any
        total exceeds ``target_score`` (strictly more: the rulebook's Decision, after the seed's
        "exceeds a certain point threshold"); the winners are all the seats sharing the highest
        total, and the last step of the reason names them."""
        opts = self._options(options)
        if opts.target_hands is None and opts.target_score is None:
            return None
        reasons: list[Step] = []
        if opts.target_hands is not None and hands_played >= opts.target_hands:
            reasons.append(
                Step("session.hands_of", {"played": hands_played, "target": opts.target_hands})
            )
        if opts.target_score is not None:
            exceeded = [seat for seat, total in enumerate(totals) if total > opts.target_score]
            if exceeded:
                reasons.append(
                    Step(
                        "session.exceeded",
                        {"seats": seat_list(exceeded), "target": opts.target_score},
                    )
                )
        if not reasons:
            progress = [
                Step("session.played", {"played": hands_played})
                if opts.target_hands is None
                else Step(
                    "session.played_of", {"played": hands_played, "target": opts.target_hands}
                )
            ]
            if opts.target_score is not None:
                progress.append(Step("session.score_not_exceeded", {"target": opts.target_score}))
            return SessionOutcome(over=False, winners=(), reason=tuple(progress))
        if not totals:
            return SessionOutcome(over=True, winners=(), reason=tuple(reasons))
        best = max(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == best)
        won = Step("session.won_by", {"seats": seat_list(winners), "total": best})
        return SessionOutcome(over=True, winners=winners, reason=(*reasons, won))

    def trick_figures(self, options: Any) -> Mapping[str, int]:
        return EIGHT_TRICKS

    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        """The declarer and his partner (none when he called his own ace), the contract; a tout
        is the contract ``tout``."""
        return partner_game_league_hand(record, players, result, ())

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
                {
                    "name": contract,
                    "title": CONTRACT_TITLES[contract],
                    "in_suit": VALUES[contract],
                    "in_couleur": 2 * VALUES[contract],
                    "target": TARGETS[contract],
                    "calls_partner": "required" if contract == "simple" else "none",
                    "called_ranks": list(CALLED_RANKS) if contract == "simple" else [],
                    "description": CONTRACT_DESCRIPTIONS[contract],
                }
                for contract in CONTRACTS
            ],
            "scoring": "declarer and partner each score +value if the target is made, "
            "-value if not; opponents score 0",
            "state_fields": [DEALER_STATE_FIELD],
            "hand_fields": with_forms(
                [
                    played_kind_field(),
                    {
                        "name": "contract",
                        "type": "string",
                        "required": True,
                        "allowed": list(CONTRACTS),
                        "description": "the game declared",
                    },
                    {
                        "name": "trump",
                        "type": "string",
                        "required": True,
                        "allowed": list(SUITS),
                        "description": "the trump suit; the colour doubles the value",
                    },
                    seat_field(
                        "declarer",
                        PLAYERS,
                        "the seat that declared (or, if all passed, the holder of the queen of "
                        "clubs)",
                    ),
                    {
                        "name": "called",
                        "type": "object",
                        "required": False,
                        "nullable": True,
                        "fields": {"rank": list(CALLED_RANKS), "suit": list(SUITS)},
                        "description": "the ace called in a simple game; absent otherwise",
                    },
                    seat_field(
                        "partner",
                        PLAYERS,
                        "holder of the called ace (simple only; the "
                        "declarer himself if he holds it: then he plays alone)",
                        required=False,
                        nullable=True,
                    ),
                    {
                        "name": "tricks",
                        "type": "integer",
                        "min": 0,
                        "max": TRICKS,
                        "required": True,
                        "description": "tricks taken by the declaring side",
                    },
                    {
                        "name": "forced",
                        "type": "boolean",
                        "required": False,
                        "default": False,
                        "description": "all passed and the holder of the queen of clubs had to "
                        "play a simple game (kept for the record only)",
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
                    "name": "couleur",
                    "title": "Couleur",
                    "type": "string",
                    "default": DEFAULT_COULEUR,
                    "allowed": list(SUITS),
                    "choices": choices(SUITS, SUIT_TITLES),
                    "description": "the colour: games with it as trump score double",
                },
                {
                    "name": "target_hands",
                    "title": "End after this many hands",
                    "none_title": "No limit",
                    "type": "integer",
                    "default": None,
                    "nullable": True,
                    "min": 1,
                    "max": MAX_TARGET_HANDS,
                    "description": "the session ends after this many hands (null: no limit)",
                },
                {
                    "name": "target_score",
                    "title": "End at this score",
                    "none_title": "No limit",
                    "type": "integer",
                    "default": None,
                    "nullable": True,
                    "min": 1,
                    "max": MAX_TARGET_SCORE,
                    "description": "the session ends when a total exceeds this (null: no limit)",
                },
            ],
            "doubled_suit": doubled_suit("Couleur", fixed_option="couleur"),
            "statistics": league_statistics("betes_paid", "stamms_drawn"),
        }


SPANISH: Final = SpanishSolo()
