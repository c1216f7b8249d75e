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

from .model import HAND_FIELDS, TOTAL_POINTS, Solo66Hand, Solo66Options, possible_points
from .variant import SOLO66, Solo66

__all__ = [
    "HAND_FIELDS",
    "SOLO66",
    "Solo66",
    "Solo66Hand",
    "Solo66Options",
    "TOTAL_POINTS",
    "possible_points",
]
