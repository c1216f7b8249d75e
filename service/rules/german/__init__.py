"""German Solo (variant ``german``): four players, the anthology scoring, in points.

The contract is ``shared/rules/other-variants.md``. Contracts and base values: ``force``
(*Mussfrage*) 1, ``frage`` 2, ``grossfrage`` 3, ``mediateur`` 4 (only with the option
``mediateur``; **Decision** of the rulebook), ``solo`` 6 (**Decision** of the rulebook: the
seed's "2 for a Frage or Solo … and 6 for Solo" is read as Solo = 6). Added to the base: prime +2
(``stopped_after_five``), tout +4 (``continued_after_five``, made or not), tout +6
(``tout_announced``), and +2 when the three matadors were dealt to one party
(``matadors_together``). A game whose trump is the preferred suit in force scores double (the
whole value, bonuses included): the option ``preferred_suit``'s suit, or with ``first_won`` the
trump of the first contract won, from the next hand on (kept in the state as ``couleur``). The
target is 5 tricks, all 8 after going on or announcing tout; with the option ``deck: 24`` (the
Münsterland Sollo) there are 6 tricks, the target is 4 and tout is all 6. Only the declaring
party scores: ``+value`` each on success, ``-value`` each on failure (a mediateur's declarer
alone). A ``revoke`` makes the offender's side lose (the first one recorded decides).

``model``: contracts, values, options, state and hand records; ``parse``: reading and checking
them; ``settle``: a hand's value and points; ``variant``: the variant object ``GERMAN`` and its
description.

Checks made on a hand record (each a RuleViolation on the path given; "all" is 8 tricks, or 6
with 24 cards, and the target 5, or 4):

- ``hand``: a JSON object; ``hand.<key>`` for an unknown field; ``hand.kind`` only ``played``.
- ``hand.contract``: ``frage``, ``grossfrage``, ``mediateur``, ``solo`` or ``force``; a
  ``mediateur`` only at a table with the option; ``hand.trump``: a suit.
- ``hand.declarer``, ``hand.partner``, ``hand.giver``: seats 0-3; ``hand.tricks``: 0 to all,
  for the declaring party.
- ``hand.called`` (``.rank``, ``.suit``): required with its holder ``hand.partner`` in a
  ``frage``, ``grossfrage`` or ``force``, forbidden (both) in a ``solo``. The rank is ``ace``, or
  ``king`` in a ``frage`` (when the declarer holds all four aces). The called card is of a plain
  suit, never of the trump suit (``hand.called.suit``). The partner is not the declarer (the
  declarer calls an ace he does not hold).
- A ``mediateur`` is played alone (no ``hand.partner``); its demanded ace (``hand.called``, an
  ace of a plain suit) and ``hand.giver`` (an opponent) are optional, for the record only; no
  other contract has a giver.
- ``hand.stopped_after_five``, ``hand.continued_after_five``, ``hand.tout_announced``: bools, at
  most one true (the second one true is named); a party that stopped took exactly the target
  (``hand.stopped_after_five``); going on needs ``tricks >=`` the target; a party that took all
  the tricks went on or announced tout (**Decision** of the rulebook; else
  ``hand.continued_after_five``).
- ``hand.asked_partner``: a bool, true only in a ``frage`` or ``grossfrage`` (the declarer asked
  "partner?"); with it a slam is not permitted: ``hand.continued_after_five`` and
  ``hand.tout_announced`` are refused, and so are all the tricks (``hand.tricks``).
- ``hand.matadors_together``: a bool. ``hand.errors``: at most 16 ``{"kind": "revoke", "seat"}``.
"""

from .model import CONTRACTS, HAND_FIELDS, TOUT_FLAGS, GermanHand, GermanOptions, GermanState
from .variant import GERMAN, GermanSolo

__all__ = [
    "CONTRACTS",
    "GERMAN",
    "HAND_FIELDS",
    "TOUT_FLAGS",
    "GermanHand",
    "GermanOptions",
    "GermanSolo",
    "GermanState",
]
