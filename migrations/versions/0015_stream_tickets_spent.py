"""spent_stream_tickets, ix_tokens_revoked_at: a ticket opens one stream once; a revoked
token's streams end

Revision ID: 0015_stream_tickets_spent
Revises: 0014_standings_periods
Create Date: 2026-12-06 22:20:00

A stream ticket that has opened its stream is kept (its SHA-256, until it would have expired)
so that it opens no second one; SQLite's change feed looks for the tokens revoked lately after
every commit, by the index on ``tokens.revoked_at`` (``service/services/live_feed.py``).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015_stream_tickets_spent"
down_revision = "0014_standings_periods"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "spent_stream_tickets",
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("digest", name=op.f("pk_spent_stream_tickets")),
    )
    op.create_index(
        op.f("ix_spent_stream_tickets_expires_at"),
        "spent_stream_tickets",
        ["expires_at"],
        unique=False,
    )
    op.create_index("ix_tokens_revoked_at", "tokens", ["revoked_at"], unique=False)


def downgrade():
    op.drop_index("ix_tokens_revoked_at", table_name="tokens")
    op.drop_index(
        op.f("ix_spent_stream_tickets_expires_at"), table_name="spent_stream_tickets"
    )
    op.drop_table("spent_stream_tickets")
