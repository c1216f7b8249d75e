"""The threaded worker's settings read from the environment (``service/http_worker.py``)."""

from __future__ import annotations

import pytest

from service.http_worker import streams_per_worker, switch_interval


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
