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
"""

from __future__ import annotations

import contextlib
import errno
import re
import selectors
import socket
import struct
import time
from collections import deque
from functools import partial
from typing import Any

from gunicorn.workers.gthread import (  # type: ignore[import-untyped]
    STOP_KEEPALIVE_LINGER,
    TConn,
    ThreadWorker,
)

# A request must be in within this long (per request, from when the worker began waiting).
REQUEST_READ_TIMEOUT = 10.0
# Bodies up to this size are read by the poller too (the service caps bodies at 64 KiB).
BUFFERED_BODY_MAX = 64 * 1024 + 1024
# A thread reading the rest of a body, or writing an answer, gives up after this long.
SOCKET_TIMEOUT = 30.0
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d{1,12})[ \t]*\r\n", re.I)
_CHUNKED = re.compile(rb"\r\ntransfer-encoding[ \t]*:", re.I)


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


class BufferingThreadWorker(ThreadWorker):  # type: ignore[misc]
    """``gthread`` with requests gathered by the event loop (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gathering: deque[BufferedConn] = deque()  # in order of deadline
        cfg = self.cfg
        self.max_head = (
            cfg.limit_request_line
            + 4
            + cfg.limit_request_fields * (cfg.limit_request_field_size + 2)
        )
        self.buffering = not cfg.is_ssl and cfg.http_protocols == ["h1"]

    def accept(self, listener: Any) -> None:
        if not self.buffering:
            super().accept(listener)
            return None
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                return None
            raise
        self.nr_conns += 1
        timeout = struct.pack("ll", int(SOCKET_TIMEOUT), 0)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, timeout)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, timeout)
        conn = BufferedConn(self.cfg, client, address, listener.getsockname())
        self.gather(conn)
        return None

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
        self.gathering.append(conn)
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
        conn.hand_over_buffered()  # a kept-alive connection has its parser already
        self.enqueue_req(conn)

    def stop_gathering(self, conn: BufferedConn) -> None:
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        with contextlib.suppress(ValueError):
            self.gathering.remove(conn)

    def murder_pending(self) -> None:
        """gthread's own pending connections, and requests past their deadline (a stopping
        worker waits for a request still coming in as briefly as for a kept-alive one)."""
        super().murder_pending()
        now = time.monotonic()
        if not self.alive:
            linger = now + STOP_KEEPALIVE_LINGER
            for conn in self.gathering:  # the same cap for all: the order stays
                conn.deadline = min(conn.deadline, linger)
        while self.gathering and self.gathering[0].deadline <= now:
            conn = self.gathering[0]
            self.stop_gathering(conn)
            self.nr_conns -= 1
            conn.close()
