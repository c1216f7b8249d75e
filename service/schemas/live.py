"""The changes of a club: its events, the ``/changes`` feed's pages, stream tickets."""

from marshmallow import Schema, fields, validate

from ..services.outbox import DEFAULT_PAGE, EVENT_TYPES, MAX_PAGE


class ChangesQuerySchema(Schema):
    after = fields.Integer(
        strict=False,
        load_default=0,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={
            "description": "The cursor: the id of the last event already seen (0: from the "
            "club's first). The answer's `cursor` is the next page's `after`."
        },
    )
    limit = fields.Integer(
        strict=False,
        load_default=DEFAULT_PAGE,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": "At most this many events."},
    )


class EventLinksSchema(Schema):
    table = fields.String(metadata={"description": "The table, to fetch it as it is now."})
    hand = fields.String(metadata={"description": "The hand the event is about."})
    night = fields.String(metadata={"description": "The club night the event is about."})
    standings = fields.String(
        metadata={"description": "The club night's standings and money, as they are now."}
    )
    season = fields.String(metadata={"description": "The season the event is about."})
    tournament = fields.String(metadata={"description": "The tournament the event is about."})


class EventSchema(Schema):
    id = fields.Integer(
        required=True,
        metadata={
            "description": "The event's number in its club's order (1, 2, 3 …, no gaps): the "
            "`id:` of the streams, their `Last-Event-ID`, the `after` of `/changes`."
        },
    )
    # A string, not an enum: new types come within v1 (docs/api.md), and a client generated
    # with an enum would fail on the first one it does not know instead of skipping it.
    type = fields.String(
        required=True,
        metadata={
            "description": "The kind of change, today one of "
            + ", ".join(f"`{kind}`" for kind in EVENT_TYPES)
            + ". More may come within v1: skip a type you do not know (or fetch its `links`).",
            "examples": ["hand.recorded"],
        },
    )
    club_id = fields.String(required=True)
    table_id = fields.String(required=True, allow_none=True)
    version = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The table's version after the change (its ETag's number)."},
    )
    data = fields.Dict(
        required=True,
        metadata={
            "description": "What changed: `hand` (its number), `resettled` (how many hands "
            "were settled again), `settings` (which of a table's: `season`, `rate`), `season`, "
            "`player`, `night` (their ids), `series` (a night's, its number), `changed` (what of "
            "a night: `presence`, `rate`)."
        },
    )
    links = fields.Nested(EventLinksSchema, required=True)
    occurred_at = fields.String(required=True, metadata={"format": "date-time"})


class ChangesPageSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    cursor = fields.Integer(
        required=True,
        metadata={
            "description": "The id of the page's last event (or `after` when it is "
            "empty): the next page's `after`."
        },
    )
    more = fields.Boolean(
        required=True, metadata={"description": "More events follow this page right away."}
    )


class StreamQuerySchema(Schema):
    ticket = fields.String(
        validate=validate.Length(min=1, max=512),
        metadata={
            "description": "A stream ticket (`POST …/events/tickets`), for clients that "
            "cannot send `Authorization` (`EventSource`)."
        },
    )
    after = fields.Integer(
        strict=False,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={
            "description": "Resume after this event id (as `Last-Event-ID`, which wins): "
            "for a new `EventSource` that cannot set that header."
        },
    )


class StreamHeadersSchema(Schema):
    """The stream's request headers, for the document (``api/live.py`` reads and checks
    ``Last-Event-ID`` itself, to name it in a refusal as the header it is)."""

    last_event_id = fields.String(
        data_key="Last-Event-ID",
        metadata={
            "description": "Resume after this event (what `EventSource` sends when it reconnects).",
            "pattern": "^[0-9]{1,10}$",
        },
    )


class StreamTicketSchema(Schema):
    ticket = fields.String(required=True)
    url = fields.String(
        required=True, metadata={"description": "The stream's path with the ticket."}
    )
    expires_at = fields.String(required=True, metadata={"format": "date-time"})
    expires_in = fields.Integer(required=True, metadata={"description": "Seconds."})
