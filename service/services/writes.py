"""Writes worked out before their transaction's lock, and run under it.

SQLite lets one writer in at a time across every worker, so whatever a write does while it
holds the writer lock, every other writer of the instance waits for. Recording a hand settles
it, tallies the league's aggregates, builds its answer and names its rows first, from a
snapshot of the table read without the lock; only then does it take the lock, check that the
table is still at the version it read, and run the statements planned (``Write``), nothing
else (``services/hands/recording.py``).

``BoundWrites`` goes one step further on SQLite: the statements run on the driver
(``services/statements.py``), their parameters bound before the lock, so that under it only
``sqlite3``'s own calls run, about 10 µs a statement. On PostgreSQL they go through
SQLAlchemy.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from ..extensions import db
from .statements import as_sqlalchemy_error, compiled_for, current_transaction, on_the_driver


class Write(NamedTuple):
    """One statement of a planned write and its parameters (one set, or several for an
    ``executemany``). An ``INSERT`` names every column it fills, those with a default too: on
    SQLite nothing computes a default in Python on the way (``BoundWrites``)."""

    statement: Any
    parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]
    # The parameters' names, sorted, when the caller has them at hand (made once for a
    # statement of many rows); else ``BoundWrites`` sorts them.
    keys: tuple[str, ...] | None = None


def run_writes(writes: Iterable[Write]) -> None:
    """Run ``writes`` in order in the session's transaction."""
    BoundWrites(writes).run()


class BoundWrites:
    """``writes`` made ready to run: on SQLite, compiled and their parameters bound now (the
    time this takes is spent before the caller takes the writer lock), run by ``run``."""

    def __init__(self, writes: Iterable[Write]) -> None:
        self.writes = list(writes)
        transaction = current_transaction()
        dialect = db.session.get_bind().dialect if transaction is None else transaction.dialect
        self.direct = dialect.name == "sqlite"
        self.bound: list[tuple[str, Any, bool]] = []
        if self.direct:
            for write in self.writes:
                keys = write.keys or _keys_of(write.parameters)
                compiled = compiled_for(write.statement, keys, dialect)
                if isinstance(write.parameters, Mapping):
                    self.bound.append((compiled.sql, compiled.arguments(write.parameters), False))
                else:
                    many = [compiled.arguments(one) for one in write.parameters]
                    self.bound.append((compiled.sql, many, True))

    def run(self) -> None:
        """Run the writes in order in the session's transaction (or the
        ``statements.driver_transaction`` the thread is in). A database error is raised as
        SQLAlchemy raises it (``IntegrityError``, ``OperationalError`` …) on either path."""
        found_driver = on_the_driver()
        if found_driver is None:
            connection = db.session.connection()
            for write in self.writes:
                connection.execute(write.statement, write.parameters)
            return
        driver, dialect = found_driver
        cursor = driver.cursor()
        try:
            for sql, arguments, many in self.bound:
                try:
                    if many:
                        cursor.executemany(sql, arguments)
                    else:
                        cursor.execute(sql, arguments)
                except sqlite3.Error as error:
                    raise as_sqlalchemy_error(sql, arguments, error, dialect) from error
        finally:
            cursor.close()


def _keys_of(parameters: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    first = parameters if isinstance(parameters, Mapping) else parameters[0]
    return tuple(sorted(first))
