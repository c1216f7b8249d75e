"""Hypothesis strategies for American Solo: tables, valid hand records, and corruptions of them.

Everything is drawn as plain JSON-like values, exactly as a client would send them:
``american_tables()`` gives ``(players, options, state)``, ``american_hands(players)`` a hand
record the rules must accept, ``corrupt_hand(players)`` one they must refuse (with a
``RuleViolation`` naming a ``hand…`` field, and nothing else).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

Draw = Callable[[st.SearchStrategy[Any]], Any]

SUITS = ("clubs", "spades", "hearts", "diamonds")
CONTRACTS = ("simple", "forcee_simple", "forcee_partout", "solo", "tout")
TABLE_ERRORS = ("revoke", "lead_out_of_turn", "play_out_of_turn", "exposed_card")
ERROR_KINDS = (*TABLE_ERRORS, "unannounced_void")
HAND_KINDS = ("played", "forfeit", "misdeal")
PLAYED_FIELDS = (
    "kind",
    "contract",
    "trump",
    "declarer",
    "tricks",
    "called",
    "partner",
    "tout_after_five",
    "matadores",
    "errors",
)
FIELDS_OF_KIND = {"played": PLAYED_FIELDS, "forfeit": ("kind", "seat"), "misdeal": ("kind",)}
OPTION_CHOICES = {
    "couleur": SUITS,
    "couleur_policy": ("fixed", "first_won"),
    "bete_on_lost_solo": ("any", "couleur_only"),
    "matadores": ("either_side", "declaring_side"),
    "incidental_tout": ("double", "literal"),
}


def max_lower(trump: str, players: int) -> int:
    """The most lower matadores the rulebook allows."""
    return (6 if trump in ("clubs", "spades") else 7) + (2 if players == 5 else 0)


def seats(players: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=players - 1)


players_counts = st.sampled_from((3, 4, 5))


def american_options() -> st.SearchStrategy[dict[str, Any]]:
    """Any valid ``options`` object, each option present or left to its default."""
    optional: dict[str, st.SearchStrategy[Any]] = {
        "stake": st.integers(0, 8),
        "stamm": st.integers(1, 32),
    }
    optional.update({name: st.sampled_from(values) for name, values in OPTION_CHOICES.items()})
    return st.fixed_dictionaries({}, optional=optional)


def american_states(players: int) -> st.SearchStrategy[dict[str, Any]]:
    """Any valid ``state`` object for ``players``; absent keys mean a fresh table's values."""
    return st.fixed_dictionaries(
        {},
        optional={
            "pool": st.integers(0, 200),
            "couleur": st.sampled_from(SUITS),
            "dealer": seats(players),
            "stake_due": st.booleans(),
            "first_game_won": st.booleans(),
        },
    )


@st.composite
def american_tables(draw: Draw) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """``(players, options, state)`` of some American Solo table at some moment."""
    players = draw(players_counts)
    return players, draw(american_options()), draw(american_states(players))


def most_lower_dealt(hand: dict[str, Any], players: int, side: str) -> int:
    """The most lower matadores a deal can give ``side`` in ``hand`` (the rulebook's counting
    of cards): a lone declarer's 8 cards hold the three higher and at most five lower, four
    beside his own called Ace, one beside his own called King (the trump Ace, among his four
    Aces); the defenders of a King call hold none (its caller has the trump Ace)."""
    most = max_lower(hand["trump"], players)
    called = hand.get("called")
    rank = None if called is None else called["rank"]
    partner = hand.get("partner")
    if side == "defenders":
        return 0 if rank == "king" else most
    if partner is None or partner == hand["declarer"]:
        return min(most, {"ace": 4, "king": 1}.get(rank, 5))  # type: ignore[arg-type]
    return most


@st.composite
def american_hands(draw: Draw, players: int, options: Any = None) -> dict[str, Any]:
    """A valid hand record for ``players`` (the options never change what is valid).

    Covers every kind, contract, called cards (aces and kings, the caller's own included),
    incidental touts, matadores up to their bound and every kind of error, with optional
    fields sometimes absent, sometimes null.
    """
    kind = draw(st.sampled_from(("played",) * 6 + ("forfeit", "misdeal")))
    if kind == "forfeit":
        return {"kind": "forfeit", "seat": draw(seats(players))}
    if kind == "misdeal":
        return {"kind": "misdeal"}

    contract = draw(st.sampled_from(CONTRACTS))
    trump = draw(st.sampled_from(SUITS))
    declarer = draw(seats(players))
    tricks = draw(st.integers(0, 8))
    hand: dict[str, Any] = {
        "contract": contract,
        "trump": trump,
        "declarer": declarer,
        "tricks": tricks,
    }
    if draw(st.booleans()):
        hand["kind"] = "played"

    must_call = contract == "simple" or (contract == "forcee_simple" and players > 3)
    partner = None
    if contract != "solo" and (must_call or draw(st.booleans())):
        partner = declarer if players == 3 else draw(seats(players))
        hand["called"] = {
            "rank": draw(st.sampled_from(("ace", "king"))),
            "suit": draw(st.sampled_from([s for s in SUITS if s != trump])),
        }
        hand["partner"] = partner
    else:
        for field in ("called", "partner"):
            if draw(st.booleans()):
                hand[field] = None

    if contract != "tout" and tricks == 8:
        hand["tout_after_five"] = True  # a side that took all eight led to the sixth
    elif contract != "tout" and tricks >= 5:
        if draw(st.booleans()):
            hand["tout_after_five"] = draw(st.booleans())
    elif draw(st.booleans()):
        hand["tout_after_five"] = False

    # In a forcée the declarer holds Spadilla: the defenders never hold the three higher.
    forcee = contract in ("forcee_simple", "forcee_partout")
    side = "declarers" if forcee else draw(st.sampled_from(("declarers", "defenders")))
    most = most_lower_dealt(hand, players, side)
    matadores = draw(
        st.none() | st.fixed_dictionaries({"side": st.just(side), "lower": st.integers(0, most)})
    )
    if matadores is not None or draw(st.booleans()):
        hand["matadores"] = matadores

    partner_game = partner is not None and partner != declarer
    error = st.fixed_dictionaries({"kind": st.sampled_from(TABLE_ERRORS), "seat": seats(players)})
    if partner_game:
        error = error | st.just({"kind": "unannounced_void", "seat": declarer})
    errors = draw(st.lists(error, max_size=4))
    if errors or draw(st.booleans()):
        hand["errors"] = errors
    return hand


@st.composite
def american_cases(draw: Draw) -> tuple[int, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """``(players, options, state, hand)``: one valid hand at one valid table."""
    players, options, state = draw(american_tables())
    return players, options, state, draw(american_hands(players, options))


# --- corruptions ----------------------------------------------------------------------------

not_an_int = st.one_of(
    st.text(max_size=3),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
not_a_string = st.one_of(
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=3), max_size=2),
)
not_a_bool = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.floats(allow_nan=False))
not_an_object = st.one_of(
    st.integers(), st.booleans(), st.text(max_size=5), st.lists(st.integers(), max_size=2)
)
not_a_list = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=5),
    st.booleans(),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


def unknown_string(known: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.text(max_size=12).filter(lambda s: s not in known)


def bad_seat(players: int) -> st.SearchStrategy[Any]:
    return st.integers(max_value=-1) | st.integers(min_value=players) | not_an_int


@st.composite
def corrupt_hand(draw: Draw, players: int) -> Any:
    """A valid hand record of ``players`` made invalid in one way the rules must refuse:
    a wrong JSON type, a value out of range, an unknown field, a required field removed, or
    fields that do not go together."""
    hand = draw(american_hands(players))
    kind = hand.get("kind", "played")
    choices = ["not_an_object", "unknown_field", "bad_kind"]
    if kind == "forfeit":
        choices += ["forfeit_seat", "forfeit_without_seat"]
    if kind == "played":
        choices += ["wrong_type", "out_of_range", "remove_required", "inconsistent", "bad_nested"]
    how = draw(st.sampled_from(choices))

    if how == "not_an_object":
        return draw(
            st.one_of(
                st.none(),
                st.integers(),
                st.text(max_size=5),
                st.booleans(),
                st.lists(st.just(hand), max_size=2),
            )
        )
    if how == "unknown_field":
        known = FIELDS_OF_KIND[kind]
        field = draw(
            st.text(max_size=10).filter(lambda k: k not in known)
            | st.sampled_from([f for f in PLAYED_FIELDS + ("seat",) if f not in known])
        )
        hand[field] = draw(st.none() | st.integers() | st.text(max_size=3))
        return hand
    if how == "bad_kind":
        hand["kind"] = draw(unknown_string(HAND_KINDS) | not_a_string | st.none())
        return hand
    if how == "forfeit_seat":
        hand["seat"] = draw(bad_seat(players) | st.none())
        return hand
    if how == "forfeit_without_seat":
        del hand["seat"]
        return hand

    # A played hand from here on.
    if how == "wrong_type":
        field = draw(
            st.sampled_from(
                [
                    "contract",
                    "trump",
                    "declarer",
                    "tricks",
                    "tout_after_five",
                    "partner",
                    "called",
                    "matadores",
                    "errors",
                ]
            )
        )
        if field in ("contract", "trump"):
            hand[field] = draw(not_a_string | st.none())
        elif field in ("declarer", "tricks"):
            hand[field] = draw(not_an_int | st.none())
        elif field == "partner":
            hand[field] = draw(not_an_int)
        elif field == "tout_after_five":
            hand[field] = draw(not_a_bool)
        elif field in ("called", "matadores"):
            hand[field] = draw(not_an_object)
        else:
            hand[field] = draw(not_a_list)
        return hand
    if how == "out_of_range":
        field = draw(
            st.sampled_from(["declarer", "tricks", "partner", "lower", "contract", "trump"])
        )
        if field in ("declarer", "partner"):
            hand[field] = draw(st.integers(max_value=-1) | st.integers(min_value=players))
        elif field == "tricks":
            hand[field] = draw(st.integers(max_value=-1) | st.integers(min_value=9))
        elif field == "lower":
            most = max_lower(hand["trump"], players)
            hand["matadores"] = {
                "side": draw(st.sampled_from(("declarers", "defenders"))),
                "lower": draw(st.integers(max_value=-1) | st.integers(min_value=most + 1)),
            }
        elif field == "contract":
            hand[field] = draw(unknown_string(CONTRACTS))
        else:
            hand[field] = draw(unknown_string(SUITS))
        return hand
    if how == "remove_required":
        del hand[draw(st.sampled_from(["contract", "trump", "declarer", "tricks"]))]
        return hand
    if how == "bad_nested":
        part = draw(st.sampled_from(["called", "matadores", "error"]))
        if part == "called":
            called = {"rank": "ace", "suit": next(s for s in SUITS if s != hand["trump"])}
            hand["contract"] = "simple"
            hand["called"] = called
            hand["partner"] = hand["declarer"]
            hand.pop("tout_after_five", None)
            what = draw(st.sampled_from(["rank", "suit", "drop", "extra"]))
            if what == "rank":
                called["rank"] = draw(unknown_string(("ace", "king")) | not_a_string)
            elif what == "suit":
                called["suit"] = draw(unknown_string(SUITS) | not_a_string)
            elif what == "drop":
                del called[draw(st.sampled_from(["rank", "suit"]))]
            else:
                called[draw(unknown_string(("rank", "suit")))] = 1
        elif part == "matadores":
            matadores = {"side": "declarers", "lower": 0}
            hand["matadores"] = matadores
            what = draw(st.sampled_from(["side", "lower", "drop", "extra"]))
            if what == "side":
                matadores["side"] = draw(
                    unknown_string(("declarers", "defenders")) | not_a_string | st.none()
                )
            elif what == "lower":
                matadores["lower"] = draw(not_an_int | st.none())
            elif what == "drop":
                del matadores[draw(st.sampled_from(["side", "lower"]))]
            else:
                matadores[draw(unknown_string(("side", "lower")))] = 1
        else:
            error: dict[str, Any] = {"kind": "revoke", "seat": 0}
            what = draw(
                st.sampled_from(["kind", "seat", "drop", "extra", "not_object", "too_many"])
            )
            errors: list[Any] = [error]
            if what == "kind":
                error["kind"] = draw(unknown_string(ERROR_KINDS) | not_a_string | st.none())
            elif what == "seat":
                error["seat"] = draw(bad_seat(players) | st.none())
            elif what == "drop":
                del error[draw(st.sampled_from(["kind", "seat"]))]
            elif what == "extra":
                error[draw(unknown_string(("kind", "seat")))] = 1
            elif what == "not_object":
                errors = [draw(not_an_object | st.none())]
            else:
                errors = [error] * draw(st.integers(17, 40))
            hand["errors"] = (
                draw(st.lists(st.just({"kind": "revoke", "seat": 0}), max_size=2)) + errors
            )
        return hand

    # Inconsistent: fields that are each fine but do not go together.
    problem = draw(
        st.sampled_from(
            [
                "solo_with_card",
                "call_missing",
                "card_without_holder",
                "holder_without_card",
                "card_of_trump",
                "tout_after_tout",
                "tout_after_few",
                "void_by_other",
                "void_in_lone_game",
                "eight_without_tout_after_five",
                "lone_lower_matadores",
                "lower_beside_own_called_card",
                "defenders_matadores_in_forcee",
                "defenders_lower_in_king_call",
            ]
            + (["partner_at_three"] if players == 3 else [])
        )
    )
    declarer = hand["declarer"]
    other = (declarer + 1) % players
    off_trump = next(s for s in SUITS if s != hand["trump"])
    hand.pop("errors", None)
    if problem == "solo_with_card":
        hand.update(
            contract="solo", called={"rank": "ace", "suit": off_trump}, partner=draw(seats(players))
        )
    elif problem == "call_missing":
        hand["contract"] = (
            "simple" if players == 3 else draw(st.sampled_from(("simple", "forcee_simple")))
        )
        hand.pop("called", None)
        hand.pop("partner", None)
    elif problem == "card_without_holder":
        hand["called"] = {"rank": "ace", "suit": off_trump}
        hand["partner"] = None
    elif problem == "holder_without_card":
        hand.update(
            contract=draw(st.sampled_from(("forcee_partout", "tout"))), partner=draw(seats(players))
        )
        hand.pop("called", None)
        hand.pop("tout_after_five", None)
    elif problem == "card_of_trump":
        hand.update(
            contract="simple",
            partner=declarer,
            called={"rank": draw(st.sampled_from(("ace", "king"))), "suit": hand["trump"]},
        )
    elif problem == "tout_after_tout":
        hand.update(contract="tout", tout_after_five=True)
    elif problem == "tout_after_few":
        hand.update(contract="solo", tricks=draw(st.integers(0, 4)), tout_after_five=True)
        hand.pop("called", None)
        hand.pop("partner", None)
    elif problem == "void_by_other":
        hand.update(
            contract="simple",
            called={"rank": "ace", "suit": off_trump},
            partner=other if players > 3 else declarer,
        )
        seat = draw(seats(players).filter(lambda s: s != declarer))
        hand["errors"] = [{"kind": "unannounced_void", "seat": seat}]
    elif problem == "void_in_lone_game":
        hand.update(contract="solo")
        hand.pop("called", None)
        hand.pop("partner", None)
        hand.pop("tout_after_five", None)
        hand["errors"] = [{"kind": "unannounced_void", "seat": declarer}]
    elif problem == "eight_without_tout_after_five":
        hand.update(contract=draw(st.sampled_from([c for c in CONTRACTS if c != "tout"])), tricks=8)
        hand.pop("tout_after_five", None)
        if draw(st.booleans()):
            hand["tout_after_five"] = False
    elif problem == "lone_lower_matadores":
        hand.update(
            contract="solo",
            matadores={
                "side": "declarers",
                "lower": draw(st.integers(6, max_lower(hand["trump"], players))),
            },
        )
        hand.pop("called", None)
        hand.pop("partner", None)
    elif problem == "lower_beside_own_called_card":
        rank = draw(st.sampled_from(("ace", "king")))
        hand.update(
            contract=draw(st.sampled_from(("simple", "forcee_simple", "forcee_partout", "tout"))),
            called={"rank": rank, "suit": off_trump},
            partner=declarer,
        )
        hand["matadores"] = {
            "side": "declarers",
            "lower": draw(st.integers(5 if rank == "ace" else 2, 5)),
        }
    elif problem == "defenders_matadores_in_forcee":
        contract = draw(st.sampled_from(("forcee_simple", "forcee_partout")))
        hand.update(contract=contract, called={"rank": "ace", "suit": off_trump})
        hand["partner"] = declarer if players == 3 else draw(seats(players))
        most = max_lower(hand["trump"], players)
        hand["matadores"] = {"side": "defenders", "lower": draw(st.integers(0, most))}
    elif problem == "defenders_lower_in_king_call":
        hand.update(contract="simple", called={"rank": "king", "suit": off_trump})
        hand["partner"] = declarer if players == 3 else draw(seats(players))
        most = max_lower(hand["trump"], players)
        hand["matadores"] = {"side": "defenders", "lower": draw(st.integers(1, most))}
    else:  # partner_at_three
        hand.update(contract="simple", called={"rank": "ace", "suit": off_trump}, partner=other)
    return hand
