"""A webhook receiver for the tests: an HTTP server on 127.0.0.1 that verifies every delivery
with ``standardwebhooks`` (a bad signature fails the test) and keeps what it got, answering
as its script says (a status, ``"slow"``: answering only after ``slow_seconds`` or when the
receiver closes, long after the deliverer's read timeout)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


class Receiver:
    def __init__(self, slow_seconds: float = 3.0, delay: float = 0.0) -> None:
        self.secret: str | None = None
        self.script: list[int | str] = []  # answers to give first, then 204
        self.delay = delay
        self.slow_seconds = slow_seconds
        self.closing = threading.Event()  # a slow answer waits for this, at most slow_seconds
        self.received: list[dict[str, Any]] = []  # verified deliveries, in arrival order
        self.requests = 0
        self.bad_signatures = 0
        self.in_flight = 0
        self.most_in_flight = 0  # deliveries answered at once, at most
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.handle(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/hooks?club=1"

    def handle(self, handler: BaseHTTPRequestHandler, body: bytes) -> None:
        with self.lock:
            self.requests += 1
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            answer: int | str = self.script.pop(0) if self.script else 204
        try:
            self._answer(handler, body, answer)
        finally:
            with self.lock:
                self.in_flight -= 1

    def _answer(self, handler: BaseHTTPRequestHandler, body: bytes, answer: int | str) -> None:
        slow = answer == "slow"
        if slow:  # the deliverer has given up by now: what it sent is not counted
            self.closing.wait(self.slow_seconds)
            answer = 204
        assert self.secret is not None
        try:
            event = Webhook(self.secret).verify(body, dict(handler.headers.items()))
        except WebhookVerificationError:
            with self.lock:
                self.bad_signatures += 1
            answer = 400
        if self.delay:
            time.sleep(self.delay)
        if answer in (200, 204) and not slow:
            with self.lock:
                self.received.append(
                    {
                        "webhook_id": handler.headers["webhook-id"],
                        "event": event,
                        "path": handler.path,
                    }
                )
        handler.send_response(int(answer))
        if int(answer) in (301, 302, 307, 308):
            handler.send_header("Location", self.url + "&redirected=1")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def ids(self) -> list[int]:
        with self.lock:
            return [entry["event"]["id"] for entry in self.received]

    def close(self) -> None:
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


def wait_for(condition: Callable[[], bool], timeout: float = 60.0, what: str = "") -> None:
    """Wait until ``condition()`` holds, failing after a generous ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.02)


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
