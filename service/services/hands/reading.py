"""Reading hands: a page of them, one, its history, and the ledger of every transfer."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from types import SimpleNamespace
from typing import Any, NamedTuple

from sqlalchemy import Text, bindparam, cast, select

from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339
from ...persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    PlayerRow,
    SeatRow,
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

_HANDS = HandRow.__table__
_TABLES = TableRow.__table__
_TABLE = (
    _TABLES.c.id.label("table_id"),
    _TABLES.c.club_id,
    _TABLES.c.version,
    _TABLES.c.hands_recorded,
    _TABLES.c.variant,
)
# A page of hands with their table's row beside each, in one statement, so one snapshot: the
# version (the ETag) and the count are those of the hands shown. (Driven by the hands' index
# in order, it reads the page and nothing more; the table left-joined to a page taken in a
# subquery made SQLite copy the page twice, into a table and a sort: twice the time.)
_PAGE = (
    select(
        *_TABLE,
        _HANDS.c.id,
        _HANDS.c.number,
        _HANDS.c.status,
        _HANDS.c.revision,
        _HANDS.c.dealer,
        # As stored: a hand's rendering is kept while its row reads the same (``StoredHand``),
        # and text compares for a fraction of what decoding it costs.
        cast(_HANDS.c.record, Text).label("record"),
        cast(_HANDS.c.settlement, Text).label("settlement"),
        _HANDS.c.recorded_at,
        _HANDS.c.updated_at,
    )
    .select_from(_HANDS.join(_TABLES, _TABLES.c.id == _HANDS.c.table_id))
    .where(_HANDS.c.table_id == bindparam("table_id"))
    .order_by(_HANDS.c.number)
    .limit(bindparam("page_size"))
    .offset(bindparam("offset"))
)
# A page with no hands (none yet, or past the last): the table alone.
_TABLE_ONLY = select(*_TABLE).where(_TABLES.c.id == bindparam("table_id"))
# The players' names in seat order: what the hands' explanations call the seats.
_NAMES = (
    select(PlayerRow.__table__.c.name)
    .select_from(
        SeatRow.__table__.join(
            PlayerRow.__table__, PlayerRow.__table__.c.id == SeatRow.__table__.c.player_id
        )
    )
    .where(SeatRow.__table__.c.table_id == bindparam("table_id"))
    .order_by(SeatRow.__table__.c.seat)
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
    names: tuple[str, ...]
    """The players' names in seat order (none read for a page without hands)."""


Rows = Callable[[Any, Mapping[str, Any]], Sequence[Any]]
"""Runs a module-level query with its parameters: its rows (``statements.rows``)."""


def hand_page(
    principal: Principal,
    table_id: str,
    page: int,
    page_size: int,
    rows: Rows = statements.rows,
) -> HandPage:
    """Page ``page`` of the table's hands in order (``page_size`` a page), void ones included;
    ``page`` is at most ``schemas.paging.PAGE_MAX``, so its offset stays inside SQL's integers.
    ``rows`` reads them: in the session's transaction, or on a connection kept out of the
    pool (``PinnedVersionReader.read_rows``, the list answered before Flask)."""
    found = rows(
        _PAGE, {"table_id": table_id, "page_size": page_size, "offset": (page - 1) * page_size}
    )
    table = found[0] if found else next(iter(rows(_TABLE_ONLY, {"table_id": table_id})), None)
    if table is None:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    require_table_reader(principal, SimpleNamespace(id=table.table_id, club_id=table.club_id))
    hands = [StoredHand(*row[len(_TABLE) :]) for row in found]
    names = tuple(rows(_NAMES, {"table_id": table.table_id})) if hands else ()
    return HandPage(
        table.table_id,
        table.variant,
        table.version,
        table.hands_recorded,
        hands,
        tuple(row.name for row in names),
    )


def get_hand(
    principal: Principal, table_id: str, number: int
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The hand as answers show it, and its table's players' names in seat order (what its
    explanation calls the seats)."""
    table = read_table(principal, table_id)
    names = tuple(seat.name for seat in table.seats)
    return hand_view(load_hand(table, number), table.variant), names


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
