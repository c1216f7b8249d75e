"""Table versions heard from PostgreSQL, kept per worker, so that a poll whose ETag is still
current is answered without a query.

On PostgreSQL every change of a table's version is announced on the channel
``table_versions`` by a trigger (migration 0003), when its transaction commits. Each worker
listens on its own connection, in a thread of its own (``VersionFeed``), and keeps the newest
version it heard or read of each table (``KnownVersions``). A poll (``middleware/early.py``)
whose ETag names that version gets its 304 from here; anything else asks the database.

What a version from here promises:

- **Only while the feed is fresh.** Its connection must have answered a heartbeat (which also
  checks that the trigger is still there) that began less than ``MAX_SILENCE`` ago; every
  notification committed before a heartbeat began has arrived by its answer. A connection that
  dies or hangs stops the answers within ``MAX_SILENCE``, and polls go back to the database.
- **Never older than a write this worker answered:** a write through this worker drops the
  table (``forget``), so its next poll asks the database.
- **A change by another worker or host is heard within milliseconds** (the notification's way
  from the server to this thread). Until then a poll naming the previous version is answered
  304, as it would have been a moment earlier. A client that names a newer version than this
  worker has heard (it wrote through another worker) is answered from the database.
- **Versions only go up.** A version read from the database is kept only if nothing was dropped
  since that read began (``mark`` then ``read_from_database``), so a slow read cannot bring back
  what a change or a reconnection made this worker forget.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from sqlalchemy import Engine, event

from .table_versions import VersionRow, detached_connection

log = logging.getLogger(__name__)

CHANNEL = "table_versions"
TRIGGER = "score_tables_announce_version"
HEARTBEAT_SECONDS = 0.25
# How long a silent connection is trusted: the longest a lost change can go unseen.
MAX_SILENCE_SECONDS = 1.0
# After a failed connection or a missing trigger, wait this long before trying again.
RETRY_SECONDS = 2.0
# An entry is ~300 bytes: a full map is a few MiB per worker.
MAX_KNOWN_TABLES = 20_000

# Answers whether the trigger is in place (and enabled) on the table this connection sees.
_HEARTBEAT_SQL = (
    f"SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '{TRIGGER}' "
    "AND tgrelid = to_regclass('score_tables') AND tgenabled <> 'D')"
)


class KnownVersions:
    """The newest version heard or read of each table; thread-safe, bounded, never older."""

    def __init__(self, size: int = MAX_KNOWN_TABLES) -> None:
        self.size = size
        self._rows: dict[str, VersionRow] = {}
        self._lock = threading.Lock()
        self._events = 0  # every change to the map counts one
        self._dropped_at = 0  # the count at the last entry dropped or the map cleared

    def get(self, table_id: str) -> VersionRow | None:
        return self._rows.get(table_id)

    def __len__(self) -> int:
        return len(self._rows)

    def mark(self) -> int:
        """Take before a database read; give it back to ``read_from_database``."""
        return self._events

    def heard(self, row: VersionRow) -> None:
        """A version announced by the database: it was committed."""
        with self._lock:
            self._events += 1
            self._merge(row)

    def read_from_database(self, row: VersionRow, mark: int) -> None:
        """A version read since ``mark``: kept unless something was dropped meanwhile."""
        with self._lock:
            if self._dropped_at > mark:
                return
            self._events += 1
            self._merge(row)

    def forget(self, table_id: str) -> None:
        with self._lock:
            self._events += 1
            self._dropped_at = self._events
            self._rows.pop(table_id, None)

    def clear(self) -> None:
        with self._lock:
            self._events += 1
            self._dropped_at = self._events
            self._rows.clear()

    def _merge(self, row: VersionRow) -> None:
        current = self._rows.get(row.id)
        if current is not None and current.version >= row.version:
            return
        if current is None and len(self._rows) >= self.size:
            self._dropped_at = self._events  # simple and bounded; polls read again
            self._rows.clear()
        self._rows[row.id] = row


def parse_payload(payload: str) -> VersionRow | str | None:
    """``"<table> <club> <version>"`` as a row; ``"*"`` (all tables gone) or a table deleted
    (version 0) as the id to drop (``"*"`` for all); None for anything else."""
    if payload == "*":
        return "*"
    parts = payload.split(" ")
    if len(parts) != 3 or not parts[2].isdigit():
        return None
    table_id, club_id, version = parts[0], parts[1], int(parts[2])
    return table_id if version == 0 else VersionRow(table_id, club_id, version)


class VersionFeed:
    """Listens for table versions in a thread of this process, started at the first use."""

    def __init__(
        self,
        engine: Engine,
        known: KnownVersions | None = None,
        heartbeat: float = HEARTBEAT_SECONDS,
        max_silence: float = MAX_SILENCE_SECONDS,
        retry: float = RETRY_SECONDS,
    ) -> None:
        self.engine = engine
        self.known = known or KnownVersions()
        self.heartbeat = heartbeat
        self.max_silence = max_silence
        self.retry = retry
        self._answered_at = float("-inf")  # when the last answered heartbeat began
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._pid = os.getpid()
        # engine.dispose() (tests after each test, a deliberate reset) stops the thread too;
        # the next use starts another.
        event.listen(engine, "engine_disposed", lambda _engine: self.stop())

    def fresh(self) -> bool:
        return time.monotonic() - self._answered_at < self.max_silence

    def current(self, table_id: str) -> VersionRow | None:
        """The table's version if this worker knows it and the feed is fresh, else None."""
        if self._thread is None or self._pid != os.getpid():
            self._start()
        if not self.fresh():
            return None
        return self.known.get(table_id)

    def mark(self) -> int:
        return self.known.mark()

    def read_from_database(self, row: VersionRow, mark: int) -> None:
        self.known.read_from_database(row, mark)

    def forget(self, table_id: str) -> None:
        self.known.forget(table_id)

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
            self._thread = None
            self._answered_at = float("-inf")
        self.known.clear()

    def _start(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the parent's thread is not here
                self._pid, self._thread = os.getpid(), None
                self._answered_at = float("-inf")
            if self._thread is not None:
                return
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(self._stop,), name="table-version-feed", daemon=True
            )
            self._thread.start()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self._listen(stop)
            except Exception:  # the polls ask the database meanwhile
                log.warning("table version feed lost its connection; retrying", exc_info=True)
            self._went_silent(stop)
            stop.wait(self.retry)

    def _went_silent(self, stop: threading.Event) -> None:
        with self._lock:
            if stop.is_set():
                return  # stopped: stop() cleared the map, which a new thread may now fill
            self._answered_at = float("-inf")
            self.known.clear()

    def _listen(self, stop: threading.Event) -> None:
        connection = detached_connection(self.engine).dbapi_connection
        try:
            # Request work's bounds (service/database.py) are not for a session that listens
            # for as long as the worker lives.
            connection.execute("SET statement_timeout = 0")
            connection.execute(f"LISTEN {CHANNEL}")
            # Whatever was known before this LISTEN may have missed a change.
            self.known.clear()
            while not stop.is_set():
                began = time.monotonic()
                in_place = connection.execute(_HEARTBEAT_SQL).fetchone()[0]
                self._hear(connection.notifies(timeout=0))
                if not in_place:
                    log.warning(
                        "trigger %s is missing or disabled: polls ask the database", TRIGGER
                    )
                    return
                with self._lock:
                    if stop.is_set():
                        return
                    self._answered_at = began
                self._hear(connection.notifies(timeout=self.heartbeat))
        finally:
            try:
                connection.close()
            except Exception:  # already gone with its server
                log.debug("closing the feed's connection failed", exc_info=True)

    def _hear(self, notifications: Any) -> None:
        for notification in notifications:
            self._apply(parse_payload(notification.payload))

    def _apply(self, parsed: VersionRow | str | None) -> None:
        if isinstance(parsed, VersionRow):
            self.known.heard(parsed)
        elif parsed is None or parsed == "*":
            self.known.clear()  # a payload not ours, or every table gone: start again
        else:
            self.known.forget(parsed)


def feed_for(engine: Engine, enabled: bool) -> VersionFeed | None:
    """A feed on PostgreSQL when enabled; None elsewhere (SQLite has no channel)."""
    return VersionFeed(engine) if enabled and engine.dialect.name == "postgresql" else None
