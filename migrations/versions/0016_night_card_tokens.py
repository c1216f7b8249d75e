"""night card tokens: the link a club night's table card carries, kept for a reprint

Revision ID: 0016_night_card_tokens
Revises: 0015_stream_tickets_spent
Create Date: 2026-12-06 22:30:00

Printing a series' cards used to give each table a new token (tokens are kept only as
digests), which locked out every phone that had scanned the admin screen's QR code. The link
of a table's card is now kept with the table's place in the night (``club_night_tables``), so
the admin screen, the printed cards and a reprint show one link. A nullable column: the nights
drawn before get theirs when their cards are next asked for.

Reviewed by hand: an added nullable column, no copy of the table on SQLite.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016_night_card_tokens"
down_revision = "0015_stream_tickets_spent"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("club_night_tables", sa.Column("card_token", sa.String(64), nullable=True))


def downgrade():
    with op.batch_alter_table("club_night_tables") as batch:
        batch.drop_column("card_token")
