"""table money and settings history: a table's rate, a club's currency, table_changes

Revision ID: 0009_table_money
Revises: 0008_idempotency
Create Date: 2026-12-02 17:40:00

A table may play for money (a rate in minor units of a currency per chips or points, a table
fee per player, how point games settle); a club has the currency new rates default to; every
later change of a table's season or rate is kept in ``table_changes``.

Reviewed by hand. On SQLite, adding a CHECK (and dropping a column again) copies the table
("move and copy"), and dropping the old ``clubs`` or ``score_tables`` with ``PRAGMA
foreign_keys=ON`` would delete, through their ``ON DELETE CASCADE``, every player, token, seat
and hand. So those copies run with foreign keys off, and are checked before they are turned back
on (as 0002's downgrade does).
"""
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = '0009_table_money'
down_revision = '0008_idempotency'
branch_labels = None
depends_on = None


@contextmanager
def _keys_off_on_sqlite():
    """Foreign keys off around a SQLite table copy (nothing to do elsewhere)."""
    if op.get_context().dialect.name != "sqlite":
        yield
        return
    connection = op.get_bind()
    connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
    if connection.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError("SQLite foreign keys could not be turned off (a transaction is open); "
                           "copying clubs or score_tables now would delete their rows. Run "
                           "this migration on its own.")
    yield
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
    if broken:
        raise RuntimeError(f"foreign keys broken by the migration: {broken[:5]}")


def upgrade():
    with _keys_off_on_sqlite():
        _add_money()
    _create_table_changes()


def _add_money():
    with op.batch_alter_table('clubs', schema=None) as batch_op:
        batch_op.add_column(sa.Column('currency', sa.String(length=3), server_default=sa.text("'EUR'"), nullable=False))
        batch_op.create_check_constraint(op.f('ck_clubs_currency_code'), sa.text('length(currency) = 3'))

    with op.batch_alter_table('score_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rate_cents', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('rate_per', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('currency', sa.String(length=3), nullable=True))
        batch_op.add_column(sa.Column('table_fee_cents', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('point_settlement', sa.String(length=8), nullable=True))
        batch_op.create_check_constraint(
            op.f('ck_score_tables_rate_complete'),
            sa.text("(rate_cents IS NULL AND rate_per IS NULL AND currency IS NULL"
            " AND table_fee_cents IS NULL AND point_settlement IS NULL)"
            " OR (rate_cents IS NOT NULL AND rate_per IS NOT NULL AND currency IS NOT NULL"
            " AND table_fee_cents IS NOT NULL AND rate_cents >= 0 AND rate_per >= 1"
            " AND length(currency) = 3 AND table_fee_cents >= 0)"),
        )
        batch_op.create_check_constraint(
            op.f('ck_score_tables_point_settlement_known'),
            sa.text("point_settlement IS NULL OR point_settlement IN ('pairs', 'average')"),
        )



def _create_table_changes():
    op.create_table('table_changes',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('token_id', sa.String(length=32), nullable=False),
    sa.Column('token_kind', sa.String(length=8), nullable=False),
    sa.Column('setting', sa.String(length=16), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('imported', sa.Boolean(), server_default=sa.false(), nullable=False),
    sa.CheckConstraint("setting IN ('season', 'rate')", name=op.f('ck_table_changes_setting_known')),
    sa.ForeignKeyConstraint(['table_id'], ['score_tables.id'], name=op.f('fk_table_changes_table_id_score_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_table_changes'))
    )
    with op.batch_alter_table('table_changes', schema=None) as batch_op:
        batch_op.create_index('ix_table_changes_table', ['table_id', 'id'], unique=False)


def downgrade():
    with op.batch_alter_table('table_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_table_changes_table')
    op.drop_table('table_changes')
    with _keys_off_on_sqlite():
        _drop_money()


def _drop_money():
    with op.batch_alter_table('score_tables', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_score_tables_point_settlement_known'), type_='check')
        batch_op.drop_constraint(op.f('ck_score_tables_rate_complete'), type_='check')
        batch_op.drop_column('point_settlement')
        batch_op.drop_column('table_fee_cents')
        batch_op.drop_column('currency')
        batch_op.drop_column('rate_per')
        batch_op.drop_column('rate_cents')

    with op.batch_alter_table('clubs', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_clubs_currency_code'), type_='check')
        batch_op.drop_column('currency')
