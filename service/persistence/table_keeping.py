"""SQLAlchemy rows of table keeping. Derived numbers (balances, pool, state) are kept current
as hands are recorded, so reading a table never sums its history; the history itself is
append-only."""

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
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import Model
from .columns import CURRENCY_LEN, ID_LEN, NAME_MAX, SettingChangeColumns, utcnow


class ClubRow(Model):
    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The currency a new table's rate is in unless it names another (ISO 4217).
    currency: Mapped[str] = mapped_column(
        String(CURRENCY_LEN), default="EUR", server_default=text("'EUR'")
    )

    __table_args__ = (
        CheckConstraint("length(name) > 0", name="name_not_empty"),
        CheckConstraint("length(currency) = 3", name="currency_code"),
    )


class TokenRow(Model):
    """A bearer token, stored as its SHA-256 only. ``table_id`` is set for table tokens;
    ``viewer`` is a club's read-only token (a noticeboard, a TV, a program). A viewer token
    made by ``POST …/viewer-tokens`` has a ``name``; the club's one read-only link (``POST
    …/viewer-token``) has none. A ``program`` token (``POST …/viewer-tokens`` with ``kind``)
    reads what a viewer reads and manages the webhooks it made; it always has a name."""

    __tablename__ = "tokens"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("score_tables.id", ondelete="CASCADE"), nullable=True
    )
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Set when the admin revoked or rotated the token: the row stays, so that a phone still
    # holding it is told it was revoked rather than that it never existed.
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    name: Mapped[str | None] = mapped_column(String(NAME_MAX), nullable=True)
    # A viewer token's last use, noted at most once a minute (``services/auth.py``).
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (
        CheckConstraint("kind IN ('admin', 'table', 'viewer', 'program')", name="kind_known"),
        CheckConstraint("(kind = 'table') = (table_id IS NOT NULL)", name="table_token_has_table"),
        CheckConstraint(
            "name IS NULL OR kind IN ('viewer', 'program')", name="only_viewer_tokens_named"
        ),
        CheckConstraint("kind <> 'program' OR name IS NOT NULL", name="program_tokens_named"),
        CheckConstraint("name IS NULL OR length(name) > 0", name="name_not_empty"),
        # The club's tokens of a kind (the listing of its viewer tokens, revoking by kind).
        Index("ix_tokens_club_kind", "club_id", "kind"),
        # Two working named tokens of a club (read-only or a program's) never share a name.
        Index(
            "uq_tokens_club_live_name",
            "club_id",
            "name",
            unique=True,
            sqlite_where=text("revoked_at IS NULL AND name IS NOT NULL"),
            postgresql_where=text("revoked_at IS NULL AND name IS NOT NULL"),
        ),
        # The tokens revoked lately: SQLite's change feed looks for them after every commit
        # (services/live_feed.py), so that their streams end.
        Index("ix_tokens_revoked_at", "revoked_at"),
    )


class DeletedTokenRow(Model):
    """A token whose row was deleted (with its table or its club, by a cascade or by hand),
    noted by the database's own trigger on ``tokens`` (migration 0019): the change feeds end
    the streams opened with it as they end a revoked token's (``services/live_feed.py``).
    Kept a day: the trigger drops the older notes as it writes a new one."""

    __tablename__ = "deleted_tokens"

    token_id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    deleted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


# The trigger on ``tokens`` writes into ``deleted_tokens``: that table comes first (created
# before, emptied after: tests/support.py's wipe deletes in reverse order, and the tokens it
# deletes leave no notes behind).
TokenRow.__table__.add_is_dependent_on(DeletedTokenRow.__table__)


class SpentTicketRow(Model):
    """A stream ticket that has opened its stream (``services/live.py``: a ticket opens one
    stream once), kept by its SHA-256 until it would have expired anyway."""

    __tablename__ = "spent_stream_tickets"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class PlayerRow(Model):
    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A retired player keeps his history and is not offered for (nor seated at) new tables.
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (
        UniqueConstraint("club_id", "name"),
        CheckConstraint("length(name) > 0", name="name_not_empty"),
    )


class TableRow(Model):
    """One sitting. ``state`` is the variant's state after the last current hand; ``pool``
    mirrors it for chip variants with a pool (and is 0 otherwise)."""

    __tablename__ = "score_tables"

    id: Mapped[str] = mapped_column(String(ID_LEN), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    variant: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    first_dealer: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), default="open")
    version: Mapped[int] = mapped_column(Integer, default=1)
    hands_recorded: Mapped[int] = mapped_column(Integer, default=0)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    pool: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    season_id: Mapped[str | None] = mapped_column(
        ForeignKey("seasons.id"), nullable=True, index=True
    )
    # The money the table plays for (all null: none): ``rate_cents`` minor units of
    # ``currency`` per ``rate_per`` chips or points, a fee each player pays the club, and for
    # point games how the scores are settled (``rules/money.py``).
    rate_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rate_per: Mapped[int | None] = mapped_column(Integer, nullable=True)
    currency: Mapped[str | None] = mapped_column(String(CURRENCY_LEN), nullable=True)
    table_fee_cents: Mapped[int | None] = mapped_column(Integer, nullable=True)
    point_settlement: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # A table a club night's draw opened: the night (its ``club_night_tables`` row says which
    # series and table), and the most hands it plays, its series' length as the director last
    # set it (null: no limit), and the time the director gave its series to end at (null: no
    # clock). Plain columns, no constraint: adding one on SQLite copies this table, whose rows
    # every hand, seat and transfer cascades from (migration 0014).
    night_id: Mapped[str | None] = mapped_column(String(ID_LEN), nullable=True)
    hands_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    series_ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    seats: Mapped[list[SeatRow]] = relationship(
        order_by="SeatRow.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    __table_args__ = (
        CheckConstraint("status IN ('open', 'closed')", name="status_known"),
        CheckConstraint("players BETWEEN 3 AND 5", name="players_3_to_5"),
        CheckConstraint("first_dealer >= 0 AND first_dealer < players", name="first_dealer_seat"),
        CheckConstraint("version >= 1", name="version_positive"),
        CheckConstraint(
            "hands_recorded >= 0 AND hands_played >= 0 AND hands_played <= hands_recorded",
            name="hand_counts",
        ),
        CheckConstraint("length(name) > 0", name="name_not_empty"),
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


class SeatRow(Model):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("score_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    balance: Mapped[int] = mapped_column(Integer, default=0)

    player: Mapped[PlayerRow] = relationship(lazy="joined")

    @property
    def name(self) -> str:
        """The seated player's name (as ``locking.SeatState`` has it)."""
        return self.player.name

    __table_args__ = (
        UniqueConstraint("table_id", "player_id"),
        CheckConstraint("seat >= 0 AND seat < 5", name="seat_range"),
    )


class HandRow(Model):
    """The current revision of hand ``number`` at a table, with its derived settlement."""

    __tablename__ = "hands"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("score_tables.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8), default="recorded")
    revision: Mapped[int] = mapped_column(Integer, default=1)
    dealer: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    state_after: Mapped[dict[str, Any]] = mapped_column(JSON)
    settlement: Mapped[dict[str, Any] | None] = mapped_column(
        JSON(none_as_null=True), nullable=True
    )
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("table_id", "number"),
        CheckConstraint("number >= 1", name="number_positive"),
        CheckConstraint("revision >= 1", name="revision_positive"),
        CheckConstraint("status IN ('recorded', 'void')", name="status_known"),
        CheckConstraint("(status = 'void') = (settlement IS NULL)", name="void_has_no_settlement"),
    )


class HandRevisionRow(Model):
    """Every revision a hand ever had, oldest first; never updated or deleted."""

    __tablename__ = "hand_revisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"))
    revision: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(8))
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    token_id: Mapped[str] = mapped_column(String(ID_LEN))
    token_kind: Mapped[str] = mapped_column(String(8))
    # True for a revision read from an imported file: its token id and kind are what the file
    # says, not a token of this service.
    imported: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        UniqueConstraint("hand_id", "revision"),
        CheckConstraint("status IN ('recorded', 'void')", name="status_known"),
    )


class SeatingChangeRow(Model):
    """A re-seating of a table: the seats (player ids in the order of play) and first dealer
    before and after, when and by which token, and how many hands it settled again. Never
    updated or deleted; the table's first seating is the ``before`` of its first change (or
    its seats now, if it has none)."""

    __tablename__ = "seating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("score_tables.id", ondelete="CASCADE"))
    changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    token_id: Mapped[str] = mapped_column(String(ID_LEN))
    token_kind: Mapped[str] = mapped_column(String(8))
    seats_before: Mapped[list[str]] = mapped_column(JSON)
    first_dealer_before: Mapped[int] = mapped_column(Integer)
    seats_after: Mapped[list[str]] = mapped_column(JSON)
    first_dealer_after: Mapped[int] = mapped_column(Integer)
    resettled: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        CheckConstraint("first_dealer_before BETWEEN 0 AND 4", name="first_dealer_before_seat"),
        CheckConstraint("first_dealer_after BETWEEN 0 AND 4", name="first_dealer_after_seat"),
        CheckConstraint("resettled >= 0", name="resettled_not_negative"),
        Index("ix_seating_changes_table", "table_id", "id"),
    )


class TableChangeRow(SettingChangeColumns, Model):
    """A change of a table's settings after it was opened: its season or its rate, before and
    after (JSON: a season id or null; a rate object or null), when, by which token, and the
    table version it made (0 when imported). Never updated or deleted."""

    __tablename__ = "table_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("score_tables.id", ondelete="CASCADE"))

    __table_args__ = (
        CheckConstraint("setting IN ('season', 'rate')", name="setting_known"),
        Index("ix_table_changes_table", "table_id", "id"),
    )


class TransferRow(Model):
    """One chip movement of a current hand. A null seat is the pool."""

    __tablename__ = "transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    from_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    to_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    chips: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(8))

    __table_args__ = (
        UniqueConstraint("hand_id", "position"),
        CheckConstraint("chips > 0", name="chips_positive"),
        CheckConstraint("from_seat IS NOT NULL OR to_seat IS NOT NULL", name="not_pool_to_pool"),
        CheckConstraint(
            "from_seat IS NULL OR to_seat IS NULL OR from_seat <> to_seat", name="not_to_itself"
        ),
        CheckConstraint("reason IN ('stake', 'game', 'stamm', 'bete')", name="reason_known"),
    )


class IdempotencyKeyRow(Model):
    """The first answer to a request sent with ``Idempotency-Key``, replayed on retries."""

    __tablename__ = "idempotency_keys"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("score_tables.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int] = mapped_column(Integer)
    response: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


Index("ix_hand_revisions_hand", HandRevisionRow.hand_id)
Index("ix_transfers_hand", TransferRow.hand_id)
