"""Hands: record, correct, void; their history and the ledger.

Every change runs in one transaction under the table's lock (``locking.lock_table``). Recording
plans its hand from the table read without the lock (``locking.read_table_state``) and runs the
planned statements under it while the table is still at the version read
(``locking.lock_if_at_version``), or plans again under it (``lock_table_state``).
Recording settles only the new hand from the table's current state, so it costs the same at
hand 5 and at hand 500. A correction of hand k settles k and the later hands again in order,
and stops as soon as a later hand would start from the same state as before: from there on
nothing can change.
"""

from __future__ import annotations

from .changes import (
    Resettled,
    correct_hand,
    end_change,
    settle_again,
    store_settled_again,
    void_hand,
)
from .reading import HandPage, StoredHand, get_hand, hand_history, hand_page, ledger
from .recording import record_hand
from .rows import (
    WriteConditions,
    check_version,
    hand_view,
    insert_rows,
    revision_values,
    transfer_values,
)

__all__ = [
    "HandPage",
    "Resettled",
    "StoredHand",
    "WriteConditions",
    "check_version",
    "correct_hand",
    "end_change",
    "get_hand",
    "hand_history",
    "hand_page",
    "hand_view",
    "insert_rows",
    "ledger",
    "record_hand",
    "revision_values",
    "settle_again",
    "store_settled_again",
    "transfer_values",
    "void_hand",
]
