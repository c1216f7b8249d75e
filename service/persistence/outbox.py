"""The outbox: every change of a club, as an event row written in the change's own
transaction (``services/outbox.py``), numbered per club without gaps.

``ChangeCursorRow`` holds a club's last number. Taking the next one updates that row, which
PostgreSQL keeps locked until the change commits: a club's events commit in the order of their
numbers, so a reader that has seen number ``n`` has seen every event before it, and
``seq > n`` never skips one committed later (SQLite has one writer at a time anyway)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import ID_LEN, utcnow

KIND_MAX = 40


class ChangeCursorRow(Model):
    """A club's last event number."""

    __tablename__ = "change_cursors"

    club_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    last_seq: Mapped[int] = mapped_column(Integer)


class ChangeEventRow(Model):
    """One change of a club: ``seq`` is its place in the club's order (1, 2, 3 …), ``kind``
    what happened (``hand.recorded`` …), ``version`` the table's version after it, ``data``
    what changed (JSON). Append-only."""

    __tablename__ = "change_events"

    club_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(KIND_MAX))
    table_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# A table's stream resumes from its own events.
Index("ix_change_events_table", ChangeEventRow.table_id, ChangeEventRow.seq)
