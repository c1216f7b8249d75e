"""What every row of the schema shares: the lengths of ids and names, the clock that stamps new
rows, and how a stored time reads back."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

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


class SettingChangeColumns:
    """The columns of a row of a settings history (a table's ``TableChangeRow``, a club
    night's ``ClubNightChangeRow``): which setting changed, before and after (JSON), when, by
    which token, and the version it made (0 when imported). The row adds its id and what it is
    the history of; these columns follow them, in this order (the migrations' order)."""

    changed_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, sort_order=1
    )
    token_id: Mapped[str] = mapped_column(String(ID_LEN), sort_order=2)
    token_kind: Mapped[str] = mapped_column(String(8), sort_order=3)
    setting: Mapped[str] = mapped_column(String(16), sort_order=4)
    before: Mapped[Any] = mapped_column(JSON, nullable=True, sort_order=5)
    after: Mapped[Any] = mapped_column(JSON, nullable=True, sort_order=6)
    version: Mapped[int] = mapped_column(Integer, sort_order=7)
    # Read from an imported file: token_id is the file's word, naming no token here.
    imported: Mapped[bool] = mapped_column(
        Boolean, default=False, server_default=false(), sort_order=8
    )
