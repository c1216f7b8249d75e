"""Tables, hands, ledger and settle-up."""

from collections.abc import Mapping
from typing import Any

from marshmallow import INCLUDE, Schema, fields, post_load, pre_dump, validate

from ..i18n import current_language, explain_session, named_hand, named_session, seat_names
from . import VARIANT
from .clubs import Currency, Name
from .hands import table_options_names
from .settlements import DEPRECATED_PARTY, PartyField, SettlementSchema, bounded_dict


class RateSchema(Schema):
    """The money a table plays for: ``cents`` per ``per`` chips or points."""

    cents = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=1_000_000),
        metadata={"description": "Minor units (cents) of the currency per `per` chips or points."},
    )
    per = fields.Integer(
        strict=True,
        load_default=1,
        validate=validate.Range(min=1, max=1000),
        metadata={"description": "How many chips or points `cents` is for (2: half a cent each)."},
    )
    currency = Currency("The rate's currency; the club's when left out", load_default=None)
    table_fee_cents = fields.Integer(
        strict=True,
        load_default=0,
        validate=validate.Range(min=0, max=1_000_000),
        metadata={"description": "What each player pays the club for the table, in cents."},
    )
    point_settlement = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["pairs", "average"]),
        metadata={
            "description": "Point games: `pairs` (the default: every two players settle the "
            "difference of their scores) or `average` (each against the table's average). "
            "Chip games: null."
        },
    )


class RateViewSchema(Schema):
    cents = fields.Integer(required=True)
    per = fields.Integer(required=True)
    currency = fields.String(required=True)
    table_fee_cents = fields.Integer(required=True)
    point_settlement = fields.String(
        allow_none=True, required=True, validate=validate.OneOf(["pairs", "average"])
    )


def _rate_field(description: str, **kwargs: Any) -> fields.Nested:
    return fields.Nested(
        RateSchema, allow_none=True, metadata={"description": description}, **kwargs
    )


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
            "description": "The variant's options (see `GET /api/v1/variants`), with "
            "`pool_at_close` and `starting_pool` where it keeps a pool: its "
            "`<Variant>TableOptions`. Left out ones take their defaults.",
            "any_of_components": table_options_names(),
            "schema_component": "TableOptions",
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
    rate = _rate_field("The money the table plays for; null or left out: none.", load_default=None)


class TableUpdateSchema(Schema):
    """The settings of a table that change after it was opened; those left out stay."""

    season_id = fields.String(
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": "The season (of the club, in the table's variant) the sitting counts "
            "for; null: none. Admin token only."
        },
    )
    rate = _rate_field("The money the table plays for; null: none.")


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
    options = fields.Dict(
        required=True,
        metadata={
            "description": "The options the table plays by: its variant's `<Variant>TableOptions`.",
            "any_of_components": table_options_names(),
            "schema_component": "TableOptions",
        },
    )
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    pool = fields.Integer(allow_none=True, required=True)
    couleur = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The suit worth double for the next hand: American Solo's couleur, "
            "German Solo's preferred suit (null: none, or none won yet). Null for Spanish Solo, "
            "whose colour is fixed for the session by options.couleur."
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
    night_id = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The club night whose draw opened the table (its token reads the "
            "night: `GET /api/v1/nights/{night_id}`); null: a table of its own."
        },
    )
    hands_limit = fields.Integer(
        allow_none=True,
        required=True,
        metadata={
            "description": "The most hands the table plays (its night's series' length, as the "
            "director last set it); a hand beyond it is refused "
            "(`urn:solo:problem:series-over`). Null: no limit."
        },
    )
    series_ends_at = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "format": "date-time",
            "description": "When the table's series is to end, as its night's director set "
            "the clock (shown with the hands left; no hand is refused for it). Null: no clock.",
        },
    )
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    season_id = fields.String(allow_none=True, required=True)
    rate = fields.Nested(
        RateViewSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The money the table plays for (null: none)."},
    )
    session = fields.Nested(SessionSchema, allow_none=True, required=True)
    created_at = fields.String(required=True, metadata={"format": "date-time"})

    @pre_dump
    def _named(self, table: Any, **_: Any) -> Any:
        """Its session's reason calls the players by name, as its seats do."""
        if isinstance(table, Mapping) and table.get("session") and table.get("seats"):
            return named_session(table, current_language())
        return table

    closed_at = fields.String(allow_none=True, required=True, metadata={"format": "date-time"})


class TableCreatedSchema(TableSchema):
    table_token = fields.String(
        required=True,
        metadata={"description": "The token for the phones at this table. Shown this once only."},
    )


class HandBodySchema(Schema):
    """A hand record of the table's variant, taken as the client wrote it: the rules check every
    field (its shape in the document is the variant's typed record, ``schemas/hands.py``), so
    this names none of a game's fields."""

    class Meta:
        unknown = INCLUDE

    @post_load(pass_original=True)
    def _as_written(self, loaded: dict[str, Any], original: Any, **kwargs: Any) -> dict[str, Any]:
        # An included key comes out in no fixed order; the record keeps the client's, with
        # the values this schema's own fields (``expected_number``) loaded.
        return {**original, **loaded}


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

    @pre_dump
    def _named(self, hand: Any, **_: Any) -> Any:
        """Its explanation calls the players by name, as its table's seats do."""
        if isinstance(hand, Mapping) and hand.get("settlement") is not None:
            return named_hand(hand, current_language(), seat_names(hand["table"]))
        return hand


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
    hand = fields.Raw(
        required=True,
        metadata={"allOf": RECORD["allOf"], "description": "This revision's record, as `Hand`'s."},
    )
    changed_at = fields.String(required=True, metadata={"format": "date-time"})
    changed_by = fields.Nested(ChangedBySchema, required=True)


class HistorySchema(Schema):
    number = fields.Integer(required=True)
    current_revision = fields.Integer(required=True)
    revisions = fields.List(fields.Nested(RevisionSchema), required=True)


class LedgerEntrySchema(Schema):
    hand = fields.Integer(required=True)
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=DEPRECATED_PARTY)
    to = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    from_party = PartyField("from")
    to_party = PartyField("to")
    chips = fields.Integer(required=True)
    reason = fields.String(required=True)


class LedgerSchema(Schema):
    table_id = fields.String(required=True)
    count = fields.Integer(required=True)
    transfers = fields.List(fields.Nested(LedgerEntrySchema), required=True)


class PoolShareSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=DEPRECATED_PARTY)
    from_party = PartyField("from")
    to = fields.Integer(required=True)
    chips = fields.Integer(required=True)


class NetSchema(Schema):
    party = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    holder = PartyField("party")
    amount = fields.Integer(required=True)


class CashTransferSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=DEPRECATED_PARTY)
    to = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    from_party = PartyField("from")
    to_party = PartyField("to")
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
    money = fields.Nested(
        "MoneySchema",
        allow_none=True,
        required=True,
        metadata={"description": "The settle-up in money, with the table's rate (null: none)."},
    )


class MoneyNetSchema(Schema):
    party = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    holder = PartyField("party")
    cents = fields.Integer(required=True)


class MoneyTransferSchema(Schema):
    from_ = fields.Raw(data_key="from", attribute="from", required=True, metadata=DEPRECATED_PARTY)
    to = fields.Raw(required=True, metadata=DEPRECATED_PARTY)
    from_party = PartyField("from")
    to_party = PartyField("to")
    cents = fields.Integer(required=True, metadata={"description": "Positive, in minor units."})


class MoneySchema(Schema):
    currency = fields.String(required=True)
    rate = fields.Nested(RateViewSchema, required=True)
    rounding = fields.String(
        required=True,
        validate=validate.OneOf(["down-largest-remainder"]),
        metadata={
            "description": "Each amount rounded down to the cent; the cents this leaves go one "
            "each to the largest fractions cut off, the lower seat first (docs/rules.md)."
        },
    )
    net = fields.List(
        fields.Nested(MoneyNetSchema),
        required=True,
        metadata={"description": "Each party's money in cents; they sum to zero."},
    )
    transfers = fields.List(
        fields.Nested(MoneyTransferSchema),
        required=True,
        metadata={"description": "The fewest payments that clear `net`."},
    )
    fees = fields.List(
        fields.Nested(MoneyTransferSchema),
        required=True,
        metadata={"description": "The table fee each player pays the club (none: no fee)."},
    )


class TableChangeSchema(Schema):
    setting = fields.String(required=True, validate=validate.OneOf(["season", "rate"]))
    before = fields.Raw(
        required=True,
        allow_none=True,
        metadata={"description": "A season id or a rate object; null: none."},
    )
    after = fields.Raw(required=True, allow_none=True)
    changed_at = fields.String(required=True, metadata={"format": "date-time"})
    changed_by = fields.Nested(
        "TableChangedBySchema", required=True, metadata={"description": "Which token."}
    )
    version = fields.Integer(required=True, metadata={"description": "The table version it made."})


class TableChangedBySchema(Schema):
    token_id = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["admin", "table"]))
    imported = fields.Boolean(
        required=True,
        metadata={"description": "Read from an imported file: `token_id` names no token here."},
    )


class TableHistorySchema(Schema):
    table_id = fields.String(required=True)
    changes = fields.List(fields.Nested(TableChangeSchema), required=True)
