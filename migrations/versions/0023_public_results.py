"""public_results: a tournament's public results page, published by its director

Revision ID: 0023_public_results
Revises: 0022_confirmations
Create Date: 2026-12-07 06:00:00

Three columns on ``tournaments``, nothing copied: ``public_id`` (the results' public address,
made at the first publishing and kept, unguessable: ``secrets.token_urlsafe(12)``),
``public_results`` (whether the address answers; false: 404) and ``public_prizes`` (whether
the public results show the prize places).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0023_public_results"
down_revision = "0022_confirmations"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.String(length=24), nullable=True))
        batch_op.add_column(
            sa.Column(
                "public_results", sa.Boolean(), server_default=sa.false(), nullable=False
            )
        )
        batch_op.add_column(
            sa.Column("public_prizes", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_unique_constraint(op.f("uq_tournaments_public_id"), ["public_id"])


def downgrade():
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("uq_tournaments_public_id"), type_="unique")
        batch_op.drop_column("public_prizes")
        batch_op.drop_column("public_results")
        batch_op.drop_column("public_id")
