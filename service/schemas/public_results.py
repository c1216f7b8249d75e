"""A tournament's public results: what anyone with their address reads (no token)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..rules.tournament import SCORINGS
from . import VARIANT
from .nights import DATE_TIME
from .tournaments import CENTS, PlacePrizeSchema


class PublicLineSchema(Schema):
    rank = fields.Integer(required=True)
    name = fields.String(
        required=True,
        metadata={"description": "As the entrant chose: the full name, or first name and initial."},
    )
    withdrawn = fields.Boolean(required=True)
    series = fields.List(
        fields.Integer(allow_none=True),
        required=True,
        metadata={"description": "Each series' result under the scoring; null: not played."},
    )
    total = fields.Integer(required=True)
    prize_cents = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Null: prizes not shown."}
    )


class PublicTableSchema(Schema):
    series = fields.Integer(required=True)
    table = fields.Integer(required=True)
    hands_played = fields.Integer(required=True)
    hands_limit = fields.Integer(required=True, allow_none=True)
    done = fields.Boolean(required=True)
    last_hand_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)


class PublicPrizesSchema(Schema):
    currency = fields.String(required=True)
    final = fields.Boolean(required=True)
    places = fields.List(fields.Nested(PlacePrizeSchema), required=True)


class PublicResultsSchema(Schema):
    name = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    scoring = fields.String(required=True, validate=validate.OneOf(SCORINGS))
    tie_breaks = fields.List(fields.String(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    hands_per_series = fields.Integer(required=True, allow_none=True)
    series_planned = fields.Integer(required=True)
    series_drawn = fields.Integer(required=True)
    hands_recorded = fields.Integer(required=True)
    last_hand_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    standings = fields.List(fields.Nested(PublicLineSchema), required=True)
    tables = fields.List(
        fields.Nested(PublicTableSchema),
        required=True,
        metadata={"description": "The current series' tables."},
    )
    prizes = fields.Nested(
        PublicPrizesSchema, required=True, allow_none=True, metadata={"description": CENTS}
    )


class DisplayNamesQuerySchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))


class DisplayNamesSchema(Schema):
    full = fields.String(required=True)
    initial = fields.String(required=True)
