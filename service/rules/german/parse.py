"""Reading and checking German Solo's options, state and hand records (the checks are listed in
the package docstring); each problem is a ``RuleViolation`` naming the field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import SUITS, Phrase, RuleViolation
from ..common import (
    MISSING,
    as_object,
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
)
from .model import (
    ASKED_PARTNER_CONTRACTS,
    CALLED_RANKS,
    CONTRACTS,
    DECKS,
    DEFAULT_DECK,
    FIRST_WON,
    HAND_FIELDS,
    OPTION_CONTRACTS,
    OPTION_NAMES,
    PARTNER_CONTRACTS,
    TITLE,
    TOUT_FLAGS,
    GermanHand,
    GermanOptions,
    GermanState,
)

PREFERRED_SUIT_CHOICES = (*SUITS, FIRST_WON)


def parse_options(raw: Mapping[str, Any] | None) -> GermanOptions:
    """``preferred_suit``: a suit, ``first_won`` or null (the default); ``mediateur``: a bool
    (default false); ``deck``: 32 (the default) or 24."""
    if raw is None:
        return GermanOptions()
    obj = as_object(raw, "options")
    reject_unknown(obj, OPTION_NAMES, "options", Phrase("unknown option"))
    preferred = get(obj, "preferred_suit")
    if preferred is MISSING or preferred is None:
        preferred_suit = None
    else:
        preferred_suit = require_choice(
            preferred,
            "options.preferred_suit",
            PREFERRED_SUIT_CHOICES,
            Phrase("a suit or first_won"),
        )
    deck = get(obj, "deck")
    if deck is MISSING:
        deck = DEFAULT_DECK
    elif type(deck) is not int or deck not in DECKS:
        raise RuleViolation(
            "options.deck",
            "must be 32 (the full pack) or 24 (the Münsterland "
            "Sollo, without the eights and nines)",
        )
    return GermanOptions(
        preferred_suit, require_bool(get(obj, "mediateur"), "options.mediateur"), deck
    )


def initial_couleur(options: GermanOptions) -> str | None:
    """The preferred suit of a fresh table: the option's suit (none yet with ``first_won``)."""
    return None if options.preferred_suit == FIRST_WON else options.preferred_suit


def initial_state(players: int, options: GermanOptions, first_dealer: object) -> GermanState:
    return GermanState(
        require_seat(first_dealer, "first_dealer", players), initial_couleur(options)
    )


def parse_state(raw: object, players: int, options: GermanOptions) -> GermanState:
    """``{"dealer": seat, "couleur": suit or null}``; missing keys take a fresh table's values.

    Only with ``preferred_suit: first_won`` does the state's ``couleur`` decide anything; under
    a fixed preferred suit (or none) it is the option's, whatever was given."""
    if raw is None:
        return GermanState(0, initial_couleur(options))
    obj = as_object(raw, "state")
    reject_unknown(obj, ("dealer", "couleur"), "state")
    dealer = get(obj, "dealer")
    couleur = get(obj, "couleur")
    suit = None if couleur is MISSING else optional_suit(couleur, "state.couleur")
    return GermanState(
        0 if dealer is MISSING else require_seat(dealer, "state.dealer", players),
        suit if options.preferred_suit == FIRST_WON else initial_couleur(options),
    )


def parse_hand(raw: object, n: int, options: GermanOptions, stored: bool = False) -> GermanHand:
    """A complete, rule-checked hand record (see the package docstring for every check);
    ``n`` is the number of players, already checked.

    ``stored``: the record is one the service took earlier, read as the rules read it then
    (``_check_tricks_and_flags``): all the tricks without a flag (stored before that Decision)
    went on after the first five, as the Decision says they must have; a stop recorded with
    more tricks than the target (stored before "a party that stopped took exactly the
    target") is settled as recorded. Every other check still holds."""
    obj = as_object(raw, "hand")
    reject_unknown(obj, HAND_FIELDS, "hand")
    require_kind_played(get(obj, "kind"), "hand.kind", TITLE)
    contract = require_choice(
        get(obj, "contract"), "hand.contract", CONTRACTS, Phrase("a contract")
    )
    option = OPTION_CONTRACTS.get(contract)
    if option is not None and not getattr(options, option):
        raise RuleViolation(
            "hand.contract",
            "this table does not play the %(contract)s: it needs the option %(option)s",
            contract=contract,
            option=option,
        )
    trump = require_suit(get(obj, "trump"), "hand.trump")
    declarer = require_seat(get(obj, "declarer"), "hand.declarer", n)
    ranks = CALLED_RANKS.get(contract, ("ace", "king"))
    called = optional_called(get(obj, "called"), "hand.called", ranks)
    partner = optional_seat(get(obj, "partner"), "hand.partner", n)
    giver = optional_seat(get(obj, "giver"), "hand.giver", n)
    tricks = require_int(get(obj, "tricks"), "hand.tricks", 0, options.tricks)
    flags = {f: require_bool(get(obj, f), f"hand.{f}") for f in TOUT_FLAGS}
    matadors = require_bool(get(obj, "matadors_together"), "hand.matadors_together")
    asked_partner = require_bool(get(obj, "asked_partner"), "hand.asked_partner")
    errors = parse_errors(get(obj, "errors"), "hand.errors", n)

    if contract in PARTNER_CONTRACTS:
        if called is None:
            raise RuleViolation(
                "hand.called",
                "a %(contract)s calls a card whose holder is the partner: give the card",
                contract=contract,
            )
        if called.suit == trump:
            raise RuleViolation(
                "hand.called.suit", "the called card must be of a plain suit, not of trumps"
            )
        if partner is None:
            raise RuleViolation(
                "hand.partner",
                "a %(contract)s needs the seat holding the called card",
                contract=contract,
            )
        if partner == declarer:
            raise RuleViolation(
                "hand.partner",
                "the partner (holder of the called card) must be another seat than the declarer",
            )
    elif contract == "mediateur":
        if partner is not None:
            raise RuleViolation(
                "hand.partner",
                "a mediateur is played alone: no partner (the "
                "opponent who gave the ace is the giver)",
            )
        if called is not None and called.suit == trump:
            raise RuleViolation(
                "hand.called.suit", "the demanded ace must be of a plain suit, not of trumps"
            )
        if giver is not None and giver == declarer:
            raise RuleViolation(
                "hand.giver", "the giver of the demanded ace is an opponent, not the declarer"
            )
    else:
        if called is not None:
            raise RuleViolation("hand.called", "a solo is played alone: no called card")
        if partner is not None:
            raise RuleViolation("hand.partner", "a solo is played alone: no partner")
    if giver is not None and contract != "mediateur":
        raise RuleViolation(
            "hand.giver", "only a mediateur has a giver (the opponent who gave the demanded ace)"
        )

    if asked_partner:
        _check_asked_partner(contract, tricks, flags, options)
    _check_tricks_and_flags(tricks, flags, options, stored)
    return GermanHand(
        contract,
        trump,
        declarer,
        called,
        partner,
        giver,
        tricks,
        flags["stopped_after_five"],
        flags["continued_after_five"],
        flags["tout_announced"],
        matadors,
        errors,
        asked_partner,
    )


def _check_asked_partner(
    contract: str, tricks: int, flags: Mapping[str, bool], options: GermanOptions
) -> None:
    """The declarer of a frage or grossfrage asked "partner?": "in this case, a slam is not
    permitted" (the seed), so no going on, no tout announced and not all the tricks."""
    if contract not in ASKED_PARTNER_CONTRACTS:
        raise RuleViolation(
            "hand.asked_partner",
            "only the declarer of a frage or grossfrage asks for the partner",
        )
    for flag in ("continued_after_five", "tout_announced"):
        if flags[flag]:
            raise RuleViolation(
                f"hand.{flag}",
                "after the question for the partner a slam is not permitted",
            )
    if tricks == options.tricks:
        raise RuleViolation(
            "hand.tricks",
            "after the question for the partner a slam is not permitted: at most %(most)s tricks",
            most=options.tricks - 1,
        )


def _check_tricks_and_flags(
    tricks: int, flags: dict[str, bool], options: GermanOptions, stored: bool = False
) -> None:
    """At most one flag; stopping took exactly the target; going on needed the first target
    tricks; all tricks were only taken by a party that played for all (rulebook **Decision**).

    A ``stored`` record meets the checks of the rules that took it: a stop needed the first
    target tricks (not exactly them), and all the tricks with no flag set are read as
    ``continued_after_five`` (``flags`` is changed so)."""
    raised = [f for f in TOUT_FLAGS if flags[f]]
    if len(raised) > 1:
        raise RuleViolation(
            f"hand.{raised[1]}",
            "at most one of stopped_after_five, continued_after_five and "
            "tout_announced may be true",
        )
    target, every = options.target, options.tricks
    first = Phrase("five") if target == 5 else Phrase("four")
    if stored and not raised and tricks == every:
        flags["continued_after_five"] = True  # a party that took all the tricks went on
    if flags["stopped_after_five"] and (tricks < target if stored else tricks != target):
        raise RuleViolation(
            "hand.stopped_after_five",
            "a party that stopped after the first %(first)s tricks took exactly "
            "%(target)s (the rest were not played), not %(tricks)s",
            first=first,
            target=target,
            tricks=tricks,
        )
    if flags["continued_after_five"] and tricks < target:
        raise RuleViolation(
            "hand.continued_after_five",
            "the declaring party can go on after %(first)s only when it won the "
            "first %(first)s tricks (tricks must be at least %(target)s)",
            first=first,
            target=target,
        )
    went_on = flags["continued_after_five"] or flags["tout_announced"]
    # A stop stored with all the tricks is settled as recorded, as a stop.
    if tricks == every and not went_on and not (stored and flags["stopped_after_five"]):
        raise RuleViolation(
            "hand.continued_after_five",
            "a party that took all %(every)s tricks went on after the first "
            "%(first)s: set continued_after_five (or tout_announced if it was "
            "announced), or record fewer tricks",
            every=every,
            first=first,
        )
