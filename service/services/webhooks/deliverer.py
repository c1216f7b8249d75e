"""The deliverer: takes each club's outbox to its webhooks after the changes commit, survives
restarts and ``kill -9``, and never lets two instances deliver one subscription at once.

Its whole state is in the subscription's row (``persistence/webhooks.py``). A deliverer
*claims* a subscription with work to do (events after ``delivered_seq``, or a redelivery asked
for) by writing its lease (``lease_owner``, ``lease_until``): on PostgreSQL the candidate is
picked ``FOR UPDATE SKIP LOCKED``, so that two deliverers never wait for each other; on SQLite
the claim is made in the one writer's turn (``BEGIN IMMEDIATE``). Each result is written
guarded by the lease (``WHERE lease_owner = me``), which also renews it; a deliverer killed
mid-delivery leaves a lease that ends after ``lease_seconds``, and the next one takes the
subscription from its last committed event: that event may go out twice (at-least-once; the
``webhook-id`` lets the receiver drop it), but none is lost and none overtakes another.

A subscription is sent the club's events strictly in the club's order, one at a time, so each
table's events arrive in order. A failure (no 2xx in time) is retried with exponential backoff
and jitter (``backoff``) without end, and the events after it wait; once a subscription has
been failing for ``disable_after`` (three days by default) it is disabled and the club told: a
``webhook.disabled`` event in its outbox (its feed, streams and other webhooks) and the
subscription's ``enabled: false`` with the reason, which the admin area reads."""

from __future__ import annotations

import logging
import random
import threading
import uuid
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update

from ...extensions import db
from ...logs import request_id_of
from ...metrics import WEBHOOK_DELIVERIES
from ...persistence.columns import aware, utcnow
from ...persistence.outbox import ChangeCursorRow, ChangeEventRow
from ...persistence.webhooks import (
    ERROR_MAX,
    WebhookDeliveryRow,
    WebhookRedeliveryRow,
    WebhookSubscriptionRow,
)
from ..locking import begin_write
from ..outbox import event_request_id, event_view, record_change
from .addresses import IpNetwork, allowed_networks
from .sending import Outcome, Timeouts, send
from .subscriptions import ALL_EVENTS

log = logging.getLogger(__name__)

Sub = WebhookSubscriptionRow
_subs = WebhookSubscriptionRow.__table__
_log = WebhookDeliveryRow.__table__


@dataclass(frozen=True, slots=True)
class DeliverySettings:
    """How the deliverer works (``SOLO_WEBHOOK_*``, docs/operations.md)."""

    allowed: tuple[IpNetwork, ...] = ()
    timeouts: Timeouts = field(default_factory=Timeouts)
    backoff_base_seconds: float = 10.0
    backoff_cap_seconds: float = 3600.0
    disable_after_seconds: float = 3 * 86400.0
    idle_poll_seconds: float = 1.0
    # Events one claim delivers before the subscription is let go for others' turn.
    batch: int = 50
    lease_margin_seconds: float = 10.0
    log_retention_days: float = 30.0

    @property
    def lease_seconds(self) -> float:
        """Longer than one delivery can take (connecting, reading the head and the answer):
        how long a killed deliverer's subscription waits for another."""
        return 3 * (self.timeouts.connect + self.timeouts.read) + self.lease_margin_seconds


def backoff(attempt: int, settings: DeliverySettings, rng: random.Random) -> float:
    """The wait before the retry after ``attempt`` failures: doubling from the base up to the
    cap, with jitter (half of it random), so that receivers coming back are not hit by every
    club at once."""
    doublings = min(max(attempt - 1, 0), 60)  # a failing week's attempts overflow no float
    ceiling = min(settings.backoff_cap_seconds, settings.backoff_base_seconds * 2.0**doublings)
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


def message_id(club_id: str, seq: int) -> str:
    """The ``webhook-id`` of the club's event ``seq``: the same on every attempt."""
    return f"{club_id}-{seq}"


def claim(owner: str, settings: DeliverySettings) -> str | None:
    """Lease one subscription that has work due, and answer its id (None when none has)."""
    now = utcnow()
    begin_write()
    redelivery_waits = exists().where(WebhookRedeliveryRow.subscription_id == Sub.id)
    events_wait = and_(
        Sub.enabled.is_(True),
        Sub.next_attempt_at <= now,
        ChangeCursorRow.last_seq > Sub.delivered_seq,
    )
    query = (
        select(Sub.id)
        .outerjoin(ChangeCursorRow, ChangeCursorRow.club_id == Sub.club_id)
        .where(
            or_(Sub.lease_until.is_(None), Sub.lease_until < now),
            or_(events_wait, redelivery_waits),
        )
        .order_by(Sub.next_attempt_at)
        .limit(1)
        .with_for_update(skip_locked=True, of=Sub)
    )
    found = db.session.execute(query).scalar()
    if found is None:
        db.session.rollback()
        return None
    db.session.execute(
        update(_subs)
        .where(_subs.c.id == found)
        .values(lease_owner=owner, lease_until=now + timedelta(seconds=settings.lease_seconds))
    )
    db.session.commit()
    return str(found)


def _release(subscription_id: str, owner: str, settings: DeliverySettings) -> None:
    """Let the subscription go, and drop its log's attempts older than the retention."""
    _write()
    db.session.execute(
        delete(_log).where(
            _log.c.subscription_id == subscription_id,
            _log.c.attempted_at < utcnow() - timedelta(days=settings.log_retention_days),
        )
    )
    db.session.execute(
        update(_subs)
        .where(_subs.c.id == subscription_id, _subs.c.lease_owner == owner)
        .values(lease_owner=None, lease_until=None)
    )
    db.session.commit()


@dataclass(frozen=True, slots=True)
class _Subscription:
    """What one delivery needs of the subscription, read before the receiver is asked (no
    transaction stays open while it answers)."""

    id: str
    club_id: str
    url: str
    secret: str
    event_types: tuple[str, ...]
    enabled: bool
    attempt: int
    delivered_seq: int
    next_attempt_at: datetime
    failing_since: datetime | None

    @classmethod
    def of(cls, row: Sub) -> _Subscription:
        return cls(
            row.id,
            row.club_id,
            row.url,
            row.secret,
            tuple(row.event_types),
            row.enabled,
            row.attempt,
            row.delivered_seq,
            aware(row.next_attempt_at),
            aware(row.failing_since) if row.failing_since else None,
        )

    def wants(self, kind: str) -> bool:
        return ALL_EVENTS in self.event_types or kind in self.event_types


@dataclass(frozen=True, slots=True)
class _Event:
    seq: int
    kind: str
    view: dict[str, Any]
    request_id: str | None = None  # of the request that recorded it (for the log lines)


def _write() -> None:
    """Start a write transaction (SQLite: the one writer's turn, taken before reading)."""
    db.session.rollback()
    begin_write()


def backlog() -> int:
    """The events the enabled webhooks have yet to be sent: per webhook, its club's last event
    number less the last it was sent (``solo_webhook_backlog_events``)."""
    waiting = db.session.scalar(
        select(func.coalesce(func.sum(ChangeCursorRow.last_seq - _subs.c.delivered_seq), 0))
        .select_from(_subs)
        .join(ChangeCursorRow, ChangeCursorRow.club_id == _subs.c.club_id)
        .where(_subs.c.enabled.is_(True), ChangeCursorRow.last_seq > _subs.c.delivered_seq)
    )
    db.session.rollback()
    return int(waiting or 0)


def _log_attempt(
    sub: _Subscription, event: _Event, attempt: int, outcome: Outcome, manual: bool
) -> None:
    refused = not outcome.delivered and (outcome.error or "").startswith("address refused")
    WEBHOOK_DELIVERIES.labels(
        "delivered" if outcome.delivered else "refused" if refused else "failed"
    ).inc()
    db.session.execute(
        insert(_log).values(
            subscription_id=sub.id,
            seq=event.seq,
            event_type=event.kind,
            attempt=attempt,
            manual=manual,
            outcome="delivered" if outcome.delivered else "failed",
            status=outcome.status,
            error=outcome.error[:ERROR_MAX] if outcome.error else None,
            latency_ms=outcome.latency_ms,
            attempted_at=utcnow(),
        )
    )


def _guarded(sub: _Subscription, owner: str, settings: DeliverySettings, **values: Any) -> bool:
    """Write ``values`` to the subscription while this deliverer holds its lease (renewed)."""
    now = utcnow()
    result = db.session.execute(
        update(_subs)
        .where(_subs.c.id == sub.id, _subs.c.lease_owner == owner)
        .values(lease_until=now + timedelta(seconds=settings.lease_seconds), **values)
    )
    return bool(getattr(result, "rowcount", 0))


def _events(club_id: str, after: int, limit: int, seq: int | None = None) -> list[_Event]:
    query = select(ChangeEventRow).where(ChangeEventRow.club_id == club_id)
    if seq is not None:
        query = query.where(ChangeEventRow.seq == seq)
    else:
        query = query.where(ChangeEventRow.seq > after).order_by(ChangeEventRow.seq)
    rows = db.session.scalars(query.limit(limit)).all()
    return [_Event(row.seq, row.kind, event_view(row), event_request_id(row)) for row in rows]


def _send(sub: _Subscription, event: _Event, settings: DeliverySettings) -> Outcome:
    """Send the event once; its log line carries the id of the request that recorded it."""
    with request_id_of(event.request_id):
        outcome = send(
            sub.url,
            sub.secret,
            message_id(sub.club_id, event.seq),
            event.view,
            settings.allowed,
            settings.timeouts,
        )
        if outcome.delivered:
            log.info(
                "webhook %s: event %s (%s) of club %s delivered (%s) in %s ms",
                sub.id,
                event.seq,
                event.kind,
                sub.club_id,
                outcome.status,
                outcome.latency_ms,
            )
        else:
            log.warning(
                "webhook %s: event %s (%s) of club %s not delivered: %s",
                sub.id,
                event.seq,
                event.kind,
                sub.club_id,
                outcome.error or f"answered {outcome.status}",
            )
    return outcome


def _redeliver(sub: _Subscription, owner: str, settings: DeliverySettings) -> bool:
    """Send the oldest redelivery asked for, if any (answers whether there was one)."""
    asked = db.session.execute(
        select(WebhookRedeliveryRow.id, WebhookRedeliveryRow.seq)
        .where(WebhookRedeliveryRow.subscription_id == sub.id)
        .order_by(WebhookRedeliveryRow.id)
        .limit(1)
    ).first()
    if asked is None:
        return False
    events = _events(sub.club_id, 0, 1, seq=asked.seq)
    db.session.rollback()  # no transaction open while the receiver answers
    outcome = _send(sub, events[0], settings) if events else None
    _write()
    if outcome is not None and _guarded(sub, owner, settings):
        attempts = db.session.scalar(
            select(func.count())
            .select_from(_log)
            .where(_log.c.subscription_id == sub.id, _log.c.seq == asked.seq)
        )
        _log_attempt(sub, events[0], int(attempts or 0) + 1, outcome, True)
    db.session.execute(delete(WebhookRedeliveryRow).where(WebhookRedeliveryRow.id == asked.id))
    db.session.commit()
    return True


def _deliver_next(
    sub: _Subscription, owner: str, settings: DeliverySettings, rng: random.Random
) -> bool:
    """Deliver the subscription's next event of its types (answers whether to go on)."""
    if not sub.enabled or sub.next_attempt_at > utcnow():
        return False
    events = _events(sub.club_id, sub.delivered_seq, settings.batch)
    if not events:
        return False
    wanted = next((event for event in events if sub.wants(event.kind)), None)
    if wanted is None:  # none of its types: done with them all
        _write()
        held = _guarded(sub, owner, settings, delivered_seq=events[-1].seq)
        db.session.commit()
        return held
    db.session.rollback()  # no transaction open while the receiver answers
    outcome = _send(sub, wanted, settings)
    now = utcnow()
    attempt = sub.attempt + 1
    if outcome.delivered:
        changes: dict[str, Any] = {
            "delivered_seq": wanted.seq,
            "attempt": 0,
            "failing_since": None,
            "next_attempt_at": now,
        }
    else:
        failing_since = sub.failing_since or now
        changes = {
            "attempt": attempt,
            "failing_since": failing_since,
            "next_attempt_at": now + timedelta(seconds=backoff(attempt, settings, rng)),
        }
        if (now - failing_since).total_seconds() >= settings.disable_after_seconds:
            reason = f"failing since {failing_since.isoformat()}: {outcome.error}"[:ERROR_MAX]
            changes.update(enabled=False, disabled_at=now, disabled_reason=reason)
    _write()
    held = _guarded(sub, owner, settings, **changes)
    if held:  # not when the subscription was deleted meanwhile (or its lease lost)
        _log_attempt(sub, wanted, attempt, outcome, False)
        if changes.get("enabled") is False:
            record_change(sub.club_id, "webhook.disabled", webhook=sub.id, url=sub.url)
    db.session.commit()
    return held and outcome.delivered


def work(subscription_id: str, owner: str, settings: DeliverySettings, rng: random.Random) -> None:
    """Deliver what the claimed subscription has due (at most a batch), then let it go."""
    try:
        for _ in range(settings.batch):
            db.session.expire_all()
            row = db.session.get(Sub, subscription_id)
            if row is None or row.lease_owner != owner:
                return
            sub = _Subscription.of(row)
            if _redeliver(sub, owner, settings):
                continue
            if not _deliver_next(sub, owner, settings, rng):
                break
    finally:
        db.session.rollback()
        _release(subscription_id, owner, settings)


def run(
    context: Callable[[], AbstractContextManager[Any]],
    settings: DeliverySettings,
    stop: threading.Event,
    threads: int = 2,
    wake: threading.Event | None = None,
) -> list[threading.Thread]:
    """Start ``threads`` delivering threads (each in its own ``context()``, an app context)
    until ``stop`` is set; answers them (started, daemons). An idle thread looks for work
    every ``idle_poll_seconds``, or as soon as ``wake`` is set (a new event committed: the
    command sets it from the outbox's feed)."""
    wake = wake or threading.Event()
    started = []
    for number in range(threads):
        thread = threading.Thread(
            target=_loop,
            args=(context, settings, stop, wake),
            name=f"webhook-deliverer-{number}",
            daemon=True,
        )
        thread.start()
        started.append(thread)
    return started


def _idle(stop: threading.Event, wake: threading.Event, seconds: float) -> None:
    if wake.wait(seconds):
        wake.clear()


def _loop(
    context: Callable[[], AbstractContextManager[Any]],
    settings: DeliverySettings,
    stop: threading.Event,
    wake: threading.Event,
) -> None:
    owner = uuid.uuid4().hex
    rng = random.Random()
    with context():
        while not stop.is_set():
            try:
                claimed = claim(owner, settings)
                if claimed is None:
                    _idle(stop, wake, settings.idle_poll_seconds)
                    continue
                work(claimed, owner, settings, rng)
            except Exception:  # the database went away …: wait, then try again
                log.exception("webhook delivery failed; retrying")
                db.session.rollback()
                stop.wait(settings.idle_poll_seconds)
            finally:
                db.session.remove()


def delivery_settings(config: Mapping[str, Any]) -> DeliverySettings:
    """The deliverer's settings from the app's configuration (``SOLO_WEBHOOK_*``)."""
    defaults = DeliverySettings()
    return DeliverySettings(
        allowed=allowed_networks(config.get("WEBHOOK_ALLOWED_NETWORKS") or ()),
        timeouts=Timeouts(
            connect=float(config.get("WEBHOOK_CONNECT_TIMEOUT_S", defaults.timeouts.connect)),
            read=float(config.get("WEBHOOK_READ_TIMEOUT_S", defaults.timeouts.read)),
        ),
        backoff_base_seconds=float(
            config.get("WEBHOOK_BACKOFF_BASE_S", defaults.backoff_base_seconds)
        ),
        backoff_cap_seconds=float(
            config.get("WEBHOOK_BACKOFF_CAP_S", defaults.backoff_cap_seconds)
        ),
        disable_after_seconds=float(
            config.get("WEBHOOK_DISABLE_AFTER_S", defaults.disable_after_seconds)
        ),
        idle_poll_seconds=float(config.get("WEBHOOK_IDLE_POLL_S", defaults.idle_poll_seconds)),
        lease_margin_seconds=float(
            config.get("WEBHOOK_LEASE_MARGIN_S", defaults.lease_margin_seconds)
        ),
        log_retention_days=float(
            config.get("WEBHOOK_LOG_RETENTION_DAYS", defaults.log_retention_days)
        ),
    )
