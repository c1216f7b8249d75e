"""standings periods: season_player_days becomes season_player_periods (day, month and year)

Revision ID: 0014_standings_periods
Revises: 0013_night_money
Create Date: 2026-12-06 22:40:00

A season's standings between two dates summed every day's row in the range: their cost grew
with the days times the players. Each sitting now counts in its day, its month and its year
(``services/league/periods.py``), and a range is read as whole periods, a bounded number of
rows a player. The day rows are copied as they are; the months' and years' rows are their sums.

Reviewed by hand. Nothing refers to season_player_days, so dropping it deletes nothing else.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014_standings_periods"
down_revision = "0013_night_money"
branch_labels = None
depends_on = None

COUNTERS = (
    "sittings",
    "hands",
    "net",
    "declared",
    "won",
    "lost",
    "solos_won",
    "touts_won",
    "betes_paid",
    "stamms_drawn",
    "errors",
)


def _counter_columns():
    return [sa.Column(name, sa.Integer(), nullable=False) for name in COUNTERS]


def _counter_checks(table):
    non_negative = " AND ".join(f"{name} >= 0" for name in COUNTERS if name != "net")
    return [
        sa.CheckConstraint("declared <= hands", name=op.f(f"ck_{table}_declared_within_hands")),
        sa.CheckConstraint("sittings <= hands", name=op.f(f"ck_{table}_sittings_have_hands")),
        sa.CheckConstraint(non_negative, name=op.f(f"ck_{table}_counts_not_negative")),
        sa.CheckConstraint(
            "solos_won <= won AND touts_won <= won", name=op.f(f"ck_{table}_specials_within_won")
        ),
        sa.CheckConstraint(
            "won + lost <= declared", name=op.f(f"ck_{table}_results_within_declared")
        ),
    ]


def _foreign_keys(table):
    """The rows' player and season, deleted with them (both tables alike)."""
    return [
        sa.ForeignKeyConstraint(
            [column],
            [f"{target}.id"],
            name=op.f(f"fk_{table}_{column}_{target}"),
            ondelete="CASCADE",
        )
        for column, target in (("player_id", "players"), ("season_id", "seasons"))
    ]


def _period_start(span, column):
    """SQL for the first day of the ``span`` holding the date ``column``."""
    if op.get_context().dialect.name == "sqlite":
        return f"date({column}, 'start of {span}')"
    return f"CAST(date_trunc('{span}', {column}) AS DATE)"


def upgrade():
    table = "season_player_periods"
    op.create_table(
        table,
        sa.Column("season_id", sa.String(length=32), nullable=False),
        sa.Column("span", sa.String(length=5), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        *_counter_columns(),
        *_counter_checks(table),
        sa.CheckConstraint("span IN ('day', 'month', 'year')", name=op.f(f"ck_{table}_span_known")),
        *_foreign_keys(table),
        sa.PrimaryKeyConstraint(
            "season_id", "span", "starts_on", "player_id", name=op.f(f"pk_{table}")
        ),
    )
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.create_index(batch_op.f(f"ix_{table}_player_id"), ["player_id"], unique=False)
    counters = ", ".join(COUNTERS)
    sums = ", ".join(f"SUM({name})" for name in COUNTERS)
    op.execute(
        f"INSERT INTO {table} (season_id, span, starts_on, player_id, {counters}) "
        f"SELECT season_id, 'day', day, player_id, {counters} FROM season_player_days"
    )
    for span in ("month", "year"):
        start = _period_start(span, "day")
        op.execute(
            f"INSERT INTO {table} (season_id, span, starts_on, player_id, {counters}) "
            f"SELECT season_id, '{span}', {start}, player_id, {sums} FROM season_player_days "
            f"GROUP BY season_id, {start}, player_id"
        )
    with op.batch_alter_table("season_player_days", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_season_player_days_player_id"))
    op.drop_table("season_player_days")


def downgrade():
    table = "season_player_days"
    op.create_table(
        table,
        sa.Column("season_id", sa.String(length=32), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        *_counter_columns(),
        *_counter_checks(table),
        *_foreign_keys(table),
        sa.PrimaryKeyConstraint("season_id", "day", "player_id", name=op.f(f"pk_{table}")),
    )
    with op.batch_alter_table(table, schema=None) as batch_op:
        batch_op.create_index(batch_op.f(f"ix_{table}_player_id"), ["player_id"], unique=False)
    counters = ", ".join(COUNTERS)
    op.execute(
        f"INSERT INTO {table} (season_id, day, player_id, {counters}) "
        f"SELECT season_id, starts_on, player_id, {counters} FROM season_player_periods "
        "WHERE span = 'day'"
    )
    with op.batch_alter_table("season_player_periods", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_season_player_periods_player_id"))
    op.drop_table("season_player_periods")
