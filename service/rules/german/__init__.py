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

from .model import CONTRACTS, HAND_FIELDS, TOUT_FLAGS, GermanHand, GermanOptions, GermanState
from .variant import GERMAN, GermanSolo

__all__ = ["CONTRACTS", "GERMAN", "HAND_FIELDS", "TOUT_FLAGS", "GermanHand", "GermanOptions",
           "GermanSolo", "GermanState"]
