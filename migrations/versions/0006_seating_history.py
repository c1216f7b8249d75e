"""seating_changes: every re-seating of a table, kept

Revision ID: 0006_seating_history
Revises: 0005_explanation_seats
Create Date: 2026-12-01 21:40:00

A re-seating (``PUT /api/v1/tables/{id}/seating``) puts right a wrong seating noticed after
some hands; each one is kept here with the seating before and after, who and when.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0006_seating_history'
down_revision = '0005_explanation_seats'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seating_changes',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('token_id', sa.String(length=32), nullable=False),
    sa.Column('token_kind', sa.String(length=8), nullable=False),
    sa.Column('seats_before', sa.JSON(), nullable=False),
    sa.Column('first_dealer_before', sa.Integer(), nullable=False),
    sa.Column('seats_after', sa.JSON(), nullable=False),
    sa.Column('first_dealer_after', sa.Integer(), nullable=False),
    sa.Column('resettled', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.CheckConstraint('first_dealer_before BETWEEN 0 AND 4', name=op.f('ck_seating_changes_first_dealer_before_seat')),
    sa.CheckConstraint('first_dealer_after BETWEEN 0 AND 4', name=op.f('ck_seating_changes_first_dealer_after_seat')),
    sa.CheckConstraint('resettled >= 0', name=op.f('ck_seating_changes_resettled_not_negative')),
    sa.ForeignKeyConstraint(['table_id'], ['score_tables.id'], name=op.f('fk_seating_changes_table_id_score_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seating_changes'))
    )
    with op.batch_alter_table('seating_changes', schema=None) as batch_op:
        batch_op.create_index('ix_seating_changes_table', ['table_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('seating_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_seating_changes_table')

    op.drop_table('seating_changes')
