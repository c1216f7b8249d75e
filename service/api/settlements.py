"""Stateless settlement: what a hand would pay, storing nothing."""

from __future__ import annotations

from typing import Any, cast

from flask import Response, current_app

from .. import rules
from ..i18n import current_language, settlement_view
from ..schemas.settlements import PreviewRequestSchema, SettlementSchema
from ..services.hands.tagged import untagged
from .idempotency import NONE, not_idempotent
from .openapi import operation, request_body
from .paging import Blueprint

blp = Blueprint(
    "settlements",
    __name__,
    url_prefix="/api/v1/settlements",
    description="Settle a hand without recording it",
)


@blp.route("/preview", methods=["POST"])
@not_idempotent(NONE)  # stores nothing: a retry is harmless as it is
@blp.arguments(PreviewRequestSchema())
@blp.doc(
    requestBody=request_body(
        "PreviewRequest", "The variant, the table's size, options and state, and the hand record."
    )
)
@blp.response(200, SettlementSchema)
@blp.alt_response(400, description="The body is not valid JSON.")
@blp.alt_response(413, description="The body is larger than 64 KiB.")
@blp.alt_response(422, description="A field is invalid or a rule is broken.")
@operation(
    "previewSettlement",
    "Settlements",
    "Settles one hand record of any variant at the table state given, exactly as a table would, "
    "and stores nothing. The body is told apart by `variant`.",
)
def preview(body: dict[str, Any]) -> Response:
    """Settle one hand at a given table state (no token, nothing stored)."""
    hand = untagged(body["hand"], body["variant"])
    players, names = body["players"], body.get("names")
    if names is not None and len(names) != players:
        raise rules.RuleViolation(
            "names",
            "must name each of the %(players)s players once, in seat order",
            players=players,
        )
    settlement = rules.preview(body["variant"], players, body["options"], body["state"], hand)
    # ``settlement_view`` is already the SettlementSchema shape (a property test holds the
    # schema's dump of it to the identity), so it is sent as it is: flask-smorest passes a
    # Response through, and the dump cost about a tenth of the request.
    body = settlement_view(settlement.to_dict(), current_language(), names, players)
    return cast(Response, current_app.json.response(body))
