"""A server-sent events reader for tests: the events of a stream as they arrive."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
from dataclasses import dataclass
from typing import Any

import requests


@dataclass
class Event:
    id: str | None
    event: str
    data: str
    comment: bool = False

    def json(self) -> Any:
        return json.loads(self.data)


def parse(text: str) -> list[Event]:
    """The events (comments left out) of a whole stream's text."""
    events: list[Event] = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        data: list[str] = []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            else:
                fields[name] = value
        if data or "event" in fields:
            events.append(Event(fields.get("id"), fields.get("event", "message"), "\n".join(data)))
    return events


class Stream:
    """Opens ``url`` and parses what it sends in a thread; ``next`` waits for the next event
    (comments too, when ``comments``), up to a generous bound."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, comments: bool = False):
        self.response = requests.get(url, headers=headers or {}, stream=True, timeout=(5, 60))
        self.comments = comments
        self.events: queue.Queue[Event | None] = queue.Queue()
        if self.response.status_code == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        data: list[str] = []
        try:
            for raw in self.response.iter_lines(chunk_size=None, decode_unicode=True):
                line = raw or ""
                if line.startswith(":"):
                    if self.comments:
                        self.events.put(Event(None, "comment", line[1:].strip(), True))
                    continue
                if line == "":
                    if data or "event" in fields:
                        self.events.put(
                            Event(fields.get("id"), fields.get("event", "message"), "\n".join(data))
                        )
                    fields, data = {}, []
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "data":
                    data.append(value)
                else:
                    fields[name] = value
        except Exception:  # closed by the test or the server
            pass
        self.events.put(None)

    def next(self, timeout: float = 15.0) -> Event | None:
        """The next event; None when the stream ended. Raises queue.Empty after ``timeout``."""
        return self.events.get(timeout=timeout)

    def changes(self, count: int, timeout: float = 15.0) -> list[dict[str, Any]]:
        """The next ``count`` change events (``message``), skipping ``ready``."""
        found: list[dict[str, Any]] = []
        while len(found) < count:
            event = self.next(timeout)
            assert event is not None, f"the stream ended after {found}"
            if event.event == "message":
                found.append(event.json())
        return found

    def close(self) -> None:
        """Hang up at once: the reading thread holds the socket, so closing it alone would
        wait for the thread's next read (the next event or heartbeat)."""
        connection = getattr(self.response.raw, "_connection", None)
        sock = getattr(connection, "sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.response.close()
