"""The first answers to writes sent with an ``Idempotency-Key`` (every POST and PATCH but a
hand's, which keeps its keys per table in ``table_keeping.IdempotencyKeyRow``, written in the
hand's own transaction)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, DateTime, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model


class IdempotentRequestRow(Model):
    """One key of one caller: the request it came with (its fingerprint), and once answered,
    the answer to replay (``status_code`` is null while the first request is in flight).

    ``scope`` is the caller: ``token:<token id>``, ``link:<tournament id>`` for a tournament's
    registration link, or ``public`` for the operations that need no token. The key itself
    is kept as its SHA-256 only (it also seals the secrets of the answer, see
    ``services/idempotency.py``)."""

    __tablename__ = "idempotent_requests"

    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    body: Mapped[Any | None] = mapped_column(JSON, nullable=True)
    headers: Mapped[dict[str, str] | None] = mapped_column(JSON, nullable=True)
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint(
            "status_code IS NULL OR status_code BETWEEN 200 AND 299", name="answer_is_success"
        ),
    )


Index("ix_idempotent_requests_expires", IdempotentRequestRow.expires_at)
