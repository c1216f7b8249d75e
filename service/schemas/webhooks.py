"""A club's webhooks: a subscription's shape, the answer that shows its secret, the delivery
log's pages, a redelivery asked for."""

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from marshmallow import Schema, fields, validate, validates_schema
from marshmallow.exceptions import ValidationError

from ..persistence.webhooks import DESCRIPTION_MAX, URL_MAX
from ..services.outbox import EVENT_TYPES
from ..services.webhooks.subscriptions import ALL_EVENTS, MAX_LOG_PAGE

DATE_TIME = {"format": "date-time"}
_TYPES = [*EVENT_TYPES, ALL_EVENTS]


class _HttpUrl(validate.URL):
    """marshmallow's URL check, which also takes the hosts its pattern misses but a
    connection reaches: an IPv6 literal (``http://[::ffff:127.0.0.1]/``) and the short forms
    of an IPv4 address (``http://127.1/``). Such a URL is valid, and the address check
    (``addresses.resolve``) then says whether webhooks may be sent there, and why not."""

    def __call__(self, value: str) -> str:
        try:
            return super().__call__(value)
        except ValidationError:
            if not _reachable_url(value, self.schemes):
                raise
            return value


_HOST_NAME = re.compile(r"[A-Za-z0-9.-]{1,253}")


def _reachable_url(value: str, schemes: Any) -> bool:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError on a bad one
    except ValueError:
        return False
    host = parts.hostname or ""
    if parts.scheme not in schemes or any(c.isspace() for c in value):
        return False
    if parts.netloc.rpartition("@")[2].startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            return False
        return True
    return _HOST_NAME.fullmatch(host) is not None


class _WebhookUrl(fields.Url):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        url_check = self.validators[0]
        assert isinstance(url_check, validate.URL)  # noqa: S101 - marshmallow's own, first
        self.validators[0] = _HttpUrl(
            relative=False,
            schemes=url_check.schemes,
            require_tld=False,
            error=str(self.error_messages["invalid"]),
        )


def _said(text: str, described: bool) -> dict[str, str]:
    """A member's words: in ``WebhookCreate``, once (``WebhookUpdate`` names it)."""
    return {"description": text} if described else {}


def _url(required: bool = True) -> fields.Url:
    return _WebhookUrl(
        required=required,
        schemes={"http", "https"},
        require_tld=False,
        validate=validate.Length(max=URL_MAX),
        metadata={
            "format": "uri",  # JSON Schema's (marshmallow's Url says `url`, no format there)
            **_said(
                "Where the events are POSTed (`http` or `https`). Never a loopback, private or "
                "link-local address, nor a name resolving to one (unless the operator allows "
                "its network); a redirect is not followed.",
                required,
            ),
        },
    )


def _unique(values: list[str]) -> None:
    if len(set(values)) != len(values):
        raise ValidationError("Name each event type once.")


def _event_types(required: bool = True) -> fields.List[str]:
    return fields.List(
        # A component of its own: a generated client has one type of it (Java's inline one
        # did not compile).
        fields.String(
            validate=validate.OneOf(_TYPES), metadata={"enum_component": "WebhookEventType"}
        ),
        required=required,
        validate=[validate.Length(min=1, max=len(_TYPES)), _unique],
        metadata={
            **_said(
                "The event types sent to it; `*` for all of them (those that come later included).",
                required,
            ),
            "uniqueItems": True,
        },
    )


def _description(described: bool, **extra: object) -> fields.String:
    return fields.String(
        allow_none=True,
        **extra,  # type: ignore[arg-type]
        validate=validate.Length(max=DESCRIPTION_MAX),
        metadata=_said("What it is for (for the club's admins).", described),
    )


class WebhookCreateSchema(Schema):
    url = _url()
    event_types = _event_types()
    description = _description(True, load_default=None)


UPDATE_WORDS = (
    "`WebhookCreate`'s members (described there), each optional, and `enabled`: one at least."
)
"""``WebhookUpdate``'s description (``api/openapi.py``'s ``SCHEMA_KEYWORDS``; a ``Meta``
description would cost apispec's ``additionalProperties: false``)."""


class WebhookUpdateSchema(Schema):
    """At least one member (``minProperties: 1`` in the document)."""

    url = _url(required=False)
    event_types = _event_types(required=False)
    description = _description(False)
    enabled = fields.Boolean(
        metadata={
            "description": "false stops the deliveries; true turns a disabled webhook back on "
            "(it retries the event it was stuck on, and goes on from there)."
        }
    )

    @validates_schema
    def _something(self, data: dict[str, object], **_: object) -> None:
        if not data:
            raise ValidationError(
                "Give `url`, `event_types`, `description` or `enabled`.", "_schema"
            )


class WebhookSchema(Schema):
    id = fields.String(required=True)
    club_id = fields.String(required=True)
    token_id = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The program token that made it; null: the admin's."},
    )
    url = fields.String(required=True)
    event_types = fields.List(fields.String(), required=True)
    description = fields.String(required=True, allow_none=True)
    enabled = fields.Boolean(required=True)
    disabled_at = fields.String(
        required=True,
        allow_none=True,
        metadata={**DATE_TIME, "description": "When it was disabled (by the club or failing)."},
    )
    disabled_reason = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Why: the club's PATCH, or the failure it was disabled for."},
    )
    delivered_through = fields.Integer(
        required=True,
        metadata={"description": "The club's last event it is done with (an `id` of `/changes`)."},
    )
    failing_since = fields.String(
        required=True,
        allow_none=True,
        metadata={
            **DATE_TIME,
            "description": "Since when its next event fails; null while it delivers. After "
            "failing for days it is disabled and a `webhook.disabled` event is written.",
        },
    )
    attempt = fields.Integer(
        required=True, metadata={"description": "Failed attempts of its next event so far."}
    )
    next_attempt_at = fields.String(
        required=True,
        allow_none=True,
        metadata={**DATE_TIME, "description": "When the failing event is retried."},
    )
    created_at = fields.String(required=True, metadata=DATE_TIME)


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(
        required=True,
        metadata={
            "description": "The signing secret (`whsec_` and base64), shown this once only: "
            "verify each delivery's `webhook-signature` with it (Standard Webhooks)."
        },
    )


class DeliveriesQuerySchema(Schema):
    before = fields.Integer(
        strict=False,
        validate=validate.Range(min=1, max=2**63 - 1),
        metadata={"description": "The page after this one: the previous page's `before`."},
    )
    limit = fields.Integer(
        strict=False,
        load_default=50,
        validate=validate.Range(min=1, max=MAX_LOG_PAGE),
        metadata={"description": "At most this many attempts."},
    )


class DeliverySchema(Schema):
    id = fields.Integer(required=True)
    event_id = fields.Integer(required=True, metadata={"description": "The event's `id`."})
    event_type = fields.String(required=True)
    attempt = fields.Integer(
        required=True, metadata={"description": "1 for its first attempt, 2 for the next …"}
    )
    manual = fields.Boolean(required=True, metadata={"description": "A redelivery by hand."})
    outcome = fields.String(required=True, validate=validate.OneOf(["delivered", "failed"]))
    status = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The receiver's HTTP status; null without an answer."},
    )
    error = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Why it failed (a timeout, a refused address, a status …)."},
    )
    latency_ms = fields.Integer(required=True)
    attempted_at = fields.String(required=True, metadata=DATE_TIME)


class DeliveriesPageSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
    before = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The next (older) page's `before`; null on the last page."},
    )


class RedeliveryCreateSchema(Schema):
    event_id = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=2**31 - 1),
        metadata={"description": "The club's event to send again (its `id`)."},
    )


class RedeliverySchema(Schema):
    webhook_id = fields.String(required=True)
    event_id = fields.Integer(required=True)
    requested_at = fields.String(required=True, metadata=DATE_TIME)
