"""The worker's server-sent event streams, held by its event loop (``StreamHub``), and the
threads that mint their tickets and open them (``OpeningQueue``).

The app answers a stream's first bytes in a thread as any request, asks
(``environ["solo.streams"].hold``) that its connection be kept, and the thread is free again.
The loop then keeps the socket, writes the events the app publishes to it (``publish``, from
any thread) and a heartbeat comment to every stream idle for ``WEB_STREAM_HEARTBEAT_SECONDS``
(15 s), and closes it when the client goes, reads too slowly (``MAX_PENDING_BYTES`` unsent),
the worker stops, or the token it was opened with (itself or through a ticket) is revoked or
deleted (``revoke``, told by the worker's change feed: a last ``revoked`` event, then the end). An
idle stream costs a socket and a few hundred bytes, never a thread (docs/scaling.md).

``StreamingThreadWorker`` is gunicorn's ``gthread`` worker with these streams; the service's
worker (``service/http_worker.py``) adds the gathering of requests on top. Both override
members of ``gthread`` that gunicorn does not document (``_keepalive_after``, ``method_queue``,
``TConn.data_ready``, ``STOP_KEEPALIVE_LINGER``): pyproject.toml pins the gunicorn release they
were read from, and ``tests/unit/test_library_internals.py`` fails when one moves.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

# A stream's opening and a stream's ticket, told by their request lines (``service/api/live.py``'s
# paths): both go to the worker's opening threads (``StreamingThreadWorker.enqueue_req``).
STREAM_OPENING = re.compile(rb"GET /api/v1/(?:tables|clubs)/[^/?# ]+/events[ ?]")
STREAM_TICKET = re.compile(rb"POST /api/v1/(?:tables|clubs)/[^/?# ]+/events/tickets[ ?]")
OPENING = "opening"
TICKET = "ticket"
# What the app finds its worker's stream hub under in a request's environ.
STREAMS_ENVIRON_KEY = "solo.streams"
# The key every stream of the worker counts against (``StreamHub.reserve``).
WORKER_KEY = "worker"
# A stream whose client has not taken this much is closed (it resumes with Last-Event-ID).
MAX_PENDING_BYTES = 256 * 1024
# The events each channel keeps for a stream adopted just after they were published (the
# moments between its opening's read and its adoption); kept RECENT_SECONDS for a channel that
# has no stream.
RECENT_EVENTS = 64
RECENT_SECONDS = 10.0
HEARTBEAT = b": heartbeat\n\n"
# The last event of a stream whose token was revoked (docs/api.md#live-changes); it names no
# id, so the client's Last-Event-ID stays the last event it was sent.
REVOKED_FRAME = b'event: revoked\ndata: {"reason":"token-revoked"}\n\n'
# The chunked answer's end, after the last event.
LAST_CHUNK = b"0\r\n\r\n"
# How long a revoked token's id is kept: a stream whose opening read the token just before its
# revocation, and that is adopted after the word came, is ended on adoption.
REVOKED_KEPT_SECONDS = 120.0

# Stream openings are taken oldest first until the oldest has waited this long, then newest
# first (``OpeningQueue``): the pad gives up a stream with no ``ready`` 5 s after opening it.
NEWEST_FIRST_AFTER = 1.0


def streams_per_worker(worker_connections: int) -> int:
    """How many streams a worker holds at most: env ``WEB_STREAMS_PER_WORKER``, by default
    three quarters of its connections (``WEB_CONNECTIONS``). The rest stay free for requests:
    a worker whose connections were all streams would stop accepting, and the connections the
    kernel queued on its socket (a socket per worker: ``reuse_port``) would wait there. One
    stream more is refused (429 too-many-streams; the pad polls instead)."""
    raw = os.environ.get("WEB_STREAMS_PER_WORKER", "")
    bound = int(raw) if raw.strip() else worker_connections * 3 // 4
    if not 0 <= bound < worker_connections:
        raise ValueError(
            f"WEB_STREAMS_PER_WORKER must be at least 0 and below WEB_CONNECTIONS "
            f"({worker_connections}): {bound}"
        )
    return bound


def stream_start(request: bytes | bytearray) -> str | None:
    """What a request (its first bytes) is to the worker's opening threads: ``OPENING`` (a
    stream's opening), ``TICKET`` (a stream's ticket), or None (a request thread's)."""
    if STREAM_OPENING.match(request) is not None:
        return OPENING
    if STREAM_TICKET.match(request) is not None:
        return TICKET
    return None


def stream_opening_threads() -> int:
    """Threads of a worker that mint stream tickets and open streams (env
    ``WEB_STREAM_OPENING_THREADS``, default 1): apart from the request threads
    (``WEB_THREADS``), so that thousands of phones opening their streams at once (a restart, a
    power cut at a club night) queue there, and never ahead of a hand being recorded."""
    raw = os.environ.get("WEB_STREAM_OPENING_THREADS", "")
    count = int(raw) if raw.strip() else 1
    if not 1 <= count <= 64:
        raise ValueError(f"WEB_STREAM_OPENING_THREADS must be from 1 to 64: {count}")
    return count


def client_gone(sock: socket.socket) -> bool:
    """Whether the client of ``sock`` (its request read already) has closed or reset the
    connection: a look at the socket that neither waits nor takes what it finds."""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True


# (when it came, its future, its socket, its call)
_Waiting = tuple[float, Future[Any], socket.socket, Callable[[], Any]]


class OpeningQueue:
    """The stream openings and tickets waiting for a worker's opening threads
    (``stream_opening_threads``).

    After a restart thousands of phones open their streams at once, more than the threads
    serve in the seconds a phone waits: the pad mints a ticket, opens its stream with it, gives
    the stream up 5 s after opening it without its ``ready``, closes it and comes back after a
    pause with a new ticket (``service/static/pad/live.js``). So:

    - **openings before tickets**: a phone with its ticket is one opening from live, and its
      opening has 5 s; a ticket's phone waits for its answer as long as it takes. Minted on
      the request threads, beside the one opening thread, tickets took about two thirds of the
      worker's time in a cold start (the threads share the interpreter's lock) and were minted
      several times faster than their streams were opened: the openings' queue grew until
      their phones gave them up, and each came back for another ticket (``bench.capacity``,
      docs/scaling.md). Here a ticket is minted only when no opening waits, so the worker
      mints no faster than it opens.
    - **openings: "adaptive LIFO"**: the oldest first while the oldest has waited less than
      ``newest_first_after`` seconds, the newest first from then on (it is served while its
      phone still waits; the older ones wait until the queue is short again). In the order they
      came, every opening would be served after its phone had given it up once the queue was
      5 s long, and the queue would never get shorter (the phones come back).
    - **tickets in the order they came** (their phones do not give up).
    - an opening or ticket whose client has gone while it waited (``client_gone``) is not run:
      it is answered False, which closes its connection, and costs no thread more than that
      look (counted: ``skipped``, and ``on_skip`` is called).

    ``submit`` and ``take`` are safe from any thread; ``clock`` is ``time.monotonic``."""

    def __init__(
        self,
        threads: int,
        newest_first_after: float = NEWEST_FIRST_AFTER,
        clock: Callable[[], float] = time.monotonic,
        start: bool = True,
        on_skip: Callable[[], None] | None = None,
    ) -> None:
        self.newest_first_after = newest_first_after
        self.clock = clock
        self.on_skip = on_skip
        self._openings: deque[_Waiting] = deque()
        self._tickets: deque[_Waiting] = deque()
        self._ready = threading.Condition()
        self._stopped = False
        self.skipped = 0  # openings and tickets not run: their client had gone
        self._threads = [
            threading.Thread(target=self._serve, name=f"stream-opening-{n}", daemon=True)
            for n in range(threads)
        ]
        if start:
            for thread in self._threads:
                thread.start()

    def submit(
        self, sock: socket.socket, call: Callable[[], Any], kind: str = OPENING
    ) -> Future[Any]:
        """Run ``call`` (the request on ``sock``: a stream's ``OPENING`` or ``TICKET``) on an
        opening thread; its future has ``call``'s result, or False when the client had gone."""
        future: Future[Any] = Future()
        waiting = self._tickets if kind == TICKET else self._openings
        with self._ready:
            waiting.append((self.clock(), future, sock, call))
            self._ready.notify()
        return future

    def take(self) -> tuple[Future[Any], socket.socket, Callable[[], Any]] | None:
        """The next opening or ticket to run (the order above), or None when none waits."""
        with self._ready:
            return self._take()

    def _take(self) -> tuple[Future[Any], socket.socket, Callable[[], Any]] | None:
        if self._openings:
            oldest_since = self._openings[0][0]
            if self.clock() - oldest_since < self.newest_first_after:
                _since, future, sock, call = self._openings.popleft()
            else:
                _since, future, sock, call = self._openings.pop()
        elif self._tickets:
            _since, future, sock, call = self._tickets.popleft()
        else:
            return None
        return future, sock, call

    def _serve(self) -> None:
        while True:
            with self._ready:
                while not (self._openings or self._tickets) and not self._stopped:
                    self._ready.wait()
                if self._stopped:
                    return
                taken = self._take()
            assert taken is not None
            self.run(*taken)

    def run(self, future: Future[Any], sock: socket.socket, call: Callable[[], Any]) -> None:
        """Run one opening or ticket taken from the queue (an opening thread's work)."""
        if not future.set_running_or_notify_cancel():
            return
        if client_gone(sock):
            with self._ready:
                self.skipped += 1
            if self.on_skip is not None:
                self.on_skip()
            future.set_result(False)
            return
        try:
            result = call()
        except BaseException as error:  # handed to the loop, as ThreadPoolExecutor does
            future.set_exception(error)
        else:
            future.set_result(result)

    def shutdown(self) -> None:
        """Stop the threads once they finish what they run; what still waits is cancelled."""
        with self._ready:
            self._stopped = True
            waiting = [*self._openings, *self._tickets]
            self._openings, self._tickets = deque(), deque()
            self._ready.notify_all()
        for _since, future, _sock, _call in waiting:
            future.cancel()


@dataclass(eq=False)
class Hold:
    """A stream the app asked to keep: its channel (a club), its topic (a table, or None for
    the whole channel), the last event id it was sent, the bound keys it counts against, and
    the id of the token it was opened with (itself or through a ticket)."""

    channel: str
    topic: str | None
    last_id: int
    keys: tuple[str, ...]
    token_id: str | None = None
    chunked: bool = False


@dataclass(eq=False)
class HeldStream:
    conn: Any
    hold: Hold
    pending: bytearray = field(default_factory=bytearray)
    last_write: float = 0.0
    writing: bool = False


class StreamHub:
    """Server-sent event streams held by the worker's event loop (module docstring).

    The app's side, from a request's thread: ``reserve`` (the bounds), ``hold`` (keep this
    request's connection once its answer is out), ``publish`` (from any thread). Everything
    else runs in the loop, the only place the streams are touched."""

    def __init__(self, worker: Any) -> None:
        self.worker = worker
        self.heartbeat = float(os.environ.get("WEB_STREAM_HEARTBEAT_SECONDS", "15"))
        self.max_streams = streams_per_worker(int(worker.cfg.worker_connections))
        self._local = threading.local()
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self.streams: set[HeldStream] = set()
        # channel → topic (a table; None: the whole channel) → its streams
        self._by_channel: dict[str, dict[str | None, set[HeldStream]]] = {}
        self._recent: dict[str, deque[tuple[int, str | None, bytes]]] = {}
        self._recent_at: dict[str, float] = {}
        self._by_token: dict[str, set[HeldStream]] = {}
        self._revoked: dict[str, float] = {}  # token id → when its revocation was heard
        self._next_beat = 0.0

    # --- the app's side (any thread) ------------------------------------------------------

    def reserve(self, limits: Mapping[str, int]) -> tuple[str, ...] | None:
        """Count one more stream against each key (a token, an address) and against the
        worker's own bound (``max_streams``), or None when one of them holds its limit already
        (nothing counted then)."""
        limits = {**limits, WORKER_KEY: self.max_streams}
        with self._lock:
            if any(self._counts.get(key, 0) >= limit for key, limit in limits.items()):
                return None
            for key in limits:
                self._counts[key] = self._counts.get(key, 0) + 1
        return tuple(limits)

    def release(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                left = self._counts.get(key, 0) - 1
                if left > 0:
                    self._counts[key] = left
                else:
                    self._counts.pop(key, None)

    def held(self, key: str) -> int:
        """How many streams count against ``key``."""
        with self._lock:
            return self._counts.get(key, 0)

    def hold(
        self,
        channel: str,
        topic: str | None,
        last_id: int,
        keys: tuple[str, ...],
        token_id: str | None = None,
    ) -> None:
        """Keep the current request's connection once its answer's body is out: it then gets
        the channel's events numbered above ``last_id`` (the topic's only, if given), until
        the token ``token_id`` is revoked."""
        self._local.hold = Hold(channel, topic, last_id, keys, token_id)

    def publish(self, channel: str, event_id: int, topic: str | None, frame: bytes) -> None:
        """Send ``frame`` (a whole event) to the channel's streams of its topic; events of one
        channel are published in the order of their ids."""
        self.worker.method_queue.defer(self._publish, channel, event_id, topic, frame)

    def revoke(self, token_id: str) -> None:
        """End every stream opened with the token ``token_id`` (itself or through a ticket),
        with a last ``revoked`` event; from any thread, in order with ``publish``."""
        self.worker.method_queue.defer(self._revoke, token_id)

    # --- the worker's side ----------------------------------------------------------------

    def take_hold(self) -> Hold | None:
        hold: Hold | None = getattr(self._local, "hold", None)
        self._local.hold = None
        return hold

    def wrap(self, app: Any) -> Any:
        """The app, with the hub in every environ and a held stream's answer left open."""

        def application(environ: dict[str, Any], start_response: Any) -> Any:
            self._local.hold = None
            environ[STREAMS_ENVIRON_KEY] = self
            body = app(environ, start_response)
            if getattr(self._local, "hold", None) is None:
                return body
            return self._held_body(body, getattr(start_response, "__self__", None))

        return application

    def _held_body(self, body: Iterable[bytes], response: Any) -> Iterator[bytes]:
        try:
            yield from body
        finally:
            closing = getattr(body, "close", None)
            if closing is not None:
                closing()
        hold = getattr(self._local, "hold", None)
        if hold is None:
            return
        held = (
            response is not None
            and response.headers_sent
            and response.status_code == 200  # not an error answered after all
            and response.req.method == "GET"  # a HEAD has no stream to go on with
        )
        if not held:
            self.release(self.take_hold().keys)  # type: ignore[union-attr]
            return
        hold.chunked = bool(response.chunked)
        response.chunked = False  # the body goes on: no last chunk now

    def adopt(self, conn: Any, hold: Hold) -> None:
        """In the loop: keep the connection, and send what it missed since ``last_id``."""
        # Its first heartbeat comes after a random half to whole interval: the streams of a
        # cold start, opened within seconds of each other, would otherwise all be due in the
        # same turn of the loop (10,000 sends at once, every 15 s), and keep so.
        spread = random.uniform(0, self.heartbeat / 2)
        stream = HeldStream(conn, hold, last_write=time.monotonic() - spread)
        conn.parser = None  # a stream reads no more requests: its parser's buffers go
        conn.sock.setblocking(False)
        self.streams.add(stream)
        topics = self._by_channel.setdefault(hold.channel, {})
        topics.setdefault(hold.topic, set()).add(stream)
        if hold.token_id is not None:
            self._by_token.setdefault(hold.token_id, set()).add(stream)
        self.worker.poller.register(
            conn.sock, selectors.EVENT_READ, partial(self._on_socket, stream)
        )
        if hold.token_id in self._revoked:  # revoked while its opening was on its way
            self.end(stream, REVOKED_FRAME)
            return
        recent = self._recent.get(hold.channel)
        if not recent or recent[-1][0] <= hold.last_id:
            return
        if recent[0][0] > hold.last_id + 1:
            self.drop(stream)  # what it missed is gone from here: it resumes from the database
            return
        for event_id, topic, frame in recent:
            if event_id > hold.last_id:
                self._send_event(stream, event_id, topic, frame)

    def _publish(self, channel: str, event_id: int, topic: str | None, frame: bytes) -> None:
        recent = self._recent.setdefault(channel, deque(maxlen=RECENT_EVENTS))
        if recent and recent[-1][0] >= event_id:
            return  # published already (a feed that reconnected)
        recent.append((event_id, topic, frame))
        self._recent_at[channel] = time.monotonic()
        # Only the streams that follow this topic or the whole channel: a club of many tables
        # does not cost every one of its streams a look for each event.
        topics = self._by_channel.get(channel, {})
        for stream in [*topics.get(topic, ()), *(topics.get(None, ()) if topic else ())]:
            self._send_event(stream, event_id, topic, frame)

    def _revoke(self, token_id: str) -> None:
        now = time.monotonic()
        self._revoked[token_id] = now
        for stream in list(self._by_token.get(token_id, ())):
            self.end(stream, REVOKED_FRAME)

    def end(self, stream: HeldStream, frame: bytes) -> None:
        """Send ``frame`` as the stream's last event, end the answer, and close."""
        if stream not in self.streams:
            return
        self._write(stream, frame)
        if stream not in self.streams:
            return  # too far behind: dropped already
        if stream.hold.chunked:
            stream.pending += LAST_CHUNK
        with contextlib.suppress(OSError):  # what the socket takes now; the rest is lost
            while stream.pending:
                sent = stream.conn.sock.send(stream.pending)
                del stream.pending[:sent]
        self.drop(stream)

    def _send_event(
        self, stream: HeldStream, event_id: int, topic: str | None, frame: bytes
    ) -> None:
        if event_id <= stream.hold.last_id:
            return
        stream.hold.last_id = event_id
        if stream.hold.topic is None or stream.hold.topic == topic:
            self._write(stream, frame)

    def _write(self, stream: HeldStream, data: bytes) -> None:
        if stream not in self.streams:
            return
        if stream.hold.chunked:
            data = b"%x\r\n%s\r\n" % (len(data), data)
        stream.pending += data
        stream.last_write = time.monotonic()
        if len(stream.pending) > MAX_PENDING_BYTES:
            self.drop(stream)  # too far behind: it resumes with Last-Event-ID
            return
        self._flush(stream)

    def _flush(self, stream: HeldStream) -> None:
        try:
            while stream.pending:
                sent = stream.conn.sock.send(stream.pending)
                del stream.pending[:sent]
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            self.drop(stream)
            return
        wants = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.pending else 0)
        if bool(stream.pending) != stream.writing:
            stream.writing = bool(stream.pending)
            self.worker.poller.modify(stream.conn.sock, wants, partial(self._on_socket, stream))

    def _on_socket(self, stream: HeldStream, _sock: Any) -> None:
        """Readable (the client closed, or sent what a stream does not read) or writable."""
        try:
            data = stream.conn.sock.recv(4096)
        except (BlockingIOError, InterruptedError):
            data = None
        except OSError:
            data = b""
        if data == b"":
            self.drop(stream)
            return
        if stream.pending:
            self._flush(stream)

    def beat(self, now: float) -> None:
        """A heartbeat comment to every stream silent for ``heartbeat`` seconds (looked for
        four times a second at most: the loop comes here after every batch of events; a few
        at a time, as their first ones were spread by ``adopt``)."""
        if now < self._next_beat:
            return
        self._next_beat = now + min(0.25, self.heartbeat / 4)
        for channel, at in list(self._recent_at.items()):
            if now - at > RECENT_SECONDS and channel not in self._by_channel:
                del self._recent_at[channel], self._recent[channel]
        for token_id, at in list(self._revoked.items()):
            if now - at > REVOKED_KEPT_SECONDS:
                del self._revoked[token_id]
        for stream in [s for s in self.streams if now - s.last_write >= self.heartbeat]:
            self._write(stream, HEARTBEAT)

    def drop(self, stream: HeldStream) -> None:
        if stream not in self.streams:
            return
        self.streams.discard(stream)
        topics = self._by_channel.get(stream.hold.channel)
        if topics is not None:
            followers = topics.get(stream.hold.topic)
            if followers is not None:
                followers.discard(stream)
                if not followers:
                    del topics[stream.hold.topic]
            if not topics:
                del self._by_channel[stream.hold.channel]
        token_id = stream.hold.token_id
        if token_id is not None and token_id in self._by_token:
            self._by_token[token_id].discard(stream)
            if not self._by_token[token_id]:
                del self._by_token[token_id]
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.worker.poller.unregister(stream.conn.sock)
        self.release(stream.hold.keys)
        self.worker.nr_conns -= 1
        stream.conn.close()

    def drop_all(self) -> None:
        for stream in list(self.streams):
            self.drop(stream)


def plain_http1(cfg: Any) -> bool:
    """Whether the worker's event loop may read and write its clients' sockets itself: plain
    HTTP/1 only (the service's setup). With TLS or HTTP/2 configured, the bytes on a socket
    are not the request's or the answer's, and connections go the unchanged ``gthread`` way."""
    return not cfg.is_ssl and cfg.http_protocols == ["h1"]


class StreamingThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn has no types
    """``gthread`` with the streams of the module docstring: a stream's opening runs on the
    opening threads, its connection is kept by the loop once the answer's head is out."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.streaming = plain_http1(self.cfg)
        self.hub = StreamHub(self)
        self.openings: OpeningQueue | None = None
        self.skipped_told = 0  # the openings skipped (client gone) the log has been told of

    def init_process(self) -> None:
        self.openings = OpeningQueue(stream_opening_threads(), on_skip=self.opening_skipped)
        super().init_process()

    def opening_skipped(self) -> None:
        """An opening or ticket not run, its client gone (on an opening thread)."""

    def run(self) -> None:
        try:
            super().run()
        finally:
            if self.openings is not None:
                self.openings.shutdown()

    def enqueue_req(self, conn: Any, start: str | None = None) -> None:
        """gthread's, with a stream's opening or ticket (``start``: told by ``stream_start``, by
        whoever read its request line) given to the worker's opening threads
        (``stream_opening_threads``, in ``OpeningQueue``'s order) instead of its request
        threads."""
        if start is None or self.openings is None:
            super().enqueue_req(conn)
            return
        conn.init()
        future = self.openings.submit(conn.sock, partial(self.handle, conn), start)
        future.add_done_callback(
            lambda done: self.method_queue.defer(self.finish_request, conn, done)
        )

    def load_wsgi(self) -> None:
        super().load_wsgi()
        if self.streaming:
            self.wsgi = self.hub.wrap(self.wsgi)  # type: ignore[has-type]

    def handle_request(self, req: Any, conn: Any) -> Any:
        """gthread's, answering a ``Hold`` for a stream the app asked to keep."""
        try:
            keepalive = super().handle_request(req, conn)
        except BaseException:
            hold = self.hub.take_hold()
            if hold is not None:
                self.hub.release(hold.keys)
            raise
        hold = self.hub.take_hold()
        return keepalive if hold is None else hold

    def _keepalive_after(self, conn: Any, keepalive: Any) -> Any:
        if isinstance(keepalive, Hold):
            return keepalive  # a stream reads no more requests
        return super()._keepalive_after(conn, keepalive)

    def finish_request(self, conn: Any, fs: Any) -> None:
        if not fs.cancelled() and fs.exception() is None and isinstance(fs.result(), Hold):
            if self.alive:
                self.hub.adopt(conn, fs.result())
            else:
                self.hub.release(fs.result().keys)
                self.nr_conns -= 1
                conn.close()
            return None
        super().finish_request(conn, fs)
        return None

    def murder_pending(self) -> None:
        """gthread's own pending connections; then the streams' heartbeats (a stopping worker
        closes its streams: they resume elsewhere), and word of the openings and tickets
        skipped."""
        super().murder_pending()
        if self.alive:
            self.hub.beat(time.monotonic())
        else:
            self.hub.drop_all()
        skipped = self.openings.skipped if self.openings is not None else 0
        if skipped > self.skipped_told and self.alive:
            self.log.warning(
                "did not open %d stream(s) (or mint their tickets) whose client had gone while "
                "they waited",
                skipped - self.skipped_told,
            )
            self.skipped_told = skipped
