"""What recording and changing a hand share: the hand's view, the rows of its revisions and
transfers, the version check, and inserting rows nobody reads back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any, Protocol

from sqlalchemy import insert, select

from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339
from ...persistence.table_keeping import (
    HandRow,
    TableRow,
)
from ...rules import POOL, Settlement
from ..auth import Principal
from ..errors import (
    NotFound,
    VersionMismatch,
)
from ..locking import TableState
from ..table_rules import TableRules
from .tagged import tagged


@dataclass(frozen=True, slots=True)
class WriteConditions:
    """Optimistic-concurrency conditions a client may send with a write."""

    if_match: int | None = None
    expected_number: int | None = None
    idempotency_key: str | None = None


class HandFields(Protocol):
    """What ``hand_view`` reads: a ``HandRow``, or the values a hand was just inserted with."""

    number: int
    status: str
    revision: int
    dealer: int
    record: dict[str, Any]
    settlement: dict[str, Any] | None
    recorded_at: datetime
    updated_at: datetime


def hand_view(hand: HandFields, variant: str) -> dict[str, Any]:
    """A hand as answers show it, its record tagged with the table's ``variant``."""
    return {
        "number": hand.number,
        "status": hand.status,
        "revision": hand.revision,
        "dealer": hand.dealer,
        "hand": tagged(hand.record, variant),
        "settlement": hand.settlement,
        "recorded_at": rfc3339(hand.recorded_at),
        "updated_at": rfc3339(hand.updated_at),
    }


def check_version(table: TableRow | TableState, if_match: int | None) -> None:
    if if_match is not None and if_match != table.version:
        raise VersionMismatch(
            N_("The table is at version %(version)s, not %(if_match)s: reload it and try again."),
            table.version,
            values={"version": table.version, "if_match": if_match},
        )


def transfer_values(hand: dict[str, Any], settlement: Settlement) -> list[dict[str, Any]]:
    """The rows of ``transfers`` for one settled hand, in the settlement's order; ``hand``
    names the hand: ``{"hand_id": …}``, or ``{"of_table": …, "of_number": …}`` for one being
    recorded (``_NEW_HAND``)."""
    return [
        {
            **hand,
            "position": position,
            "from_seat": None if t.source == POOL else t.source,
            "to_seat": None if t.target == POOL else t.target,
            "chips": t.chips,
            "reason": t.reason.value,
        }
        for position, t in enumerate(settlement.transfers)
    ]


def revision_values(
    hand: dict[str, Any],
    revision: int,
    status: str,
    record: dict[str, Any],
    changed_at: Any,
    principal: Principal,
) -> dict[str, Any]:
    """A row of ``hand_revisions``: what the hand (named as in ``transfer_values``) became,
    when, and by which token."""
    return {
        **hand,
        "revision": revision,
        "status": status,
        "record": record,
        "changed_at": changed_at,
        "token_id": principal.token_id,
        "token_kind": principal.kind,
        "imported": False,
    }


def insert_rows(model: Any, rows: list[dict[str, Any]]) -> None:
    """Insert rows whose new ids nobody reads (hands being recorded, revisions, transfers,
    idempotency keys) with one Core statement: no ORM objects to build, track and flush."""
    if rows:
        db.session.connection().execute(insert_into(model.__table__), rows)


@cache
def insert_into(table: Any) -> Any:
    """One ``INSERT`` statement per table, built once: a new one would be compiled again, or
    at least have its cache key worked out, on every hand recorded. Inline: no ``RETURNING``
    of a new row's id, which nobody reads."""
    return insert(table).inline()


def apply_deltas(table: TableRow, deltas: list[int] | tuple[int, ...], sign: int) -> None:
    for seat in table.seats:
        seat.balance += sign * deltas[seat.seat]


def session_over(table_rules: TableRules, totals: tuple[int, ...], hands_played: int) -> bool:
    outcome = table_rules.variant.session_outcome(table_rules.options, totals, hands_played)
    return outcome is not None and outcome.over


def load_hand(table: TableRow, number: int) -> HandRow:
    hand = db.session.execute(
        select(HandRow).where(HandRow.table_id == table.id, HandRow.number == number)
    ).scalar_one_or_none()
    if hand is None:
        raise NotFound(
            N_("Table %(table)s has no hand %(number)s."),
            values={"table": repr(table.id), "number": number},
        )
    return hand
