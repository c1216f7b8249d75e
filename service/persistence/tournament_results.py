"""SQLAlchemy rows of a tournament's tables' results: the confirmations that make a table's
series count, and the disputes of its hands that go to the director (docs/tournaments.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import ID_LEN, utcnow

__all__ = ["ConfirmationRow", "DisputeRow", "DISPUTE_STATUSES", "REASON_MAX"]

REASON_MAX = 200
DISPUTE_STATUSES = ("open", "corrected", "voided", "rejected")


class ConfirmationRow(Model):
    """A confirmation of a tournament table's result: by the player of ``seat`` on the
    table's phone, or by the director (``seat`` null), of the table's hands as they stood
    (``stamp``: ``services.tournament_results.result_stamp``; a later change of them voids
    it). Never updated."""

    __tablename__ = "tournament_confirmations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    table_id: Mapped[str] = mapped_column(ForeignKey("score_tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    stamp: Mapped[int] = mapped_column(Integer)
    token_id: Mapped[str] = mapped_column(String(ID_LEN))
    confirmed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        CheckConstraint("seat IS NULL OR (seat >= 0 AND seat < 5)", name="seat_range"),
        Index("ix_tournament_confirmations_table", "table_id", "stamp"),
    )


class DisputeRow(Model):
    """A seated player's dispute of hand ``hand`` of a tournament's table, with a short
    reason; the director resolves it (``corrected``, ``voided`` through the hands'
    correction path, or ``rejected``), by the token ``resolved_by``."""

    __tablename__ = "tournament_disputes"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    table_id: Mapped[str] = mapped_column(ForeignKey("score_tables.id", ondelete="CASCADE"))
    hand: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(REASON_MAX))
    status: Mapped[str] = mapped_column(String(10), default="open")
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    resolved_by: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)

    __table_args__ = (
        CheckConstraint("hand >= 1", name="hand_positive"),
        CheckConstraint("seat >= 0 AND seat < 5", name="seat_range"),
        CheckConstraint(
            "status IN ('open', 'corrected', 'voided', 'rejected')", name="status_known"
        ),
        CheckConstraint("(status = 'open') = (resolved_at IS NULL)", name="resolved_has_time"),
        Index("ix_tournament_disputes_table", "table_id", "status"),
        Index("ix_tournament_disputes_tournament", "tournament_id", "status"),
    )
