"""Writes worked out before their transaction's lock, and run under it.

SQLite lets one writer in at a time across every worker, so whatever a write does while it
holds the writer lock, every other writer of the instance waits for. Recording a hand settles
it, tallies the league's aggregates, builds its answer and names its rows first, from a
snapshot of the table read without the lock; only then does it take the lock, check that the
table is still at the version it read, and run the statements planned (``Write``), nothing
else (``services/hands/recording.py``).

``BoundWrites`` goes one step further on SQLite: each statement is compiled once per process
and its parameters are turned into what the driver takes (JSON text, SQLite's text for a
time) before the lock, so that under it only ``sqlite3``'s own calls run, about 10 µs a
statement instead of the 60-120 µs that SQLAlchemy's execution of a statement (its execution
context, the parameters' processing, the result's setup) takes in a request. On PostgreSQL,
where a write locks only its own table's rows and a statement's cost is its round trip, the
statements go through SQLAlchemy as every other one does (``database.never_pipelined``
shapes them there: many rows in one ``INSERT``, no pipeline).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import exc

from ..extensions import db


class Write(NamedTuple):
    """One statement of a planned write and its parameters (one set, or several for an
    ``executemany``). An ``INSERT`` names every column it fills, those with a default too: on
    SQLite nothing computes a default in Python on the way (``BoundWrites``)."""

    statement: Any
    parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]


def run_writes(writes: Iterable[Write]) -> None:
    """Run ``writes`` in order in the session's transaction."""
    BoundWrites(writes).run()


class BoundWrites:
    """``writes`` made ready to run: on SQLite, compiled and their parameters bound now (the
    time this takes is spent before the caller takes the writer lock), run by ``run``."""

    def __init__(self, writes: Iterable[Write]) -> None:
        self.writes = list(writes)
        dialect = db.session.get_bind().dialect
        self.direct = dialect.name == "sqlite"
        self.bound: list[tuple[str, Any, bool]] = []
        if self.direct:
            for write in self.writes:
                prepared = _prepared(write.statement, _keys_of(write.parameters), dialect)
                if isinstance(write.parameters, Mapping):
                    self.bound.append((prepared.sql, prepared.arguments(write.parameters), False))
                else:
                    many = [prepared.arguments(one) for one in write.parameters]
                    self.bound.append((prepared.sql, many, True))

    def run(self) -> None:
        """Run the writes in order in the session's transaction. A database error is raised as
        SQLAlchemy raises it (``IntegrityError``, ``OperationalError`` …) on either path."""
        connection = db.session.connection()
        if not self.direct:
            for write in self.writes:
                connection.execute(write.statement, write.parameters)
            return
        raw = connection.connection.driver_connection
        cursor = raw.cursor()  # type: ignore[union-attr]
        try:
            for sql, arguments, many in self.bound:
                try:
                    if many:
                        cursor.executemany(sql, arguments)
                    else:
                        cursor.execute(sql, arguments)
                except sqlite3.Error as error:
                    raise exc.DBAPIError.instance(
                        sql, arguments, error, sqlite3.Error, dialect=connection.dialect
                    ) from error
        finally:
            cursor.close()


def _keys_of(parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    first = parameters if isinstance(parameters, Mapping) else parameters[0]
    return tuple(sorted(first))


class _Prepared(NamedTuple):
    """A statement compiled for SQLite: its SQL (``?`` placeholders), and for each placeholder
    in order the name of its value, the value fixed in the statement if any, and how the
    value is processed for the driver (a column type's bind processor)."""

    sql: str
    slots: tuple[tuple[str, Any, Any], ...]

    def arguments(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(
            (process(v) if process is not None else v)
            for name, fixed, process in self.slots
            for v in (values.get(name, fixed),)
        )


_NOT_GIVEN = object()


@lru_cache(maxsize=512)
def _prepared(statement: Any, keys: tuple[str, ...], dialect: Any) -> _Prepared:
    """``statement`` compiled once per shape of its parameters (an ``INSERT`` names the columns
    given). Refuses a statement whose compiling leaves a value to compute in Python (a column's
    Python default): its ``Write`` must name it."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    if compiled.insert_prefetch or compiled.update_prefetch:
        missing = [c.name for c in (*compiled.insert_prefetch, *compiled.update_prefetch)]
        raise ValueError(f"a planned write must name every column it fills: {missing}")
    if compiled.positiontup is None:
        raise ValueError("SQLite's statements take their parameters by position")
    slots = []
    for name in compiled.positiontup:
        bind = compiled.binds[name]
        fixed = _NOT_GIVEN if bind.required or bind.callable is not None else bind.value
        if fixed is _NOT_GIVEN and name not in keys:
            raise ValueError(f"a planned write gives no value for {name!r}")
        process = bind.type.dialect_impl(dialect).bind_processor(dialect)
        slots.append((name, None if fixed is _NOT_GIVEN else fixed, process))
    return _Prepared(compiled.string, tuple(slots))
