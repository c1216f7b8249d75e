"""A table's version in one indexed query: what a phone polling with ``If-None-Match`` needs,
and the key of its rendered view (``middleware/rendered.py``); and, for those polls, the
caller's token row (``auth.TOKEN_QUERY``), read on every poll.

Both readers run the query on a DBAPI connection's own cursor, compiled once by the one helper
for SQL run straight on the driver (``statements.compiled_for``, which the writes on SQLite use
too): SQLAlchemy's execution layer (and the ORM session's) cost several times the query itself
on the most frequent request.

- ``PinnedVersionReader`` (one per engine: ``reader_for``) keeps one connection per thread out
  of the pool, in autocommit, with no ping: the table's poll reads its token and version there,
  in Flask's view and before Flask (``middleware/early.py``) alike, and the list of its hands
  answered before Flask its page (``read_rows``). A lenient read (before Flask)
  never raises: when the connection fails it is dropped and the read answers None, and Flask
  answers instead; a strict one (the view's) tries once more on a new connection and raises.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from sqlalchemy import Engine, bindparam, event, select

from ..persistence.table_keeping import TableRow
from .auth import TOKEN_QUERY
from .statements import all_rows, compiled_for, first_row

log = logging.getLogger(__name__)

_TABLES = TableRow.__table__.c
# One row, three columns: a poll runs this on every request.
_VERSION_QUERY = select(_TABLES.id, _TABLES.club_id, _TABLES.version).where(
    _TABLES.id == bindparam("table_id")
)
# Threads that come and go (a threaded server's) leave their connections behind: past this
# many, all are closed and each live thread opens its own again.
MAX_PINNED_CONNECTIONS = 64


class VersionRow(NamedTuple):
    id: str
    club_id: str
    version: int


class TokenFactsRow(NamedTuple):
    id: str
    kind: str
    club_id: str
    table_id: str | None
    token_hash: str
    revoked_at: Any
    last_used_at: Any


def can_pin(engine: Engine) -> bool:
    """A second connection sees the same data: a server, or an SQLite file (not memory)."""
    if engine.dialect.name != "sqlite":
        return True
    database = engine.url.database or ""
    return database not in ("", ":memory:") and "mode=memory" not in str(engine.url)


def detached_connection(engine: Engine) -> Any:
    """A connection taken out of the engine's pool for good (closing it closes it), in
    autocommit on PostgreSQL so that no transaction is left open between its statements."""
    connection = engine.raw_connection()
    connection.detach()
    if engine.dialect.name == "postgresql":
        try:  # (once detached, the connection is only reachable as dbapi_connection)
            dbapi: Any = connection.dbapi_connection  # psycopg's own, which has autocommit
            dbapi.autocommit = True
        except Exception:
            _close_quietly(connection)
            raise
    return connection


class PinnedVersionReader:
    """Reads versions and tokens on one connection per thread, kept out of the engine's pool
    (on a database a second connection cannot share, an SQLite in memory: a pooled one per
    read). A read is lenient (a failure answers None: the answers made before Flask, which
    then let Flask answer) or ``strict`` (the views: a failed read is tried once more on a
    new connection, then raised, for the error handlers to answer)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pinned = can_pin(engine)
        self._connections: dict[int, Any] = {}  # thread ident → detached pool connection
        self._lock = threading.Lock()
        # engine.dispose() (tests after each test, a deliberate reset) closes these too.
        event.listen(engine, "engine_disposed", lambda _engine: self.close())

    def read(self, table_id: str, strict: bool = False) -> VersionRow | None:
        """The version row; None if there is no such table (or a lenient read failed)."""
        found = self.read_one(_VERSION_QUERY, strict, table_id=table_id)
        return None if found is None else VersionRow(*found)

    def read_token(self, token_hash: str, strict: bool = False) -> TokenFactsRow | None:
        """The token row of ``auth.TOKEN_QUERY`` for the digest; None if there is none (or a
        lenient read failed)."""
        found = self.read_one(TOKEN_QUERY, strict, token_hash=token_hash)
        return None if found is None else TokenFactsRow(*found)

    def read_one(self, statement: Any, strict: bool = False, **parameters: Any) -> Any:
        """The first row of a module-level query ``statement`` with ``parameters``, run
        straight on the driver (``statements.compiled_for``: compiled once per dialect, its
        columns' types applied); None if there is none (or a lenient read failed)."""
        compiled = compiled_for(statement, tuple(sorted(parameters)), self.engine.dialect)
        arguments = compiled.arguments(parameters)
        return self._on_connection(lambda cursor: first_row(cursor, compiled, arguments), strict)

    def read_rows(self, statement: Any, parameters: Mapping[str, Any]) -> list[Any] | None:
        """Every row of a module-level query ``statement`` with ``parameters``, as
        ``statements.rows`` gives them in a session (a page of hands: ``hands.hand_page``),
        read leniently: None if the read failed."""
        compiled = compiled_for(statement, tuple(sorted(parameters)), self.engine.dialect)
        arguments = compiled.arguments(parameters)
        found: list[Any] | None = self._on_connection(
            lambda cursor: all_rows(cursor, compiled, arguments), False
        )
        return found

    def _on_connection(self, read: Any, strict: bool) -> Any:
        if not self.pinned:
            raw = self.engine.raw_connection()
            try:
                return read(raw.cursor())
            except Exception:
                if strict:
                    raise
                log.warning("pooled read failed", exc_info=True)
                return None
            finally:
                raw.close()
        ident = threading.get_ident()
        for attempt in (1, 2):
            connection = self._connections.get(ident)
            try:
                if connection is None:
                    connection = self._connect(ident)
                return read(connection.cursor())
            except Exception:  # the connection may be a dead one: never used again
                log.warning("pinned read failed; dropping its connection", exc_info=True)
                self._drop(ident)
                if strict and attempt == 2:
                    raise
                if not strict:
                    return None
        raise AssertionError("unreachable")  # pragma: no cover

    def _connect(self, ident: int) -> Any:
        connection = detached_connection(self.engine)
        with self._lock:
            if len(self._connections) >= MAX_PINNED_CONNECTIONS:
                self._close_all()
            self._connections[ident] = connection
        return connection

    def _drop(self, ident: int) -> None:
        with self._lock:
            connection = self._connections.pop(ident, None)
        _close_quietly(connection)

    def close(self) -> None:
        with self._lock:
            self._close_all()

    def _close_all(self) -> None:
        connections = list(self._connections.values())
        self._connections.clear()
        for connection in connections:
            _close_quietly(connection)


class OfEngine(Protocol):
    engine: Engine


E = TypeVar("E", bound=OfEngine)


class PerEngine(Generic[E]):
    """One ``made(engine)`` per engine in the process (a reader, a feed), made when first
    asked for (an engine made at an address the last one had gets its own)."""

    def __init__(self, made: Callable[[Engine], E]) -> None:
        self.made = made
        self._each: dict[int, E] = {}
        self._lock = threading.Lock()

    def __call__(self, engine: Engine) -> E:
        with self._lock:
            found = self._each.get(id(engine))
            if found is None or found.engine is not engine:
                found = self._each[id(engine)] = self.made(engine)
            return found


reader_for = PerEngine(PinnedVersionReader)
"""The process's reader of the engine's database (the views' and the early answers')."""


def _close_quietly(connection: Any) -> None:
    if connection is None:
        return
    try:
        connection.close()
    except Exception:  # already gone with its server: nothing left to release
        log.debug("closing a pinned connection failed", exc_info=True)
