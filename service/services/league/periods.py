"""Calendar periods a season's aggregates are kept by, so that standings between two dates sum
a number of rows bounded by the players, whatever the number of hands or days.

Every sitting counts in three periods: its day, its month and its year, each stored as the
period's first day (``season_player_periods``). A range of days is then covered by whole
periods, the largest that fit: the days up to the first month's start, the months up to the
first year's start, the years, and back down again at the end (``covering``). That is at most
five runs of periods and about 30 + 11 + 11 + 30 periods besides the years, so the rows read
for a filtered season stay at most about 85 a player, be the season 1,000 hands or 1,000,000.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Literal, NamedTuple

Span = Literal["day", "month", "year"]
SPANS: tuple[Span, ...] = ("day", "month", "year")


def period_start(day: date, span: Span) -> date:
    """The first day of the ``span`` that holds ``day``."""
    if span == "year":
        return day.replace(month=1, day=1)
    if span == "month":
        return day.replace(day=1)
    return day


def period_end(start: date, span: Span) -> date:
    """The last day of the ``span`` starting on ``start``."""
    if span == "year":
        return start.replace(month=12, day=31)
    if span == "month":
        following = start.replace(day=28) + timedelta(days=4)
        return following - timedelta(days=following.day)
    return start


class Run(NamedTuple):
    """Consecutive periods of one span: those starting from ``first`` to ``last``."""

    span: Span
    first: date
    last: date


def covering(first_day: date, last_day: date) -> list[Run]:
    """The runs of whole periods that cover exactly the days from ``first_day`` to
    ``last_day`` (inclusive), each day once, with the largest periods that fit. Empty if
    ``last_day`` is before ``first_day``."""
    runs: list[Run] = []

    def add(span: Span, start: date) -> None:
        previous = runs[-1] if runs else None
        if previous and previous.span == span and period_end(previous.last, span) < start:
            runs[-1] = runs[-1]._replace(last=start)
        else:
            runs.append(Run(span, start, start))

    def step_below_years(cursor: date) -> date | None:
        """Cover from ``cursor`` with months and days until a whole year fits (or the range
        ends); the next day to cover, or None when nothing is left."""
        while cursor <= last_day:
            if cursor.month == 1 and cursor.day == 1 and period_end(cursor, "year") <= last_day:
                return cursor
            span: Span = (
                "month" if cursor.day == 1 and period_end(cursor, "month") <= last_day else "day"
            )
            add(span, cursor)
            end = period_end(cursor, span)
            if end == date.max:
                return None
            cursor = end + timedelta(days=1)
        return None

    cursor = step_below_years(first_day)
    if cursor is None:
        return runs
    last_year = last_day.year if last_day == period_end(last_day, "year") else last_day.year - 1
    runs.append(Run("year", cursor, date(last_year, 1, 1)))
    if last_year < date.max.year:
        step_below_years(date(last_year + 1, 1, 1))
    return runs
