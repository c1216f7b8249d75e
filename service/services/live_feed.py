"""The worker's one change feed: every change another worker or instance may have made that
this worker must hear of, read once per process and handed to whoever subscribed.

Three kinds of news, three kinds of subscriber:

- **events** committed to the outbox (``services/outbox.py``), by this worker, another worker
  or another instance: handed to the publishers (``attach``: the stream hub's ``publish``,
  the webhooks' deliverer's wake-up) in the order of each club;
- **table versions** (PostgreSQL only): handed to the one ``versions`` subscriber
  (``services/version_feed.py``: the early polls' 304s), with every heartbeat's word on
  whether it may trust them;
- **revoked tokens**: handed to the revocation subscribers (``attach``'s second argument:
  the stream hub, which ends every stream opened with the token or its tickets); a token
  deleted (with its table or club, by a cascade or by hand) is told as a revoked one.

One ``ChangeFeed`` per process and engine (``feed_for``), one thread, one connection of its
own (its reads too: never one of the engine's pool, see ``_rows``), started by the first that
needs it (a stream, a poll, the deliverer):

- **PostgreSQL**: one connection LISTENs on ``club_changes`` (``"<club> <seq>"``, announced by
  the outbox's trigger), ``table_versions`` (``"<table> <club> <version>"``, the tables'
  trigger) and ``token_revocations`` (a token's id, announced by ``auth.revoke_tokens`` in the
  revoking transaction, and by the trigger on ``tokens`` in a deleting one: migration 0019),
  all delivered on commit, to every instance. The feed reads each
  club's events after the last it published (a club's numbers commit in order, so none is
  skipped). Every ``heartbeat`` seconds it asks whether the versions' trigger is in place:
  a dead or hung connection fails there (or falls silent), and the feed connects again, reads
  every club it knows from where it was and the tokens revoked meanwhile.
- **SQLite** (one machine): the feed asks ``PRAGMA data_version`` every ``POLL_SECONDS``: it
  changes when any other connection, of any process, committed. Then it reads the clubs' last
  numbers (``change_cursors``, a row per club) and the events of each club that moved, after
  the last it published, and before them the tokens revoked in the last
  ``REVOKED_WINDOW_SECONDS`` it has not told of yet (an index on ``tokens.revoked_at``: a short
  read), and the tokens deleted in that window (``deleted_tokens``, noted by the trigger on
  ``tokens``). SQLite has no versions' news.

``ready`` answers once the feed listens: an event committed after that is published, so a
stream whose opening read the outbox after ``ready`` misses nothing between that read and the
events it is sent (``stream_hub.StreamHub.adopt`` covers the moment in between; it also ends a
stream adopted after its token's revocation was told).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Engine, bindparam, event, select

from ..json_text import answer_text
from ..persistence.columns import utcnow
from ..persistence.outbox import ChangeCursorRow
from ..persistence.table_keeping import DeletedTokenRow, TokenRow
from .auth import REVOCATIONS_CHANNEL
from .outbox import CHANNEL, CLUB_EVENTS_AFTER, event_view
from .statements import rows_on
from .table_versions import PerEngine, can_pin, detached_connection

log = logging.getLogger(__name__)

VERSIONS_CHANNEL = "table_versions"
POLL_SECONDS = 0.02
HEARTBEAT_SECONDS = 0.25
RETRY_SECONDS = 1.0
READ_BATCH = 500
# SQLite: how far back the tokens revoked are looked for (a revoking transaction takes its
# time between its revoked_at and its commit).
REVOKED_WINDOW_SECONDS = 30.0
# PostgreSQL, after a lost connection: the tokens revoked since this long before the feed
# last heard its connection answer are told again (clocks of two hosts differ a little).
REVOKED_CATCH_UP_MARGIN_SECONDS = 60.0

Publisher = Callable[[str, int, "str | None", bytes], None]
"""``publish(club_id, event_id, table_id, frame)``: ``StreamHub.publish``."""
Revoker = Callable[[str], None]
"""``revoked(token_id)``: ``StreamHub.revoke``."""

_cursors = ChangeCursorRow.__table__
_tokens = TokenRow.__table__
_deleted_tokens = DeletedTokenRow.__table__
_CLUB_CURSORS = select(_cursors.c.club_id, _cursors.c.last_seq)
# The tokens whose streams end: revoked, or deleted (with their table or club), after a time.
_ENDED_SINCE = (
    select(_tokens.c.id.label("token_id"))
    .where(_tokens.c.revoked_at > bindparam("since"))
    .union_all(
        select(_deleted_tokens.c.token_id).where(_deleted_tokens.c.deleted_at > bindparam("since"))
    )
)


class VersionsSubscriber(Protocol):
    """What the feed tells the table versions' keeper (``version_feed.TableVersions``)."""

    heartbeat_sql: str  # answers whether the versions' trigger is in place

    def listening(self) -> None:
        """A new connection listens: whatever was known before may have missed a change."""

    def heard(self, payload: str) -> None:
        """A ``table_versions`` notification."""

    def answered(self, began: float, in_place: bool) -> None:
        """A heartbeat begun at ``began`` (monotonic) was answered: every notification
        committed before it has been heard."""

    def silent(self) -> None:
        """The connection is lost: trust nothing until the next answered heartbeat."""


def event_frame(view: dict[str, Any]) -> bytes:
    """An event as a server-sent event: its id, and its JSON as the data."""
    data = answer_text(view)
    return f"id: {view['id']}\ndata: {data}\n\n".encode()


def named_frame(name: str, event_id: int | None, data: dict[str, Any]) -> bytes:
    """A control event (``ready``, ``reload``) that sets the stream's id to ``event_id``
    (``revoked``: None, which leaves it)."""
    body = answer_text(data)
    head = "" if event_id is None else f"id: {event_id}\n"
    return f"{head}event: {name}\ndata: {body}\n\n".encode()


class ChangeFeed:
    """A process's one feed of the changes of the engine's database (module docstring)."""

    def __init__(
        self,
        engine: Engine,
        heartbeat: float = HEARTBEAT_SECONDS,
        retry: float = RETRY_SECONDS,
    ) -> None:
        self.engine = engine
        self.heartbeat = heartbeat
        self.retry = retry
        self.publishers: list[Publisher] = []
        self.revokers: list[Revoker] = []
        self.versions: VersionsSubscriber | None = None
        self._published: dict[str, int] = {}  # club → the last event id published
        self._revoked_told: dict[str, float] = {}  # token id → when told (SQLite's window)
        self._answered_wall: datetime | None = None  # the last heartbeat answered (PostgreSQL)
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        # engine.dispose() (tests after each test, a deliberate reset) stops the thread too;
        # the next use starts another.
        event.listen(engine, "engine_disposed", lambda _engine: self.stop())

    # --- subscribing ----------------------------------------------------------------------

    def attach(self, publish: Publisher, revoked: Revoker | None = None) -> None:
        """Hand every event to ``publish`` and, if given, every token revoked to ``revoked``."""
        with self._lock:
            if publish not in self.publishers:
                self.publishers.append(publish)
            if revoked is not None and revoked not in self.revokers:
                self.revokers.append(revoked)

    def follow_versions(self, versions: VersionsSubscriber) -> None:
        with self._lock:
            self.versions = versions

    # --- running --------------------------------------------------------------------------

    def listens(self) -> bool:
        """Whether the feed can hear other connections' changes at all (an SQLite database in
        memory cannot: no other connection sees its writes)."""
        return self.engine.dialect.name != "sqlite" or can_pin(self.engine)

    def start(self) -> None:
        """Start the feed's thread if it does not run in this process."""
        if not self.listens():
            return
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the parent's thread is not here
                self._pid, self._thread = os.getpid(), None
                self._ready.clear()
            if self._thread is not None:
                return
            self._stop = threading.Event()
            self._thread = threading.Thread(
                target=self._run, args=(self._stop,), name="change-feed", daemon=True
            )
            self._thread.start()

    def running(self) -> bool:
        return self._thread is not None and self._pid == os.getpid()

    def ready(self, timeout: float) -> bool:
        """Start the feed if need be; True once it listens (within ``timeout`` seconds)."""
        if not self.listens():
            return False
        self.start()
        return self._ready.wait(timeout)

    def stop(self) -> None:
        with self._lock:
            self._stop.set()
            self._thread = None
            self._ready.clear()
            versions = self.versions
        if versions is not None:
            versions.silent()

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                if self.engine.dialect.name == "postgresql":
                    self._listen(stop)
                else:
                    self._watch(stop)
            except Exception:  # streams keep what they have; polls ask the database meanwhile
                log.warning("the change feed lost its connection; retrying", exc_info=True)
            self._went_silent(stop)
            stop.wait(self.retry)

    def _went_silent(self, stop: threading.Event) -> None:
        with self._lock:
            if stop.is_set():
                return  # stopped: stop() told the versions, which a new thread may now fill
            self._ready.clear()
            versions = self.versions
        if versions is not None:
            versions.silent()

    # --- SQLite ---------------------------------------------------------------------------

    def _watch(self, stop: threading.Event) -> None:
        watcher = detached_connection(self.engine)
        try:
            for club, last in self._club_cursors(watcher):
                self._published.setdefault(club, last)  # from now on
            seen = _data_version(watcher)
            self._ready.set()
            if self.revokers:
                self._tell_recently_revoked(watcher)
            while not stop.wait(POLL_SECONDS):
                version = _data_version(watcher)
                if version == seen:
                    continue
                seen = version
                if self.revokers:  # first: a stream ends before it is sent a later event
                    self._tell_recently_revoked(watcher)
                for club, last in self._club_cursors(watcher):
                    if last > self._published.get(club, 0):
                        self._read_club_after(watcher, club, self._published.get(club, 0))
        finally:
            watcher.close()

    def _club_cursors(self, watcher: Any) -> list[tuple[str, int]]:
        """Each club's last event number (one row per club: a short read)."""
        rows = self._rows(watcher, _CLUB_CURSORS)
        return [(str(club), int(last)) for club, last in rows]

    def _tell_recently_revoked(self, watcher: Any) -> None:
        """SQLite: the tokens revoked in the window not told yet (each told once)."""
        now = time.monotonic()
        for token_id, told in list(self._revoked_told.items()):
            if now - told > 2 * REVOKED_WINDOW_SECONDS:
                del self._revoked_told[token_id]
        since = utcnow() - timedelta(seconds=REVOKED_WINDOW_SECONDS)
        for token_id in self._revoked_since(watcher, since):
            if token_id not in self._revoked_told:
                self._revoked_told[token_id] = now
                self._tell_revoked(token_id)

    def _revoked_since(self, connection: Any, since: datetime) -> list[str]:
        """The tokens revoked or deleted after ``since``: either way their streams end."""
        return [str(token_id) for (token_id,) in self._rows(connection, _ENDED_SINCE, since=since)]

    def _rows(self, connection: Any, statement: Any, **parameters: Any) -> list[Any]:
        """A query's rows, read on the feed's own connection: never on one of the engine's pool,
        which a pool disposed while the read ran (the tests' reset after each test) would keep
        open and unreachable until the garbage collector dropped it, unclosed."""
        return rows_on(connection, statement, self.engine.dialect, **parameters)

    # --- PostgreSQL -----------------------------------------------------------------------

    def _listen(self, stop: threading.Event) -> None:
        listener = detached_connection(self.engine).dbapi_connection
        try:
            # Request work's bounds (service/database.py) are not for a session that listens
            # for as long as the worker lives.
            listener.execute("SET statement_timeout = 0")
            for channel in (CHANNEL, VERSIONS_CHANNEL, REVOCATIONS_CHANNEL):
                listener.execute(f"LISTEN {channel}")
            versions = self.versions
            if versions is not None:
                versions.listening()
            self._ready.set()
            self._catch_up(listener)
            while not stop.is_set():
                began, wall = time.monotonic(), utcnow()
                check = versions.heartbeat_sql if versions is not None else "SELECT true"
                in_place = bool(listener.execute(check).fetchone()[0])
                self._hear(listener, list(listener.notifies(timeout=0)), stop)
                with self._lock:
                    if stop.is_set():
                        return
                    self._answered_wall = wall
                if versions is not None:
                    versions.answered(began, in_place)
                until = began + self.heartbeat
                while not stop.is_set() and (left := until - time.monotonic()) > 0:
                    self._hear(listener, list(listener.notifies(timeout=left, stop_after=1)), stop)
        finally:
            try:
                listener.close()
            except Exception:  # already gone with its server
                log.debug("closing the change feed's connection failed", exc_info=True)

    def _catch_up(self, listener: Any) -> None:
        """What a lost connection did not hear: each club's events from where it was, and the
        tokens revoked since shortly before its last answer."""
        if self._answered_wall is not None and self.revokers:  # first, as ever
            margin = timedelta(seconds=REVOKED_CATCH_UP_MARGIN_SECONDS)
            for token_id in self._revoked_since(listener, self._answered_wall - margin):
                self._tell_revoked(token_id)
        for club in list(self._published):
            self._read_club_after(listener, club, self._published[club])

    def _hear(self, listener: Any, notifications: list[Any], stop: threading.Event) -> None:
        """Act on a batch of notifications, in order, except that a token revoked is told
        before any event read after it arrived: events are read (and published) only after
        the revocations that came meanwhile (``_revocations_first``), so that a stream never
        gets an event committed after its token's revocation."""
        waiting = deque(notifications)
        while waiting and not stop.is_set():
            notification = waiting.popleft()
            channel, payload = notification.channel, notification.payload
            if channel == CHANNEL:
                club, _, seq = payload.partition(" ")
                if seq.isdigit() and int(seq) > self._published.get(club, 0):
                    after = self._published.get(club, int(seq) - 1)
                    self._read_club_after(
                        listener, club, after, lambda: self._revocations_first(listener, waiting)
                    )
            elif channel == REVOCATIONS_CHANNEL:
                self._tell_revoked(payload)
            elif channel == VERSIONS_CHANNEL and self.versions is not None:
                self.versions.heard(payload)

    def _revocations_first(self, listener: Any, waiting: deque[Any]) -> None:
        """Tell the revocations arrived by now; the other notifications wait their turn."""
        for notification in listener.notifies(timeout=0):
            if notification.channel == REVOCATIONS_CHANNEL:
                self._tell_revoked(notification.payload)
            else:
                waiting.append(notification)

    # --- telling --------------------------------------------------------------------------

    def _read_club_after(
        self,
        connection: Any,
        club: str,
        after: int,
        before_publishing: Callable[[], None] | None = None,
    ) -> None:
        while True:
            rows = self._rows(
                connection, CLUB_EVENTS_AFTER, club_id=club, after=after, limit=READ_BATCH
            )
            if rows and before_publishing is not None:
                before_publishing()
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

    def _tell_revoked(self, token_id: str) -> None:
        for revoked in list(self.revokers):
            revoked(token_id)


def _data_version(connection: Any) -> int:
    cursor = connection.cursor()
    try:
        cursor.execute("PRAGMA data_version")
        return int(cursor.fetchone()[0])
    finally:
        cursor.close()


feed_for = PerEngine(ChangeFeed)
"""The process's one feed of the engine's database."""
