"""Dry runs of a change and the re-seating of a table."""

from marshmallow import Schema, fields, validate

from .tables import TableSchema


class DryRunQuerySchema(Schema):
    dry_run = fields.Boolean(load_default=False, metadata={
        "description": "`true`: make the same checks and answer what the change would give "
                       "(with `Dry-Run: true`), storing nothing: no revision, no version, no "
                       "league aggregates."})


class SeatingSchema(Schema):
    seats = fields.List(fields.String(validate=validate.Length(min=1, max=64)), required=True,
                        validate=validate.Length(min=3, max=5),
                        metadata={"description": "The table's players, each once, in the "
                                                 "order of play."})
    first_dealer = fields.Integer(required=True, strict=True,
                                  validate=validate.Range(min=0, max=4),
                                  metadata={"description": "The seat (0-based, in `seats`) "
                                                           "that dealt the first hand."})


class ReseatedTableSchema(TableSchema):
    resettled = fields.Integer(required=True, metadata={
        "description": "How many hands were settled again (every hand of the table; 0 when "
                       "the seating was already this one)."})
