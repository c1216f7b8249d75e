"""The rate limits' memory storage sweeps its expired counters at most once a second, and counts
as the library's own does (service/middleware/limits.py)."""

from __future__ import annotations

import threading
import time

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from service.middleware import limits as limits_module
from service.middleware.limits import SweptMemoryStorage, rate_limit_storage


def test_a_thousand_hits_start_one_sweep_not_one_each(monkeypatch):
    started: list[float] = []
    real_timer = threading.Timer

    def counted_timer(interval, function, *args, **kwargs):
        started.append(interval)
        return real_timer(interval, function, *args, **kwargs)

    storage = SweptMemoryStorage()
    monkeypatch.setattr(threading, "Timer", counted_timer)
    limiter = FixedWindowRateLimiter(storage)
    moving = MovingWindowRateLimiter(storage)
    rate = parse("100000 per minute")
    for n in range(1000):
        assert limiter.hit(rate, f"token-{n % 50}")
        assert moving.hit(rate, f"address-{n % 50}")
    assert started == [SweptMemoryStorage.SWEEP_SECONDS]


def test_it_counts_as_the_librarys_and_forgets_what_expired():
    ours, theirs = SweptMemoryStorage(), MemoryStorage()
    rate = parse("3 per 1 second")
    for kind in (FixedWindowRateLimiter, MovingWindowRateLimiter):
        answers = [[kind(s).hit(rate, "key") for _ in range(5)] for s in (ours, theirs)]
        assert answers[0] == answers[1] == [True, True, True, False, False]
    time.sleep(1.1)  # both windows over; a hit on another key starts the next sweep
    FixedWindowRateLimiter(ours).hit(rate, "other")

    def forgotten() -> bool:
        return not any("/key/" in key for key in ours.storage) and not any(
            events for key, events in ours.events.items() if "/key/" in key
        )

    deadline = time.monotonic() + 10  # swept within a second or so; generous
    while not forgotten() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert forgotten()
    assert FixedWindowRateLimiter(ours).hit(rate, "key")


def test_memory_uris_get_the_swept_storage_and_others_the_librarys():
    assert isinstance(rate_limit_storage("memory://", {}), SweptMemoryStorage)
    assert limits_module.RateLimits.__init__  # (the app's limits use rate_limit_storage)
