"""What every row of the schema shares: the lengths of ids and names, the clock that stamps new
rows, and how a stored time reads back."""

from __future__ import annotations

from datetime import UTC, datetime

NAME_MAX = 80
ID_LEN = 32
CURRENCY_LEN = 3  # an ISO 4217 code


def utcnow() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A stored time with its zone: SQLite hands the stored UTC time back without one."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def rfc3339(moment: datetime | None) -> str | None:
    """A stored time as an RFC 3339 UTC string."""
    if moment is None:
        return None
    return aware(moment).astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
