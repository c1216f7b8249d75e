"""tournaments: an open tournament hosted by a club, played as a club night of its host, and
its entrants

Revision ID: 0020_tournaments
Revises: 0019_deleted_tokens
Create Date: 2026-12-07 02:00:00

Two new tables, nothing copied: ``tournaments`` (one per night it plays as: the table
sizes and options of its draws, the entry fee, the losses money per lost game, the cap, the
prize table, the scoring, the public registration link) and ``tournament_entrants``
(numbered in the order of registration, which is the waiting list's order; the host club's
player each plays as, once checked in).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0020_tournaments"
down_revision = "0019_deleted_tokens"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("night_id", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("table_sizes", sa.JSON(), nullable=False),
        sa.Column("entry_fee_cents", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("loss_fee_cents", sa.Integer(), nullable=False),
        sa.Column("cap", sa.Integer(), nullable=True),
        sa.Column("prizes", sa.JSON(), nullable=False),
        sa.Column("scoring", sa.String(length=16), nullable=False),
        sa.Column("registration_token", sa.String(length=64), nullable=False),
        sa.Column("registration_open", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "entry_fee_cents BETWEEN 0 AND 1000000", name=op.f("ck_tournaments_entry_fee_in_range")
        ),
        sa.CheckConstraint(
            "loss_fee_cents BETWEEN 0 AND 100000", name=op.f("ck_tournaments_loss_fee_in_range")
        ),
        sa.CheckConstraint(
            "cap IS NULL OR cap BETWEEN 1 AND 1000", name=op.f("ck_tournaments_cap_in_range")
        ),
        sa.CheckConstraint(
            "scoring IN ('result', 'place_points')", name=op.f("ck_tournaments_scoring_known")
        ),
        sa.CheckConstraint("length(currency) = 3", name=op.f("ck_tournaments_currency_code")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_tournaments_version_positive")),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_tournaments_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["club_nights.id"],
            name=op.f("fk_tournaments_night_id_club_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("night_id", name=op.f("uq_tournaments_night_id")),
    )
    op.create_index(op.f("ix_tournaments_club_id"), "tournaments", ["club_id"], unique=False)
    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("club", sa.String(length=80), nullable=True),
        sa.Column("contact", sa.String(length=120), nullable=True),
        sa.Column("display", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("checked_in_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("number >= 1", name=op.f("ck_tournament_entrants_number_positive")),
        sa.CheckConstraint("length(name) > 0", name=op.f("ck_tournament_entrants_name_not_empty")),
        sa.CheckConstraint(
            "status IN ('registered', 'waiting', 'checked_in', 'withdrawn')",
            name=op.f("ck_tournament_entrants_status_known"),
        ),
        sa.CheckConstraint(
            "display IN ('full', 'initial')", name=op.f("ck_tournament_entrants_display_known")
        ),
        sa.CheckConstraint(
            "status <> 'checked_in' OR checked_in_at IS NOT NULL",
            name=op.f("ck_tournament_entrants_checked_in_has_time"),
        ),
        sa.CheckConstraint(
            "(status = 'withdrawn') = (withdrawn_at IS NOT NULL)",
            name=op.f("ck_tournament_entrants_withdrawn_has_time"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_tournament_entrants_player_id_players"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_entrants")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_tournament_entrants_tournament_id_number")
        ),
        sa.UniqueConstraint(
            "tournament_id",
            "player_id",
            name=op.f("uq_tournament_entrants_tournament_id_player_id"),
        ),
    )
    op.create_index(
        "ix_tournament_entrants_status",
        "tournament_entrants",
        ["tournament_id", "status", "number"],
        unique=False,
    )


def downgrade():
    op.drop_index("ix_tournament_entrants_status", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index(op.f("ix_tournaments_club_id"), table_name="tournaments")
    op.drop_table("tournaments")
