"""Open tournaments: creating and changing one, registration, the entrants, their check-in and
withdrawal, the standings, the prize list and the host's cash sheet."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from ..persistence.nights import MAX_HANDS_PER_SERIES, MAX_SERIES
from ..persistence.tournament_results import DISPUTE_STATUSES, REASON_MAX
from ..persistence.tournaments import (
    CONTACT_MAX,
    DISPLAYS,
    ENTRANT_STATUSES,
    MAX_ENTRANTS,
    MAX_ENTRY_FEE_CENTS,
    MAX_LOSS_FEE_CENTS,
)
from ..rules.tournament import MAX_PRIZE_CENTS, MAX_PRIZE_PLACES, PER_MILLE, SCORINGS
from . import VARIANT
from .clubs import Currency, Name
from .nights import DATE_TIME, EXPORT_ID, DrawnSeriesSchema, NightResultSchema
from .settlements import bounded_dict

CENTS = "Integers in cents (the minor unit) of `currency`."


class PrizeSchema(Schema):
    """One paid place: exactly one of the two members."""

    cents = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_PRIZE_CENTS),
        metadata={"description": "A fixed prize, in cents."},
    )
    per_mille = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=PER_MILLE),
        metadata={"description": "A share of the money taken, in thousandths (‰)."},
    )


def _prizes(described: bool = True, **kwargs: Any) -> fields.List[Any]:
    text = (
        "The prize table, place 1 first: each place a fixed amount or a share of the fees "
        "and losses money (the shares at most 1000 ‰ in all; docs/tournaments.md says the "
        "rounding)."
    )
    return fields.List(
        fields.Nested(PrizeSchema),
        validate=validate.Length(max=MAX_PRIZE_PLACES),
        metadata={"description": text} if described else {},
        **kwargs,
    )


def _game_fields(required: bool) -> dict[str, fields.Field[Any]]:
    """The fields of a tournament's game and money, as created (with their defaults and
    descriptions) or changed (each optional, described once: in ``TournamentCreate``)."""

    def given(default: Any) -> dict[str, Any]:
        return {"load_default": default} if required else {}

    def said(text: str) -> dict[str, Any]:
        return {"metadata": {"description": text}} if required else {}

    return {
        "options": bounded_dict(
            allow_none=True,
            **said("The options of every table (as `POST /api/v1/tables`)."),
            **given(dict),
        ),
        "table_sizes": fields.List(
            fields.Integer(strict=True),
            allow_none=True,
            validate=validate.Length(min=1, max=8),
            **said("The table sizes the draws use, of those the game allows (null: all of them)."),
            **given(None),
        ),
        "hands_per_series": fields.Integer(
            strict=True,
            allow_none=True,
            validate=validate.Range(min=1, max=MAX_HANDS_PER_SERIES),
            **said("Hands each table plays per series; null: until drawn on."),
            **given(None),
        ),
        "series": fields.Integer(
            strict=True,
            validate=validate.Range(min=1, max=MAX_SERIES),
            **said("How many series (seat draws) it plays."),
            **given(2),
        ),
        "entry_fee_cents": fields.Integer(
            strict=True,
            validate=validate.Range(min=0, max=MAX_ENTRY_FEE_CENTS),
            **said("Each player's entry fee, in cents, taken at check-in."),
            **given(0),
        ),
        "loss_fee_cents": fields.Integer(
            strict=True,
            validate=validate.Range(min=0, max=MAX_LOSS_FEE_CENTS),
            **said(
                "Losses money: what each game a declarer loses costs, in "
                "cents (docs/rules.md); 0: none."
            ),
            **given(0),
        ),
        "cap": fields.Integer(
            strict=True,
            allow_none=True,
            validate=validate.Range(min=1, max=MAX_ENTRANTS),
            **said("The most entrants with a place; more wait. Null: no cap."),
            **given(None),
        ),
        "season_id": fields.String(
            allow_none=True,
            validate=validate.Length(min=1, max=64),
            **said(
                "The host club's season (of the same game) its results count in, as a "
                "table's do; null: none. Changed later, every table drawn moves with it."
            ),
            **given(None),
        ),
        "prizes": _prizes(described=required, **given(list)),
        "scoring": fields.String(
            validate=validate.OneOf(SCORINGS),
            **said(
                "`result`: the game's own result, summed over the series; "
                "`place_points`: points for the place at each table (docs/tournaments.md)."
            ),
            **given("result"),
        ),
    }


TournamentCreateSchema = Schema.from_dict(
    {
        "name": Name(),
        "variant": fields.String(required=True, validate=validate.Length(max=32), metadata=VARIANT),
        "currency": Currency(
            "The entry fee's currency; the club's when left out", load_default=None
        ),
        **_game_fields(True),
    },
    name="TournamentCreateSchema",
)

TournamentUpdateSchema = Schema.from_dict(
    {
        "name": Name(required=False),
        **_game_fields(False),
        "registration_open": fields.Boolean(
            metadata={"description": "Whether the public link takes registrations."}
        ),
        "new_registration_link": fields.Boolean(
            metadata={"description": "`true`: a new registration link; the old one stops."}
        ),
        "public_results": fields.Boolean(
            metadata={
                "description": "Publish the results at `public_id` (made the first time), or "
                "take them back (the address then answers 404)."
            }
        ),
        "public_prizes": fields.Boolean(
            metadata={"description": "Whether the public results show the prize places."}
        ),
    },
    name="TournamentUpdateSchema",
)


class EntrantCountsSchema(Schema):
    registered = fields.Integer(required=True)
    waiting = fields.Integer(required=True)
    checked_in = fields.Integer(required=True)
    withdrawn = fields.Integer(required=True)


class TournamentSchema(Schema):
    id = fields.String(required=True)
    club_id = fields.String(required=True, metadata={"description": "The host club."})
    night_id = fields.String(
        required=True,
        metadata={"description": "The club night it plays as: its series, tables and cards."},
    )
    name = fields.String(required=True)
    variant = fields.String(required=True, metadata=VARIANT)
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    options = fields.Dict(required=True)
    table_sizes = fields.List(fields.Integer(), required=True)
    hands_per_series = fields.Integer(required=True, allow_none=True)
    series_planned = fields.Integer(required=True)
    series_drawn = fields.Integer(required=True)
    next_series = fields.Integer(required=True, allow_none=True)
    entry_fee_cents = fields.Integer(required=True)
    loss_fee_cents = fields.Integer(required=True)
    currency = fields.String(required=True)
    cap = fields.Integer(required=True, allow_none=True)
    prizes = _prizes(described=False, required=True)  # described in TournamentCreate
    scoring = fields.String(required=True, validate=validate.OneOf(SCORINGS))
    season_id = fields.String(required=True, allow_none=True)
    tie_breaks = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "The rules that order the standings, in order."},
    )
    registration_open = fields.Boolean(required=True)
    registration_token = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The public registration link's token (the admin's answer only): "
            "`POST …/registrations` with it as the bearer token."
        },
    )
    public_results = fields.Boolean(required=True)
    public_prizes = fields.Boolean(required=True)
    public_id = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The public results' address (`getPublicResults`; the page: "
            "`/results/{public_id}`), null until first published."
        },
    )
    entrants = fields.Nested(EntrantCountsSchema, required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    version = fields.Integer(required=True)
    created_at = fields.String(required=True, metadata=DATE_TIME)


def _entry_fields(described: bool) -> dict[str, fields.Field[Any]]:
    """A player's entry: described in ``Registration``, the same in ``EntrantCreate``."""

    def said(text: str) -> dict[str, Any]:
        return {"metadata": {"description": text}} if described else {}

    return {
        "name": Name(),
        "club": Name(
            required=False, load_default=None, allow_none=True, **said("The player's club, if any.")
        ),
        "contact": Name(
            CONTACT_MAX,
            "Contact",
            required=False,
            load_default=None,
            allow_none=True,
            **said("A way to reach the player (the director's eyes only)."),
        ),
        "display": fields.String(
            load_default="full",
            validate=validate.OneOf(DISPLAYS),
            **said(
                "How the public results name the player: `full`, or `initial` "
                "(first name and an initial)."
            ),
        ),
    }


RegistrationSchema = Schema.from_dict(_entry_fields(True), name="RegistrationSchema")

EntrantCreateSchema = Schema.from_dict(
    {
        **_entry_fields(False),
        "player_id": fields.String(
            load_default=None,
            allow_none=True,
            validate=validate.Length(min=1, max=64),
            metadata={"description": "The host club's player who enters (null: a guest)."},
        ),
        "check_in": fields.Boolean(
            load_default=False,
            metadata={"description": "A late entry on the day: checked in at once."},
        ),
    },
    name="EntrantCreateSchema",
)


class EntrantUpdateSchema(Schema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["checked_in", "registered", "withdrawn"]),
        metadata={
            "description": "`checked_in` (the fee taken), `registered` (a check-in taken "
            "back, or a withdrawn player entered again) or `withdrawn`."
        },
    )


class EntrantQuerySchema(Schema):
    status = fields.String(
        load_default=None,
        validate=validate.OneOf(ENTRANT_STATUSES),
        metadata={"description": "Only the entrants of this status."},
    )


class EntrantSchema(Schema):
    id = fields.String(required=True)
    number = fields.Integer(
        required=True, metadata={"description": "1, 2 …: the order of registration."}
    )
    name = fields.String(required=True)
    display_name = fields.String(
        required=True, metadata={"description": "The name as the public results show it."}
    )
    display = fields.String(required=True, validate=validate.OneOf(DISPLAYS))
    club = fields.String(required=True, allow_none=True)
    contact = fields.String(required=True, allow_none=True)
    player_id = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The entry's player in the host club (a guest's: once checked in)."
        },
    )
    status = fields.String(required=True, validate=validate.OneOf(ENTRANT_STATUSES))
    waiting_position = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "1 first: the place on the waiting list (null: not waiting)."},
    )
    registered_at = fields.String(required=True, metadata=DATE_TIME)
    checked_in_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)
    withdrawn_at = fields.String(required=True, allow_none=True, metadata=DATE_TIME)


class TournamentDrawnSeriesSchema(DrawnSeriesSchema):
    tournament_id = fields.String(required=True)


class TournamentResultSchema(NightResultSchema):
    place_points = fields.Integer(
        required=True, metadata={"description": "The place points of the table (24 the first)."}
    )
    confirmed = fields.Boolean(
        required=True,
        metadata={
            "description": "The table's result is confirmed; false: pending, counted provisionally."
        },
    )


class TournamentLineSchema(Schema):
    rank = fields.Integer(required=True)
    entrant_id = fields.String(required=True)
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    display_name = fields.String(required=True)
    club = fields.String(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(ENTRANT_STATUSES))
    total = fields.Integer(
        required=True, metadata={"description": "What the scoring counts: results or points."}
    )
    result = fields.Integer(required=True, metadata={"description": "The game's own, in all."})
    place_points = fields.Integer(required=True)
    series_won = fields.Integer(required=True)
    best = fields.Integer(required=True, allow_none=True)
    series = fields.List(
        fields.Nested(TournamentResultSchema, allow_none=True),
        required=True,
        metadata={"description": "Each series drawn (null: not seated in it)."},
    )


class TournamentStandingsSchema(Schema):
    tournament_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["open", "closed"]))
    units = fields.String(required=True, validate=validate.OneOf(["chips", "points"]))
    scoring = fields.String(required=True, validate=validate.OneOf(SCORINGS))
    tie_breaks = fields.List(fields.String(), required=True)
    standings = fields.List(fields.Nested(TournamentLineSchema), required=True)


class PlacePrizeSchema(Schema):
    place = fields.Integer(required=True)
    cents = fields.Integer(required=True)


class PrizeWinnerSchema(Schema):
    rank = fields.Integer(required=True)
    entrant_id = fields.String(required=True)
    name = fields.String(required=True)
    club = fields.String(required=True, allow_none=True)
    cents = fields.Integer(required=True)


class LossesSchema(Schema):
    entrant_id = fields.String(required=True)
    name = fields.String(required=True)
    lost_games = fields.Integer(required=True)
    cents = fields.Integer(required=True, metadata={"description": "Owed to the host."})


class CashSheetSchema(Schema):
    entry_fee_cents = fields.Integer(required=True)
    paying = fields.Integer(required=True, metadata={"description": "Entrants checked in."})
    fees_cents = fields.Integer(required=True)
    loss_fee_cents = fields.Integer(required=True)
    lost_games = fields.Integer(required=True)
    losses_cents = fields.Integer(required=True)
    prizes_cents = fields.Integer(required=True)
    remains_cents = fields.Integer(
        required=True,
        metadata={"description": "The host's: fees and losses money less prizes (may be < 0)."},
    )


class PrizesSchema(Schema):
    tournament_id = fields.String(required=True)
    currency = fields.String(required=True)
    final = fields.Boolean(required=True, metadata={"description": "The tournament is closed."})
    rounding = fields.String(required=True)
    places = fields.List(fields.Nested(PlacePrizeSchema), required=True)
    prize_list = fields.List(fields.Nested(PrizeWinnerSchema), required=True)
    losses = fields.List(
        fields.Nested(LossesSchema),
        required=True,
        metadata={"description": "Each entrant's losses money (none when it is 0)."},
    )
    cash_sheet = fields.Nested(CashSheetSchema, required=True)


ExportEntrantSchema = Schema.from_dict(
    {
        "id": fields.String(required=True, validate=EXPORT_ID),
        "number": fields.Integer(
            required=True, strict=True, validate=validate.Range(min=1, max=MAX_ENTRANTS)
        ),
        **_entry_fields(False),
        "player_id": fields.String(required=True, allow_none=True, validate=EXPORT_ID),
        "status": fields.String(required=True, validate=validate.OneOf(ENTRANT_STATUSES)),
        "registered_at": fields.DateTime(required=True),
        "checked_in_at": fields.DateTime(required=True, allow_none=True),
        "withdrawn_at": fields.DateTime(required=True, allow_none=True),
    },
    name="ExportEntrantSchema",
)


class ExportConfirmationSchema(Schema):
    """A confirmation of a tournament table's result, as given (docs/tournaments.md)."""

    table_id = fields.String(required=True, validate=EXPORT_ID)
    seat = fields.Integer(
        required=True,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=0, max=4),
        metadata={"description": "null: the director."},
    )
    changes_since = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={"description": "Changes of the table's hands or seats since (0: it stands)."},
    )
    token_id = fields.String(required=True, validate=EXPORT_ID)
    confirmed_at = fields.DateTime(required=True)


class ExportDisputeSchema(Schema):
    """A dispute of a tournament table's hand, open or resolved by the director."""

    id = fields.String(required=True, validate=EXPORT_ID)
    table_id = fields.String(required=True, validate=EXPORT_ID)
    hand = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=2**31 - 1))
    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=4))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=REASON_MAX))
    status = fields.String(required=True, validate=validate.OneOf(DISPUTE_STATUSES))
    opened_at = fields.DateTime(required=True)
    resolved_at = fields.DateTime(required=True, allow_none=True)
    resolved_by = fields.String(required=True, allow_none=True, validate=EXPORT_ID)


class ExportTournamentSchema(Schema):
    """A tournament in the club's export: its settings and entrants; its name, game and
    series are its night's (``night_id``, a night of the file). The import gives it a new
    registration link."""

    id = fields.String(required=True, validate=EXPORT_ID)
    night_id = fields.String(required=True, validate=EXPORT_ID)
    options = bounded_dict(required=True)
    table_sizes = fields.List(
        fields.Integer(strict=True), required=True, validate=validate.Length(min=1, max=8)
    )
    entry_fee_cents = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=0, max=MAX_ENTRY_FEE_CENTS)
    )
    loss_fee_cents = fields.Integer(
        required=True, strict=True, validate=validate.Range(min=0, max=MAX_LOSS_FEE_CENTS)
    )
    currency = Currency("The entry fee's currency", required=True)
    cap = fields.Integer(
        required=True,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_ENTRANTS),
    )
    prizes = _prizes(described=False, required=True)
    scoring = fields.String(required=True, validate=validate.OneOf(SCORINGS))
    registration_open = fields.Boolean(required=True)
    created_at = fields.DateTime(required=True)
    entrants = fields.List(
        fields.Nested(ExportEntrantSchema),
        required=True,
        validate=validate.Length(max=MAX_ENTRANTS),
    )
    confirmations = fields.List(
        fields.Nested(ExportConfirmationSchema),
        load_default=list,
        validate=validate.Length(max=100_000),
    )
    disputes = fields.List(
        fields.Nested(ExportDisputeSchema),
        load_default=list,
        validate=validate.Length(max=100_000),
    )
