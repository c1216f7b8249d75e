"""Running a club's league: players, tokens, the club's tables, a player's sittings."""

from __future__ import annotations

from marshmallow import Schema, fields, validate, validates_schema
from marshmallow.exceptions import ValidationError

from .clubs import Name

DATE_TIME = {"format": "date-time"}


class PlayerUpdateSchema(Schema):
    """At least one of the two (``minProperties: 1`` in the document)."""

    name = fields.String(validate=Name().validators, metadata=Name().metadata)
    retired = fields.Boolean(
        metadata={
            "description": "true retires the player (his history stays; new tables cannot seat "
            "him), false brings him back."
        }
    )

    @validates_schema
    def _something(self, data: dict[str, object], **_: object) -> None:
        if not data:
            raise ValidationError("Give `name`, `retired` or both.", "_schema")


class PlayersQuerySchema(Schema):
    include_retired = fields.Boolean(
        load_default=False,
        metadata={
            "description": "List retired players too (they are left out by default: the list "
            "is where a new table's seats are chosen)."
        },
    )


class IssuedTokenSchema(Schema):
    club_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["admin", "viewer"]))
    token = fields.String(
        required=True,
        metadata={
            "description": "The new token. Shown this once only; the previous one of its kind no "
            "longer works."
        },
    )


TOKEN_KIND = fields.String(
    load_default="viewer",
    validate=validate.OneOf(["viewer", "program"]),
    metadata={
        "description": "`program`: reads as `viewer` and manages the webhooks it makes.",
    },
)


class ViewerTokenCreateSchema(Schema):
    """``name``: what the token is for ("league bot", "TV in the hall"), unique among the
    club's working named tokens."""

    name = Name()
    kind = TOKEN_KIND


class ViewerTokenSchema(Schema):
    id = fields.String(required=True, metadata={"description": "Revoke it by this id."})
    club_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["viewer", "program"]))
    name = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Null for the club's read-only link (`…/viewer-token`)."},
    )
    created_at = fields.String(required=True, metadata=DATE_TIME)
    last_used_at = fields.String(
        required=True,
        allow_none=True,
        metadata={
            **DATE_TIME,
            "description": "When it was last used, to within a minute; null if never.",
        },
    )


class IssuedViewerTokenSchema(ViewerTokenSchema):
    token = fields.String(
        required=True,
        metadata={"description": "The new token. Shown this once only."},
    )


class NewTableTokenSchema(Schema):
    table_id = fields.String(required=True)
    table_token = fields.String(
        required=True,
        metadata={
            "description": "The table's new token (its new shared link). Shown this once only."
        },
    )


class ClubTablesQuerySchema(Schema):
    status = fields.String(load_default=None, validate=validate.OneOf(["open", "closed"]))
    season_id = fields.String(load_default=None, validate=validate.Length(min=1, max=64))


class SeatedPlayerSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "0-based, in order of play."})
    player_id = fields.String(required=True)
    name = fields.String(required=True)


class TableSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    season_id = fields.String(required=True, allow_none=True)
    created_at = fields.String(required=True, metadata=DATE_TIME)
    closed_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    players = fields.List(
        fields.Nested(SeatedPlayerSchema), required=True, metadata={"description": "In seat order."}
    )
    hands = fields.Integer(required=True, metadata={"description": "Hands played (not void)."})
    balances = fields.List(
        fields.Integer(), required=True, metadata={"description": "By seat, as `players`."}
    )


class SittingsQuerySchema(Schema):
    season_id = fields.String(load_default=None, validate=validate.Length(min=1, max=64))


class SittingSchema(Schema):
    table_id = fields.String(required=True)
    table_name = fields.String(required=True)
    variant = fields.String(required=True)
    units = fields.String(required=True)
    season_id = fields.String(required=True, allow_none=True)
    status = fields.String(required=True)
    created_at = fields.String(required=True, metadata=DATE_TIME)
    closed_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    hands = fields.Integer(required=True)
    net = fields.Integer(required=True, metadata={"description": "The player's balance at it."})
    rated_sitting = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "1 for the player's first rated sitting of the season, 2 …; null if "
            "not rated (open, or outside a season)."
        },
    )
    mu = fields.Float(required=True, allow_none=True)
    sigma = fields.Float(required=True, allow_none=True)
    rating = fields.Float(
        required=True,
        allow_none=True,
        metadata={
            "description": "The season rating after this sitting: openskill `mu - 3*sigma`, 2 "
            "decimals."
        },
    )


class PlayerSittingsSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    sittings = fields.List(
        fields.Nested(SittingSchema), required=True, metadata={"description": "Oldest first."}
    )
