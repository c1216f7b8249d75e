"""Seasons, standings, player statistics, and a club's export document."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..persistence.columns import ID_LEN
from ..services.backup import EXPORT_FORMAT, EXPORT_VERSION
from . import VARIANT
from .clubs import ClubSchema, Currency, Name
from .nights import ExportNightSchema
from .tables import MoneySchema, RateSchema
from .tournaments import ExportTournamentSchema

MAX_MIN_HANDS = 1_000_000_000
TOKEN_ID = validate.Length(min=1, max=ID_LEN)
ANY_ID = validate.Length(min=1, max=64)
DATE_TIME = {"format": "date-time"}


class SeasonCreateSchema(Schema):
    name = Name()
    variant = fields.String(
        required=True,
        validate=validate.Length(max=32),
        metadata={
            **VARIANT,
            "description": "The variant every table "
            "of the season plays (see `GET /api/v1/variants`).",
        },
    )
    starts_on = fields.Date(load_default=None, allow_none=True)
    ends_on = fields.Date(load_default=None, allow_none=True)


class SeasonSchema(Schema):
    id = fields.String(required=True)
    club_id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    starts_on = fields.String(allow_none=True, required=True, metadata={"format": "date"})
    ends_on = fields.String(allow_none=True, required=True, metadata={"format": "date"})
    created_at = fields.String(required=True, metadata=DATE_TIME)


class StandingsQuerySchema(Schema):
    date_from = fields.Date(
        data_key="from",
        load_default=None,
        metadata={"description": "Count only sittings opened on this day (UTC) or later."},
    )
    date_to = fields.Date(
        data_key="to",
        load_default=None,
        metadata={"description": "Count only sittings opened on this day (UTC) or earlier."},
    )
    min_hands = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_MIN_HANDS),
        metadata={"description": "Leave out players with fewer hands."},
    )
    format = fields.String(
        load_default=None,
        validate=validate.OneOf(["json", "csv"]),
        metadata={
            "description": "Deprecated: `json` answers as leaving it out does; `csv` answers "
            "`text/csv` as `getStandingsCsv` does (which this operation's document leaves to "
            "that one), until the Sunset.",
            "deprecated": True,
        },
    )


class StandingsCsvQuerySchema(StandingsQuerySchema):
    class Meta:
        exclude = ("format",)


class StandingRowSchema(Schema):
    rank = fields.Integer(
        required=True,
        metadata={
            "description": "Standard competition ranking (1, 2, 2, 4): equal net, games won and "
            "games lost as declarer share a rank."
        },
    )
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    sittings = fields.Integer(required=True)
    hands = fields.Integer(required=True)
    net = fields.Integer(required=True, metadata={"description": "Chips, or points."})
    net_per_100_hands = fields.Float(required=True)
    declared = fields.Integer(required=True)
    won = fields.Integer(required=True, metadata={"description": "Games won as declarer."})
    lost = fields.Integer(required=True, metadata={"description": "Games lost as declarer."})
    solos_won = fields.Integer(required=True)
    touts_won = fields.Integer(required=True)
    betes_paid = fields.Integer(required=True)
    stamms_drawn = fields.Integer(required=True)
    errors = fields.Integer(required=True)
    rating = fields.Float(
        allow_none=True,
        required=True,
        metadata={
            "description": "openskill `mu - 3*sigma`, 2 decimals; null before the player's first "
            "closed sitting of the season."
        },
    )


class StandingsSchema(Schema):
    season_id = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True)
    from_ = fields.String(
        data_key="from",
        attribute="from",
        allow_none=True,
        required=True,
        metadata={"format": "date"},
    )
    to = fields.String(allow_none=True, required=True, metadata={"format": "date"})
    min_hands = fields.Integer(required=True)
    tie_breaks = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "The order, in turn: `net`, then `won` (more games won as "
            "declarer), then `fewer_lost`; players equal on all three share a rank. (A club "
            "night's standings name their own: `total`, `series_won`, `best`.)"
        },
    )
    rows = fields.List(fields.Nested(StandingRowSchema), required=True)


class ContractMixSchema(Schema):
    contract = fields.String(required=True)
    declared = fields.Integer(required=True)
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    win_rate = fields.Float(allow_none=True, required=True)


class PlayerRecordSchema(Schema):
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True)
    sittings = fields.Integer(required=True)
    hands = fields.Integer(required=True)
    net = fields.Integer(required=True)
    net_per_100_hands = fields.Float(allow_none=True, required=True)
    declared = fields.Integer(required=True)
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    win_rate = fields.Float(
        allow_none=True,
        required=True,
        metadata={"description": "Games won as declarer over games declared; null if none."},
    )
    solos_won = fields.Integer(required=True)
    touts_won = fields.Integer(required=True)
    betes_paid = fields.Integer(required=True)
    stamms_drawn = fields.Integer(required=True)
    errors = fields.Integer(required=True)
    contracts = fields.List(
        fields.Nested(ContractMixSchema),
        required=True,
        metadata={"description": "The contracts the player declared, most often first."},
    )


class PlayerSeasonSchema(PlayerRecordSchema):
    season_id = fields.String(required=True)
    name = fields.String(required=True)
    rating = fields.Float(allow_none=True, required=True)
    rated_sittings = fields.Integer(required=True)


class PlayerStatsSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    club_id = fields.String(required=True)
    career = fields.List(
        fields.Nested(PlayerRecordSchema),
        required=True,
        metadata={
            "description": "One entry per variant played (chips and points are never added)."
        },
    )
    seasons = fields.List(fields.Nested(PlayerSeasonSchema), required=True)


# --- the export document (also the import's body) -----------------------------------------


class ExportClubSchema(Schema):
    id = fields.String(required=True, validate=ANY_ID)
    name = Name()
    currency = Currency("The currency of the club's table rates", load_default="EUR")
    created_at = fields.DateTime(required=True)


class ExportPlayerSchema(Schema):
    id = fields.String(required=True, validate=ANY_ID)
    name = Name()
    created_at = fields.DateTime(load_default=None, allow_none=True)
    retired_at = fields.DateTime(load_default=None, allow_none=True)


class ExportSeasonSchema(Schema):
    id = fields.String(required=True, validate=ANY_ID)
    name = Name()
    variant = fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT)
    starts_on = fields.Date(required=True, allow_none=True)
    ends_on = fields.Date(required=True, allow_none=True)
    created_at = fields.DateTime(required=True)


class ExportChangedBySchema(Schema):
    token_id = fields.String(required=True, validate=TOKEN_ID)
    kind = fields.String(required=True, validate=validate.OneOf(["admin", "table"]))
    imported = fields.Boolean(
        load_default=False,
        metadata={
            "description": "The revision had come from an imported file. On import every "
            "revision is stored as imported, whatever this says."
        },
    )


class ExportRevisionSchema(Schema):
    revision = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    status = fields.String(required=True, validate=validate.OneOf(["recorded", "void"]))
    hand = fields.Dict(required=True)
    changed_at = fields.DateTime(required=True)
    changed_by = fields.Nested(ExportChangedBySchema, required=True)


class ExportHandSchema(Schema):
    number = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    status = fields.String(required=True, validate=validate.OneOf(["recorded", "void"]))
    revision = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    hand = fields.Dict(required=True, metadata={"description": "The record as it stands."})
    recorded_at = fields.DateTime(required=True)
    updated_at = fields.DateTime(required=True)
    revisions = fields.List(
        fields.Nested(ExportRevisionSchema), required=True, validate=validate.Length(min=1)
    )


class ExportSeatSchema(Schema):
    player_id = fields.String(required=True, validate=ANY_ID)
    balance = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        metadata={
            "description": "The balance when exported; the import checks that the hands give it."
        },
    )


class ExportTableChangeSchema(Schema):
    setting = fields.String(required=True, validate=validate.OneOf(["season", "rate"]))
    before = fields.Raw(required=True, allow_none=True)
    after = fields.Raw(required=True, allow_none=True)
    changed_at = fields.DateTime(required=True)
    changed_by = fields.Nested(ExportChangedBySchema, required=True)


class ExportTableSchema(Schema):
    id = fields.String(required=True, validate=ANY_ID)
    name = Name()
    variant = fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT)
    options = fields.Dict(required=True)
    first_dealer = fields.Integer(required=True, strict=True)
    season_id = fields.String(required=True, allow_none=True, validate=ANY_ID)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    created_at = fields.DateTime(required=True)
    closed_at = fields.DateTime(required=True, allow_none=True)
    seats = fields.List(
        fields.Nested(ExportSeatSchema), required=True, validate=validate.Length(min=3, max=5)
    )
    hands = fields.List(fields.Nested(ExportHandSchema), required=True)
    rate = fields.Nested(
        RateSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "The money the table plays for (null: none)."},
    )
    changes = fields.List(
        fields.Nested(ExportTableChangeSchema),
        load_default=list,
        metadata={"description": "Every change of the table's season or rate, oldest first."},
    )
    money = fields.Nested(
        MoneySchema,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The table's settle-up in money (derived: the import ignores it)."
        },
    )


class ClubExportSchema(Schema):
    """A club's full backup: ``GET …/export`` writes it, ``POST /api/v1/clubs/import`` reads it.
    Ids are the exporting server's; the import gives everything new ids."""

    format = fields.String(required=True, validate=validate.Equal(EXPORT_FORMAT))
    version = fields.Integer(required=True, strict=True, validate=validate.Equal(EXPORT_VERSION))
    exported_at = fields.DateTime(required=True)
    club = fields.Nested(ExportClubSchema, required=True)
    players = fields.List(fields.Nested(ExportPlayerSchema), required=True)
    seasons = fields.List(fields.Nested(ExportSeasonSchema), required=True)
    tables = fields.List(fields.Nested(ExportTableSchema), required=True)
    nights = fields.List(
        fields.Nested(ExportNightSchema),
        load_default=list,
        metadata={"description": "The club nights (a file without them imports none)."},
    )
    tournaments = fields.List(
        fields.Nested(ExportTournamentSchema),
        load_default=list,
        metadata={
            "description": "The open tournaments hosted, each played as one of the file's "
            "nights (a file without them imports none)."
        },
    )


class ImportCountsSchema(Schema):
    players = fields.Integer(required=True)
    seasons = fields.Integer(required=True)
    tables = fields.Integer(required=True)
    hands = fields.Integer(required=True)
    nights = fields.Integer(required=True)
    tournaments = fields.Integer(required=True)


class ImportIdsSchema(Schema):
    players = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    seasons = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    tables = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    nights = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    tournaments = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class ImportedClubSchema(ClubSchema):
    admin_token = fields.String(
        required=True,
        metadata={
            "description": "The new club's admin token. Shown this once only; store it safely."
        },
    )
    imported = fields.Nested(ImportCountsSchema, required=True)
    ids = fields.Nested(
        ImportIdsSchema,
        required=True,
        metadata={
            "description": "The new id of each player, season and table, by its id in the file."
        },
    )
