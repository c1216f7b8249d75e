"""A club's webhook subscriptions (its admin token): make one (its signing secret shown this
once), list, change, delete them; read a subscription's delivery log; ask for an event to be
sent again. A program's token of the club makes, lists, reads, redelivers and deletes its own
webhooks, and nothing else (``_manager``); revoking it turns them off
(``disable_webhooks_of``).

A new subscription starts after the club's last event: it is sent what happens from now on.
Changing ``url`` or ``event_types`` keeps its place in the club's order; turning it back on
(``enabled: true``) after it was disabled clears its failure and retries the event it was
stuck on, so that nothing of what it missed is lost."""

from __future__ import annotations

import base64
import secrets
from typing import Any

from sqlalchemy import delete, select, update

from ...extensions import db
from ...i18n.marks import N_
from ...persistence.columns import rfc3339, utcnow
from ...persistence.outbox import ChangeEventRow
from ...persistence.webhooks import (
    WebhookDeliveryRow,
    WebhookRedeliveryRow,
    WebhookSubscriptionRow,
)
from ...rules import Phrase, RuleViolation
from ..auth import Principal, hold_live_token, new_id
from ..clubs import get_club, read_club
from ..errors import Conflict, Forbidden, NotFound
from ..locking import begin_write
from ..outbox import last_seq, record_change
from . import addresses
from .addresses import AddressRefused, IpNetwork, check_subscribed_url

# What a subscription may ask for: every kind the outbox writes (``outbox.EVENT_TYPES``), and
# ``*`` for all of them.
ALL_EVENTS = "*"
# A bound on what one club can pile up.
MAX_SUBSCRIPTIONS = 20
MAX_LOG_PAGE = 100
SECRET_BYTES = 24
# Why a webhook is off after its program's token was revoked (``disabled_reason``).
REVOKED_REASON = "its program's token was revoked"


def new_secret() -> str:
    """A signing secret as Standard Webhooks writes them: ``whsec_`` and base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def subscription_view(row: WebhookSubscriptionRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "club_id": row.club_id,
        "token_id": row.token_id,
        "url": row.url,
        "event_types": list(row.event_types),
        "description": row.description,
        "enabled": row.enabled,
        "disabled_at": rfc3339(row.disabled_at),
        "disabled_reason": row.disabled_reason,
        "delivered_through": row.delivered_seq,
        "failing_since": rfc3339(row.failing_since),
        "attempt": row.attempt,
        "next_attempt_at": rfc3339(row.next_attempt_at) if row.attempt else None,
        "created_at": rfc3339(row.created_at),
    }


def delivery_view(row: WebhookDeliveryRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "event_id": row.seq,
        "event_type": row.event_type,
        "attempt": row.attempt,
        "manual": row.manual,
        "outcome": row.outcome,
        "status": row.status,
        "error": row.error,
        "latency_ms": row.latency_ms,
        "attempted_at": rfc3339(row.attempted_at),
    }


# The kinds ``addresses.refused_kind`` names, as phrases for the reader's language.
_KINDS = {
    addresses.LOOPBACK: Phrase("a loopback address"),
    addresses.UNSPECIFIED: Phrase("an unspecified address"),
    addresses.PRIVATE: Phrase("a private address"),
    addresses.LINK_LOCAL: Phrase("a link-local address"),
    addresses.MULTICAST: Phrase("a multicast address"),
    addresses.RESERVED: Phrase("a reserved address"),
}


def _check_url(url: str, allowed: tuple[IpNetwork, ...]) -> None:
    """Refuse, naming the field and why, a URL the deliverer would refuse (its one judgement,
    ``addresses.resolve``: every spelling of an address, and the addresses a name resolves
    to now)."""
    try:
        check_subscribed_url(url, allowed)
    except AddressRefused as refused:
        raise RuleViolation(
            "url",
            "must not name a loopback, private or link-local address: %(host)s is "
            "%(address)s, %(kind)s",
            host=refused.host,
            address=refused.address,
            kind=_KINDS.get(refused.kind or "", _KINDS[addresses.RESERVED]),
        ) from None


def _types(event_types: list[str]) -> list[str]:
    unique = list(dict.fromkeys(event_types))
    return [ALL_EVENTS] if ALL_EVENTS in unique else unique


def _manager(principal: Principal, club_id: str) -> str | None:
    """Who manages the club's webhooks: its admin token (all of them: None), or one of its
    programs' tokens (the ones it made: its token id); anyone else is refused."""
    if principal.kind == "program":
        read_club(principal, club_id)
        return principal.token_id
    get_club(principal, club_id)
    return None


def _subscription(
    principal: Principal, club_id: str, webhook_id: str, *, program_may: bool = True
) -> WebhookSubscriptionRow:
    """The club's webhook, for its admin token or, when ``program_may``, the program's token
    that made it."""
    owner = _manager(principal, club_id)
    row = db.session.get(WebhookSubscriptionRow, webhook_id)
    if row is None or row.club_id != club_id:
        raise NotFound(
            N_("The club has no webhook %(webhook)s."), values={"webhook": repr(webhook_id)}
        )
    if owner is not None and not program_may:
        raise Forbidden(
            N_(
                "A program's token does not change webhooks: delete it and make another "
                "(the club's admin token changes any)."
            )
        )
    if owner is not None and row.token_id != owner:
        raise Forbidden(
            N_(
                "This webhook is not this program's: a program's token manages only the "
                "webhooks it made."
            )
        )
    return row


def create_subscription(
    principal: Principal,
    club_id: str,
    url: str,
    event_types: list[str],
    description: str | None,
    allowed: tuple[IpNetwork, ...],
) -> dict[str, Any]:
    """Subscribe ``url`` to the club's events of ``event_types`` from now on (admin token, or
    a program's: then the webhook is that program's); the answer carries the signing secret,
    this once only."""
    owner = _manager(principal, club_id)
    _check_url(url, allowed)
    if owner is not None:  # a program's webhook is made only while its token works
        begin_write()
        hold_live_token(principal)
    count = len(
        db.session.scalars(
            select(WebhookSubscriptionRow.id).where(WebhookSubscriptionRow.club_id == club_id)
        ).all()
    )
    if count >= MAX_SUBSCRIPTIONS:
        raise Conflict(
            N_("The club has %(count)s webhooks already; delete one first."),
            values={"count": MAX_SUBSCRIPTIONS},
        )
    secret = new_secret()
    row = WebhookSubscriptionRow(
        id=new_id(),
        club_id=club_id,
        token_id=owner,
        url=url,
        event_types=_types(event_types),
        description=description,
        secret=secret,
        enabled=True,
        delivered_seq=last_seq(club_id),
        attempt=0,
        next_attempt_at=utcnow(),
        created_at=utcnow(),
    )
    db.session.add(row)
    db.session.commit()
    return {**subscription_view(row), "secret": secret}


def list_subscriptions(principal: Principal, club_id: str) -> list[dict[str, Any]]:
    """The club's webhooks, oldest first (admin token; a program's token: its own); never
    their secrets."""
    owner = _manager(principal, club_id)
    query = select(WebhookSubscriptionRow).where(WebhookSubscriptionRow.club_id == club_id)
    if owner is not None:
        query = query.where(WebhookSubscriptionRow.token_id == owner)
    rows = db.session.scalars(
        query.order_by(WebhookSubscriptionRow.created_at, WebhookSubscriptionRow.id)
    ).all()
    return [subscription_view(row) for row in rows]


def get_subscription(principal: Principal, club_id: str, webhook_id: str) -> dict[str, Any]:
    return subscription_view(_subscription(principal, club_id, webhook_id))


def update_subscription(
    principal: Principal,
    club_id: str,
    webhook_id: str,
    changes: dict[str, Any],
    allowed: tuple[IpNetwork, ...],
) -> dict[str, Any]:
    """Change a webhook's ``url``, ``event_types``, ``description`` or ``enabled`` (the
    admin token only)."""
    row = _subscription(principal, club_id, webhook_id, program_may=False)
    if "url" in changes:
        _check_url(changes["url"], allowed)
        row.url = changes["url"]
    if "event_types" in changes:
        row.event_types = _types(changes["event_types"])
    if "description" in changes:
        row.description = changes["description"]
    if "enabled" in changes and changes["enabled"] != row.enabled:
        row.enabled = changes["enabled"]
        if row.enabled:
            row.disabled_at = None
            row.disabled_reason = None
            row.failing_since = None
            row.attempt = 0
            row.next_attempt_at = utcnow()
        else:
            row.disabled_at = utcnow()
            row.disabled_reason = "disabled by the club"
    db.session.commit()
    return subscription_view(row)


def delete_subscription(principal: Principal, club_id: str, webhook_id: str) -> None:
    """Delete a webhook and its log; nothing more is sent to it."""
    row = _subscription(principal, club_id, webhook_id)
    db.session.delete(row)
    db.session.commit()


def list_deliveries(
    principal: Principal, club_id: str, webhook_id: str, before: int | None, limit: int
) -> dict[str, Any]:
    """A page of the webhook's delivery log, newest first, before the attempt ``before``."""
    _subscription(principal, club_id, webhook_id)
    query = select(WebhookDeliveryRow).where(WebhookDeliveryRow.subscription_id == webhook_id)
    if before is not None:
        query = query.where(WebhookDeliveryRow.id < before)
    rows = db.session.scalars(query.order_by(WebhookDeliveryRow.id.desc()).limit(limit + 1)).all()
    page = [delivery_view(row) for row in rows[:limit]]
    return {
        "deliveries": page,
        "before": page[-1]["id"] if len(rows) > limit else None,
    }


def request_redelivery(
    principal: Principal, club_id: str, webhook_id: str, event_id: int
) -> dict[str, Any]:
    """Send the club's event ``event_id`` to the webhook once more (by hand), with the same
    ``webhook-id`` as before: a receiver that has it may drop it. Sent by the deliverer soon,
    outside the order (and even to a disabled webhook: the club asked for it)."""
    row = _subscription(principal, club_id, webhook_id)
    exists = db.session.scalar(
        select(ChangeEventRow.seq).where(
            ChangeEventRow.club_id == club_id, ChangeEventRow.seq == event_id
        )
    )
    if exists is None:
        raise RuleViolation("event_id", "is not an event of the club")
    redelivery = WebhookRedeliveryRow(subscription_id=row.id, seq=event_id, requested_at=utcnow())
    db.session.add(redelivery)
    db.session.commit()
    return {
        "webhook_id": row.id,
        "event_id": event_id,
        "requested_at": rfc3339(redelivery.requested_at),
    }


def disable_webhooks_of(club_id: str, token_id: str) -> None:
    """Turn off the webhooks the (revoked) program token ``token_id`` made, in the caller's
    transaction: the deliverer sends them nothing more (their redeliveries asked for are
    dropped), and the club is told as of any webhook turned off (``webhook.disabled``). They
    stay, with their log, for the admin to read, delete or turn back on."""
    owned = WebhookSubscriptionRow.club_id == club_id, WebhookSubscriptionRow.token_id == token_id
    rows = db.session.execute(
        select(WebhookSubscriptionRow.id, WebhookSubscriptionRow.url).where(
            *owned, WebhookSubscriptionRow.enabled.is_(True)
        )
    ).all()
    db.session.execute(
        delete(WebhookRedeliveryRow).where(
            WebhookRedeliveryRow.subscription_id.in_(
                select(WebhookSubscriptionRow.id).where(*owned)
            )
        )
    )
    if not rows:
        return
    db.session.execute(
        update(WebhookSubscriptionRow)
        .where(WebhookSubscriptionRow.id.in_([row.id for row in rows]))
        .values(enabled=False, disabled_at=utcnow(), disabled_reason=REVOKED_REASON)
    )
    for row in rows:
        record_change(club_id, "webhook.disabled", webhook=row.id, url=row.url)
