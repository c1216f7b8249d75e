"""confirmations: a tournament table's result confirmed by its players (or the director),
and the disputes of its hands

Revision ID: 0022_confirmations
Revises: 0021_series_clock
Create Date: 2026-12-07 06:00:00

Two new tables, nothing copied: ``tournament_confirmations`` (a seat's, or the director's,
confirmation of a table's hands as they stood: their ``stamp``) and ``tournament_disputes``
(a seated player's dispute of one hand, open until the director resolves it).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0022_confirmations"
down_revision = "0021_series_clock"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournament_confirmations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("stamp", sa.Integer(), nullable=False),
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "seat IS NULL OR (seat >= 0 AND seat < 5)",
            name=op.f("ck_tournament_confirmations_seat_range"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_confirmations_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["score_tables.id"],
            name=op.f("fk_tournament_confirmations_table_id_score_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_confirmations")),
    )
    op.create_index(
        "ix_tournament_confirmations_table",
        "tournament_confirmations",
        ["table_id", "stamp"],
        unique=False,
    )
    op.create_table(
        "tournament_disputes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("resolved_by", sa.String(length=32), nullable=True),
        sa.CheckConstraint("hand >= 1", name=op.f("ck_tournament_disputes_hand_positive")),
        sa.CheckConstraint(
            "seat >= 0 AND seat < 5", name=op.f("ck_tournament_disputes_seat_range")
        ),
        sa.CheckConstraint(
            "status IN ('open', 'corrected', 'voided', 'rejected')",
            name=op.f("ck_tournament_disputes_status_known"),
        ),
        sa.CheckConstraint(
            "(status = 'open') = (resolved_at IS NULL)",
            name=op.f("ck_tournament_disputes_resolved_has_time"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_disputes_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["score_tables.id"],
            name=op.f("fk_tournament_disputes_table_id_score_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_disputes")),
    )
    op.create_index(
        "ix_tournament_disputes_table",
        "tournament_disputes",
        ["table_id", "status"],
        unique=False,
    )
    op.create_index(
        "ix_tournament_disputes_tournament",
        "tournament_disputes",
        ["tournament_id", "status"],
        unique=False,
    )


def downgrade():
    op.drop_index("ix_tournament_disputes_tournament", table_name="tournament_disputes")
    op.drop_index("ix_tournament_disputes_table", table_name="tournament_disputes")
    op.drop_table("tournament_disputes")
    op.drop_index("ix_tournament_confirmations_table", table_name="tournament_confirmations")
    op.drop_table("tournament_confirmations")
