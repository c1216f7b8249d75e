"""tokens: named read-only tokens and their last use

Revision ID: 0007_tokens
Revises: 0006_seating_history
Create Date: 2026-12-02 10:50:00

A club may hold several read-only (viewer) tokens, each with a name, listed with when each was
last used (noted at most once a minute) and revoked one by one. The club's one unnamed viewer
token (the pad's read-only link) stays as it was.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0007_tokens'
down_revision = '0006_seating_history'
branch_labels = None
depends_on = None

LIVE_NAMED = sa.text('revoked_at IS NULL AND name IS NOT NULL')


def upgrade():
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.add_column(sa.Column('name', sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column('last_used_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_check_constraint(
            op.f('ck_tokens_only_viewer_tokens_named'), sa.text("name IS NULL OR kind = 'viewer'")
        )
        batch_op.create_check_constraint(
            op.f('ck_tokens_name_not_empty'), sa.text('name IS NULL OR length(name) > 0')
        )
        batch_op.create_index('ix_tokens_club_kind', ['club_id', 'kind'], unique=False)
        batch_op.create_index(
            'uq_tokens_club_live_name',
            ['club_id', 'name'],
            unique=True,
            sqlite_where=LIVE_NAMED,
            postgresql_where=LIVE_NAMED,
        )


def downgrade():
    with op.batch_alter_table('tokens', schema=None) as batch_op:
        batch_op.drop_index('uq_tokens_club_live_name')
        batch_op.drop_index('ix_tokens_club_kind')
        batch_op.drop_constraint(op.f('ck_tokens_name_not_empty'), type_='check')
        batch_op.drop_constraint(op.f('ck_tokens_only_viewer_tokens_named'), type_='check')
        batch_op.drop_column('last_used_at')
        batch_op.drop_column('name')
