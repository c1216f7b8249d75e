"""The changes each worker hears: every event committed to the outbox, by this worker, another
worker or another instance, read once per worker and handed to its streams in the order of
each club.

One ``ChangeFeed`` per process and engine (``feed_for``), with a thread of its own, started
by the first stream:

- **PostgreSQL**: the outbox's transaction announces ``"<club> <seq>"`` on ``club_changes``
  (``services/outbox.py``), delivered on commit; the feed LISTENs, and reads each club's events
  after the last it published (a club's numbers commit in order, so none is skipped). After a
  reconnection it reads every club it knows again from where it was.
- **SQLite** (one machine): the feed asks ``PRAGMA data_version`` every ``POLL_SECONDS``: it
  changes when any other connection, of any process, committed. Then it reads the clubs' last
  numbers (``change_cursors``, a row per club) and the events of each club that moved, after
  the last it published.

``ready`` answers once the feed listens: an event committed after that is published, so a
stream whose opening read the outbox after ``ready`` misses nothing between that read and the
events it is sent (``stream_hub.StreamHub.adopt`` covers the moment in between).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, event, select

from ..json_text import answer_text
from ..persistence.outbox import ChangeCursorRow
from .outbox import CHANNEL, event_view, rows_after
from .table_versions import PerEngine, can_pin, detached_connection

log = logging.getLogger(__name__)

POLL_SECONDS = 0.02
NOTIFY_WAIT_SECONDS = 1.0
RETRY_SECONDS = 1.0
READ_BATCH = 500

Publisher = Callable[[str, int, "str | None", bytes], None]
"""``publish(club_id, event_id, table_id, frame)``: ``StreamHub.publish``."""

_cursors = ChangeCursorRow.__table__


def event_frame(view: dict[str, Any]) -> bytes:
    """An event as a server-sent event: its id, and its JSON as the data."""
    data = answer_text(view)
    return f"id: {view['id']}\ndata: {data}\n\n".encode()


def named_frame(name: str, event_id: int, data: dict[str, Any]) -> bytes:
    """A control event (``ready``, ``reload``) that sets the stream's id to ``event_id``."""
    body = answer_text(data)
    return f"id: {event_id}\nevent: {name}\ndata: {body}\n\n".encode()


class ChangeFeed:
    """A process's reader of the outbox for its streams (module docstring)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.publishers: list[Publisher] = []
        self._published: dict[str, int] = {}  # club → the last event id published
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        event.listen(engine, "engine_disposed", lambda _engine: self.stop())

    def attach(self, publish: Publisher) -> None:
        with self._lock:
            if publish not in self.publishers:
                self.publishers.append(publish)

    def ready(self, timeout: float) -> bool:
        """Start the feed if need be; True once it listens (within ``timeout`` seconds)."""
        if self.engine.dialect.name == "sqlite" and not can_pin(self.engine):
            return False  # a memory database: no other connection sees its writes
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the parent's thread is not here
                self._pid, self._thread = os.getpid(), None
                self._ready.clear()
            if self._thread is None:
                self._stop = threading.Event()
                self._thread = threading.Thread(
                    target=self._run, args=(self._stop,), name="change-feed", daemon=True
                )
                self._thread.start()
        return self._ready.wait(timeout)

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
            self._thread = None
            self._ready.clear()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if self.engine.dialect.name == "postgresql":
                    self._listen(stop)
                else:
                    self._watch(stop)
            except Exception:  # streams keep what they have; they get the rest once back
                log.warning("the change feed lost its connection; retrying", exc_info=True)
            self._ready.clear()
            stop.wait(RETRY_SECONDS)

    # --- SQLite ---------------------------------------------------------------------------

    def _watch(self, stop: threading.Event) -> None:
        watcher = detached_connection(self.engine)
        try:
            for club, last in self._club_cursors():
                self._published.setdefault(club, last)  # from now on
            seen = _data_version(watcher)
            self._ready.set()
            while not stop.wait(POLL_SECONDS):
                version = _data_version(watcher)
                if version == seen:
                    continue
                seen = version
                for club, last in self._club_cursors():
                    if last > self._published.get(club, 0):
                        self._read_club_after(club, self._published.get(club, 0))
        finally:
            watcher.close()

    def _club_cursors(self) -> list[tuple[str, int]]:
        """Each club's last event number (one row per club: a short read)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(_cursors.c.club_id, _cursors.c.last_seq)).all()
        return [(str(club), int(last)) for club, last in rows]

    # --- PostgreSQL -----------------------------------------------------------------------

    def _listen(self, stop: threading.Event) -> None:
        listener = detached_connection(self.engine).dbapi_connection
        try:
            listener.execute("SET statement_timeout = 0")
            listener.execute(f"LISTEN {CHANNEL}")
            self._ready.set()
            for club in list(self._published):  # what a lost connection did not hear
                self._read_club_after(club, self._published[club])
            while not stop.is_set():
                for notification in listener.notifies(timeout=NOTIFY_WAIT_SECONDS):
                    club, _, seq = notification.payload.partition(" ")
                    if not seq.isdigit() or int(seq) <= self._published.get(club, 0):
                        continue  # read already with an earlier one
                    self._read_club_after(club, self._published.get(club, int(seq) - 1))
                    if stop.is_set():
                        return
                listener.execute("SELECT 1")  # a dead connection fails here, not silently
        finally:
            try:
                listener.close()
            except Exception:  # already gone with its server
                log.debug("closing the change feed's connection failed", exc_info=True)

    def _read_club_after(self, club: str, after: int) -> None:
        while True:
            with self.engine.connect() as connection:
                rows = connection.execute(rows_after(club, after, READ_BATCH)).all()
            for row in rows:
                self._publish(row)
                after = int(row.seq)
            if len(rows) < READ_BATCH:
                return

    def _publish(self, row: Any) -> None:
        view = event_view(row)
        frame = event_frame(view)
        self._published[row.club_id] = int(row.seq)
        for publish in list(self.publishers):
            publish(row.club_id, int(row.seq), row.table_id, frame)


def _data_version(connection: Any) -> int:
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA data_version")
        return int(cursor.fetchone()[0])
    finally:
        cursor.close()


feed_for = PerEngine(ChangeFeed)
"""The process's feed of the engine's database."""
