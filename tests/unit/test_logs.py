"""The service's log lines (service/logs.py): JSON, one per record, with the request id of the
moment the record was made (not of when it is written out), and a traceback as ``error``."""

from __future__ import annotations

import json
import logging

from service.logs import JsonLines, configure, request_id_of


def _record(message: str, *args: object, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            import sys

            exc_info = sys.exc_info()
    return logging.getLogger("service.test").makeRecord(
        "service.test", logging.WARNING, __file__, 1, message, args, exc_info
    )


def test_a_record_carries_the_request_id_of_its_moment():
    with request_id_of("req-1"):
        inside = _record("table %s answered", "t1")
    outside = _record("no request")
    line = json.loads(JsonLines().format(inside))
    assert line["request_id"] == "req-1" and line["message"] == "table t1 answered"
    assert line["level"] == "warning" and line["logger"] == "service.test"
    assert line["ts"].endswith("Z")
    assert "request_id" not in json.loads(JsonLines().format(outside))


def test_a_traceback_is_one_field_of_one_line():
    text = JsonLines().format(_record("failed", exc=True))
    assert "\n" not in text
    assert "ValueError: boom" in json.loads(text)["error"]


def test_configure_adds_one_json_handler_once():
    root = logging.getLogger()
    before = list(root.handlers)
    levels = {name: logging.getLogger(name).level for name in ("", "service", "solo")}
    try:
        configure()
        configure()
        added = [h for h in root.handlers if h not in before]
        assert len(added) == 1 and isinstance(added[0].formatter, JsonLines)
        assert logging.getLogger("service").level == logging.INFO
    finally:
        for handler in [h for h in root.handlers if h not in before]:
            root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
