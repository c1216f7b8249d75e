"""The games the service can keep, with what a client needs to build its forms."""

from __future__ import annotations

from functools import cache
from typing import cast

from flask import Response, current_app
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from .. import rules

blp = Blueprint("variants", __name__, url_prefix="/api/v1/variants",
                description="The Solo games, their contracts and options")


class VariantSchema(Schema):
    """What every variant tells, and what some of them add (``null`` where a game has none)."""

    name = fields.String(required=True)
    title = fields.String(required=True)
    units = fields.String(required=True, metadata={"enum": ["chips", "points"]})
    players = fields.List(fields.Integer(), required=True)
    suits = fields.List(fields.String(), required=True)
    contracts = fields.List(fields.Dict(), required=True)
    options = fields.List(fields.Dict(), required=True)
    hand_fields = fields.List(fields.Dict(), required=True)
    error_kinds = fields.List(fields.Dict(), required=True)
    tricks = fields.Integer(allow_none=True)
    hand_kinds = fields.List(fields.Dict(), allow_none=True)
    called_ranks = fields.List(fields.String(), allow_none=True)
    matadores = fields.Dict(allow_none=True)
    bonuses = fields.List(fields.Dict(), allow_none=True)
    preferred_suit_multiplier = fields.Integer(allow_none=True)
    scoring = fields.String(allow_none=True)
    payments = fields.String(allow_none=True)
    card_points = fields.Dict(allow_none=True)
    last_trick_points = fields.Integer(allow_none=True)
    total_points = fields.Integer(allow_none=True)
    kitty_cards = fields.Integer(allow_none=True)


@blp.route("")
@blp.response(200, VariantSchema(many=True))
def list_variants() -> Response:
    """Every variant with its contracts, values, options and their defaults."""
    # The games are fixed for the life of the process: dumped once, not on every request.
    return cast(Response, current_app.json.response(_described()))


@cache
def _described() -> list[dict[str, object]]:
    described: list[dict[str, object]] = VariantSchema(many=True).dump(
        [v.describe() for v in rules.VARIANTS.values()])
    return described
