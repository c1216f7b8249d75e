"""gunicorn's threaded worker, with each request's head (and a small body) read by the worker's
event loop before a thread takes the request: a slow or vanished client costs a socket, never a
thread.

Why: gunicorn's ``gthread`` worker gives a connection to a thread as soon as its first byte
arrives, and the thread then blocks until the whole request is in. A phone on flaky Wi-Fi (or
anyone trickling headers on purpose) holds that thread for as long as it likes; 200 such
connections stopped every thread of ``make serve`` and a normal request waited a minute (issue
20). Here the worker's poller (the same loop that accepts connections and keeps idle keep-alive
ones) reads what has arrived without blocking, and only a request whose head is complete —
and, when it declares a ``Content-Length`` of at most ``BUFFERED_BODY_MAX``, its body too — is
handed to a thread, which then parses it from memory as gunicorn always does.

A request still incomplete ``REQUEST_READ_TIMEOUT`` seconds after its first wait began is
dropped (the client is gone or too slow to be served), as nginx's ``client_header_timeout``
and ``client_body_timeout`` would. A longer or chunked body is read by the thread, with a
socket timeout (``SOCKET_TIMEOUT``) that also bounds writing an answer to a client that has
gone without a word.

Plain HTTP/1 only (the service's setup): with TLS or HTTP/2 configured, connections go the
unchanged ``gthread`` way.

The server-sent event streams the same loop holds are ``service/stream_hub.py``'s; this
worker is its ``StreamingThreadWorker`` with the requests gathered.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import resource
import selectors
import socket
import struct
import sys
import time
from collections import OrderedDict
from functools import partial
from pathlib import Path
from typing import Any

from gunicorn import sock as gunicorn_sockets  # type: ignore[import-untyped]
from gunicorn import util as gunicorn_util
from gunicorn.workers.gthread import (  # type: ignore[import-untyped]
    STOP_KEEPALIVE_LINGER,
    TConn,
)

from .metrics import STREAM_STARTS_SKIPPED, STREAMS_OPEN
from .stream_hub import StreamHub, StreamingThreadWorker, plain_http1, stream_start

# A request must be in within this long (per request, from when the worker began waiting).
REQUEST_READ_TIMEOUT = 10.0
# Bodies up to this size are read by the poller too (the service caps bodies at 64 KiB).
BUFFERED_BODY_MAX = 64 * 1024 + 1024
# A thread reading the rest of a body, or writing an answer, gives up after this long.
SOCKET_TIMEOUT = 30.0
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d{1,12})[ \t]*\r\n", re.I)
_CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:", re.I)
# How long a thread running Python keeps the GIL from a thread that wants it back: CPython's
# own 5 ms unless WEB_SWITCH_INTERVAL_MS says otherwise. A thread writing to SQLite lets go of
# the GIL in every SQLite call while it holds the database's writer lock, and may wait this
# long to get it back whenever another thread of its worker runs Python; a shorter interval
# bounds that wait, but makes the threads switch more often. On the shared development
# machine 0.5 ms did not record faster than 5 ms (bench.writes, docs/performance.md), so the
# default stays CPython's.
DEFAULT_SWITCH_INTERVAL_MS = 5.0
OPEN_FILES_BESIDE_CONNECTIONS = 256
# Connections accepted in one turn of the loop at most (the rest wait for the next turn).
ACCEPT_BATCH = 64
# Whether the kernel hands a closed listening socket's queue to another of its group
# (``migrate_queued_connections``).
TCP_MIGRATE_REQ = Path("/proc/sys/net/ipv4/tcp_migrate_req")


def raise_open_files_limit(wanted: int) -> None:
    """Raise this process's limit of open files to ``wanted`` (a socket per connection and
    stream, and some to spare), as far as its hard limit lets an unprivileged process. Below
    that (raise the hard limit: systemd's ``LimitNOFILE``, ``ulimit -Hn``) the worker fails to
    accept connections once its files run out, whatever ``WEB_CONNECTIONS`` says."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def migrate_queued_connections(setting: Path = TCP_MIGRATE_REQ) -> str:
    """Have the kernel hand the connections queued on a closed listening socket of a
    ``SO_REUSEPORT`` group (a killed or stopping worker's) to another socket of the group,
    instead of resetting them: ``net.ipv4.tcp_migrate_req=1`` (Linux 5.14), set here when it
    is not and the process may (root, or ``CAP_NET_ADMIN``, in its network namespace: a
    container's own, or the host's). What was done, for the server's log: ``"on"``, ``"set"``,
    or why not."""
    try:
        if setting.read_text().strip() == "1":
            return "on"
    except OSError:
        return f"not available ({setting} unreadable: Linux before 5.14?)"
    try:
        setting.write_text("1")
    except OSError as error:
        return f"off, and not set ({error.strerror or error})"
    return "set"


def switch_interval() -> float:
    """The thread switch interval for a worker, in seconds (``DEFAULT_SWITCH_INTERVAL_MS``)."""
    milliseconds = float(os.environ.get("WEB_SWITCH_INTERVAL_MS", DEFAULT_SWITCH_INTERVAL_MS))
    if not 0 < milliseconds <= 100:
        raise ValueError(f"WEB_SWITCH_INTERVAL_MS must be above 0 and at most 100: {milliseconds}")
    return milliseconds / 1000


class BufferedConn(TConn):  # type: ignore[misc]  # gunicorn has no types
    """A connection whose next request is gathered in ``buffered`` before a thread takes it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.buffered = bytearray()
        self.deadline = 0.0

    def init(self) -> None:
        first = self.parser is None
        super().init()
        if first:
            self.hand_over_buffered()

    def hand_over_buffered(self) -> None:
        if self.parser is not None and self.buffered:
            self.parser.unreader.unread(bytes(self.buffered))
            self.buffered = bytearray()


def request_in(buffered: bytes | bytearray, max_head: int) -> bool | None:
    """True when ``buffered`` holds a request head and any small declared body in full; False
    while more is awaited; None when the thread should take it as it is (the head is over
    ``max_head``, or the body is chunked or large: the parser answers or reads on)."""
    end = buffered.find(b"\r\n\r\n")
    if end < 0:
        return None if len(buffered) > max_head else False
    head = bytes(buffered[: end + 2])
    if _CHUNKED.search(head):
        return None
    length = _CONTENT_LENGTH.search(head)
    if length is None:
        return True
    size = int(length.group(1))
    if size > BUFFERED_BODY_MAX:
        return None
    return len(buffered) >= end + 4 + size


class CountedStreamHub(StreamHub):
    """The stream hub, its streams counted for the operator (``solo_streams_open``): one more
    when a stream is reserved (opening or held), one less when it is let go of."""

    def reserve(self, limits: Any) -> tuple[str, ...] | None:
        keys = super().reserve(limits)
        if keys is not None:
            STREAMS_OPEN.inc()
        return keys

    def release(self, keys: Any) -> None:
        super().release(keys)
        STREAMS_OPEN.dec()


class BufferingThreadWorker(StreamingThreadWorker):
    """``gthread`` with requests gathered by the event loop (module docstring), and the
    streams of ``service/stream_hub.py`` (counted: ``CountedStreamHub``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hub = CountedStreamHub(self)
        # In order of deadline (each is its arrival plus the same timeout), and a connection
        # taken out in O(1) wherever it stands: with a deque, each request that came in took a
        # scan of the connections still gathering (212 µs at 10,000, on the loop every
        # connection waits for, when thousands of phones connect at once).
        self.gathering: OrderedDict[BufferedConn, None] = OrderedDict()
        cfg = self.cfg
        self.max_head = (
            cfg.limit_request_line
            + 4
            + cfg.limit_request_fields * (cfg.limit_request_field_size + 2)
        )
        self.buffering = plain_http1(cfg)

    def init_process(self) -> None:
        """The streaming worker's, with the interpreter's thread switch interval set first
        (above) and the limit of open files raised to the worker's connections; with a
        listening socket of its own (``reuse_port``), that socket opened only once the loop
        that accepts runs (``listens_once_running``)."""
        sys.setswitchinterval(switch_interval())
        # A socket per connection (streams included), and files, the database's and the
        # log's, beside them.
        raise_open_files_limit(int(self.cfg.worker_connections) + OPEN_FILES_BESIDE_CONNECTIONS)
        if self.listens_once_running():
            # gunicorn opened it right after the fork: close it before the kernel hands it
            # more than the connections of these few instants (with ``tcp_migrate_req`` the
            # kernel hands them to another worker's socket; without, they are reset).
            opened: list[Any] = self.sockets
            for listener in opened:
                listener.close()
            self.sockets: list[Any] = []
        super().init_process()

    def listens_once_running(self) -> bool:
        """Whether this worker's listening socket is its own (``SO_REUSEPORT``): then it is
        opened when the worker's loop starts, not before. The kernel hands a socket of the
        group its share of the new connections from the moment it listens; gunicorn opens a
        replacement worker's socket right after the fork, and the connections hashed to it
        waited while the app loaded, 2.1-11.8 s after a ``kill -9`` (issue 40), and then while
        ``post_worker_init`` collected and froze what it loaded. Opened as the loop starts, the
        socket joins the group ready to answer, and meanwhile the other workers' sockets take
        every new connection."""
        return bool(self.cfg.reuse_port) and hasattr(socket, "SO_REUSEPORT")

    def run(self) -> None:
        if self.listens_once_running() and not self.sockets:
            listeners: list[Any] = gunicorn_sockets.create_sockets(self.cfg, self.log)
            for listener in listeners:
                gunicorn_util.close_on_exec(listener)
            self.sockets = listeners
        super().run()

    def accept(self, listener: Any) -> None:
        """Every connection waiting on the socket (up to ``ACCEPT_BATCH``, and within the
        worker's connections), not gthread's one per turn of the loop: after a restart
        thousands of phones connect at once, and one a turn left most of them in the kernel's
        queue until it overflowed (their retries come seconds later)."""
        if not self.buffering:
            super().accept(listener)
            return None
        for _ in range(ACCEPT_BATCH):
            if self.nr_conns >= self.worker_connections or not self.accept_one(listener):
                return None
        return None

    def accept_one(self, listener: Any) -> bool:
        """Accept a connection and start gathering its request; False when none waits."""
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return False
            raise
        self.nr_conns += 1
        timeout = struct.pack("ll", int(SOCKET_TIMEOUT), 0)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeout)
        conn = BufferedConn(self.cfg, client, address, listener.getsockname())
        self.gather(conn)
        return True

    def on_client_socket_readable(self, conn: Any, client: Any) -> None:
        """A kept-alive connection's next request: gathered like a new one's."""
        if not isinstance(conn, BufferedConn):
            super().on_client_socket_readable(conn, client)
            return None
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self.gather(conn)
        return None

    def gather(self, conn: BufferedConn) -> None:
        conn.sock.setblocking(False)
        conn.deadline = time.monotonic() + REQUEST_READ_TIMEOUT
        self.gathering[conn] = None
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_readable, conn))
        self.on_readable(conn, conn.sock)  # a request often arrives with its connection

    def on_readable(self, conn: BufferedConn, _sock: Any) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # reset by the client: nothing to answer
        if not data:
            self.stop_gathering(conn)
            self.nr_conns -= 1
            conn.close()
            return
        conn.buffered += data
        if request_in(conn.buffered, self.max_head) is False:
            return
        self.stop_gathering(conn)
        conn.data_ready = True  # gthread's own wait for a first byte is over
        start = stream_start(conn.buffered)
        conn.hand_over_buffered()  # a kept-alive connection has its parser already
        self.enqueue_req(conn, start)

    def opening_skipped(self) -> None:
        STREAM_STARTS_SKIPPED.inc()

    def stop_gathering(self, conn: BufferedConn) -> None:
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        self.gathering.pop(conn, None)

    def murder_pending(self) -> None:
        """The streaming worker's, and the requests past their deadline (a stopping worker
        waits for a request still coming in as briefly as for a kept-alive one)."""
        super().murder_pending()
        now = time.monotonic()
        if not self.alive:
            linger = now + STOP_KEEPALIVE_LINGER
            for conn in self.gathering:  # the same cap for all: the order stays
                conn.deadline = min(conn.deadline, linger)
        late = 0
        while self.gathering:
            conn = next(iter(self.gathering))
            if conn.deadline > now:
                break
            self.stop_gathering(conn)
            self.nr_conns -= 1
            conn.close()
            late += 1
        if late and self.alive:
            self.log.warning(
                "closed %d connection(s) whose request was not in within %g s",
                late,
                REQUEST_READ_TIMEOUT,
            )
