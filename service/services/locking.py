"""Write transactions that serialise per table, on SQLite and on PostgreSQL alike.

Every use case that changes a table calls ``lock_table`` before it reads anything it will
base a write on. On PostgreSQL that is ``SELECT … FOR UPDATE`` of the table's row; on SQLite,
which locks the whole database, it is ``BEGIN IMMEDIATE``, taken before the first read of the
transaction so that two writers never both read a version and then race to write it. The
``UNIQUE (table_id, number)`` of hands stays as the last line of defence.

A worker lets at most ``writers_per_table`` of its threads hold or wait for one table's lock
(``TABLE_WRITERS_PER_WORKER``, 2 by default); one more is refused at once with ``TableBusy``
(a 503 with ``Retry-After``, ``services/outages.py``) instead of waiting too: phones retrying
on a table that a stuck worker holds cannot take every thread, and the other tables are still
served. A thread's place is given back when its transaction ends.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, event, select
from sqlalchemy.orm import Session, SessionTransaction, joinedload

from ..database import SqliteConnection
from ..extensions import db
from ..i18n.marks import N_
from ..persistence.table_keeping import PlayerRow, SeatRow, TableRow
from . import statements
from .errors import NotFound


class TableBusy(Exception):
    """As many threads of this worker as allowed already hold or wait for the table's lock."""

    def __init__(self, table_id: str, writers: int) -> None:
        super().__init__(f"table {table_id}: {writers} writers of this worker on its lock")


_WRITER_PLACES = "solo_table_writer_places"  # Session.info: the table ids whose place it holds
_places_guard = threading.Lock()
_writers: Counter[str] = Counter()  # table id -> this process's threads holding or waiting
_bound = {"writers_per_table": 2}


def bound_writers_per_table(writers: int) -> None:
    """How many threads of this process may hold or wait for one table's lock (>= 1)."""
    if writers < 1:
        raise ValueError(f"TABLE_WRITERS_PER_WORKER must be at least 1: {writers}")
    _bound["writers_per_table"] = writers


def writers_waiting(table_id: str) -> int:
    """This process's threads holding or waiting for ``table_id``'s lock now."""
    with _places_guard:
        return _writers[table_id]


def _take_a_writers_place(table_id: str, places: set[str]) -> None:
    """A place among the table's writers for the transaction holding ``places`` (begun: it
    gives its places back as it ends), or ``TableBusy``."""
    if table_id in places:
        return
    with _places_guard:
        writers = _writers[table_id]
        if writers >= _bound["writers_per_table"]:
            raise TableBusy(table_id, writers)
        _writers[table_id] = writers + 1
    places.add(table_id)


@event.listens_for(Session, "after_transaction_end")
def _give_the_places_back(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is not None:  # a savepoint: the lock is the outer transaction's
        return
    places = session.info.pop(_WRITER_PLACES, None)
    if places:
        _give_back(places)


def _give_back(places: set[str]) -> None:
    """The places of ``places`` given back (and the set emptied: given back once)."""
    with _places_guard:
        for table_id in places:
            _writers[table_id] -= 1
            if _writers[table_id] <= 0:
                del _writers[table_id]
        places.clear()


def _before_locking(table_id: str) -> None:
    transaction = statements.current_transaction()
    if transaction is not None:  # (a statements.driver_transaction: SQLite)
        if not transaction.places:
            transaction.ended.append(lambda: _give_back(transaction.places))
        _take_a_writers_place(table_id, transaction.places)
        _begin_immediate(transaction.driver, transaction.dialect)
        return
    connection = db.session.connection()  # the transaction that gives the place back has begun
    _take_a_writers_place(table_id, db.session().info.setdefault(_WRITER_PLACES, set()))
    begin_write(connection)


def begin_write(connection: Any = None) -> None:
    """The session's transaction made a write transaction: on SQLite, in the writer's turn
    (the writer lock, ``BEGIN IMMEDIATE``); nothing on PostgreSQL, whose writers lock rows.
    ``connection``: the session's, when the caller has it at hand."""
    if connection is None:
        connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        _begin_immediate(connection.connection.dbapi_connection, connection.dialect)


def _begin_immediate(raw: Any, dialect: Any) -> None:
    """SQLite's write transaction begun on the driver's connection ``raw``, in the writer's
    turn; nothing if it is in one already."""
    if raw is not None and not raw.in_transaction:
        if isinstance(raw, SqliteConnection):
            raw.take_writer_lock()  # let go by the connection's commit or rollback
        # On the driver, as the statements that follow (services/statements.py): through
        # SQLAlchemy's execution, BEGIN cost a hand about 2 % of its CPU (docs/performance.md).
        try:
            raw.execute("BEGIN IMMEDIATE").close()
        except sqlite3.Error as error:
            raise statements.as_sqlalchemy_error("BEGIN IMMEDIATE", (), error, dialect) from error


def lock_table(table_id: str) -> TableRow:
    """The table's row, locked against other writers until the transaction ends;
    ``TableBusy`` when too many threads of this worker already want it."""
    _before_locking(table_id)
    # The seats load in a second statement (``lazy="selectin"``), after the lock is held: on
    # PostgreSQL a statement that waited for a row lock sees the locked row's latest version
    # but everything else as of its start, so seats joined into this one could be stale
    # (tests/api/test_races.py caught exactly that when they were).
    table = db.session.execute(
        select(TableRow)
        .where(TableRow.id == table_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()
    if table is None:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    return table


def get_table(table_id: str) -> TableRow:
    """The table's row with its seats, for reading: both come from one statement, so one
    snapshot. (Loaded in two, a hand committed between them showed the pool after it and the
    balances before it: a settle-up that did not add up.)"""
    table = db.session.get(TableRow, table_id, options=[joinedload(TableRow.seats)])
    if table is None:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    return table


@dataclass(frozen=True, slots=True)
class SeatState:
    seat: int
    player_id: str
    name: str
    balance: int


@dataclass(frozen=True, slots=True)
class TableState:
    """A table's row and seats as read under its lock, for appending a hand: the same fields
    as ``TableRow`` (``table_view`` and the league read either), without the ORM, whose
    loading of a table, its seats and their players cost half of recording a hand."""

    id: str
    club_id: str
    name: str
    variant: str
    options: dict[str, Any]
    players: int
    first_dealer: int
    status: str
    version: int
    hands_recorded: int
    hands_played: int
    pool: int
    state: dict[str, Any]
    created_at: datetime
    closed_at: datetime | None
    season_id: str | None
    seats: tuple[SeatState, ...]
    rate_cents: int | None = None
    rate_per: int | None = None
    currency: str | None = None
    table_fee_cents: int | None = None
    point_settlement: str | None = None
    night_id: str | None = None
    hands_limit: int | None = None
    series_ends_at: datetime | None = None


_tables = TableRow.__table__
_seats = SeatRow.__table__
_players = PlayerRow.__table__
_TABLE_FIELDS = [f for f in TableState.__dataclass_fields__ if f != "seats"]
# One row per seat, the table's columns on each.
_TABLE_AND_SEATS = (
    select(
        *(_tables.c[f] for f in _TABLE_FIELDS),
        _seats.c.seat,
        _seats.c.player_id,
        _players.c.name.label("player_name"),
        _seats.c.balance,
    )
    .join(_seats, _seats.c.table_id == _tables.c.id)
    .join(_players, _players.c.id == _seats.c.player_id)
    .where(_tables.c.id == bindparam("table_id"))
    .order_by(_seats.c.seat)
)
# The seats' rows are locked too: on PostgreSQL a statement that waited for a row lock reads
# each row it locked at its latest version, but any other row as of the statement's start (see
# lock_table), so seats read without their lock could be stale by the hand that held the table.
_TABLE_AND_SEATS_FOR_UPDATE = _TABLE_AND_SEATS.with_for_update(of=[_tables, _seats])
# The same rows locked in the same order (every writer of a table locks its row and its seats'
# in one statement, so two of them cannot deadlock), reading only the table's version.
_VERSION_FOR_UPDATE = (
    select(_tables.c.version)
    .join(_seats, _seats.c.table_id == _tables.c.id)
    .where(_tables.c.id == bindparam("table_id"))
    .with_for_update(of=[_tables, _seats])
)


def _table_state(rows: Sequence[Any]) -> TableState:
    return TableState(
        **{f: getattr(rows[0], f) for f in _TABLE_FIELDS},
        seats=tuple(SeatState(r.seat, r.player_id, r.player_name, r.balance) for r in rows),
    )


def read_table_state(table_id: str) -> TableState:
    """The table and its seats as last committed, read in one statement without taking its
    lock: a snapshot to plan a write on (``services/writes.py``), which ``lock_if_at_version``
    then checks is still current."""
    rows = statements.rows(_TABLE_AND_SEATS, {"table_id": table_id})
    if not rows:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    return _table_state(rows)


def lock_if_at_version(table_id: str, version: int) -> bool:
    """Take the table's lock as ``lock_table_state`` does (and ``TableBusy`` as it does), and
    tell whether the table is still at ``version``. Every change of a table moves its version,
    so a table still at the version of a snapshot is, seats and all, what the snapshot read."""
    _before_locking(table_id)
    found = statements.rows(_VERSION_FOR_UPDATE, {"table_id": table_id})
    return bool(found) and found[0].version == version


def lock_table_state(table_id: str) -> TableState:
    """``lock_table`` for a use case that only reads the table and writes with statements of
    its own (recording a hand): the table and its seats in one statement."""
    _before_locking(table_id)
    rows = statements.rows(_TABLE_AND_SEATS_FOR_UPDATE, {"table_id": table_id})
    if not rows:
        # A re-seating rewrites the seats' rows (``services/seating.py``): a statement that
        # waited for its lock finds the rows it waited for deleted and the new ones not in its
        # snapshot (PostgreSQL). Asked again, with a snapshot of now, it reads them.
        rows = statements.rows(_TABLE_AND_SEATS_FOR_UPDATE, {"table_id": table_id})
    if not rows:
        raise NotFound(N_("No table %(table)s."), values={"table": repr(table_id)})
    return _table_state(rows)
