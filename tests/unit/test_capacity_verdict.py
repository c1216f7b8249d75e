"""``bench.capacity`` judges a step by the limits of its mode and names those it missed; the
rate it sets beside the step's is the pads' own (the bench is run by hand, its verdict here)."""

from __future__ import annotations

import pytest

from bench.capacity import HAND_SECONDS, PHONES, POLL_SECONDS, Step, judged_limits, pads_rate


def _step(mode: str, delivery_ms: float, write_ms: float = 20.0, status: int = 201) -> Step:
    step = Step(mode, tables=10, step_seconds=10.0)
    step.phones_in_at = 0.0
    step.drain_seconds = 0.0
    step.requests = [(float(s), 5.0, False, 304) for s in range(10)] + [
        (1.0, write_ms, True, status)
    ]
    step.deliveries = [(1.0, delivery_ms)]
    return step


def test_polling_is_not_judged_by_the_delivery_its_poll_period_bounds() -> None:
    held, figures = _step("polling", delivery_ms=2_971).verdict()
    assert held and figures["missed"] == []
    assert not any("delivered" in limit for limit in judged_limits("polling"))


def test_streams_are_judged_by_their_delivery() -> None:
    held, figures = _step("streams", delivery_ms=300).verdict()
    assert not held
    assert figures["missed"] == ["events delivered p99 ≤ 250 ms"]
    assert any("delivered" in limit for limit in judged_limits("streams"))


@pytest.mark.parametrize("mode", ["polling", "streams"])
def test_a_step_names_each_limit_it_missed(mode: str) -> None:
    held, figures = _step(mode, delivery_ms=10, write_ms=150, status=503).verdict()
    assert not held
    assert "writes' p99 ≤ 100 ms" in figures["missed"]
    assert "requests' p99 ≤ 100 ms" in figures["missed"]
    assert "every answer 200, 201 or 304" in figures["missed"]


def test_the_pads_rate_counts_the_fetches_after_each_hand() -> None:
    hands = 5_000 / HAND_SECONDS
    streams = pads_rate("streams", 5_000)
    # the write, then every other phone's table and its sheet
    assert streams == {"writes": hands, "hands lists": 3 * hands, "tables": 3 * hands}
    assert sum(streams.values()) == pytest.approx(291.7, abs=0.1)
    polling = pads_rate("polling", 5_000)
    assert polling["polls"] == 5_000 * PHONES / POLL_SECONDS
    assert polling["hands lists"] == 3 * hands
