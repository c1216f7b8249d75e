"""SQLAlchemy rows of the club league: seasons, the aggregates standings and statistics are
read from, and ratings.

The aggregates are derived numbers, kept current in the same transaction as every hand that is
recorded, corrected or voided (``services.league.hands_changed``); they can always be rebuilt
from the hand records. Three grains serve three questions:

- ``season_players``: one row per (season, player), the season's standings without filters.
  Reading them costs the same for a season of 1,000 hands as for one of 1,000,000.
- ``season_player_periods``: one row per (season, player, day, month or year of the sitting),
  so that standings ``from``/``to`` dates sum whole periods: at most about 85 rows a player
  (``services/league/periods.py``), never hands, and not every day of a long range.
- ``player_careers``: one row per (player, variant), a player's career; chips and points are
  never added together.

The contract mix has its own rows (``season_player_contracts``, ``player_career_contracts``).
A counter is only ever changed by an atomic ``UPDATE … SET x = x + :delta`` (after an
``INSERT … ON CONFLICT DO NOTHING`` of a zero row), so two tables of one season writing at once
on PostgreSQL never lose an update; the CHECK constraints refuse any row no hands could give.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import ID_LEN, NAME_MAX, utcnow

__all__ = [
    "COUNTERS",
    "CONTRACT_COUNTERS",
    "SeasonRow",
    "SeasonPlayerRow",
    "SeasonPlayerPeriodRow",
    "SeasonPlayerContractRow",
    "PlayerCareerRow",
    "PlayerCareerContractRow",
    "SeasonRatingRow",
    "RatingHistoryRow",
]

CONTRACT_MAX = 24
VARIANT_MAX = 16

# The counters of every aggregate row, in the order the standings show them.
COUNTERS: tuple[str, ...] = (
    "sittings",
    "hands",
    "net",
    "declared",
    "won",
    "lost",
    "solos_won",
    "touts_won",
    "betes_paid",
    "stamms_drawn",
    "errors",
)
CONTRACT_COUNTERS: tuple[str, ...] = ("declared", "won", "lost")


def _counter_checks() -> tuple[CheckConstraint, ...]:
    """What the database refuses in any aggregate row (each table gets its own objects)."""
    non_negative = " AND ".join(f"{name} >= 0" for name in COUNTERS if name != "net")
    return (
        CheckConstraint(non_negative, name="counts_not_negative"),
        CheckConstraint("sittings <= hands", name="sittings_have_hands"),
        CheckConstraint("declared <= hands", name="declared_within_hands"),
        CheckConstraint("won + lost <= declared", name="results_within_declared"),
        CheckConstraint("solos_won <= won AND touts_won <= won", name="specials_within_won"),
    )


def _contract_checks() -> tuple[CheckConstraint, ...]:
    return (
        CheckConstraint("declared >= 0 AND won >= 0 AND lost >= 0", name="counts_not_negative"),
        CheckConstraint("won + lost <= declared", name="results_within_declared"),
        CheckConstraint("length(contract) > 0", name="contract_not_empty"),
    )


class Counters:
    """The counter columns shared by every aggregate row."""

    sittings: Mapped[int] = mapped_column(Integer, default=0)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    net: Mapped[int] = mapped_column(Integer, default=0)
    declared: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    solos_won: Mapped[int] = mapped_column(Integer, default=0)
    touts_won: Mapped[int] = mapped_column(Integer, default=0)
    betes_paid: Mapped[int] = mapped_column(Integer, default=0)
    stamms_drawn: Mapped[int] = mapped_column(Integer, default=0)
    errors: Mapped[int] = mapped_column(Integer, default=0)


class ContractCounters:
    declared: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)


class SeasonRow(Model):
    """A club's season of one variant; tables opened with its id count towards it."""

    __tablename__ = "seasons"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    variant: Mapped[str] = mapped_column(String(VARIANT_MAX))
    starts_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    ends_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("club_id", "name"),
        CheckConstraint("length(name) > 0", name="name_not_empty"),
        CheckConstraint(
            "starts_on IS NULL OR ends_on IS NULL OR starts_on <= ends_on", name="dates_in_order"
        ),
    )


class SeasonPlayerRow(Counters, Model):
    """A player's season so far: the standings' row, without date filters."""

    __tablename__ = "season_players"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )

    __table_args__ = _counter_checks()


class SeasonPlayerPeriodRow(Counters, Model):
    """A player's sittings of one season that were opened within one calendar period (UTC):
    the ``span`` (``day``, ``month`` or ``year``) starting on ``starts_on``. Every sitting
    counts in one period of each span (``services/league/periods.py``)."""

    __tablename__ = "season_player_periods"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True
    )
    span: Mapped[str] = mapped_column(String(5), primary_key=True)
    starts_on: Mapped[date] = mapped_column(Date, primary_key=True)
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )

    __table_args__ = (
        *_counter_checks(),
        CheckConstraint("span IN ('day', 'month', 'year')", name="span_known"),
    )


class SeasonPlayerContractRow(ContractCounters, Model):
    """How often a player declared each contract in a season, and won or lost it."""

    __tablename__ = "season_player_contracts"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    contract: Mapped[str] = mapped_column(String(CONTRACT_MAX), primary_key=True)

    __table_args__ = _contract_checks()


class PlayerCareerRow(Counters, Model):
    """Everything a player played in one variant, in a season or not."""

    __tablename__ = "player_careers"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(VARIANT_MAX), primary_key=True)

    __table_args__ = _counter_checks()


class PlayerCareerContractRow(ContractCounters, Model):
    """A player's career contract mix in one variant."""

    __tablename__ = "player_career_contracts"

    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(VARIANT_MAX), primary_key=True)
    contract: Mapped[str] = mapped_column(String(CONTRACT_MAX), primary_key=True)

    __table_args__ = _contract_checks()


class SeasonRatingRow(Model):
    """A player's openskill rating in a season after every closed sitting rated so far."""

    __tablename__ = "season_ratings"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    sittings: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        CheckConstraint("sigma > 0", name="sigma_positive"),
        CheckConstraint("sittings >= 1", name="rated_at_least_once"),
    )


class RatingHistoryRow(Model):
    """A player's season rating after each of his rated sittings, in order (``sitting`` 1, 2,
    …); rebuilt with the season's ratings whenever they are replayed."""

    __tablename__ = "season_rating_history"

    season_id: Mapped[str] = mapped_column(
        ForeignKey("seasons.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[str] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    sitting: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("score_tables.id", ondelete="CASCADE"), index=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)

    __table_args__ = (
        CheckConstraint("sigma > 0", name="sigma_positive"),
        CheckConstraint("sitting >= 1", name="sitting_positive"),
    )
