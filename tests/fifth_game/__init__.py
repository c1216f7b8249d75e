"""A small made-up fifth game, *Duel*, written from inside ``tests/`` only: it subclasses
``rules.base.Variant`` and nothing else of the service knows it. ``tests/api/test_fifth_game.py``
registers it and plays it through the service, the league and the export.

Duel: 3 or 4 players; each hand a ``challenger`` challenges an ``opponent`` (two seats) to
a cut of the cards and either ``won`` or not; the loser pays the option ``stake`` (default 2)
chips to the winner. A hand may also record a ``revoke`` (an error of a seat: the offender's
side loses). The deal passes to the left. For the league the challenger declares, a
``"duel"``; it is never a tout nor a solo.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from service.rules.base import (
    NO_DECLARER,
    LeagueHand,
    Reason,
    Result,
    RuleViolation,
    Settlement,
    Step,
    Transfer,
    league_statistics,
)
from service.rules.common import (
    DEALER_STATE_FIELD,
    MISSING,
    DealerRotationVariant,
    DealerState,
    as_object,
    error_seats,
    get,
    parse_dealer_state,
    parse_errors,
    reject_unknown,
    require_bool,
    require_int,
    require_present,
    require_seat,
    seat_field,
    seat_in,
)

FIELDS = ("kind", "challenger", "opponent", "won", "errors")


@dataclass(frozen=True, slots=True)
class DuelOptions:
    stake: int = 2

    def to_dict(self) -> dict[str, Any]:
        return {"stake": self.stake}


@dataclass(frozen=True, slots=True)
class DuelHand:
    challenger: int
    opponent: int
    won: bool
    errors: tuple[Any, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "played",
            "challenger": self.challenger,
            "opponent": self.opponent,
            "won": self.won,
            "errors": [e.to_dict() for e in self.errors],
        }


class Duel(DealerRotationVariant):
    name = "duel"
    title = "Duel"
    units: Literal["chips", "points"] = "chips"
    player_counts = (3, 4)
    options_type = DuelOptions

    def parse_options(self, raw: Mapping[str, Any] | None) -> DuelOptions:
        if raw is None:
            return DuelOptions()
        obj = as_object(raw, "options")
        reject_unknown(obj, ("stake",), "options")
        stake = get(obj, "stake")
        if stake is MISSING:
            return DuelOptions()
        return DuelOptions(require_int(stake, "options.stake", 1, 100))

    def parse_hand(self, raw: object, players: int, options: Any) -> DuelHand:
        n = self.check_players(players)
        obj = as_object(raw, "hand")
        reject_unknown(obj, FIELDS, "hand")
        if obj.get("kind", "played") != "played":
            raise RuleViolation("hand.kind", "only played hands are recorded")
        challenger = require_seat(get(obj, "challenger"), "hand.challenger", n)
        opponent = require_seat(get(obj, "opponent"), "hand.opponent", n)
        if opponent == challenger:
            raise RuleViolation("hand.opponent", "the opponent is another seat")
        require_present(get(obj, "won"), "hand.won")
        won = require_bool(get(obj, "won"), "hand.won")
        return DuelHand(
            challenger, opponent, won, parse_errors(get(obj, "errors"), "hand.errors", n)
        )

    def settle(self, players: int, options: Any, state: Any, hand: Any) -> Settlement:
        n = self.check_players(players)
        opts = self._options(options)
        st = state if isinstance(state, DealerState) else parse_dealer_state(state, n)
        duel = hand if isinstance(hand, DuelHand) else self.parse_hand(hand, n, opts)
        won = duel.won
        for error in duel.errors:  # the first revoke decides: the offender's side loses
            won = error.seat != duel.challenger
            break
        winner, loser = (
            (duel.challenger, duel.opponent) if won else (duel.opponent, duel.challenger)
        )
        deltas = [0] * n
        deltas[winner] += opts.stake
        deltas[loser] -= opts.stake
        dealer = (st.dealer + 1) % n
        return Settlement(
            result="won" if won else "lost",
            in_couleur=None,
            value=opts.stake,
            transfers=(Transfer(loser, winner, opts.stake, Reason.GAME),),
            deltas=tuple(deltas),
            pool_before=None,
            pool_after=None,
            couleur_before=None,
            couleur_after=None,
            next_dealer=dealer,
            explanation=(Step("deals_next", {"seat": dealer}),),
            state_after=DealerState(dealer),
        )

    def league_hand(
        self, record: object, players: int, options: Any, result: Result | None
    ) -> LeagueHand:
        if not isinstance(record, Mapping):
            return NO_DECLARER
        challenger = seat_in(record.get("challenger"), players)
        if challenger is None:
            return NO_DECLARER
        return LeagueHand(
            challenger, (challenger,), "duel", result, False, error_seats(record, players)
        )

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "units": self.units,
            "players": list(self.player_counts),
            "suits": [],
            "contracts": [{"name": "duel", "title": "Duel", "description": "a cut of the cards"}],
            "state_fields": [DEALER_STATE_FIELD],
            "hand_fields": [
                seat_field("challenger", 4, "the seat that challenges"),
                seat_field("opponent", 4, "the seat challenged"),
                {"name": "won", "type": "boolean", "required": True, "description": "it won"},
                {
                    "name": "errors",
                    "type": "array",
                    "item_seat": "seat",
                    "required": False,
                    "default": [],
                    "description": "errors as {kind, seat}",
                },
            ],
            "error_kinds": [{"name": "revoke", "title": "Revoke", "description": "loses"}],
            "options": [
                {
                    "name": "stake",
                    "type": "integer",
                    "default": 2,
                    "min": 1,
                    "max": 100,
                    "description": "chips the loser pays",
                },
            ],
            "doubled_suit": None,
            # A duel is never a solo nor a tout, and pays no bête and draws no stamm.
            "statistics": league_statistics("solos_won", "touts_won", "betes_paid", "stamms_drawn"),
        }


DUEL = Duel()


def register(monkeypatch: Any) -> None:
    """Register Duel in ``rules.VARIANTS`` for one test (``monkeypatch`` takes it back), and
    forget the ``GET /variants`` answer dumped without it (once per process and language)."""
    from service import rules
    from service.api import variants as variants_api

    monkeypatch.setitem(rules.VARIANTS, DUEL.name, DUEL)
    variants_api._answer.cache_clear()


def forget() -> None:
    """After a test: the next ``GET /variants`` is dumped again, without Duel."""
    from service.api import variants as variants_api

    variants_api._answer.cache_clear()
