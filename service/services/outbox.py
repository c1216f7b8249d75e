"""The outbox: a change of a club written as an event in the change's own transaction, and
read back in the club's order.

Every use case that changes what a reader sees calls ``record_change`` once, just before it
commits (a dry run rolls the event back with everything else). The event is numbered per club
(``persistence/outbox.py`` says why the numbers commit in order); the number is the event's id
everywhere: the streams' ``id:`` lines, ``Last-Event-ID``, the ``after`` cursor of
``GET /clubs/{id}/changes``.

On PostgreSQL a trigger (migration 0011) announces each event on the channel ``club_changes``
(``"<club id> <seq>"``), which PostgreSQL delivers when its transaction commits; the streams'
feed (``services/live_feed.py``) listens there. SQLite's feed watches the database's change counter.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, bindparam, func, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from ..extensions import db
from ..logs import REQUEST_ID_KEY, current_request_id
from ..persistence.columns import rfc3339, utcnow
from ..persistence.outbox import ChangeCursorRow, ChangeEventRow
from .writes import Write, run_writes

CHANNEL = "club_changes"
EVENT_TYPES = (
    "table.opened",
    "hand.recorded",
    "hand.corrected",
    "hand.voided",
    "table.reseated",
    "table.settings_changed",
    "table.closed",
    "season.created",
    "player.renamed",
    "night.started",
    "night.changed",
    "night.series_drawn",
    "night.closed",
    "tournament.created",
    "tournament.changed",
    "tournament.confirmed",
    "tournament.disputed",
    "tournament.dispute_resolved",
    "webhook.disabled",
)
"""Every ``kind`` that ``record_change`` writes (a test reads the calls and checks it): what a
webhook may subscribe to and the events' documented ``type``."""
# What one page of ``/changes`` holds at most, and by default.
MAX_PAGE = 500
DEFAULT_PAGE = 100

_cursors = ChangeCursorRow.__table__
_events = ChangeEventRow.__table__


def _next_seq_statement(dialect: str) -> Any:
    """``INSERT … ON CONFLICT DO UPDATE SET last_seq = last_seq + 1``: the club's next number,
    its row locked until the transaction ends."""
    upsert = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_cursors)
    return upsert.values(club_id=bindparam("club"), last_seq=1).on_conflict_do_update(
        index_elements=[_cursors.c.club_id],
        set_={"last_seq": _cursors.c.last_seq + 1},
    )


_NEXT_SEQ = {name: _next_seq_statement(name) for name in ("postgresql", "sqlite")}
# The event under the number just taken, read back in the statement itself: neither statement
# needs the other's answer, so both go in a pipeline (``services/pipelining.py``).
_INSERT_EVENT = insert(_events).from_select(
    ["club_id", "seq", "kind", "table_id", "version", "data", "created_at"],
    select(
        _cursors.c.club_id,
        _cursors.c.last_seq,
        bindparam("kind", type_=_events.c.kind.type),
        bindparam("table_id", type_=_events.c.table_id.type),
        bindparam("version", type_=_events.c.version.type),
        bindparam("data", type_=_events.c.data.type),
        bindparam("created_at", type_=_events.c.created_at.type),
    ).where(_cursors.c.club_id == bindparam("club")),
)


def record_change(
    club_id: str,
    kind: str,
    table_id: str | None = None,
    version: int | None = None,
    **data: Any,
) -> None:
    """Write the event ``kind`` of the club in the current transaction. ``table_id`` and
    ``version`` (the table's version after the change) for a table's change; ``data``: what
    changed, JSON values (a hand's number …)."""
    run_writes(change_writes(club_id, kind, table_id, version, **data))


def change_writes(
    club_id: str,
    kind: str,
    table_id: str | None = None,
    version: int | None = None,
    **data: Any,
) -> list[Write]:
    """The statements of ``record_change``, worked out without running them
    (``services/writes.py``)."""
    dialect = db.engine.dialect.name  # (asked of the session, it made one for a hand)
    return [
        Write(_NEXT_SEQ[dialect], {"club": club_id}),
        Write(
            _INSERT_EVENT,
            {
                "club": club_id,
                "kind": kind,
                "table_id": table_id,
                "version": version,
                "data": _with_request_id(data),
                "created_at": utcnow(),
            },
        ),
    ]


def _with_request_id(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the id of the request it was recorded in (``logs.REQUEST_ID_KEY``), for
    the deliverer's log lines of the event; never shown (``event_view``)."""
    rid = current_request_id()
    return data if rid is None else {**data, REQUEST_ID_KEY: rid}


def event_request_id(row: Any) -> str | None:
    """The id of the request an event was recorded in, if any."""
    rid = row.data.get(REQUEST_ID_KEY)
    return rid if isinstance(rid, str) else None


def event_view(row: Any) -> dict[str, Any]:
    """An event as every reader sees it (``/changes``, the streams, the webhooks): its data
    without the request id it was recorded in."""
    links: dict[str, str] = {}
    if row.table_id is not None:
        links["table"] = f"/api/v1/tables/{row.table_id}"
        hand = row.data.get("hand")
        if isinstance(hand, int):
            links["hand"] = f"/api/v1/tables/{row.table_id}/hands/{hand}"
    night = row.data.get("night")
    if isinstance(night, str):
        links["night"] = f"/api/v1/nights/{night}"
        links["standings"] = f"/api/v1/nights/{night}/standings"
    tournament = row.data.get("tournament")
    if isinstance(tournament, str):
        links["tournament"] = f"/api/v1/tournaments/{tournament}"
    season = row.data.get("season")
    if isinstance(season, str):
        links["season"] = f"/api/v1/seasons/{season}"
    return {
        "id": row.seq,
        "type": row.kind,
        "club_id": row.club_id,
        "table_id": row.table_id,
        "version": row.version,
        "data": row.data
        if REQUEST_ID_KEY not in row.data
        else {k: v for k, v in row.data.items() if k != REQUEST_ID_KEY},
        "links": links,
        "occurred_at": rfc3339(row.created_at),
    }


EVENT_COLUMNS = (
    _events.c.club_id,
    _events.c.seq,
    _events.c.kind,
    _events.c.table_id,
    _events.c.version,
    _events.c.data,
    _events.c.created_at,
)
"""The columns ``event_view`` reads, for every query that makes events of rows."""


# A club's events numbered above ``after``, in order, at most ``limit``: compiled once, also
# for the change feed, which runs it straight on its own connection (``statements.rows_on``).
CLUB_EVENTS_AFTER = (
    select(*EVENT_COLUMNS)
    .where(_events.c.club_id == bindparam("club_id"), _events.c.seq > bindparam("after"))
    .order_by(_events.c.seq)
    .limit(bindparam("limit"))
)


def rows_after(club_id: str, after: int, limit: int, table_id: str | None = None) -> Select[Any]:
    """The query of the club's event rows numbered above ``after``, in order, at most
    ``limit``; only the table's with ``table_id``. Each row is what ``event_view`` takes."""
    query = CLUB_EVENTS_AFTER.params(club_id=club_id, after=after, limit=limit)
    if table_id is not None:
        query = query.where(_events.c.table_id == table_id)
    return query


def events_after(
    club_id: str, after: int, limit: int, table_id: str | None = None
) -> list[dict[str, Any]]:
    """The club's events numbered above ``after``, in order, at most ``limit``; only the
    table's with ``table_id``."""
    rows = db.session.execute(rows_after(club_id, after, limit, table_id)).all()
    return [event_view(row) for row in rows]


# The club's last event number (0 before its first): a stream's opening reads it, in the
# session (``last_seq``) or on the early answers' pinned connection (``middleware/early.py``).
LAST_SEQ = select(func.coalesce(func.max(_cursors.c.last_seq), 0)).where(
    _cursors.c.club_id == bindparam("club_id")
)


def last_seq(club_id: str) -> int:
    """The club's last event number (0 before its first)."""
    return int(db.session.execute(LAST_SEQ, {"club_id": club_id}).scalar_one())


def club_changes(club_id: str, after: int, limit: int) -> dict[str, Any]:
    """A page of the club's events after the cursor ``after`` (its reader checked by the
    caller)."""
    events = events_after(club_id, after, limit + 1)
    more = len(events) > limit
    events = events[:limit]
    return {"events": events, "cursor": events[-1]["id"] if events else after, "more": more}
