"""Hypothesis strategies for Spanish Solo, German Solo and Solo 66: valid tables and hand
records (plain JSON-like values, as a client would send them) and corruptions of them.

A *valid* hand strategy only produces records the variant must accept. A *corrupted* one
produces anything at all near a valid record; the variant may accept some of them, and must
refuse the rest with a ``RuleViolation`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from service.rules.base import SUITS
from service.rules.german import CONTRACTS as GERMAN_CONTRACTS
from service.rules.german import HAND_FIELDS as GERMAN_FIELDS
from service.rules.german import TOUT_FLAGS
from service.rules.solo66 import HAND_FIELDS as SOLO66_FIELDS
from service.rules.solo66 import TOTAL_POINTS, possible_points
from service.rules.spanish import CONTRACTS as SPANISH_CONTRACTS
from service.rules.spanish import HAND_FIELDS as SPANISH_FIELDS

Draw = Callable[[st.SearchStrategy[Any]], Any]

PLAYERS = {"spanish": 4, "german": 4, "solo66": 5}
HAND_FIELDS = {"spanish": SPANISH_FIELDS, "german": GERMAN_FIELDS, "solo66": SOLO66_FIELDS}

suits = st.sampled_from(SUITS)


def seats(players: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=players - 1)


def revokes(players: int, max_size: int = 3) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(
        st.fixed_dictionaries({"kind": st.just("revoke"), "seat": seats(players)}),
        max_size=max_size,
    )


# --- tables -----------------------------------------------------------------------------

spanish_options = st.fixed_dictionaries(
    {},
    optional={
        "couleur": suits,
        "target_hands": st.none() | st.integers(min_value=1, max_value=10_000),
        "target_score": st.none() | st.integers(min_value=1, max_value=1_000_000),
    },
)
german_options = st.fixed_dictionaries(
    {},
    optional={
        "preferred_suit": st.none() | suits | st.just("first_won"),
        "mediateur": st.booleans(),
        "deck": st.sampled_from((32, 24)),
    },
)
solo66_options = st.fixed_dictionaries(
    {}, optional={"stake": st.integers(min_value=1, max_value=10_000)}
)
OPTIONS = {"spanish": spanish_options, "german": german_options, "solo66": solo66_options}


def states(players: int, variant: str = "") -> st.SearchStrategy[dict[str, Any]]:
    """A state as a client may send it: ``{}`` (a fresh table) or ``{"dealer": seat}``, and
    for German Solo the preferred suit in force (``couleur``)."""
    optional: dict[str, st.SearchStrategy[Any]] = {"dealer": seats(players)}
    if variant == "german":
        optional["couleur"] = st.none() | suits
    return st.fixed_dictionaries({}, optional=optional)


# --- valid hands --------------------------------------------------------------------------


@st.composite
def spanish_hands(draw: Draw) -> dict[str, Any]:
    """A valid Spanish Solo hand record, optional fields sometimes left out."""
    contract = draw(st.sampled_from(SPANISH_CONTRACTS))
    declarer = draw(seats(4))
    hand: dict[str, Any] = {
        "contract": contract,
        "trump": draw(suits),
        "declarer": declarer,
        "tricks": draw(st.integers(min_value=0, max_value=8)),
    }
    if contract == "simple":
        hand["called"] = {"rank": "ace", "suit": draw(suits)}
        # Now and then the declarer calls an ace he holds himself, and plays alone.
        hand["partner"] = (
            declarer
            if draw(st.integers(0, 4)) == 0
            else draw(seats(4).filter(lambda s: s != declarer))
        )
        if draw(st.booleans()):
            hand["forced"] = draw(st.booleans())
    else:
        if draw(st.booleans()):
            hand.update(called=None, partner=None)
        if draw(st.booleans()):
            hand["forced"] = False
    if draw(st.booleans()):
        hand["errors"] = draw(revokes(4))
    if draw(st.booleans()):
        hand["kind"] = "played"
    return hand


@st.composite
def german_hands(draw: Draw, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A valid German Solo hand record for a table with ``options`` (the defaults if None),
    optional fields sometimes left out."""
    options = options or {}
    every, target = (6, 4) if options.get("deck") == 24 else (8, 5)
    contracts = [c for c in GERMAN_CONTRACTS if c != "mediateur" or options.get("mediateur")]
    contract = draw(st.sampled_from(contracts))
    declarer = draw(seats(4))
    trump = draw(suits)
    flag = draw(st.sampled_from((None, *TOUT_FLAGS)))
    if flag == "stopped_after_five":
        tricks = target  # the rest were not played
    elif flag == "continued_after_five":
        tricks = draw(st.integers(min_value=target, max_value=every))
    elif flag == "tout_announced":
        tricks = draw(st.integers(min_value=0, max_value=every))
    else:  # all the tricks only after going on (or announcing tout)
        tricks = draw(st.integers(min_value=0, max_value=every - 1))
    hand: dict[str, Any] = {
        "contract": contract,
        "trump": trump,
        "declarer": declarer,
        "tricks": tricks,
    }
    if contract == "mediateur":
        if draw(st.booleans()):
            hand["called"] = {"rank": "ace", "suit": draw(suits.filter(lambda s: s != trump))}
        if draw(st.booleans()):
            hand["giver"] = draw(st.none() | seats(4).filter(lambda s: s != declarer))
        if draw(st.booleans()):
            hand["partner"] = None
    elif contract != "solo":
        rank = draw(st.sampled_from(("ace", "king"))) if contract == "frage" else "ace"
        hand["called"] = {"rank": rank, "suit": draw(suits.filter(lambda s: s != trump))}
        hand["partner"] = draw(seats(4).filter(lambda s: s != declarer))
    elif draw(st.booleans()):
        hand.update(called=None, partner=None)
    for name in TOUT_FLAGS:
        if name == flag:
            hand[name] = True
        elif draw(st.booleans()):
            hand[name] = False
    if draw(st.booleans()):
        hand["matadors_together"] = draw(st.booleans())
    # "Partner?" only in a frage or grossfrage, and never before a slam.
    slam = flag in ("continued_after_five", "tout_announced") or tricks == every
    if contract in ("frage", "grossfrage") and not slam and draw(st.booleans()):
        hand["asked_partner"] = draw(st.booleans())
    elif draw(st.booleans()):
        hand["asked_partner"] = False
    if draw(st.booleans()):
        hand["errors"] = draw(revokes(4))
    return hand


@st.composite
def solo66_hands(draw: Draw) -> dict[str, Any]:
    """A valid Solo 66 hand record: a soloist's game with possible card points, or a game
    without trump won by the last trick."""
    if draw(st.integers(min_value=0, max_value=3)) == 0:
        hand: dict[str, Any] = {"trump": None, "last_trick": draw(seats(5))}
        if draw(st.booleans()):
            hand.update(soloist=None, soloist_points=None, defender_points=None)
        return hand
    soloist_points, defender_points = draw(st.sampled_from(sorted(possible_points())))
    hand = {"soloist": draw(seats(5)), "trump": draw(suits), "soloist_points": soloist_points}
    if defender_points != TOTAL_POINTS - soloist_points or draw(st.booleans()):
        hand["defender_points"] = defender_points
    if draw(st.booleans()):
        hand["last_trick"] = None
    return hand


HANDS = {"spanish": spanish_hands(), "german": german_hands(), "solo66": solo66_hands()}
"""Hands valid at a table with the default options."""


@st.composite
def tables(draw: Draw, variant: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """``(options, state, hand)``: a table's options, a state and a hand valid under them."""
    options = draw(OPTIONS[variant])
    state = draw(states(PLAYERS[variant], variant))
    hand = draw(german_hands(options) if variant == "german" else HANDS[variant])
    return options, state, hand


# --- corruptions -------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from((10**100, -(10**100)))
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(
        (
            "",
            "played",
            "misdeal",
            "revoke",
            "ace",
            "king",
            *SUITS,
            *SPANISH_CONTRACTS,
            *GERMAN_CONTRACTS,
        )
    )
)
junk: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)
"""Any JSON-like value, with the occasional huge integer, NaN or near-miss string."""


@st.composite
def corrupted(draw: Draw, variant: str) -> object:
    """A valid hand of ``variant`` with one thing broken (or, now and then, nothing at all)."""
    hand: dict[Any, Any] = draw(HANDS[variant])
    players = PLAYERS[variant]
    how = draw(st.sampled_from(("whole", "field", "drop", "unknown", "called", "errors", "seat")))
    if how == "whole":
        return draw(junk | st.lists(junk) | st.just(list(hand.items())))
    if how == "field":
        hand[draw(st.sampled_from(HAND_FIELDS[variant]))] = draw(junk)
    elif how == "drop" and hand:
        del hand[draw(st.sampled_from(sorted(hand)))]
    elif how == "unknown":
        key = draw(st.text(max_size=12) | st.integers() | st.none())
        hand[key] = draw(junk)
    elif how == "called":
        called = hand.get("called")
        called = dict(called) if isinstance(called, dict) else {}
        called[draw(st.sampled_from(("rank", "suit", "colour")))] = draw(junk)
        hand["called"] = called
    elif how == "errors":
        errors = list(hand.get("errors") or [])
        entry = draw(
            junk
            | st.fixed_dictionaries(
                {"kind": junk | st.just("revoke"), "seat": junk | seats(players)}
            )
        )
        errors.insert(draw(st.integers(min_value=0, max_value=len(errors))), entry)
        if draw(st.booleans()):
            errors = errors * draw(st.integers(min_value=1, max_value=20))
        hand["errors"] = errors
    else:
        seat_fields = [
            f for f in ("declarer", "partner", "giver", "soloist", "last_trick") if f in hand
        ]
        if seat_fields:
            hand[draw(st.sampled_from(seat_fields))] = draw(
                st.integers(min_value=-3, max_value=players + 3)
            )
    return hand
