"""Dry runs of a change and the re-seating of a table."""

from marshmallow import Schema, fields, validate

from .league_admin import SeatedPlayerSchema
from .tables import TableSchema


class DryRunQuerySchema(Schema):
    dry_run = fields.Boolean(
        load_default=False,
        metadata={
            "description": "`true`: make the same checks and answer what the change would give "
            "(with `Dry-Run: true`), storing nothing: no revision, no version, no "
            "league aggregates."
        },
    )


class SeatingSchema(Schema):
    seats = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=3, max=5),
        metadata={"description": "The table's players, each once, in the order of play."},
    )
    first_dealer = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=4),
        metadata={"description": "The seat (0-based, in `seats`) that dealt the first hand."},
    )


class ReseatedTableSchema(TableSchema):
    resettled = fields.Integer(
        required=True,
        metadata={
            "description": "How many hands were settled again (every hand of the table; 0 when "
            "the seating was already this one)."
        },
    )


class SeatingViewSchema(Schema):
    table_id = fields.String(required=True)
    first_dealer = fields.Integer(
        required=True, metadata={"description": "The seat that dealt (or deals) the first hand."}
    )
    seats = fields.List(fields.Nested(SeatedPlayerSchema), required=True)


class SeatingStateSchema(Schema):
    seats = fields.List(fields.Nested(SeatedPlayerSchema), required=True)
    first_dealer = fields.Integer(required=True)


class SeatingChangedBySchema(Schema):
    token_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["admin", "table"]))


class SeatingChangeSchema(Schema):
    changed_at = fields.String(required=True, metadata={"format": "date-time"})
    changed_by = fields.Nested(SeatingChangedBySchema, required=True)
    before = fields.Nested(SeatingStateSchema, required=True)
    after = fields.Nested(SeatingStateSchema, required=True)
    resettled = fields.Integer(required=True)
    version = fields.Integer(
        required=True, metadata={"description": "The table version the re-seating made."}
    )


class SeatingHistorySchema(SeatingViewSchema):
    changes = fields.List(
        fields.Nested(SeatingChangeSchema),
        required=True,
        metadata={
            "description": "Every re-seating, oldest first; the first one's `before` is the "
            "seating the table was opened with."
        },
    )
