"""SQLAlchemy rows of club nights: a night of one game, the players present, each series'
draw (its seed) and the tables each series opened.

A night's results are not stored: they are read from its tables' seats and hands, which
already keep every balance current (``services.nights.standings``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import CURRENCY_LEN, ID_LEN, NAME_MAX, SettingChangeColumns, utcnow

CARD_TOKEN_MAX = 64  # secrets.token_urlsafe(32) is 43 characters

__all__ = [
    "ClubNightRow",
    "ClubNightPlayerRow",
    "ClubNightSeriesRow",
    "ClubNightTableRow",
    "ClubNightChangeRow",
]

# The most series a night may plan, and the most players it may seat at once.
MAX_SERIES = 20
MAX_NIGHT_PLAYERS = 100
MAX_HANDS_PER_SERIES = 200
SEED_MAX = 2**31 - 1


class ClubNightRow(Model):
    """A club night: several tables of one game, played in series with a seat draw each.
    ``hands_per_series`` null is "until closed" (the admin ends each series)."""

    __tablename__ = "club_nights"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    variant: Mapped[str] = mapped_column(String(16))
    season_id: Mapped[str | None] = mapped_column(
        ForeignKey("seasons.id", ondelete="SET NULL"), nullable=True
    )
    hands_per_series: Mapped[int | None] = mapped_column(Integer, nullable=True)
    series_planned: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), default="open")
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The money the night plays for (all null: none), as a table's (``TableRow``): each table
    # its draws open carries it.
    rate_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rate_per: Mapped[int | None] = mapped_column(Integer, nullable=True)
    currency: Mapped[str | None] = mapped_column(String(CURRENCY_LEN), nullable=True)
    table_fee_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)
    point_settlement: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # What its table fee is charged for (``rules.money.FEE_BASES``; null: ``series``, as before
    # there was a choice). A plain column: a CHECK would copy the table on SQLite (0014).
    fee_basis: Mapped[str | None] = mapped_column(String(8), nullable=True)

    __table_args__ = (
        CheckConstraint("length(name) > 0", name="name_not_empty"),
        CheckConstraint("status IN ('open', 'closed')", name="status_known"),
        CheckConstraint(f"series_planned BETWEEN 1 AND {MAX_SERIES}", name="series_in_range"),
        CheckConstraint(
            f"hands_per_series IS NULL OR hands_per_series BETWEEN 1 AND {MAX_HANDS_PER_SERIES}",
            name="hands_in_range",
        ),
        CheckConstraint("version >= 1", name="version_positive"),
        CheckConstraint("(status = 'closed') = (closed_at IS NOT NULL)", name="closed_has_time"),
        CheckConstraint(
            "(rate_cents IS NULL AND rate_per IS NULL AND currency IS NULL"
            " AND table_fee_cents IS NULL AND point_settlement IS NULL)"
            " OR (rate_cents IS NOT NULL AND rate_per IS NOT NULL AND currency IS NOT NULL"
            " AND table_fee_cents IS NOT NULL AND rate_cents >= 0 AND rate_per >= 1"
            " AND length(currency) = 3 AND table_fee_cents >= 0)",
            name="rate_complete",
        ),
        CheckConstraint(
            "point_settlement IS NULL OR point_settlement IN ('pairs', 'average')",
            name="point_settlement_known",
        ),
    )


class ClubNightPlayerRow(Model):
    """A player of the night, and whether he is present for the next draw."""

    __tablename__ = "club_night_players"

    night_id: Mapped[str] = mapped_column(
        ForeignKey("club_nights.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    present: Mapped[bool] = mapped_column(Boolean, default=True)


class ClubNightSeriesRow(Model):
    """A series of the night: its number (1, 2, …) and the seed its draw was made with."""

    __tablename__ = "club_night_series"

    night_id: Mapped[str] = mapped_column(
        ForeignKey("club_nights.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seed: Mapped[int] = mapped_column(Integer)
    drawn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        CheckConstraint(f"number BETWEEN 1 AND {MAX_SERIES}", name="number_in_range"),
        CheckConstraint(f"seed BETWEEN 0 AND {SEED_MAX}", name="seed_in_range"),
    )


class ClubNightTableRow(Model):
    """A table a series' draw opened: table ``number`` (1, 2, …) of series ``series``."""

    __tablename__ = "club_night_tables"

    night_id: Mapped[str] = mapped_column(
        ForeignKey("club_nights.id", ondelete="CASCADE"), primary_key=True
    )
    series: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("score_tables.id", ondelete="CASCADE"), unique=True
    )
    card_token: Mapped[str | None] = mapped_column(String(CARD_TOKEN_MAX), nullable=True)
    """The table's link on its printed card (a table token): the admin screen, the cards and
    a reprint show this one link, so that printing never locks a phone out. Kept whole, as
    no other token is: the club's admin, the only one who reads it, could make a new one
    anyway. None: not made yet (a night drawn before this was kept, or an imported one)."""

    __table_args__ = (
        CheckConstraint("number >= 1", name="number_positive"),
        # A table belongs to a series the night drew.
        ForeignKeyConstraint(
            ["night_id", "series"],
            ["club_night_series.night_id", "club_night_series.number"],
            ondelete="CASCADE",
        ),
    )


class ClubNightChangeRow(SettingChangeColumns, Model):
    """A change of a night's rate after it started, before and after (JSON: a rate object or
    null), when, by which token, and the night version it made (0 when imported), as a
    table's ``TableChangeRow``. Never updated or deleted."""

    __tablename__ = "club_night_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("club_nights.id", ondelete="CASCADE"))

    __table_args__ = (
        CheckConstraint("setting IN ('rate')", name="setting_known"),
        Index("ix_club_night_changes_night", "night_id", "id"),
    )
