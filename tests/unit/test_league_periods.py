"""The calendar periods a filtered season's standings are read from: every day of a range is
covered once, by whole periods, in at most five runs, and never a day outside it."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from service.services.league.periods import (
    SPANS,
    Run,
    covering,
    period_end,
    period_start,
)

DAYS = st.dates(min_value=date(1999, 1, 1), max_value=date(2031, 12, 31))


def periods_of(run: Run) -> list[date]:
    starts, start = [], run.first
    while start <= run.last:
        starts.append(start)
        start = period_end(start, run.span) + timedelta(days=1)
    return starts


@given(DAYS, DAYS)
def test_a_range_is_covered_by_whole_periods_each_day_once(first: date, last: date) -> None:
    runs = covering(first, last)
    covered: list[date] = []
    for run in runs:
        for start in periods_of(run):
            assert period_start(start, run.span) == start
            end = period_end(start, run.span)
            covered += [start + timedelta(days=n) for n in range((end - start).days + 1)]
    expected = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    assert covered == expected
    assert len(runs) <= 5
    # At most a month and eleven months of smaller periods at each end, whatever the length.
    assert sum(len(periods_of(r)) for r in runs if r.span != "year") <= 2 * (30 + 11)


@given(DAYS)
def test_a_day_lies_in_each_of_its_periods(day: date) -> None:
    for span in SPANS:
        start = period_start(day, span)
        assert start <= day <= period_end(start, span)


def test_the_whole_calendar_is_one_run_of_years() -> None:
    assert covering(date.min, date.max) == [Run("year", date.min, date(9999, 1, 1))]


def test_a_range_with_its_ends_inside_months() -> None:
    assert covering(date(2026, 2, 15), date(2026, 11, 14)) == [
        Run("day", date(2026, 2, 15), date(2026, 2, 28)),
        Run("month", date(2026, 3, 1), date(2026, 10, 1)),
        Run("day", date(2026, 11, 1), date(2026, 11, 14)),
    ]
