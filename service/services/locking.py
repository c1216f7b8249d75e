"""Write transactions that serialise per table, on SQLite and on PostgreSQL alike.

Every use case that changes a table calls ``lock_table`` before it reads anything it will
base a write on. On PostgreSQL that is ``SELECT … FOR UPDATE`` of the table's row; on SQLite,
which locks the whole database, it is ``BEGIN IMMEDIATE``, taken before the first read of the
transaction so that two writers never both read a version and then race to write it. The
``UNIQUE (table_id, number)`` of hands stays as the last line of defence.
"""

from __future__ import annotations

from flask import current_app
from sqlalchemy import select

from ..database import WRITER_LOCK_KEY
from ..extensions import db
from ..models import TableRow
from .errors import NotFound


def begin_write() -> None:
    connection = db.session.connection()
    if connection.dialect.name == "sqlite":
        raw = connection.connection.dbapi_connection
        if raw is not None and not raw.in_transaction:
            writer_lock = current_app.extensions.get("sqlite_writer_lock")
            if writer_lock is not None and WRITER_LOCK_KEY not in db.session.info:
                db.session.info[WRITER_LOCK_KEY] = writer_lock.acquire()
            connection.exec_driver_sql("BEGIN IMMEDIATE")


def lock_table(table_id: str) -> TableRow:
    """The table's row, locked against other writers until the transaction ends."""
    begin_write()
    # The seats load in a second statement (``lazy="selectin"``), after the lock is held: on
    # PostgreSQL a statement that waited for a row lock sees the locked row's latest version
    # but everything else as of its start, so seats joined into this one could be stale
    # (tests/api/test_races.py caught exactly that when they were).
    table = db.session.execute(
        select(TableRow).where(TableRow.id == table_id).with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()
    if table is None:
        raise NotFound(f"No table {table_id!r}.")
    return table


def get_table(table_id: str) -> TableRow:
    table = db.session.get(TableRow, table_id)
    if table is None:
        raise NotFound(f"No table {table_id!r}.")
    return table
