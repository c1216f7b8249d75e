"""idempotent_requests: the first answers of keyed writes, replayed to their retries

Revision ID: 0008_idempotency
Revises: 0007_tokens
Create Date: 2026-12-02 10:30:00

Every POST and PATCH takes an ``Idempotency-Key`` (a hand's recording keeps its own keys per
table in ``idempotency_keys``); a key's row lives 24 hours and is swept by later claims.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0008_idempotency'
down_revision = '0007_tokens'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('idempotent_requests',
    sa.Column('scope', sa.String(length=40), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('fingerprint', sa.String(length=64), nullable=False),
    sa.Column('status_code', sa.Integer(), nullable=True),
    sa.Column('body', sa.JSON(), nullable=True),
    sa.Column('headers', sa.JSON(), nullable=True),
    sa.Column('claimed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('status_code IS NULL OR status_code BETWEEN 200 AND 299', name=op.f('ck_idempotent_requests_answer_is_success')),
    sa.PrimaryKeyConstraint('scope', 'key_hash', name=op.f('pk_idempotent_requests'))
    )
    with op.batch_alter_table('idempotent_requests', schema=None) as batch_op:
        batch_op.create_index('ix_idempotent_requests_expires', ['expires_at'], unique=False)


def downgrade():
    with op.batch_alter_table('idempotent_requests', schema=None) as batch_op:
        batch_op.drop_index('ix_idempotent_requests_expires')

    op.drop_table('idempotent_requests')
