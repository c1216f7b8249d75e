"""Spanish Solo (variant ``spanish``): four players, a fixed colour suit, scores in points.

The contract is ``shared/rules/other-variants.md``. A declarer plays a ``simple`` (with the holder
of a called Ace), a ``solo`` or a ``tout`` (alone), in suit or in the colour (``couleur``, fixed
for the session), for

============  =======  =========  ==========
contract      in suit  in colour  target
============  =======  =========  ==========
``simple``    2        4          5 tricks
``solo``      4        8          5 tricks
``tout``      16       32         all 8
============  =======  =========  ==========

If the declaring side makes its target the declarer and the partner each score ``+V``, otherwise
each scores ``-V``; opponents score 0. There are no chips, transfers or pool. A ``revoke`` makes
the offender's side lose (the first one recorded decides). A table may set ``target_hands`` and
``target_score``; the session ends when either is reached and the highest total wins.

Checks made on a hand record (each a RuleViolation on the path given):

- ``hand``: a JSON object; ``hand.<key>`` for an unknown field.
- ``hand.kind``: optional, only ``played`` (the shape shared with American Solo).
- ``hand.contract``: ``simple``, ``solo`` or ``tout``. ``hand.trump``: a suit.
- ``hand.declarer``, ``hand.partner``: seats 0-3; ``hand.tricks``: 0-8, taken by the declaring
  side (declarer and partner together in a simple).
- ``hand.called``: ``{"rank": "ace", "suit": …}`` (``hand.called.rank``, ``hand.called.suit``);
  a ``simple`` needs it and its holder ``hand.partner``; a ``solo`` or ``tout`` has neither. The
  seed lets the declarer call "any one of the four aces", so the Ace of trumps may be called,
  and so may an Ace he holds himself (**Decision** of the rulebook: ``partner`` equal to
  ``declarer``; he then plays alone, the game keeps its value as a ``simple``, only he scores).
- ``hand.forced``: a bool, true only on a ``simple`` (all passed; Q♣'s holder had to play).
- ``hand.errors``: at most 16 ``{"kind": "revoke", "seat"}`` (``hand.errors.<i>.kind`` …).
"""

from .model import CONTRACTS, HAND_FIELDS, SpanishHand, SpanishOptions, SpanishState
from .variant import SPANISH, SpanishSolo

__all__ = [
    "CONTRACTS",
    "HAND_FIELDS",
    "SPANISH",
    "SpanishHand",
    "SpanishOptions",
    "SpanishSolo",
    "SpanishState",
]
