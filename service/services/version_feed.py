"""Table versions heard from PostgreSQL, kept per worker, so that a poll whose ETag is still
current is answered without a query.

On PostgreSQL every change of a table's version is announced on the channel
``table_versions`` by a trigger (migration 0003), when its transaction commits. Each worker
hears them on its one change feed (``live_feed.ChangeFeed``, which also carries the outbox's
events and the revoked tokens), and ``VersionFeed`` keeps the newest version it heard or read
of each table (``KnownVersions``). A poll (``middleware/early.py``)
whose ETag names that version gets its 304 from here; anything else asks the database.

What a version from here promises:

- **Only while the feed is fresh.** Its connection must have answered a heartbeat (every
  ``live_feed.HEARTBEAT_SECONDS``, which also checks that the trigger is still there) that
  began less than ``MAX_SILENCE`` ago; every notification committed before a heartbeat began
  has arrived by its answer. A connection that dies or hangs stops the answers within
  ``MAX_SILENCE``, and polls go back to the database.
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
import threading
import time

from sqlalchemy import Engine

from .live_feed import feed_for as change_feed_for
from .table_versions import PerEngine, VersionRow

log = logging.getLogger(__name__)

TRIGGER = "score_tables_announce_version"
# How long a silent connection is trusted: the longest a lost change can go unseen.
MAX_SILENCE_SECONDS = 1.0
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
    """The versions this worker heard from the one change feed (``live_feed.ChangeFeed``,
    its ``versions`` subscriber), and whether they may be trusted now (module docstring). The
    feed starts at the first use."""

    heartbeat_sql = _HEARTBEAT_SQL

    def __init__(
        self,
        engine: Engine,
        known: KnownVersions | None = None,
        max_silence: float = MAX_SILENCE_SECONDS,
    ) -> None:
        self.engine = engine
        self.feed = change_feed_for(engine)
        self.known = known or KnownVersions()
        self.max_silence = max_silence
        self._answered_at = float("-inf")  # when the last answered heartbeat began
        self._trusted = False  # the trigger was in place at the last heartbeat
        self._missing_told = False  # the log has been told the trigger is missing
        self._lock = threading.Lock()
        self.feed.follow_versions(self)

    def fresh(self) -> bool:
        return time.monotonic() - self._answered_at < self.max_silence

    def current(self, table_id: str) -> VersionRow | None:
        """The table's version if this worker knows it and the feed is fresh, else None."""
        if not self.feed.running():
            self.feed.start()
        if not self.fresh():
            return None
        return self.known.get(table_id)

    def mark(self) -> int:
        return self.known.mark()

    def read_from_database(self, row: VersionRow, mark: int) -> None:
        self.known.read_from_database(row, mark)

    def forget(self, table_id: str) -> None:
        self.known.forget(table_id)

    # --- told by the feed (its thread) ----------------------------------------------------

    def listening(self) -> None:
        with self._lock:
            self._answered_at, self._trusted = float("-inf"), False
        self.known.clear()

    def heard(self, payload: str) -> None:
        parsed = parse_payload(payload)
        if isinstance(parsed, VersionRow):
            self.known.heard(parsed)
        elif parsed is None or parsed == "*":
            self.known.clear()  # a payload not ours, or every table gone: start again
        else:
            self.known.forget(parsed)

    def answered(self, began: float, in_place: bool) -> None:
        with self._lock:
            if not in_place:
                if not self._missing_told:
                    log.warning(
                        "trigger %s is missing or disabled: polls ask the database", TRIGGER
                    )
                self._missing_told = True
                self._answered_at, self._trusted = float("-inf"), False
                self.known.clear()
                return
            if not self._trusted:  # back (or first): what was read meanwhile may be stale
                self.known.clear()
                self._trusted, self._missing_told = True, False
            self._answered_at = began

    def silent(self) -> None:
        with self._lock:
            self._answered_at, self._trusted = float("-inf"), False
        self.known.clear()


def feed_for(engine: Engine, enabled: bool) -> VersionFeed | None:
    """The engine's versions on PostgreSQL when enabled; None elsewhere (SQLite has no
    channel)."""
    if not enabled or engine.dialect.name != "postgresql":
        return None
    return _versions_for(engine)


_versions_for = PerEngine(VersionFeed)
