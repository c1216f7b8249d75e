"""Clubs and players."""

from marshmallow import Schema, fields, validate

from ..i18n.marks import N_
from ..persistence.columns import NAME_MAX


def Name() -> fields.String:  # a field factory, named as the field it makes
    return fields.String(
        required=True,
        validate=[
            validate.Length(min=1, max=NAME_MAX),
            validate.Regexp(r"\S", error=N_("Must not be blank.")),
        ],
    )


class ClubCreateSchema(Schema):
    name = Name()


class ClubSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})


class ClubCreatedSchema(ClubSchema):
    admin_token = fields.String(
        required=True,
        metadata={"description": "The club's admin token. Shown this once only; store it safely."},
    )


class PlayerCreateSchema(Schema):
    name = Name()


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    retired = fields.Boolean(
        required=True,
        metadata={"description": "A retired player keeps his history; new tables cannot seat him."},
    )
    retired_at = fields.String(required=True, allow_none=True, metadata={"format": "date-time"})
