"""series clock: a club night's series may have an end in time, set by its director

Revision ID: 0021_series_clock
Revises: 0020_tournaments
Create Date: 2026-12-07 05:45:00

``score_tables.series_ends_at``, nullable and plain (an ``ALTER TABLE ADD COLUMN`` on SQLite,
no copy of the table every hand cascades from), kept by each table as its series' length
(``hands_limit``) is: the time its director gave the series to end at, which the table's view
carries to every phone with the hands left. Null: no clock, as before.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0021_series_clock"
down_revision = "0020_tournaments"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "score_tables", sa.Column("series_ends_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade():
    op.drop_column("score_tables", "series_ends_at")
