"""Core statements run straight on SQLite's driver, for the requests where SQLAlchemy's
execution of a statement costs more than the statement.

In a request, SQLAlchemy's execution of one statement (the session's connection, the execution
context, the parameters' and the result's processing) took 60-300 µs on the development
machine, where ``sqlite3`` itself takes 10-40 µs: recording a hand ran a dozen of them, much of
it while holding the writer lock that every writer of the instance waits for
(docs/performance.md). Here a statement is compiled once per process by SQLAlchemy, for the
session's dialect; its parameters are bound with its columns' own bind processors (JSON to
text, a time to SQLite's text for it) and a query's values read back with their result
processors, exactly as SQLAlchemy would, and the statement runs on the driver's connection of
the session, in its transaction.

On PostgreSQL the same calls go through SQLAlchemy: a statement's cost there is its round trip,
and ``database.never_pipelined`` shapes what SQLAlchemy sends (many rows in one ``INSERT``, no
pipeline), which running on the driver would undo.

A write whose statements all run here (recording a hand) runs in ``driver_transaction``: on
SQLite on a connection of the engine's pool, without the ORM session around it, whose
connection, transaction, commit and close cost a hand about a tenth of its CPU; every statement
of this module run meanwhile in that thread runs in that transaction.
"""

from __future__ import annotations

import sqlite3
from collections import namedtuple
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import Dialect, exc

from ..extensions import db

Slot = tuple[str, Any, Callable[[Any], Any] | None]


class Compiled(NamedTuple):
    """A statement compiled for a dialect: its SQL in the driver's own parameter style; for
    each parameter (in order, when they are positional: SQLite's ``?``), the name of its value,
    the value fixed in the statement (if any) and the column type's bind processor; for a
    query, its rows' type and each column's result processor."""

    sql: str
    slots: tuple[Slot, ...]
    row: Any  # a namedtuple class, or None for a statement that returns no rows
    readers: tuple[Callable[[Any], Any] | None, ...]
    positional: bool = True

    def arguments(self, values: Mapping[str, Any]) -> Any:
        """The driver's parameters for ``values`` (named as the statement's bind parameters):
        a tuple when they are positional, else a dict by name (psycopg's ``%(name)s``)."""
        # One comprehension, no generator per value: a recorded hand binds about 130 values
        # (its league aggregates' upserts half of them), and binding them two generators deep
        # took 185 µs, in one comprehension 134 (docs/performance.md).
        get = values.get
        if self.positional:
            return tuple(
                [
                    get(name, fixed) if process is None else process(get(name, fixed))
                    for name, fixed, process in self.slots
                ]
            )
        return {
            name: get(name, fixed) if process is None else process(get(name, fixed))
            for name, fixed, process in self.slots
        }

    def rows(self, found: list[tuple[Any, ...]]) -> list[Any]:
        # Only the columns that have a result processor are touched (a page of 40 hands has
        # 14 columns a row, two of them times): a generator over every value cost more than
        # the query.
        make = self.row._make
        read = [(index, r) for index, r in enumerate(self.readers) if r is not None]
        if not read:
            return [make(one) for one in found]
        made = []
        for one in found:
            values = list(one)
            for index, reader in read:
                values[index] = reader(values[index])
            made.append(make(values))
        return made


class DriverTransaction:
    """A transaction on a connection of the engine's pool (SQLite), apart from the request's
    session: ``driver_transaction``. ``ended``: what to do as it ends, committed or not
    (``locking`` gives its writers' places back)."""

    def __init__(self, pooled: Any, dialect: Dialect) -> None:
        self.pooled = pooled  # the pool's connection, given back (and rolled back) at the end
        self.driver: sqlite3.Connection = pooled.driver_connection
        self.dialect = dialect
        self.places: set[str] = set()  # the tables whose writers' places it holds (locking)
        self.ended: list[Callable[[], None]] = []

    def commit(self) -> None:
        """Commit (``database.SqliteConnection``: the writer lock let go, the WAL synced); a
        failure raised as SQLAlchemy raises it."""
        try:
            self.driver.commit()
        except sqlite3.Error as error:
            raise as_sqlalchemy_error("COMMIT", (), error, self.dialect) from error


_in_transaction: ContextVar[DriverTransaction | None] = ContextVar(
    "solo_driver_transaction", default=None
)


def current_transaction() -> DriverTransaction | None:
    """The ``driver_transaction`` this thread is in, if any."""
    return _in_transaction.get()


@contextmanager
def driver_transaction() -> Iterator[Callable[[], None]]:
    """A write transaction whose statements all run through this module (``rows``,
    ``writes.BoundWrites``, ``locking``'s lock): yields its commit; anything else rolls it
    back. On SQLite on a connection of the engine's pool, given back when it ends (the pool's
    reset rolls back what was not committed, and the writer lock with it); the session is not
    used. Elsewhere the request's session, committed
    by ``db.session.commit`` (and rolled back as the request's session is)."""
    engine = db.engine
    if engine.dialect.name != "sqlite":
        yield db.session.commit
        return
    transaction = DriverTransaction(engine.raw_connection(), engine.dialect)
    token = _in_transaction.set(transaction)
    try:
        yield transaction.commit
    finally:
        _in_transaction.reset(token)
        try:
            transaction.pooled.close()
        finally:
            for then in transaction.ended:
                then()


def on_the_driver() -> tuple[sqlite3.Connection, Dialect] | None:
    """Where this module's statements run on SQLite: the driver's connection of the
    ``driver_transaction`` the thread is in, else of the session's transaction, with its
    dialect. None elsewhere: they run through the session's connection."""
    transaction = _in_transaction.get()
    if transaction is not None:
        return transaction.driver, transaction.dialect
    connection = db.session.connection()
    if connection.dialect.name != "sqlite":
        return None
    return connection.connection.driver_connection, connection.dialect  # type: ignore[return-value]


def rows(statement: Any, parameters: Mapping[str, Any]) -> Sequence[Any]:
    """The rows of a query, in the session's transaction (or the ``driver_transaction`` the
    thread is in): on SQLite named tuples straight from the driver, elsewhere SQLAlchemy's
    rows (both read by attribute and by position)."""
    found_driver = on_the_driver()
    if found_driver is None:
        return db.session.connection().execute(statement, parameters).all()
    driver, dialect = found_driver
    compiled = compiled_for(statement, tuple(sorted(parameters)), dialect)
    arguments = compiled.arguments(parameters)
    cursor = driver.cursor()
    try:
        found = cursor.execute(compiled.sql, arguments).fetchall()
    except sqlite3.Error as error:
        raise as_sqlalchemy_error(compiled.sql, arguments, error, dialect) from error
    finally:
        cursor.close()
    return compiled.rows(found)


def as_sqlalchemy_error(sql: str, arguments: Any, error: sqlite3.Error, dialect: Dialect) -> Any:
    """The error SQLAlchemy would have raised for ``error`` (``IntegrityError``,
    ``OperationalError`` …): what the use cases and the outages' handlers catch."""
    return exc.DBAPIError.instance(sql, arguments, error, sqlite3.Error, dialect=dialect)


_NOT_GIVEN = object()


def first_row(cursor: Any, compiled: Compiled, arguments: Any) -> Any:
    """The first row of a query run on a driver's ``cursor`` (closed then), as
    ``Compiled.rows`` makes it; None if there is none. Read to the end: SQLite keeps no read
    transaction open after it."""
    found = _fetched(cursor, compiled, arguments)
    return compiled.rows(found[:1])[0] if found else None


def all_rows(cursor: Any, compiled: Compiled, arguments: Any) -> list[Any]:
    """Every row of a query run on a driver's ``cursor`` (closed then), as ``Compiled.rows``
    makes them."""
    return compiled.rows(_fetched(cursor, compiled, arguments))


def _fetched(cursor: Any, compiled: Compiled, arguments: Any) -> list[tuple[Any, ...]]:
    try:
        return list(cursor.execute(compiled.sql, arguments).fetchall())
    finally:
        cursor.close()


def rows_on(connection: Any, statement: Any, dialect: Dialect, **parameters: Any) -> list[Any]:
    """The rows of a module-level query ``statement`` with ``parameters``, run straight on a
    driver's ``connection`` (one kept out of the pool: the change feed's), as
    ``Compiled.rows`` makes them."""
    compiled = compiled_for(statement, tuple(sorted(parameters)), dialect)
    return all_rows(connection.cursor(), compiled, compiled.arguments(parameters))


@lru_cache(maxsize=512)
def compiled_for(statement: Any, keys: tuple[str, ...], dialect: Dialect) -> Compiled:
    """``statement`` compiled once per shape of its parameters (an ``INSERT`` names the
    columns given), for running straight on the dialect's driver: here on SQLite, and the
    reads on connections kept out of the pool (``table_versions.PinnedVersionReader``, the
    change feed's: ``rows_on``) on either database. Refuses a statement whose compiling leaves
    a value to compute in Python (a column's Python default): nothing computes it on the way
    here, so the caller must give it."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    if compiled.insert_prefetch or compiled.update_prefetch:
        missing = [c.name for c in (*compiled.insert_prefetch, *compiled.update_prefetch)]
        raise ValueError(
            f"a statement run on the driver must name every column it fills: {missing}"
        )
    positional = compiled.positiontup is not None
    names = compiled.positiontup if positional else list(compiled.binds)
    slots: list[Slot] = []
    for name in names:
        bind = compiled.binds[name]
        fixed = _NOT_GIVEN if bind.required or bind.callable is not None else bind.value
        if fixed is _NOT_GIVEN and name not in keys:
            raise ValueError(f"no value given for {name!r}")
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        slots.append((name, None if fixed is _NOT_GIVEN else fixed, process))
    row: Any = None
    readers: tuple[Callable[[Any], Any] | None, ...] = ()
    if getattr(statement, "is_select", False):
        columns = list(statement.selected_columns)
        row = namedtuple("Row", [c.key for c in columns], rename=True)  # type: ignore[misc,no-redef]
        readers = tuple(
            c.type.dialect_impl(dialect).result_processor(dialect, None) for c in columns
        )
    return Compiled(compiled.string, tuple(slots), row, readers, positional)
