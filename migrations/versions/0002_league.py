"""league: seasons, the standings' aggregates, career aggregates, ratings; tables join a season

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 11:20:10.824746

Reviewed by hand. ``score_tables.season_id`` is added in place: on SQLite a batch "move and
copy" of ``score_tables`` would drop the old table, and with ``PRAGMA foreign_keys=ON`` that
drop deletes every seat, hand and token of every table through their ``ON DELETE CASCADE``.
SQLite's ``ALTER TABLE … ADD COLUMN … REFERENCES`` keeps the rows and still enforces the key
(SQLAlchemy cannot read back the name of such a key, so autogenerate compares it by its
columns and finds nothing to change.)
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('seasons',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('club_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('variant', sa.String(length=16), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=True),
    sa.Column('ends_on', sa.Date(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('length(name) > 0', name=op.f('ck_seasons_name_not_empty')),
    sa.CheckConstraint('starts_on IS NULL OR ends_on IS NULL OR starts_on <= ends_on', name=op.f('ck_seasons_dates_in_order')),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_seasons_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seasons')),
    sa.UniqueConstraint('club_id', 'name', name=op.f('uq_seasons_club_id_name'))
    )
    with op.batch_alter_table('seasons', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seasons_club_id'), ['club_id'], unique=False)

    op.create_table('player_career_contracts',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('variant', sa.String(length=16), nullable=False),
    sa.Column('contract', sa.String(length=24), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.CheckConstraint('declared >= 0 AND won >= 0 AND lost >= 0', name=op.f('ck_player_career_contracts_counts_not_negative')),
    sa.CheckConstraint('length(contract) > 0', name=op.f('ck_player_career_contracts_contract_not_empty')),
    sa.CheckConstraint('won + lost <= declared', name=op.f('ck_player_career_contracts_results_within_declared')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_career_contracts_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'variant', 'contract', name=op.f('pk_player_career_contracts'))
    )
    op.create_table('player_careers',
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('variant', sa.String(length=16), nullable=False),
    sa.Column('sittings', sa.Integer(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('net', sa.Integer(), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.Column('solos_won', sa.Integer(), nullable=False),
    sa.Column('touts_won', sa.Integer(), nullable=False),
    sa.Column('betes_paid', sa.Integer(), nullable=False),
    sa.Column('stamms_drawn', sa.Integer(), nullable=False),
    sa.Column('errors', sa.Integer(), nullable=False),
    sa.CheckConstraint('declared <= hands', name=op.f('ck_player_careers_declared_within_hands')),
    sa.CheckConstraint('sittings <= hands', name=op.f('ck_player_careers_sittings_have_hands')),
    sa.CheckConstraint('sittings >= 0 AND hands >= 0 AND declared >= 0 AND won >= 0 AND lost >= 0 AND solos_won >= 0 AND touts_won >= 0 AND betes_paid >= 0 AND stamms_drawn >= 0 AND errors >= 0', name=op.f('ck_player_careers_counts_not_negative')),
    sa.CheckConstraint('solos_won <= won AND touts_won <= won', name=op.f('ck_player_careers_specials_within_won')),
    sa.CheckConstraint('won + lost <= declared', name=op.f('ck_player_careers_results_within_declared')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_careers_player_id_players'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('player_id', 'variant', name=op.f('pk_player_careers'))
    )
    op.create_table('season_player_contracts',
    sa.Column('season_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('contract', sa.String(length=24), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.CheckConstraint('declared >= 0 AND won >= 0 AND lost >= 0', name=op.f('ck_season_player_contracts_counts_not_negative')),
    sa.CheckConstraint('length(contract) > 0', name=op.f('ck_season_player_contracts_contract_not_empty')),
    sa.CheckConstraint('won + lost <= declared', name=op.f('ck_season_player_contracts_results_within_declared')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_season_player_contracts_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_season_player_contracts_season_id_seasons'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('season_id', 'player_id', 'contract', name=op.f('pk_season_player_contracts'))
    )
    with op.batch_alter_table('season_player_contracts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_player_contracts_player_id'), ['player_id'], unique=False)

    op.create_table('season_player_days',
    sa.Column('season_id', sa.String(length=32), nullable=False),
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('sittings', sa.Integer(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('net', sa.Integer(), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.Column('solos_won', sa.Integer(), nullable=False),
    sa.Column('touts_won', sa.Integer(), nullable=False),
    sa.Column('betes_paid', sa.Integer(), nullable=False),
    sa.Column('stamms_drawn', sa.Integer(), nullable=False),
    sa.Column('errors', sa.Integer(), nullable=False),
    sa.CheckConstraint('declared <= hands', name=op.f('ck_season_player_days_declared_within_hands')),
    sa.CheckConstraint('sittings <= hands', name=op.f('ck_season_player_days_sittings_have_hands')),
    sa.CheckConstraint('sittings >= 0 AND hands >= 0 AND declared >= 0 AND won >= 0 AND lost >= 0 AND solos_won >= 0 AND touts_won >= 0 AND betes_paid >= 0 AND stamms_drawn >= 0 AND errors >= 0', name=op.f('ck_season_player_days_counts_not_negative')),
    sa.CheckConstraint('solos_won <= won AND touts_won <= won', name=op.f('ck_season_player_days_specials_within_won')),
    sa.CheckConstraint('won + lost <= declared', name=op.f('ck_season_player_days_results_within_declared')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_season_player_days_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_season_player_days_season_id_seasons'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('season_id', 'day', 'player_id', name=op.f('pk_season_player_days'))
    )
    with op.batch_alter_table('season_player_days', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_player_days_player_id'), ['player_id'], unique=False)

    op.create_table('season_players',
    sa.Column('season_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('sittings', sa.Integer(), nullable=False),
    sa.Column('hands', sa.Integer(), nullable=False),
    sa.Column('net', sa.Integer(), nullable=False),
    sa.Column('declared', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('lost', sa.Integer(), nullable=False),
    sa.Column('solos_won', sa.Integer(), nullable=False),
    sa.Column('touts_won', sa.Integer(), nullable=False),
    sa.Column('betes_paid', sa.Integer(), nullable=False),
    sa.Column('stamms_drawn', sa.Integer(), nullable=False),
    sa.Column('errors', sa.Integer(), nullable=False),
    sa.CheckConstraint('declared <= hands', name=op.f('ck_season_players_declared_within_hands')),
    sa.CheckConstraint('sittings <= hands', name=op.f('ck_season_players_sittings_have_hands')),
    sa.CheckConstraint('sittings >= 0 AND hands >= 0 AND declared >= 0 AND won >= 0 AND lost >= 0 AND solos_won >= 0 AND touts_won >= 0 AND betes_paid >= 0 AND stamms_drawn >= 0 AND errors >= 0', name=op.f('ck_season_players_counts_not_negative')),
    sa.CheckConstraint('solos_won <= won AND touts_won <= won', name=op.f('ck_season_players_specials_within_won')),
    sa.CheckConstraint('won + lost <= declared', name=op.f('ck_season_players_results_within_declared')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_season_players_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_season_players_season_id_seasons'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('season_id', 'player_id', name=op.f('pk_season_players'))
    )
    with op.batch_alter_table('season_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_players_player_id'), ['player_id'], unique=False)

    op.create_table('season_ratings',
    sa.Column('season_id', sa.String(length=32), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('sittings', sa.Integer(), nullable=False),
    sa.CheckConstraint('sigma > 0', name=op.f('ck_season_ratings_sigma_positive')),
    sa.CheckConstraint('sittings >= 1', name=op.f('ck_season_ratings_rated_at_least_once')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_season_ratings_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['season_id'], ['seasons.id'], name=op.f('fk_season_ratings_season_id_seasons'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('season_id', 'player_id', name=op.f('pk_season_ratings'))
    )
    with op.batch_alter_table('season_ratings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_season_ratings_player_id'), ['player_id'], unique=False)

    if op.get_context().dialect.name == "sqlite":
        op.execute("ALTER TABLE score_tables ADD COLUMN season_id VARCHAR(32) "
                   "CONSTRAINT fk_score_tables_season_id_seasons REFERENCES seasons (id)")
    else:
        op.add_column('score_tables', sa.Column('season_id', sa.String(length=32), nullable=True))
        op.create_foreign_key(op.f('fk_score_tables_season_id_seasons'), 'score_tables', 'seasons', ['season_id'], ['id'])
    op.create_index(op.f('ix_score_tables_season_id'), 'score_tables', ['season_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_score_tables_season_id'), table_name='score_tables')
    if op.get_context().dialect.name == "sqlite":
        _drop_season_id_on_sqlite()
    else:
        op.drop_constraint(op.f('fk_score_tables_season_id_seasons'), 'score_tables', type_='foreignkey')
        op.drop_column('score_tables', 'season_id')

    with op.batch_alter_table('season_ratings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_ratings_player_id'))

    op.drop_table('season_ratings')
    with op.batch_alter_table('season_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_players_player_id'))

    op.drop_table('season_players')
    with op.batch_alter_table('season_player_days', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_player_days_player_id'))

    op.drop_table('season_player_days')
    with op.batch_alter_table('season_player_contracts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_season_player_contracts_player_id'))

    op.drop_table('season_player_contracts')
    op.drop_table('player_careers')
    op.drop_table('player_career_contracts')
    with op.batch_alter_table('seasons', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seasons_club_id'))

    op.drop_table('seasons')


def _drop_season_id_on_sqlite():
    """SQLite cannot drop a column that is a foreign key, so the table is copied without it,
    with foreign keys off for the copy (else dropping the old table cascades into its hands)."""
    connection = op.get_bind()
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    if connection.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError("SQLite foreign keys could not be turned off (a transaction is open); "
                           "copying score_tables now would delete every hand. Run this "
                           "downgrade on its own.")
    with op.batch_alter_table('score_tables', recreate='always') as batch_op:
        batch_op.drop_column('season_id')
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
    if broken:
        raise RuntimeError(f"foreign keys broken by the downgrade: {broken[:5]}")
