"""A club's webhooks over HTTP (its admin token; a program's token, its own but for a change):
subscribe URLs to its events, list, change and delete them, read a webhook's delivery log and
ask for an event to be sent again (docs/api.md#webhooks). The deliveries themselves are
``flask deliver-webhooks``'s."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from ..schemas.webhooks import (
    CreatedWebhookSchema,
    DeliveriesPageSchema,
    DeliveriesQuerySchema,
    RedeliveryCreateSchema,
    RedeliverySchema,
    WebhookCreateSchema,
    WebhookSchema,
    WebhookUpdateSchema,
)
from ..services.webhooks import subscriptions
from ..services.webhooks.addresses import IpNetwork, allowed_networks
from .auth import documents_token, principal
from .openapi import operation
from .paging import Blueprint

blp = Blueprint(
    "webhooks",
    __name__,
    url_prefix="/api/v1",
    description="A club's webhooks: its events POSTed to its URLs, signed (Standard Webhooks)",
)


def _allowed() -> tuple[IpNetwork, ...]:
    return allowed_networks(current_app.config.get("WEBHOOK_ALLOWED_NETWORKS") or ())


_auth_doc = partial(documents_token, blp, "Not this club's admin token, nor its program's.")


@blp.route("/clubs/<string:club_id>/webhooks")
class Webhooks(MethodView):
    @blp.arguments(WebhookCreateSchema())
    @blp.response(201, CreatedWebhookSchema)
    @blp.alt_response(409, description="The club has as many webhooks as it may.")
    @blp.alt_response(422, description="A bad or refused `url`, or an unknown event type.")
    @_auth_doc("No such club.")
    @operation("createWebhook", "Webhooks")
    def post(self, body: dict[str, Any], club_id: str) -> dict[str, Any]:
        """Subscribe a URL to the club's events (admin or program token).

        It is sent the events that happen from now on, in the club's order. The answer
        carries the signing secret, this once only."""
        return subscriptions.create_subscription(
            principal(), club_id, body["url"], body["event_types"], body["description"], _allowed()
        )

    @blp.response(200, WebhookSchema(many=True))
    @_auth_doc("No such club.")
    @operation("listWebhooks", "Webhooks")
    def get(self, club_id: str) -> list[dict[str, Any]]:
        """The club's webhooks, oldest first (admin token; a program's: its own): each one's
        state (delivering, failing since, disabled and why). Never their secrets."""
        return subscriptions.list_subscriptions(principal(), club_id)


@blp.route("/clubs/<string:club_id>/webhooks/<string:webhook_id>")
class WebhookById(MethodView):
    @blp.response(200, WebhookSchema)
    @_auth_doc("No such club, or no such webhook of it.")
    @operation("getWebhook", "Webhooks")
    def get(self, club_id: str, webhook_id: str) -> dict[str, Any]:
        """One webhook of the club (admin token, or its program's)."""
        return subscriptions.get_subscription(principal(), club_id, webhook_id)

    @blp.arguments(WebhookUpdateSchema())
    @blp.response(200, WebhookSchema)
    @blp.alt_response(422, description="A bad or refused `url`, or an unknown event type.")
    @_auth_doc("No such club, or no such webhook of it.")
    @operation("updateWebhook", "Webhooks")
    def patch(self, body: dict[str, Any], club_id: str, webhook_id: str) -> dict[str, Any]:
        """Change a webhook's URL, event types or description, or turn it off or back on
        (admin token only)."""
        return subscriptions.update_subscription(principal(), club_id, webhook_id, body, _allowed())

    @blp.response(204)
    @_auth_doc("No such club, or no such webhook of it.")
    @operation("deleteWebhook", "Webhooks")
    def delete(self, club_id: str, webhook_id: str) -> Response:
        """Delete a webhook and its delivery log (admin token, or its program's); nothing
        more is sent to it."""
        subscriptions.delete_subscription(principal(), club_id, webhook_id)
        return Response(status=204)


@blp.route("/clubs/<string:club_id>/webhooks/<string:webhook_id>/deliveries")
class WebhookDeliveries(MethodView):
    @blp.arguments(DeliveriesQuerySchema(), location="query")
    @blp.response(200, DeliveriesPageSchema)
    @_auth_doc("No such club, or no such webhook of it.")
    @operation("listWebhookDeliveries", "Webhooks")
    def get(self, query: dict[str, Any], club_id: str, webhook_id: str) -> dict[str, Any]:
        """The webhook's delivery log, newest first (admin token, or its program's): each
        attempt's event, status, latency and number."""
        return subscriptions.list_deliveries(
            principal(), club_id, webhook_id, query.get("before"), query["limit"]
        )


@blp.route("/clubs/<string:club_id>/webhooks/<string:webhook_id>/redeliveries")
class WebhookRedeliveries(MethodView):
    @blp.arguments(RedeliveryCreateSchema())
    @blp.response(202, RedeliverySchema)
    @blp.alt_response(422, description="`event_id` is not an event of the club.")
    @_auth_doc("No such club, or no such webhook of it.")
    @operation("redeliverWebhookEvent", "Webhooks")
    def post(self, body: dict[str, Any], club_id: str, webhook_id: str) -> dict[str, Any]:
        """Send one of the club's events to the webhook again, by hand (admin token, or its
        program's).

        The deliverer sends it soon, with the event's own `webhook-id`, and logs the attempt
        as `manual`."""
        return subscriptions.request_redelivery(principal(), club_id, webhook_id, body["event_id"])
