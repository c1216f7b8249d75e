"""program tokens: a club's named token for a program, and the webhooks it made

Revision ID: 0018_program_tokens
Revises: 0017_series_length
Create Date: 2026-12-07 02:00:00

A ``program`` token reads what a read-only token reads and manages the webhooks it made
(docs/league.md). ``tokens`` takes the kind (its CHECKs widened, a program's token always
named); on SQLite it is copied for that, which is safe: nothing references it.
``webhook_subscriptions.token_id`` names the program token that made a webhook (null: the
club's admin's): a plain column, without a foreign key. With one, SQLite could not drop it
again in place, and its copy would drop the old table, which with ``PRAGMA foreign_keys=ON``
deletes every delivery and redelivery through their ``ON DELETE CASCADE`` (0002 and 0017 say
the same of ``score_tables``). Token rows are never deleted (only revoked), and a club's
deletion takes both.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0018_program_tokens"
down_revision = "0017_series_length"
branch_labels = None
depends_on = None

OLD_KINDS = "kind IN ('admin', 'table', 'viewer')"
NEW_KINDS = "kind IN ('admin', 'table', 'viewer', 'program')"
OLD_NAMED = "name IS NULL OR kind = 'viewer'"
NEW_NAMED = "name IS NULL OR kind IN ('viewer', 'program')"
PROGRAM_NAMED = "kind <> 'program' OR name IS NOT NULL"


def _checks(kinds: str, named: str, program_named: bool) -> None:
    with op.batch_alter_table("tokens", schema=None, recreate="auto") as batch_op:
        batch_op.drop_constraint(op.f("ck_tokens_kind_known"), type_="check")
        batch_op.create_check_constraint(op.f("ck_tokens_kind_known"), sa.text(kinds))
        batch_op.drop_constraint(op.f("ck_tokens_only_viewer_tokens_named"), type_="check")
        batch_op.create_check_constraint(op.f("ck_tokens_only_viewer_tokens_named"), sa.text(named))
        if program_named:
            batch_op.create_check_constraint(
                op.f("ck_tokens_program_tokens_named"), sa.text(PROGRAM_NAMED)
            )
        else:
            batch_op.drop_constraint(op.f("ck_tokens_program_tokens_named"), type_="check")


def upgrade():
    _checks(NEW_KINDS, NEW_NAMED, True)
    op.add_column(
        "webhook_subscriptions", sa.Column("token_id", sa.String(length=32), nullable=True)
    )


def downgrade():
    # A downgraded service knows no program token: the programs' tokens go, and their
    # webhooks stay, turned off, for the admin to see (and delete or turn back on).
    subscriptions = sa.table(
        "webhook_subscriptions",
        sa.column("token_id", sa.String),
        sa.column("enabled", sa.Boolean),
        sa.column("disabled_reason", sa.String),
        sa.column("disabled_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        subscriptions.update()
        .where(subscriptions.c.token_id.is_not(None))
        .values(
            enabled=False,
            disabled_at=sa.func.current_timestamp(),
            disabled_reason="its program's token was removed",
        )
    )
    # SQLite (3.35 and later) drops a plain column in place: no copy of the table.
    op.drop_column("webhook_subscriptions", "token_id")
    op.execute("DELETE FROM tokens WHERE kind = 'program'")
    _checks(OLD_KINDS, OLD_NAMED, False)
