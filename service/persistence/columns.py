"""What every row of the schema shares: the lengths of ids and names, the clock that stamps new
rows, and how a stored time reads back."""

from __future__ import annotations

from datetime import UTC, datetime

NAME_MAX = 80
ID_LEN = 32


def utcnow() -> datetime:
    return datetime.now(UTC)


def rfc3339(moment: datetime | None) -> str | None:
    """A stored time as an RFC 3339 UTC string (SQLite hands times back without a zone)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
