"""Reading hands: a page of them, one, its history, and the ledger of every transfer."""

from __future__ import annotations

import json
from datetime import datetime
from types import SimpleNamespace
from typing import Any, NamedTuple

from sqlalchemy import Text, bindparam, cast, select, true

from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339
from ...persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    TableRow,
    TransferRow,
)
from ...rules import POOL
from .. import statements
from ..auth import Principal, require_table_reader
from ..errors import NotFound
from ..tables import read_table
from .rows import hand_view, load_hand
from .tagged import tagged

_HANDS = HandRow.__table__.c
_TABLES = TableRow.__table__
_PAGE = (
    select(
        _HANDS.id,
        _HANDS.number,
        _HANDS.status,
        _HANDS.revision,
        _HANDS.dealer,
        # As stored: a hand's rendering is kept while its row reads the same (``StoredHand``),
        # and text compares for a fraction of what decoding it costs.
        cast(_HANDS.record, Text).label("record"),
        cast(_HANDS.settlement, Text).label("settlement"),
        _HANDS.recorded_at,
        _HANDS.updated_at,
    )
    .where(_HANDS.table_id == bindparam("table_id"))
    .order_by(_HANDS.number)
    .limit(bindparam("page_size"))
    .offset(bindparam("offset"))
    .subquery()
)
# The table and its page of hands in one statement, so one snapshot: the version (the ETag)
# and the count are those of the hands shown. A page past the last hand is one row of the
# table, its hand columns null.
_TABLE_AND_PAGE = (
    select(
        _TABLES.c.id.label("table_id"),
        _TABLES.c.club_id,
        _TABLES.c.version,
        _TABLES.c.hands_recorded,
        _TABLES.c.variant,
        *(c.label(f"hand_{c.name}") for c in _PAGE.c),
    )
    .select_from(_TABLES.outerjoin(_PAGE, true()))
    .where(_TABLES.c.id == bindparam("table_id"))
    .order_by(_PAGE.c.number)
)


class StoredHand(NamedTuple):
    """A hand's row as the database has it, its record and settlement as their stored JSON
    text. Everything ``hand_view`` shows of a hand comes from these values (its table's
    variant apart, which never changes): two reads that give equal ``StoredHand``s show the
    same hand, whatever happened in between (a correction of an earlier hand settles later
    ones again without a new revision of theirs: their dealer and settlement change)."""

    id: int
    number: int
    status: str
    revision: int
    dealer: int
    record: str
    settlement: str | None
    recorded_at: datetime
    updated_at: datetime

    def view(self, variant: str) -> dict[str, Any]:
        """The hand as answers show it (``hand_view``), its JSON read as SQLAlchemy reads it."""
        loads = getattr(db.engine.dialect, "_json_deserializer", None) or json.loads
        fields = self._replace(
            record=loads(self.record),
            settlement=None if self.settlement is None else loads(self.settlement),
        )
        return hand_view(SimpleNamespace(**fields._asdict()), variant)


class HandPage(NamedTuple):
    """A page of a table's hands as stored, with what its answer says besides them."""

    table_id: str
    variant: str
    version: int
    total: int
    hands: list[StoredHand]


def hand_page(principal: Principal, table_id: str, page: int, page_size: int) -> HandPage:
    """Page ``page`` of the table's hands in order (``page_size`` a page), void ones included;
    ``page`` is at most ``paging.PAGE_MAX``, so its offset stays inside SQL's integers."""
    found = statements.rows(
        _TABLE_AND_PAGE,
        {"table_id": table_id, "page_size": page_size, "offset": (page - 1) * page_size},
    )
    if not found:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    first = found[0]
    require_table_reader(principal, SimpleNamespace(id=first.table_id, club_id=first.club_id))
    hands = [StoredHand(*row[5:]) for row in found if row.hand_id is not None]
    return HandPage(first.table_id, first.variant, first.version, first.hands_recorded, hands)


def get_hand(principal: Principal, table_id: str, number: int) -> dict[str, Any]:
    table = read_table(principal, table_id)
    return hand_view(load_hand(table, number), table.variant)


def hand_history(principal: Principal, table_id: str, number: int) -> dict[str, Any]:
    table = read_table(principal, table_id)
    hand = load_hand(table, number)
    revisions = db.session.scalars(
        select(HandRevisionRow)
        .where(HandRevisionRow.hand_id == hand.id)
        .order_by(HandRevisionRow.revision)
    )
    return {
        "number": hand.number,
        "current_revision": hand.revision,
        "revisions": [
            {
                "revision": r.revision,
                "status": r.status,
                "hand": tagged(r.record, table.variant),
                "changed_at": rfc3339(r.changed_at),
                "changed_by": {
                    "token_id": r.token_id,
                    "kind": r.token_kind,
                    "imported": r.imported,
                },
            }
            for r in revisions
        ],
    }


def ledger(principal: Principal, table_id: str) -> dict[str, Any]:
    table = read_table(principal, table_id)
    rows = db.session.execute(
        select(
            HandRow.number,
            TransferRow.from_seat,
            TransferRow.to_seat,
            TransferRow.chips,
            TransferRow.reason,
        )
        .join(TransferRow, TransferRow.hand_id == HandRow.id)
        .where(HandRow.table_id == table.id)
        .order_by(HandRow.number, TransferRow.position)
    )
    entries = [
        {
            "hand": n,
            "from": POOL if f is None else f,
            "to": POOL if t is None else t,
            "chips": c,
            "reason": r,
        }
        for n, f, t, c, r in rows
    ]
    return {"table_id": table.id, "count": len(entries), "transfers": entries}
