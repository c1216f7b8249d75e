"""The threaded worker's settings read from the environment (``service/http_worker.py`` and the
streams' ``service/stream_hub.py``)."""

from __future__ import annotations

from pathlib import PosixPath

import pytest

from service.http_worker import migrate_queued_connections, switch_interval
from service.stream_hub import (
    OPENING,
    TICKET,
    stream_opening_threads,
    stream_start,
    streams_per_worker,
)


def test_streams_per_worker_leaves_a_quarter_of_the_connections_by_default(monkeypatch):
    monkeypatch.delenv("WEB_STREAMS_PER_WORKER", raising=False)
    assert streams_per_worker(1000) == 750
    monkeypatch.setenv("WEB_STREAMS_PER_WORKER", "9000")
    assert streams_per_worker(10_000) == 9000


@pytest.mark.parametrize("bound", ["-1", "1000", "5000"])
def test_a_stream_bound_at_or_past_the_connections_stops_the_start(monkeypatch, bound):
    monkeypatch.setenv("WEB_STREAMS_PER_WORKER", bound)
    with pytest.raises(ValueError, match="WEB_STREAMS_PER_WORKER"):
        streams_per_worker(1000)


def test_the_switch_interval_is_cpythons_unless_set(monkeypatch):
    monkeypatch.delenv("WEB_SWITCH_INTERVAL_MS", raising=False)
    assert switch_interval() == 0.005
    monkeypatch.setenv("WEB_SWITCH_INTERVAL_MS", "0.5")
    assert switch_interval() == 0.0005


@pytest.mark.parametrize("milliseconds", ["0", "-1", "101"])
def test_a_switch_interval_out_of_range_stops_the_start(monkeypatch, milliseconds):
    monkeypatch.setenv("WEB_SWITCH_INTERVAL_MS", milliseconds)
    with pytest.raises(ValueError, match="WEB_SWITCH_INTERVAL_MS"):
        switch_interval()


def test_one_thread_opens_streams_unless_set(monkeypatch):
    monkeypatch.delenv("WEB_STREAM_OPENING_THREADS", raising=False)
    assert stream_opening_threads() == 1
    monkeypatch.setenv("WEB_STREAM_OPENING_THREADS", "3")
    assert stream_opening_threads() == 3
    for bad in ("0", "65"):
        monkeypatch.setenv("WEB_STREAM_OPENING_THREADS", bad)
        with pytest.raises(ValueError, match="WEB_STREAM_OPENING_THREADS"):
            stream_opening_threads()


@pytest.mark.parametrize(
    ("request_line", "start"),
    [
        (b"GET /api/v1/tables/abc/events HTTP/1.1\r\n", OPENING),
        (b"GET /api/v1/tables/abc/events?ticket=x.y HTTP/1.1\r\n", OPENING),
        (b"GET /api/v1/clubs/abc/events HTTP/1.1\r\n", OPENING),
        (b"POST /api/v1/tables/abc/events/tickets HTTP/1.1\r\n", TICKET),
        (b"POST /api/v1/clubs/abc/events/tickets HTTP/1.1\r\n", TICKET),
        (b"GET /api/v1/tables/abc/events/tickets HTTP/1.1\r\n", None),
        (b"POST /api/v1/tables/abc/events/tickets/x HTTP/1.1\r\n", None),
        (b"HEAD /api/v1/tables/abc/events HTTP/1.1\r\n", None),
        (b"POST /api/v1/tables/abc/hands HTTP/1.1\r\n", None),
        (b"GET /api/v1/tables/abc HTTP/1.1\r\n", None),
    ],
)
def test_the_loop_tells_a_streams_opening_and_ticket_by_the_request_line(request_line, start):
    """Openings and tickets go to the worker's opening thread, everything else to the request
    threads."""
    assert stream_start(request_line) == start


class Unwritable(PosixPath):
    """A setting this process may read, not write (as ``/proc/sys`` is to a user not root)."""

    def write_text(self, *_args: object, **_kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")


def test_the_kernel_is_asked_to_migrate_a_closed_sockets_queue_where_the_process_may(tmp_path):
    setting = tmp_path / "tcp_migrate_req"
    setting.write_text("1\n")
    assert migrate_queued_connections(setting) == "on"
    setting.write_text("0\n")
    assert migrate_queued_connections(setting) == "set"
    assert setting.read_text() == "1"
    setting.write_text("0\n")
    assert migrate_queued_connections(Unwritable(setting)) == "off, and not set (Permission denied)"
    assert setting.read_text() == "0\n"
    assert migrate_queued_connections(tmp_path / "absent").startswith("not available")
