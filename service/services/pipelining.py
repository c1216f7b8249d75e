"""Writes sent to the database together, without waiting for each one's answer.

``pipelined(connection)``: on PostgreSQL (psycopg 3) the statements executed in the block go
out in psycopg's pipeline mode, and the block's end waits once for all their answers, instead
of one round trip each. On SQLite, a library inside the process with nothing to wait for, it
changes nothing.

Only writes whose results nobody reads belong in the block: SQLAlchemy looks at a
statement's result as it executes it, and in pipeline mode there is none yet, so a SELECT or
an ``INSERT … RETURNING`` would find no rows. ``guard_pipelines`` refuses such a statement
on either database, so that a mistake fails the tests on SQLite too, not only on PostgreSQL;
``create_app`` installs it in a testing app only, as it costs every statement an event. Use
``Insert.inline()`` for an insert into a table with an autoincrement key: without it
SQLAlchemy adds ``RETURNING id``.

An error in any statement of the block is raised at the latest when the block ends, as
SQLAlchemy's exception (an ``IntegrityError`` for a constraint), as it would have been raised
by the statement itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.exc import DBAPIError

PIPELINED = "pipelined"  # the key in ``Connection.info`` while a block runs


class ReadInPipeline(RuntimeError):
    """A statement that returns rows was executed in a ``pipelined`` block."""


@contextmanager
def pipelined(connection: Connection) -> Iterator[None]:
    # Kept: if the connection is lost in the block, asking it for its info again would raise
    # over the error that lost it.
    info = connection.info
    info[PIPELINED] = True
    try:
        driver = connection.connection.driver_connection
        pipeline = getattr(driver, "pipeline", None)  # psycopg's Connection.pipeline
        if pipeline is None:
            yield
            return
        dbapi_error = connection.dialect.loaded_dbapi.Error
        try:
            with pipeline():
                yield
        except dbapi_error as error:  # raised when the pipeline ended, outside SQLAlchemy
            # What SQLAlchemy does with an error it sees: a lost connection is invalidated
            # (the session's rollback then has nothing to roll back on a dead socket).
            lost = connection.dialect.is_disconnect(error, driver, None)
            if lost:
                connection.invalidate(error)
            raise DBAPIError.instance(
                None,
                None,
                error,
                dbapi_error,
                connection_invalidated=lost,
                dialect=connection.dialect,
            ) from error
    finally:
        info.pop(PIPELINED, None)


def guard_pipelines(engine: Engine) -> None:
    event.listen(engine, "before_cursor_execute", _writes_only)


def _writes_only(
    connection: Connection,
    _cursor: Any,
    statement: str,
    _parameters: Any,
    context: Any,
    _executemany: bool,
) -> None:
    if not connection.info.get(PIPELINED):
        return
    compiled = getattr(context, "compiled", None)
    if compiled is None or not context.is_crud or compiled.effective_returning:
        raise ReadInPipeline(
            "Only writes that return nothing can be pipelined, not: "
            + statement.split("\n", 1)[0][:120]
        )
