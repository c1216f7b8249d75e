"""The games the service can keep, with what a client needs to build its forms."""

from __future__ import annotations

from typing import Any

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from .. import rules

blp = Blueprint("variants", __name__, url_prefix="/api/v1/variants",
                description="The Solo games, their contracts and options")


class VariantSchema(Schema):
    name = fields.String(required=True)
    title = fields.String(required=True)
    units = fields.String(required=True)
    players = fields.List(fields.Integer(), required=True)
    contracts = fields.List(fields.Dict(), required=True)
    options = fields.List(fields.Dict(), required=True)

    class Meta:
        # Each variant describes more of itself (hand kinds, error kinds, suits …).
        unknown = "include"


@blp.route("")
@blp.response(200, VariantSchema(many=True))
def list_variants() -> list[dict[str, Any]]:
    """Every variant with its contracts, values, options and their defaults."""
    return [variant.describe() for variant in rules.VARIANTS.values()]
