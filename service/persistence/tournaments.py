"""SQLAlchemy rows of open tournaments: a tournament hosted by a club, and its entrants.

A tournament plays its series as a club night of its host (``night_id``): the night keeps the
game, its name, the hands per series, the series planned, each series' draw and tables; the
tournament adds what a night has not: registration, the entrants and their status, the table
sizes and options its draws use, the entry fee, the cap, the prize table and the scoring.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import Model
from .columns import CURRENCY_LEN, ID_LEN, NAME_MAX, utcnow

__all__ = ["TournamentRow", "EntrantRow", "ENTRANT_STATUSES", "DISPLAYS"]

MAX_ENTRANTS = 1000
MAX_ENTRY_FEE_CENTS = 1_000_000
MAX_LOSS_FEE_CENTS = 100_000
CONTACT_MAX = 120
REGISTRATION_TOKEN_MAX = 64  # secrets.token_urlsafe(32) is 43 characters
PUBLIC_ID_MAX = 24  # secrets.token_urlsafe(12) is 16 characters
ENTRANT_STATUSES = ("registered", "waiting", "checked_in", "withdrawn")
DISPLAYS = ("full", "initial")
"""How the public results name an entrant, as chosen at registration: the ``full`` name, or
the first name and the ``initial`` of the last."""


class TournamentRow(Model):
    """An open tournament hosted by ``club_id``, played as the club night ``night_id``."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    night_id: Mapped[str] = mapped_column(
        ForeignKey("club_nights.id", ondelete="CASCADE"), unique=True
    )
    # The options of every table its draws open (a table's ``options``, as POST /tables takes).
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The table sizes its draws use: some of those the game allows (a list of integers).
    table_sizes: Mapped[list[int]] = mapped_column(JSON)
    entry_fee_cents: Mapped[int] = mapped_column(Integer)
    currency: Mapped[str] = mapped_column(String(CURRENCY_LEN))
    # Losses money: what each game a declarer loses costs the declarer (docs/rules.md); 0: none.
    loss_fee_cents: Mapped[int] = mapped_column(Integer, default=0)
    cap: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The prize table (``rules.tournament.parse_prize_table``'s list), place 1 first.
    prizes: Mapped[list[dict[str, int]]] = mapped_column(JSON)
    scoring: Mapped[str] = mapped_column(String(16))
    # The public registration link's token, kept whole as a night's card link is: it is meant
    # to be published, and the club's admin, who reads it, could make a new one anyway.
    registration_token: Mapped[str] = mapped_column(String(REGISTRATION_TOKEN_MAX))
    registration_open: Mapped[bool] = mapped_column(Boolean, default=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The public results (docs/tournaments.md): their address, made at the first publishing and
    # kept; whether it answers (false: 404); whether they show the prize places.
    public_id: Mapped[str | None] = mapped_column(String(PUBLIC_ID_MAX), nullable=True, unique=True)
    public_results: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    public_prizes: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        CheckConstraint(
            f"entry_fee_cents BETWEEN 0 AND {MAX_ENTRY_FEE_CENTS}", name="entry_fee_in_range"
        ),
        CheckConstraint(
            f"loss_fee_cents BETWEEN 0 AND {MAX_LOSS_FEE_CENTS}", name="loss_fee_in_range"
        ),
        CheckConstraint(f"cap IS NULL OR cap BETWEEN 1 AND {MAX_ENTRANTS}", name="cap_in_range"),
        CheckConstraint("scoring IN ('result', 'place_points')", name="scoring_known"),
        CheckConstraint("length(currency) = 3", name="currency_code"),
        CheckConstraint("version >= 1", name="version_positive"),
    )


class EntrantRow(Model):
    """One entrant of a tournament, numbered in the order of registration (the waiting
    list's order). ``player_id``: the host club's player the entrant plays as (picked from its
    players for a member; made at check-in for a guest)."""

    __tablename__ = "tournament_entrants"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    club: Mapped[str | None] = mapped_column(String(NAME_MAX), nullable=True)
    contact: Mapped[str | None] = mapped_column(String(CONTACT_MAX), nullable=True)
    display: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[str | None] = mapped_column(
        ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    status: Mapped[str] = mapped_column(String(12))
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Set while checked in (the entry fee taken); kept on a withdrawal after it.
    checked_in_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (
        UniqueConstraint("tournament_id", "number"),
        UniqueConstraint("tournament_id", "player_id"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("length(name) > 0", name="name_not_empty"),
        CheckConstraint(
            "status IN ('registered', 'waiting', 'checked_in', 'withdrawn')", name="status_known"
        ),
        CheckConstraint("display IN ('full', 'initial')", name="display_known"),
        CheckConstraint(
            "status <> 'checked_in' OR checked_in_at IS NOT NULL", name="checked_in_has_time"
        ),
        CheckConstraint(
            "(status = 'withdrawn') = (withdrawn_at IS NOT NULL)", name="withdrawn_has_time"
        ),
        Index("ix_tournament_entrants_status", "tournament_id", "status", "number"),
    )
