"""Club nights: starting one, presence, a series' draw, closing, and the night's standings."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..persistence.nights import MAX_HANDS_PER_SERIES, MAX_NIGHT_PLAYERS, MAX_SERIES, SEED_MAX
from ..rules.money import FEE_BASES
from . import VARIANT
from .clubs import Name
from .tables import RateSchema, RateViewSchema, TableChangedBySchema

DATE_TIME = {"format": "date-time"}
PLAYER_ID = validate.Length(min=1, max=64)


def _player_ids(description: str) -> fields.List[str]:
    return fields.List(
        fields.String(validate=PLAYER_ID),
        load_default=list,
        validate=validate.Length(max=MAX_NIGHT_PLAYERS),
        metadata={"description": description},
    )


def _new_players() -> fields.List[str]:
    return fields.List(
        Name(),
        load_default=list,
        validate=validate.Length(max=MAX_NIGHT_PLAYERS),
        metadata={"description": "Names of players new to the club, added to it on the spot."},
    )


def _fee_basis(described: bool) -> fields.String:
    """A night's ``fee_basis`` as started (described) or exported (its words are
    ``NightCreate``'s, as the export's other members' are the answers' and requests')."""
    words = (
        "What the rate's `table_fee_cents` is charged for: `series` (each player at each "
        "series' table), `night` (each player once for the evening) or `table` (each table, "
        "shared by its players to the cent)."
    )
    return fields.String(
        load_default="series",
        validate=validate.OneOf(FEE_BASES),
        metadata={"description": words} if described else {},
    )


class NightCreateSchema(Schema):
    name = Name()
    variant = fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT)
    players = _player_ids("The club's players present (ids).")
    new_players = _new_players()
    hands_per_series = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_HANDS_PER_SERIES),
        metadata={"description": "Hands each table plays per series; null: until closed."},
    )
    series = fields.Integer(
        strict=True,
        load_default=1,
        validate=validate.Range(min=1, max=MAX_SERIES),
        metadata={"description": "How many series (seat draws) the night plays."},
    )
    season_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=64),
        metadata={"description": "A season of the club in the same variant: every table counts."},
    )
    rate = fields.Nested(
        RateSchema,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The money the night plays for (null: none): every table its "
            "draws open carries it."
        },
    )
    fee_basis = _fee_basis(True)


class NightRateSchema(Schema):
    """A new rate for the night (``PATCH /nights/{id}``)."""

    rate = fields.Nested(
        RateSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The money the night plays for; null: none. Each table of the night "
            "that still carries the night's previous rate takes it too."
        },
    )


class NightChangeSchema(Schema):
    setting = fields.String(required=True, validate=validate.OneOf(["rate"]))
    before = fields.Raw(
        required=True, allow_none=True, metadata={"description": "A rate object; null: none."}
    )
    after = fields.Raw(required=True, allow_none=True)
    changed_at = fields.String(required=True, metadata=DATE_TIME)
    changed_by = fields.Nested(TableChangedBySchema, required=True)
    version = fields.Integer(required=True, metadata={"description": "The night version it made."})


class NightHistorySchema(Schema):
    night_id = fields.String(required=True)
    changes = fields.List(fields.Nested(NightChangeSchema), required=True)


class PresenceSchema(Schema):
    arrived = _player_ids("The club's players who came late (ids).")
    new_players = _new_players()
    left = _player_ids("Players of the night who left (ids): the next draw leaves them out.")


class DrawSchema(Schema):
    seed = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=SEED_MAX),
        metadata={"description": "The draw's seed (to repeat a draw); drawn at random if null."},
    )
    early = fields.Boolean(
        load_default=False,
        metadata={
            "description": "End the previous series now, though a table has not played its hands."
        },
    )


class NightCloseSchema(Schema):
    early = fields.Boolean(
        load_default=False,
        metadata={"description": "Close though a table has not played its series' hands."},
    )


class NightPlayerSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    present = fields.Boolean(required=True, metadata={"description": "Seated by the next draw."})


class NightSeatSchema(Schema):
    seat = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)


class NightTableSchema(Schema):
    number = fields.Integer(required=True, metadata={"description": "The table's number, 1, 2 …"})
    table_id = fields.String(required=True)
    name = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    hands_played = fields.Integer(required=True)
    hands_limit = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The most hands the table plays: its series' length, as the "
            "director last set it (null: no limit, the night's series end at the next draw)."
        },
    )
    series_ends_at = fields.String(
        required=True,
        allow_none=True,
        metadata={**DATE_TIME, "description": "When its series is to end (null: no clock)."},
    )
    first_dealer = fields.Integer(required=True)
    dealer = fields.Integer(required=True, metadata={"description": "Who deals the next hand."})
    seats = fields.List(fields.Nested(NightSeatSchema), required=True)


class NightSeriesSchema(Schema):
    number = fields.Integer(required=True)
    seed = fields.Integer(required=True, metadata={"description": "The seed its draw used."})
    drawn_at = fields.String(required=True, metadata=DATE_TIME)
    tables = fields.List(fields.Nested(NightTableSchema), required=True)


class DrawnSeriesSchema(NightSeriesSchema):
    night_id = fields.String(required=True)
    repeats = fields.Integer(
        required=True,
        metadata={
            "description": "Tablemates seated together again, each pair counted by how often "
            "it sat together before."
        },
    )


class SeriesLengthSchema(Schema):
    """At least one of ``hands``, ``ends_at`` and ``end``; ``end`` not with ``hands``."""

    hands = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MAX_HANDS_PER_SERIES),
        metadata={"description": "The hands the series' tables play, in all."},
    )
    ends_at = fields.AwareDateTime(
        allow_none=True,
        metadata={
            "description": "The series' clock: when it is to end (with its offset), shown on "
            "its tables' phones with the hands left; no hand is refused for it. Null: no clock."
        },
    )
    end = fields.Boolean(
        truthy={True},
        falsy={False},
        metadata={
            "description": "`true`: end the series now: each open table's length becomes the "
            "hands it has recorded, so no table starts another (not with `hands`)."
        },
    )
    table = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1),
        metadata={"description": "Only this table of the series (its number); absent: all."},
    )


class LengthenedSeriesSchema(NightSeriesSchema):
    night_id = fields.String(required=True)


class NightSchema(Schema):
    id = fields.String(required=True)
    club_id = fields.String(required=True)
    name = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    season_id = fields.String(required=True, allow_none=True)
    tournament_id = fields.String(required=True, allow_none=True)
    rate = fields.Nested(
        RateViewSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The money the night plays for (null: none)."},
    )
    fee_basis = fields.String(
        required=True,
        validate=validate.OneOf(FEE_BASES),
        metadata={"description": "What the table fee is charged for (as when it started)."},
    )
    hands_per_series = fields.Integer(required=True, allow_none=True)
    series_planned = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    version = fields.Integer(required=True)
    created_at = fields.String(required=True, metadata=DATE_TIME)
    closed_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    players = fields.List(fields.Nested(NightPlayerSchema), required=True)
    series = fields.List(fields.Nested(NightSeriesSchema), required=True)
    next_series = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The number of the next draw; null when none is left."},
    )


class NightResultSchema(Schema):
    series = fields.Integer(required=True)
    table = fields.Integer(required=True)
    result = fields.Integer(
        required=True, metadata={"description": "The balance at the table (chips or points)."}
    )
    place = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "1: first at the table; null while the table has played no hand "
            "(nobody has won it yet)."
        },
    )
    hands = fields.Integer(required=True)
    pool_share = fields.Integer(
        required=True,
        metadata={
            "description": "The chips of the table's pool this player's share is when the pool "
            "is shared out at the close (`pool_at_close` `split`; 0 otherwise): counted in the "
            "player's money, not in `result`."
        },
    )


class NightStandingSchema(Schema):
    rank = fields.Integer(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    total = fields.Integer(required=True)
    pool_chips = fields.Integer(
        required=True,
        metadata={
            "description": "The chips of the pools shared out to the player (the sum of each "
            "series' `pool_share`): `total` plus these is what `cents` counts."
        },
    )
    series_won = fields.Integer(required=True)
    best = fields.Integer(required=True, allow_none=True)
    cents = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "The player's money over the night, in cents of the night's "
            "currency (as in `money`); null: the night has no rate."
        },
    )
    series = fields.List(
        fields.Nested(NightResultSchema, allow_none=True),
        required=True,
        metadata={"description": "One entry per series drawn; null where the player sat out."},
    )


class NightBoardTableSchema(NightTableSchema):
    done = fields.Boolean(required=True)


class NightBoardSeriesSchema(NightSeriesSchema):
    tables = fields.List(fields.Nested(NightBoardTableSchema), required=True)


class NightBoardSchema(NightSchema):
    series = fields.List(fields.Nested(NightBoardSeriesSchema), required=True)


class NightPartySchema(Schema):
    party = fields.String(
        required=True,
        validate=validate.OneOf(["player", "pool"]),
        metadata={"description": "A player, or the `pool` the club keeps."},
    )
    player_id = fields.String(required=True, allow_none=True)
    name = fields.String(required=True, allow_none=True)


class NightMoneyTransferSchema(Schema):
    from_ = fields.Nested(NightPartySchema, data_key="from", attribute="from", required=True)
    to = fields.Nested(NightPartySchema, required=True)
    cents = fields.Integer(required=True, metadata={"description": "Positive, in minor units."})


class NightSeriesMoneySchema(Schema):
    series = fields.Integer(required=True)
    cents = fields.Integer(required=True, metadata={"description": "At that series' table."})


class NightPlayerMoneySchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    cents = fields.Integer(
        required=True, metadata={"description": "Money over the night's tables: + gets, − pays."}
    )
    fees_cents = fields.Integer(
        required=True, metadata={"description": "Table fees the player pays the club, apart."}
    )
    series = fields.List(fields.Nested(NightSeriesMoneySchema), required=True)


class NightTableRefSchema(Schema):
    series = fields.Integer(required=True)
    number = fields.Integer(required=True)
    table_id = fields.String(required=True)


class NightMoneySchema(Schema):
    night_id = fields.String(required=True)
    final = fields.Boolean(required=True, metadata={"description": "The night is closed."})
    currency = fields.String(required=True)
    rate = fields.Nested(RateViewSchema, required=True)
    rounding = fields.String(
        required=True,
        validate=validate.OneOf(["tables-down-largest-remainder"]),
        metadata={
            "description": "Each table rounded to the cent as its own settle-up "
            "(`down-largest-remainder`); a player's money is the sum of those whole cents "
            "(docs/rules.md)."
        },
    )
    players = fields.List(
        fields.Nested(NightPlayerMoneySchema),
        required=True,
        metadata={"description": "Each player's money; with `pool_cents` they sum to zero."},
    )
    pool_cents = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "What the club gained (+) in the pools it keeps; null: none."},
    )
    transfers = fields.List(
        fields.Nested(NightMoneyTransferSchema),
        required=True,
        metadata={"description": "The fewest payments that clear the players' money."},
    )
    fees_cents = fields.Integer(
        required=True, metadata={"description": "All table fees the club gets, apart."}
    )
    tables_left_out = fields.List(
        fields.Nested(NightTableRefSchema),
        required=True,
        metadata={"description": "Tables without a rate in the night's currency: not counted."},
    )


class NightStandingsSchema(Schema):
    night = fields.Nested(NightBoardSchema, required=True)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    tie_breaks = fields.List(fields.String(), required=True)
    standings = fields.List(fields.Nested(NightStandingSchema), required=True)
    money = fields.Nested(
        NightMoneySchema,
        required=True,
        allow_none=True,
        metadata={"description": "The night's settle-up in money; null: the night has no rate."},
    )


# --- in the club's export ------------------------------------------------------------------

EXPORT_ID = validate.Length(min=1, max=64)


class ExportNightPlayerSchema(Schema):
    player_id = fields.String(required=True, validate=EXPORT_ID)
    present = fields.Boolean(required=True)


class ExportNightTableSchema(Schema):
    number = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    table_id = fields.String(required=True, validate=EXPORT_ID)
    hands_limit = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_HANDS_PER_SERIES),
        metadata={
            "description": "The most hands the table plays (its series' length, as the "
            "director last set it); absent: the night's `hands_per_series`."
        },
    )
    series_ends_at = fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={"description": "When its series was to end (null: no clock)."},
    )


class ExportNightSeriesSchema(Schema):
    number = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=MAX_SERIES)
    )
    seed = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=SEED_MAX))
    drawn_at = fields.DateTime(required=True)
    tables = fields.List(fields.Nested(ExportNightTableSchema), required=True)


class ExportNightChangeSchema(Schema):
    setting = fields.String(required=True, validate=validate.OneOf(["rate"]))
    before = fields.Nested(RateSchema, required=True, allow_none=True)
    after = fields.Nested(RateSchema, required=True, allow_none=True)
    changed_at = fields.DateTime(required=True)
    # By name: ``schemas.league`` (which has it) imports this module.
    changed_by = fields.Nested("ExportChangedBySchema", required=True)


class ExportNightSchema(Schema):
    id = fields.String(required=True, validate=EXPORT_ID)
    name = Name()
    variant = fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT)
    season_id = fields.String(required=True, allow_none=True, validate=EXPORT_ID)
    hands_per_series = fields.Integer(
        required=True,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_HANDS_PER_SERIES),
    )
    series_planned = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=1, max=MAX_SERIES)
    )
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    created_at = fields.DateTime(required=True)
    closed_at = fields.DateTime(required=True, allow_none=True)
    players = fields.List(
        fields.Nested(ExportNightPlayerSchema),
        required=True,
        validate=validate.Length(max=MAX_NIGHT_PLAYERS),
    )
    series = fields.List(
        fields.Nested(ExportNightSeriesSchema),
        required=True,
        validate=validate.Length(max=MAX_SERIES),
    )
    rate = fields.Nested(
        RateSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "The money the night plays for (null: none)."},
    )
    fee_basis = _fee_basis(False)
    changes = fields.List(
        fields.Nested(ExportNightChangeSchema),
        load_default=list,
        metadata={"description": "Every change of the night's rate, oldest first."},
    )
    money = fields.Nested(
        NightMoneySchema,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The night's settle-up in money (derived: the import ignores it)."
        },
    )
