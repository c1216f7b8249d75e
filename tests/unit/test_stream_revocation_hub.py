"""A worker's stream hub ends the streams of a revoked token (``service/stream_hub.py``
``StreamHub.revoke``): a last ``revoked`` event, then the end, for the streams opened with it
(itself or through its tickets) and for one adopted after the word came; the others go on.

The hub is driven by hand here, with a worker of the test's own whose deferred calls run at once
(the real worker runs them in its loop): what is checked is which streams end and what they
are sent last, never how fast."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from service.stream_hub import REVOKED_FRAME, Hold, StreamHub


class Worker:
    def __init__(self) -> None:
        self.cfg = SimpleNamespace(worker_connections=100)
        self.method_queue = SimpleNamespace(defer=lambda call, *args: call(*args))
        self.poller = SimpleNamespace(
            register=lambda *_: None, modify=lambda *_: None, unregister=lambda *_: None
        )
        self.nr_conns = 0


class Conn:
    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.parser: Any = object()
        self.closed = False

    def close(self) -> None:
        self.closed = True
        self.sock.close()


@pytest.fixture
def hub() -> Iterator[StreamHub]:
    made = StreamHub(Worker())
    yield made
    made.drop_all()  # (closes the worker's ends of the streams still held)


@pytest.fixture
def clients() -> Iterator[list[socket.socket]]:
    made: list[socket.socket] = []
    yield made
    for sock in made:
        sock.close()


def held(hub: StreamHub, clients: list[socket.socket], token: str, chunked: bool = False) -> Conn:
    """A stream of the club ``c`` opened with ``token``, adopted by the hub."""
    server, client = socket.socketpair()
    clients.append(client)
    conn = Conn(server)
    hub.worker.nr_conns += 1
    keys = hub.reserve({f"token:{token}": 16})
    assert keys is not None
    hub.adopt(conn, Hold("c", None, 0, keys, token, chunked))
    return conn


def received(client: socket.socket) -> bytes:
    """What the client was sent, until the end (a closed connection) or a second's quiet."""
    client.settimeout(1.0)
    data = b""
    try:
        while chunk := client.recv(4096):
            data += chunk
    except TimeoutError:
        return data + b"<still open>"
    return data


def test_revoking_a_token_ends_its_streams_with_a_last_event_and_no_other(
    hub: StreamHub, clients: list[socket.socket]
) -> None:
    revoked = [held(hub, clients, "a"), held(hub, clients, "a")]
    other = held(hub, clients, "b")
    hub.revoke("a")
    assert [received(clients[n]) for n in (0, 1)] == [REVOKED_FRAME, REVOKED_FRAME]
    assert all(conn.closed for conn in revoked) and not other.closed
    assert hub.held("token:a") == 0 and hub.held("token:b") == 1
    hub.publish("c", 1, None, b"id: 1\ndata: {}\n\n")  # the others go on
    clients[2].settimeout(1.0)
    assert clients[2].recv(4096) == b"id: 1\ndata: {}\n\n"


def test_a_stream_adopted_after_its_tokens_revocation_ends_at_once(
    hub: StreamHub, clients: list[socket.socket]
) -> None:
    hub.revoke("a")  # the word came while its opening was on its way
    conn = held(hub, clients, "a")
    assert received(clients[0]) == REVOKED_FRAME and conn.closed
    assert hub.held("token:a") == 0 and not hub.streams


def test_a_chunked_stream_ends_its_answer_after_the_last_event(
    hub: StreamHub, clients: list[socket.socket]
) -> None:
    held(hub, clients, "a", chunked=True)
    hub.revoke("a")
    assert received(clients[0]) == b"%x\r\n%s\r\n0\r\n\r\n" % (len(REVOKED_FRAME), REVOKED_FRAME)
