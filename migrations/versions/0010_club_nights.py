"""club_nights: a club night of several tables, its players, series (seeds) and tables

Revision ID: 0010_club_nights
Revises: 0008_idempotency
Create Date: 2026-12-02 17:28:29

A club night (``/api/v1/clubs/{id}/nights``) is played in series; each series' seat draw is
kept with its seed, and the tables it opened by number. The results are read from the tables.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0010_club_nights'
down_revision = '0009_table_money'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('club_nights',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('club_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('variant', sa.String(length=16), nullable=False),
    sa.Column('season_id', sa.String(length=32), nullable=True),
    sa.Column('hands_per_series', sa.Integer(), nullable=True),
    sa.Column('series_planned', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=8), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("(status = 'closed') = (closed_at IS NOT NULL)", name=op.f('ck_club_nights_closed_has_time')),
    sa.CheckConstraint("status IN ('open', 'closed')", name=op.f('ck_club_nights_status_known')),
    sa.CheckConstraint('hands_per_series IS NULL OR hands_per_series BETWEEN 1 AND 200', name=op.f('ck_club_nights_hands_in_range')),
    sa.CheckConstraint('length(name) > 0', name=op.f('ck_club_nights_name_not_empty')),
    sa.CheckConstraint('series_planned BETWEEN 1 AND 20', name=op.f('ck_club_nights_series_in_range')),
    sa.CheckConstraint('version >= 1', name=op.f('ck_club_nights_version_positive')),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_club_nights_club_id_clubs'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_club_nights_season_id_seasons'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_club_nights'))
    )
    with op.batch_alter_table('club_nights', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_nights_club_id'), ['club_id'], unique=False)

    op.create_table('club_night_players',
    sa.Column('night_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('present', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['night_id'], ['club_nights.id'], name=op.f('fk_club_night_players_night_id_club_nights'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_club_night_players_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('night_id', 'player_id', name=op.f('pk_club_night_players'))
    )
    with op.batch_alter_table('club_night_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_club_night_players_player_id'), ['player_id'], unique=False)

    op.create_table('club_night_series',
    sa.Column('night_id', sa.String(length=32), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('drawn_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('number BETWEEN 1 AND 20', name=op.f('ck_club_night_series_number_in_range')),
    sa.CheckConstraint('seed BETWEEN 0 AND 2147483647', name=op.f('ck_club_night_series_seed_in_range')),
    sa.ForeignKeyConstraint(['night_id'], ['club_nights.id'], name=op.f('fk_club_night_series_night_id_club_nights'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('night_id', 'number', name=op.f('pk_club_night_series'))
    )
    op.create_table('club_night_tables',
    sa.Column('night_id', sa.String(length=32), nullable=False),
    sa.Column('series', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.CheckConstraint('number >= 1', name=op.f('ck_club_night_tables_number_positive')),
    sa.ForeignKeyConstraint(['night_id', 'series'], ['club_night_series.night_id', 'club_night_series.number'], name=op.f('fk_club_night_tables_night_id_club_night_series'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['night_id'], ['club_nights.id'], name=op.f('fk_club_night_tables_night_id_club_nights'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['score_tables.id'], name=op.f('fk_club_night_tables_table_id_score_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('night_id', 'series', 'number', name=op.f('pk_club_night_tables')),
    sa.UniqueConstraint('table_id', name=op.f('uq_club_night_tables_table_id'))
    )


def downgrade():
    op.drop_table('club_night_tables')
    op.drop_table('club_night_series')
    with op.batch_alter_table('club_night_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_night_players_player_id'))

    op.drop_table('club_night_players')
    with op.batch_alter_table('club_nights', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_club_nights_club_id'))

    op.drop_table('club_nights')
