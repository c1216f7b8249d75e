"""Slow and vanishing clients against the real server setup (gunicorn.conf.py: threaded workers
whose event loop gathers each request before a thread takes it, service/http_worker.py).

The worker's gathering is what is tested, not the database: the tests that only ask /healthz
run the server on a SQLite database of their own, once (not again in the suite's PostgreSQL
half: tests/databases.py); the one that records a hand in pieces takes the database under test."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest
import requests

from service.http_worker import BUFFERED_BODY_MAX, REQUEST_READ_TIMEOUT, request_in
from tests.support import Gunicorn, sqlite_of_its_own

SLOW_CONNECTIONS = 200


def _open_slow(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def _read_answer(sock: socket.socket) -> bytes:
    """One HTTP answer with a Content-Length, read in full."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed before an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "the connection closed mid-answer"
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_request_is_in_once_its_head_and_small_body_are():
    assert request_in(b"GET / HTTP/1.1\r\nHost: x\r\n", 8192) is False
    assert request_in(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", 8192) is True
    post = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"
    assert request_in(post + b"abc", 8192) is False
    assert request_in(post + b"abcde", 8192) is True
    # Larger or chunked bodies, and oversized heads, go to a thread (the parser answers).
    big = f"POST / HTTP/1.1\r\nContent-Length: {BUFFERED_BODY_MAX + 1}\r\n\r\n".encode()
    assert request_in(big, 8192) is None
    assert request_in(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 8192) is None
    assert request_in(b"GET / HTTP/1.1\r\n" + b"X" * 9000, 8192) is None


@pytest.mark.slow
def test_200_slow_connections_leave_a_normal_request_answered_within_a_second(tmp_path):
    with Gunicorn(sqlite_of_its_own(tmp_path), workers=2) as server:
        slow = [_open_slow(server.port) for _ in range(SLOW_CONNECTIONS)]
        stop = threading.Event()

        def trickle() -> None:  # one more header line on each, now and then, never the end
            while not stop.wait(0.5):
                for sock in slow:
                    with contextlib.suppress(OSError):
                        sock.sendall(b"X-Slow: 1\r\n")

        trickler = threading.Thread(target=trickle)
        trickler.start()
        try:
            time.sleep(1.0)  # every slow connection accepted and sending
            latencies = []
            for _ in range(5):
                started = time.monotonic()
                response = requests.get(server.url + "/healthz", timeout=30)
                latencies.append(time.monotonic() - started)
                assert response.status_code == 200
            assert max(latencies) < 1.0, latencies
            # The slow ones are still served once their request is in.
            slow[0].sendall(b"\r\n")
            assert slow[0].recv(100).startswith(b"HTTP/1.1 200")
        finally:
            stop.set()
            trickler.join()
            for sock in slow:
                sock.close()


@pytest.mark.slow
def test_a_body_sent_in_pieces_and_a_second_request_on_the_connection_are_answered(app, api):
    table = api.table()
    with Gunicorn(
        app.config["SQLALCHEMY_DATABASE_URI"], workers=1, SOLO_RATELIMIT_ENABLED="false"
    ) as server:
        body = b'{"contract": "solo", "trump": "hearts", "declarer": 1, "tricks": 6}'
        head = (
            f"POST /api/v1/tables/{table['id']}/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {table['table_token']}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            for piece in (head[:20], head[20:], body[:10], body[10:]):
                sock.sendall(piece)
                time.sleep(0.2)
            answer = _read_answer(sock)
            assert answer.startswith(b"HTTP/1.1 201"), answer[:200]
            # Kept alive: the next request, slowly too, on the same connection.
            poll = (
                f"GET /api/v1/tables/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {table['table_token']}\r\n\r\n"
            ).encode()
            sock.sendall(poll[:15])
            time.sleep(0.3)
            sock.sendall(poll[15:])
            answer = _read_answer(sock)
            assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
            assert b'"hands_recorded":1' in answer.replace(b" ", b"")


@pytest.mark.slow
def test_clients_vanishing_mid_request_leave_nothing_held(tmp_path):
    import struct

    with Gunicorn(sqlite_of_its_own(tmp_path), workers=1) as server:
        for round_ in range(2):
            gone = [_open_slow(server.port) for _ in range(SLOW_CONNECTIONS)]
            for n, sock in enumerate(gone):
                if n % 2:  # half reset (a phone's radio dropping), half closed properly
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.close()
            started = time.monotonic()
            response = requests.get(server.url + "/healthz", timeout=30)
            assert response.status_code == 200, round_
            assert time.monotonic() - started < 1.0


@pytest.mark.slow
def test_a_request_not_in_within_the_bound_is_closed_and_the_others_served(tmp_path):
    """The worker closes, in the order they came, the connections whose request is not in
    within REQUEST_READ_TIMEOUT, and only those: one whose request came in meanwhile (taken
    out of the middle of those gathering) is answered, and the worker serves on."""
    with Gunicorn(sqlite_of_its_own(tmp_path), workers=1) as server:
        opened = time.monotonic()
        stuck = [_open_slow(server.port) for _ in range(5)]
        finishing = _open_slow(server.port)
        more_stuck = [_open_slow(server.port) for _ in range(5)]
        try:
            time.sleep(0.5)
            finishing.sendall(b"\r\n")
            assert _read_answer(finishing).startswith(b"HTTP/1.1 200")
            for sock in stuck + more_stuck:
                sock.settimeout(REQUEST_READ_TIMEOUT * 4)  # generous: a loaded machine
                assert sock.recv(100) == b""  # closed by the worker, with no answer
            # Never before its bound (a slow machine only closes them later).
            assert time.monotonic() - opened >= REQUEST_READ_TIMEOUT - 0.5
            assert requests.get(server.url + "/healthz", timeout=30).status_code == 200
        finally:
            for sock in [*stuck, finishing, *more_stuck]:
                sock.close()
