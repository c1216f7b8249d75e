"""webhook_subscriptions, webhook_redeliveries, webhook_deliveries: a club's webhooks

Revision ID: 0012_webhooks
Revises: 0011_outbox
Create Date: 2026-12-02 17:55:51

A subscription keeps its deliverer's whole state (the last event it is done with, the retry,
the lease of the instance delivering it); the deliveries are the log of every attempt
(``service/services/webhooks``).
"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "0012_webhooks"
down_revision = "0011_outbox"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "webhook_subscriptions",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("club_id", sa.String(length=32), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("event_types", sa.JSON(), nullable=False),
        sa.Column("description", sa.String(length=200), nullable=True),
        sa.Column("secret", sa.String(length=100), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("disabled_reason", sa.String(length=300), nullable=True),
        sa.Column("delivered_seq", sa.Integer(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "attempt >= 0", name=op.f("ck_webhook_subscriptions_attempt_not_negative")
        ),
        sa.CheckConstraint(
            "delivered_seq >= 0", name=op.f("ck_webhook_subscriptions_delivered_seq_not_negative")
        ),
        sa.CheckConstraint("length(url) > 0", name=op.f("ck_webhook_subscriptions_url_not_empty")),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
            name=op.f("fk_webhook_subscriptions_club_id_clubs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_subscriptions")),
    )
    with op.batch_alter_table("webhook_subscriptions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_subscriptions_club_id"), ["club_id"], unique=False
        )

    op.create_table(
        "webhook_deliveries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subscription_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event_type", sa.String(length=40), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("manual", sa.Boolean(), nullable=False),
        sa.Column("outcome", sa.String(length=20), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.Column("latency_ms", sa.Integer(), nullable=False),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "outcome IN ('delivered', 'failed')", name=op.f("ck_webhook_deliveries_outcome_known")
        ),
        sa.CheckConstraint("attempt >= 1", name=op.f("ck_webhook_deliveries_attempt_positive")),
        sa.CheckConstraint(
            "latency_ms >= 0", name=op.f("ck_webhook_deliveries_latency_not_negative")
        ),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["webhook_subscriptions.id"],
            name=op.f("fk_webhook_deliveries_subscription_id_webhook_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_deliveries")),
    )
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.create_index(
            "ix_webhook_deliveries_subscription", ["subscription_id", "id"], unique=False
        )

    op.create_table(
        "webhook_redeliveries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subscription_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["webhook_subscriptions.id"],
            name=op.f("fk_webhook_redeliveries_subscription_id_webhook_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_redeliveries")),
    )
    with op.batch_alter_table("webhook_redeliveries", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_webhook_redeliveries_subscription_id"), ["subscription_id"], unique=False
        )


def downgrade():
    with op.batch_alter_table("webhook_redeliveries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_redeliveries_subscription_id"))

    op.drop_table("webhook_redeliveries")
    with op.batch_alter_table("webhook_deliveries", schema=None) as batch_op:
        batch_op.drop_index("ix_webhook_deliveries_subscription")

    op.drop_table("webhook_deliveries")
    with op.batch_alter_table("webhook_subscriptions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_webhook_subscriptions_club_id"))

    op.drop_table("webhook_subscriptions")
