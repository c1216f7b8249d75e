"""league admin: retired players, revoked and read-only (viewer) tokens, imported revisions,
the rating history

Revision ID: 0004_league_admin
Revises: 0003
Create Date: 2026-12-01 21:40:00

Written by hand. Columns are added in place (``ALTER TABLE … ADD COLUMN``): ``players`` is
referenced by seats, and a SQLite batch "move and copy" would drop it and cascade. Only
``tokens`` is copied on SQLite, to widen its ``kind`` CHECK; nothing references it.
"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0004_league_admin'
down_revision = '0003'
branch_labels = None
depends_on = None

OLD_KINDS = "kind IN ('admin', 'table')"
NEW_KINDS = "kind IN ('admin', 'table', 'viewer')"


def _kinds(check: str) -> None:
    with op.batch_alter_table('tokens', schema=None, recreate='auto') as batch_op:
        batch_op.drop_constraint(op.f('ck_tokens_kind_known'), type_='check')
        batch_op.create_check_constraint(op.f('ck_tokens_kind_known'), sa.text(check))


def upgrade():
    op.add_column('tokens',
                  sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True))
    _kinds(NEW_KINDS)
    op.add_column('players',
                  sa.Column('retired_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('hand_revisions', sa.Column('imported', sa.Boolean(), nullable=False,
                                              server_default=sa.false()))
    op.create_table(
        'season_rating_history',
        sa.Column('season_id', sa.String(length=32), nullable=False),
        sa.Column('player_id', sa.String(length=32), nullable=False),
        sa.Column('sitting', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.String(length=32), nullable=False),
        sa.Column('mu', sa.Float(), nullable=False),
        sa.Column('sigma', sa.Float(), nullable=False),
        sa.CheckConstraint('sigma > 0', name=op.f('ck_season_rating_history_sigma_positive')),
        sa.CheckConstraint('sitting >= 1',
                           name=op.f('ck_season_rating_history_sitting_positive')),
        sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE',
                                name=op.f('fk_season_rating_history_player_id_players')),
        sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], ondelete='CASCADE',
                                name=op.f('fk_season_rating_history_season_id_seasons')),
        sa.ForeignKeyConstraint(['table_id'], ['score_tables.id'], ondelete='CASCADE',
                                name=op.f('fk_season_rating_history_table_id_score_tables')),
        sa.PrimaryKeyConstraint('season_id', 'player_id', 'sitting',
                                name=op.f('pk_season_rating_history')),
    )
    for column in ('player_id', 'table_id'):
        op.create_index(op.f(f'ix_season_rating_history_{column}'), 'season_rating_history',
                        [column], unique=False)

def downgrade():
    for column in ('table_id', 'player_id'):
        op.drop_index(op.f(f'ix_season_rating_history_{column}'),
                      table_name='season_rating_history')
    op.drop_table('season_rating_history')
    op.drop_column('hand_revisions', 'imported')
    op.drop_column('players', 'retired_at')
    op.execute("DELETE FROM tokens WHERE kind = 'viewer'")
    _kinds(OLD_KINDS)
    op.drop_column('tokens', 'revoked_at')
