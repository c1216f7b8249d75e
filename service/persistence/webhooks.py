"""Webhooks: a club's subscriptions, the manual redeliveries waiting, and the log of every
delivery attempt (``services/webhooks``).

A subscription delivers the club's outbox (``change_events``) in the club's order: its
``delivered_seq`` is the last event it is done with (delivered, or not one of its types), so
the deliverer's whole state is in this row and survives any restart. ``lease_owner`` and
``lease_until`` are the deliverer holding it: no other instance takes it before the lease
ends. ``attempt`` and ``next_attempt_at`` are the retries of the event after
``delivered_seq``; ``failing_since`` when its first failure was (cleared by a success)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import ID_LEN, utcnow

URL_MAX = 2000
DESCRIPTION_MAX = 200
SECRET_MAX = 100
ERROR_MAX = 300


class WebhookSubscriptionRow(Model):
    """A URL of a club that is sent the events of ``event_types`` (``["*"]``: all).
    ``token_id`` is the program token that made it (it manages its own webhooks only); null
    for the club's admin's."""

    __tablename__ = "webhook_subscriptions"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("clubs.id", ondelete="CASCADE"), index=True
    )
    # Without a foreign key, as migration 0018 says why; a token's row is never deleted (only
    # revoked), and the club's deletion takes both.
    token_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    url: Mapped[str] = mapped_column(String(URL_MAX))
    event_types: Mapped[list[str]] = mapped_column(JSON)
    description: Mapped[str | None] = mapped_column(String(DESCRIPTION_MAX), nullable=True)
    # Readable: it signs every delivery (the creation's answer shows it, an idempotent replay
    # seals it).
    secret: Mapped[str] = mapped_column(String(SECRET_MAX))
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    disabled_reason: Mapped[str | None] = mapped_column(String(ERROR_MAX), nullable=True)
    delivered_seq: Mapped[int] = mapped_column(Integer, default=0)
    attempt: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    lease_owner: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        CheckConstraint("length(url) > 0", name="url_not_empty"),
        CheckConstraint("delivered_seq >= 0", name="delivered_seq_not_negative"),
        CheckConstraint("attempt >= 0", name="attempt_not_negative"),
    )


class WebhookRedeliveryRow(Model):
    """An event of the club asked to be sent again by hand (sent once, out of the order)."""

    __tablename__ = "webhook_redeliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("webhook_subscriptions.id", ondelete="CASCADE"), index=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class WebhookDeliveryRow(Model):
    """One attempt to deliver one event: ``status`` the receiver's HTTP status (null when
    there was no answer), ``outcome`` ``delivered`` or ``failed``, ``error`` why (a timeout,
    a refused address …), ``latency_ms`` from the connection's start to the answer's head."""

    __tablename__ = "webhook_deliveries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[str] = mapped_column(
        String(ID_LEN), ForeignKey("webhook_subscriptions.id", ondelete="CASCADE")
    )
    seq: Mapped[int] = mapped_column(Integer)
    event_type: Mapped[str] = mapped_column(String(40))
    attempt: Mapped[int] = mapped_column(Integer)
    manual: Mapped[bool] = mapped_column(Boolean, default=False)
    outcome: Mapped[str] = mapped_column(String(20))
    status: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error: Mapped[str | None] = mapped_column(String(ERROR_MAX), nullable=True)
    latency_ms: Mapped[int] = mapped_column(Integer)
    attempted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        CheckConstraint("outcome IN ('delivered', 'failed')", name="outcome_known"),
        CheckConstraint("attempt >= 1", name="attempt_positive"),
        CheckConstraint("latency_ms >= 0", name="latency_not_negative"),
    )


# The log reads newest first per subscription.
Index(
    "ix_webhook_deliveries_subscription", WebhookDeliveryRow.subscription_id, WebhookDeliveryRow.id
)
