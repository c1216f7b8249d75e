"""series length: a club night's table knows its night and the most hands its series plays;
a night says what its table fee is charged for

Revision ID: 0017_series_length
Revises: 0016_night_card_tokens
Create Date: 2026-12-06 22:30:00

``score_tables.night_id`` and ``score_tables.hands_limit``, both nullable, without a
constraint: on SQLite a column with a CHECK or a foreign key copies ``score_tables``, whose
rows every seat, hand and transfer cascades from; two plain columns are an ``ALTER TABLE ADD
COLUMN``. The tables nights already opened learn their night, and as their limit their night's
hands per series (or the hands they have played, where they went on beyond it).
``club_nights.fee_basis`` (null: per series, as before), plain too.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0017_series_length"
down_revision = "0016_night_card_tokens"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("score_tables", sa.Column("night_id", sa.String(length=32), nullable=True))
    op.add_column("score_tables", sa.Column("hands_limit", sa.Integer(), nullable=True))
    op.add_column("club_nights", sa.Column("fee_basis", sa.String(length=8), nullable=True))
    op.execute(
        "UPDATE score_tables SET night_id = (SELECT l.night_id FROM club_night_tables l"
        " WHERE l.table_id = score_tables.id)"
        " WHERE id IN (SELECT table_id FROM club_night_tables)"
    )
    op.execute(
        "UPDATE score_tables SET hands_limit = (SELECT n.hands_per_series FROM club_nights n"
        " WHERE n.id = score_tables.night_id) WHERE night_id IS NOT NULL"
    )
    op.execute(
        "UPDATE score_tables SET hands_limit = hands_played"
        " WHERE hands_limit IS NOT NULL AND hands_played > hands_limit"
    )


def downgrade():
    # SQLite drops a plain column in place (3.35 and later): no copy of the table.
    op.drop_column("club_nights", "fee_basis")
    op.drop_column("score_tables", "hands_limit")
    op.drop_column("score_tables", "night_id")
