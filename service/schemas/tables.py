"""Tables, hands, ledger and settle-up."""

from typing import Any

from marshmallow import INCLUDE, Schema, fields, validate

from ..i18n import current_language, explain_session
from . import VARIANT
from .clubs import Name
from .settlements import SettlementSchema, bounded_dict

PARTY = {
    "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["pool"]}],
    "description": "A seat, or `pool`.",
}


class TableCreateSchema(Schema):
    club_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
    name = Name()
    variant = fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT)
    seats = fields.List(
        fields.String(validate=validate.Length(min=1, max=64)),
        required=True,
        validate=validate.Length(min=3, max=5),
        metadata={"description": "Player ids in the order of play."},
    )
    first_dealer = fields.Integer(
        strict=True, load_default=0, validate=validate.Range(min=0, max=4)
    )
    options = bounded_dict(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The variant's options (see `GET "
            "/api/v1/variants`) plus `pool_at_close` "
            "(`split`|`carry`) and `starting_pool`."
        },
    )
    season_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "A season of the club in the same variant that this sitting counts for."
        },
    )


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    balance = fields.Integer(required=True)


class SessionReason(fields.String):
    """The session's progress: stored as steps, dumped as one line in the request's language."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return None if value is None else explain_session(value, current_language())


class SessionSchema(Schema):
    over = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    reason = SessionReason(
        required=True,
        metadata={"description": "Why the session is (not yet) over, in the answer's language."},
    )


class TrickFiguresSchema(Schema):
    per_hand = fields.Integer(required=True)
    target = fields.Integer(required=True)
    tout = fields.Integer(required=True)


class TableSchema(Schema):
    id = fields.String(required=True)
    club_id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    options = fields.Dict(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    pool = fields.Integer(allow_none=True, required=True)
    couleur = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The suit worth double for the next hand: American Solo's couleur, "
            "German Solo's preferred suit (null: none, or none won yet)."
        },
    )
    dealer = fields.Integer(required=True, metadata={"description": "Who deals the next hand."})
    stake_due = fields.Boolean(allow_none=True, required=True)
    tricks = fields.Nested(
        TrickFiguresSchema,
        allow_none=True,
        required=True,
        metadata={
            "description": "The tricks of a hand with the table's options (German Solo's "
            "`deck`): in a hand, a plain game's target, a tout's; null for Solo 66."
        },
    )
    hands_played = fields.Integer(
        required=True, metadata={"description": "Current hands, not counting void."}
    )
    hands_recorded = fields.Integer(required=True)
    next_number = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    season_id = fields.String(allow_none=True, required=True)
    session = fields.Nested(SessionSchema, allow_none=True, required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})
    closed_at = fields.String(allow_none=True, required=True, metadata={"format": "date-time"})


class TableCreatedSchema(TableSchema):
    table_token = fields.String(
        required=True,
        metadata={"description": "The token for the phones at this table. Shown this once only."},
    )


class HandBodySchema(Schema):
    """A hand record of the table's variant; the rules check every field."""

    class Meta:
        unknown = INCLUDE

    kind = fields.Raw(metadata={"type": "string", "enum": ["played", "forfeit", "misdeal"]})
    contract = fields.Raw(metadata={"type": "string", "maxLength": 32})
    # The contract lets these four be null or absent (allow_none documents the null).
    trump = fields.Raw(allow_none=True, metadata={"type": "string", "maxLength": 32})
    declarer = fields.Raw(metadata={"type": "integer"})
    partner = fields.Raw(allow_none=True, metadata={"type": "integer"})
    giver = fields.Raw(
        allow_none=True,
        metadata={
            "type": "integer",
            "description": "German Solo's mediateur: the opponent who gave the ace.",
        },
    )
    called = fields.Raw(allow_none=True, metadata={"type": "object", "maxProperties": 2})
    tricks = fields.Raw(metadata={"type": "integer", "minimum": 0, "maximum": 8})
    matadores = fields.Raw(allow_none=True, metadata={"type": "object", "maxProperties": 2})
    errors = fields.Raw(metadata={"type": "array", "maxItems": 16})
    seat = fields.Raw(metadata={"type": "integer"})


class HandCreateSchema(HandBodySchema):
    expected_number = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=2**31 - 1),
        metadata={"description": "The number this hand should get; 409 if it is taken."},
    )


RECORD = {
    "allOf": [{"$ref": "#/components/schemas/HandRecord"}],
    "description": "The record as stored, tagged with the table's `variant` (always there in an "
    "answer): a typed client reads it as that variant's record.",
}
"""The ``hand`` of an answer: the variants' union, which ``api/openapi.py`` registers."""


class HandSchema(Schema):
    number = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["recorded", "void"]))
    revision = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    hand = fields.Raw(required=True, metadata=RECORD)
    settlement = fields.Nested(SettlementSchema, allow_none=True, required=True)
    recorded_at = fields.String(required=True, metadata={"format": "date-time"})
    updated_at = fields.String(required=True, metadata={"format": "date-time"})


class HandWithTableSchema(HandSchema):
    table = fields.Nested(TableSchema, required=True)


class CorrectedHandSchema(HandWithTableSchema):
    resettled = fields.Integer(
        required=True,
        metadata={
            "description": "How many hands were settled again, this one included; the rest "
            "started from the same state as before and could not change."
        },
    )


class ChangedBySchema(Schema):
    token_id = fields.String(
        required=True,
        metadata={
            "description": "This service's token, unless `imported`: then the id the imported "
            "file gave, which names no token here."
        },
    )
    kind = fields.String(required=True, validate=validate.OneOf(["admin", "table"]))
    imported = fields.Boolean(
        required=True,
        metadata={
            "description": "The revision came from an imported file, not through this service."
        },
    )


class RevisionSchema(Schema):
    revision = fields.Integer(required=True)
    status = fields.String(required=True)
    hand = fields.Raw(required=True, metadata=RECORD)
    changed_at = fields.String(required=True, metadata={"format": "date-time"})
    changed_by = fields.Nested(ChangedBySchema, required=True)


class HistorySchema(Schema):
    number = fields.Integer(required=True)
    current_revision = fields.Integer(required=True)
    revisions = fields.List(fields.Nested(RevisionSchema), required=True)


class LedgerEntrySchema(Schema):
    hand = fields.Integer(required=True)
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=PARTY)
    to = fields.Raw(required=True, metadata=PARTY)
    chips = fields.Integer(required=True)
    reason = fields.String(required=True)


class LedgerSchema(Schema):
    table_id = fields.String(required=True)
    count = fields.Integer(required=True)
    transfers = fields.List(fields.Nested(LedgerEntrySchema), required=True)


class PoolShareSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=PARTY)
    to = fields.Integer(required=True)
    chips = fields.Integer(required=True)


class NetSchema(Schema):
    party = fields.Raw(required=True, metadata=PARTY)
    amount = fields.Integer(required=True)


class CashTransferSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=PARTY)
    to = fields.Raw(required=True, metadata=PARTY)
    amount = fields.Integer(required=True)


class SettleUpSchema(Schema):
    table_id = fields.String(required=True)
    final = fields.Boolean(
        required=True, metadata={"description": "True once the table is closed."}
    )
    units = fields.String(required=True)
    pool_at_close = fields.String(allow_none=True, required=True)
    pool = fields.Integer(allow_none=True, required=True)
    pool_shares = fields.List(fields.Nested(PoolShareSchema), required=True)
    net = fields.List(fields.Nested(NetSchema), required=True)
    transfers = fields.List(fields.Nested(CashTransferSchema), required=True)
