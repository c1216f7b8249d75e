"""Reading hands: a page of them, one, its history, and the ledger of every transfer."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ...extensions import db
from ...persistence.columns import rfc3339
from ...persistence.table_keeping import (
    HandRevisionRow,
    HandRow,
    TransferRow,
)
from ...rules import POOL
from ..auth import Principal
from ..tables import read_table
from .rows import hand_view, load_hand
from .tagged import tagged


def list_hands(
    principal: Principal, table_id: str, page: int, page_size: int
) -> tuple[list[dict[str, Any]], int]:
    table = read_table(principal, table_id)
    offset = (page - 1) * page_size
    if offset >= table.hands_recorded:  # past the last hand (and past what SQL can offset)
        return [], table.hands_recorded
    rows = db.session.scalars(
        select(HandRow)
        .where(HandRow.table_id == table.id)
        .order_by(HandRow.number)
        .offset(offset)
        .limit(page_size)
    )
    return [hand_view(h, table.variant) for h in rows], table.hands_recorded


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
