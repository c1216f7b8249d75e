"""The service's logs as JSON lines, each carrying the request id it was written for.

- ``current_request_id``: the id of the request this thread is answering (set by the envelope,
  ``middleware/security.py``, from a sane ``X-Request-Id`` or made; returned in the answer), or
  of the request whose event the webhooks' deliverer is sending (``REQUEST_ID_KEY`` in the
  event's stored data: ``services/outbox.py`` writes it, and keeps it out of every view).
- ``JsonLines``: one JSON object per record: ``ts``, ``level``, ``logger``, ``message``,
  ``request_id`` (when there is one) and ``error`` (a traceback). The message is the code's
  own text: nothing from a request's headers or body is logged, so never a token or a ticket.
- ``configure``: the root logger writes JSON lines to stderr (the access log, one line per
  request, stays on stdout: ``middleware/security.py``).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime

_REQUEST_ID: ContextVar[str | None] = ContextVar("solo_request_id", default=None)
# The member of an event's stored data holding the request id it was recorded in.
REQUEST_ID_KEY = "_request_id"


def current_request_id() -> str | None:
    return _REQUEST_ID.get()


@contextmanager
def request_id_of(rid: str | None) -> Iterator[None]:
    """Log as ``rid``'s (a request's id) until the block ends."""
    token = _REQUEST_ID.set(rid)
    try:
        yield
    finally:
        _REQUEST_ID.reset(token)


_make_record = logging.getLogRecordFactory()


def _record_with_request_id(*args: object, **kwargs: object) -> logging.LogRecord:
    """Every record notes the request id of its moment (formatted later, maybe elsewhere)."""
    record = _make_record(*args, **kwargs)
    if not hasattr(record, "request_id"):
        record.request_id = _REQUEST_ID.get()
    return record


logging.setLogRecordFactory(_record_with_request_id)


class JsonLines(logging.Formatter):
    """A record as one JSON line (module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        at = datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
        line: dict[str, object] = {
            "ts": at.removesuffix("+00:00") + "Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None)
        if rid:
            line["request_id"] = rid
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: int = logging.INFO) -> None:
    """The root logger writes JSON lines to stderr (once per process); the service's own
    loggers (``service.*``, ``solo.*``) at ``level``, the libraries' at WARNING."""
    root = logging.getLogger()
    if any(isinstance(handler.formatter, JsonLines) for handler in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    for name in ("service", "solo"):
        logging.getLogger(name).setLevel(level)
