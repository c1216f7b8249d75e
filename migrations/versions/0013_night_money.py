"""night money: a club night's rate, and club_night_changes (the history of its rate)

Revision ID: 0013_night_money
Revises: 0012_webhooks
Create Date: 2026-12-03 15:50:00

A club night may play for money, as a table may (0009): a rate in minor units of a currency
per chips or points, a table fee per player, how point games settle. The tables its draws open
carry it; every later change of the night's rate is kept in ``club_night_changes``.

Reviewed by hand. On SQLite, adding a CHECK copies ``club_nights`` ("move and copy"), and
dropping the old one with ``PRAGMA foreign_keys=ON`` would delete, through their ``ON DELETE
CASCADE``, every player, series and table link of every night. So that copy runs with foreign
keys off, and they are checked before they are turned back on (as 0009 does).
"""

from contextlib import contextmanager

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013_night_money"
down_revision = "0012_webhooks"
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
        raise RuntimeError(
            "SQLite foreign keys could not be turned off (a transaction is open); "
            "copying club_nights now would delete their rows. Run this "
            "migration on its own."
        )
    yield
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    connection.exec_driver_sql("PRAGMA foreign_keys=ON")
    if broken:
        raise RuntimeError(f"foreign keys broken by the migration: {broken[:5]}")


def upgrade():
    with _keys_off_on_sqlite():
        _add_money()
    _create_night_changes()


def _add_money():
    with op.batch_alter_table("club_nights", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rate_cents", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("rate_per", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("currency", sa.String(length=3), nullable=True))
        batch_op.add_column(sa.Column("table_fee_cents", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("point_settlement", sa.String(length=8), nullable=True))
        batch_op.create_check_constraint(
            op.f("ck_club_nights_rate_complete"),
            sa.text(
                "(rate_cents IS NULL AND rate_per IS NULL AND currency IS NULL"
                " AND table_fee_cents IS NULL AND point_settlement IS NULL)"
                " OR (rate_cents IS NOT NULL AND rate_per IS NOT NULL AND currency IS NOT NULL"
                " AND table_fee_cents IS NOT NULL AND rate_cents >= 0 AND rate_per >= 1"
                " AND length(currency) = 3 AND table_fee_cents >= 0)"
            ),
        )
        batch_op.create_check_constraint(
            op.f("ck_club_nights_point_settlement_known"),
            sa.text("point_settlement IS NULL OR point_settlement IN ('pairs', 'average')"),
        )


def _create_night_changes():
    op.create_table(
        "club_night_changes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("night_id", sa.String(length=32), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("token_kind", sa.String(length=8), nullable=False),
        sa.Column("setting", sa.String(length=16), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("imported", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.CheckConstraint("setting IN ('rate')", name=op.f("ck_club_night_changes_setting_known")),
        sa.ForeignKeyConstraint(
            ["night_id"],
            ["club_nights.id"],
            name=op.f("fk_club_night_changes_night_id_club_nights"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club_night_changes")),
    )
    with op.batch_alter_table("club_night_changes", schema=None) as batch_op:
        batch_op.create_index("ix_club_night_changes_night", ["night_id", "id"], unique=False)


def downgrade():
    with op.batch_alter_table("club_night_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_club_night_changes_night")
    op.drop_table("club_night_changes")
    with _keys_off_on_sqlite():
        _drop_money()


def _drop_money():
    with op.batch_alter_table("club_nights", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("ck_club_nights_point_settlement_known"), type_="check")
        batch_op.drop_constraint(op.f("ck_club_nights_rate_complete"), type_="check")
        batch_op.drop_column("point_settlement")
        batch_op.drop_column("table_fee_cents")
        batch_op.drop_column("currency")
        batch_op.drop_column("rate_per")
        batch_op.drop_column("rate_cents")
