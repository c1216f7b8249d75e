"""A tournament's tables' results: a confirmation, a dispute and its resolution, the
director's console, a seat given between series."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..persistence.tournament_results import DISPUTE_STATUSES, REASON_MAX
from ..rules.tournament_results import STATES
from .nights import DATE_TIME, NightSeatSchema
from .settlements import bounded_dict

SEAT = validate.Range(min=0, max=4)


class ConfirmationSchema(Schema):
    seat = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=SEAT,
        metadata={"description": "Not the first (the scorer's); null: the director."},
    )


class DisputeCreateSchema(Schema):
    seat = fields.Integer(required=True, validate=SEAT)
    hand = fields.Integer(required=True, validate=validate.Range(min=1, max=2**31 - 1))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=REASON_MAX))


class DisputeSchema(Schema):
    id = fields.String(required=True)
    table_id = fields.String(required=True)
    table = fields.Integer(required=True)
    hand = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    reason = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(DISPUTE_STATUSES))
    opened_at = fields.String(required=True, metadata=DATE_TIME)
    resolved_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)


class ResolutionSchema(Schema):
    outcome = fields.String(
        required=True,
        validate=validate.OneOf(["corrected", "voided", "rejected"]),
    )
    hand = bounded_dict(
        load_default=None,
        allow_none=True,
        metadata={"description": "For `corrected`: as `correctHand` takes it."},
    )


class TableResultSchema(Schema):
    table_id = fields.String(required=True)
    series = fields.Integer(required=True)
    number = fields.Integer(required=True)
    seats = fields.List(fields.Nested(NightSeatSchema), required=True)
    hands_played = fields.Integer(required=True)
    hands_limit = fields.Integer(required=True, allow_none=True)
    scorer = fields.Integer(required=True)
    confirmations_needed = fields.Integer(
        required=True, metadata={"description": "Seats other than the scorer's it takes."}
    )
    last_hand_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    phones = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Its streams open in the answering worker."},
    )
    confirmations = fields.List(
        fields.Integer(allow_none=True),
        required=True,
        metadata={"description": "Seats (null: the director)."},
    )
    confirmed = fields.Boolean(required=True)
    state = fields.String(required=True, validate=validate.OneOf(STATES))
    disputes = fields.List(
        fields.Nested(DisputeSchema),
        required=True,
        metadata={"description": "Open ones (all in `getTableResult`)."},
    )


class ConsoleQuerySchema(Schema):
    stale_minutes = fields.Integer(load_default=10, validate=validate.Range(min=1, max=1440))


class ConsoleSchema(Schema):
    tournament_id = fields.String(required=True)
    series = fields.Integer(required=True, allow_none=True)
    stale_minutes = fields.Integer(required=True)
    counts = fields.Nested(
        Schema.from_dict(
            {state: fields.Integer(required=True) for state in STATES}, name="ConsoleCounts"
        ),
        required=True,
    )
    tables = fields.List(fields.Nested(TableResultSchema), required=True)


class SeatEntrantSchema(Schema):
    entrant_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    table = fields.Integer(required=True, validate=validate.Range(min=1, max=1000))
    seat = fields.Integer(required=True, validate=SEAT)
