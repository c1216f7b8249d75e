"""deleted_tokens: a token deleted with its table or club ends its streams

Revision ID: 0019_deleted_tokens
Revises: 0018_program_tokens
Create Date: 2026-12-07 02:00:00

A token's row deleted (by hand, or by the cascade of its table's or club's deletion) leaves no
``revoked_at`` for the change feeds to find, so the streams opened with it went on. A trigger
on ``tokens`` notes each deleted token in ``deleted_tokens`` (kept a day: the trigger drops the
older notes), which SQLite's feeds read after every commit as they read the tokens revoked
lately, and PostgreSQL's on catching up; on PostgreSQL it also announces the token on
``token_revocations`` in the deleting transaction, as ``auth.announce_revoked`` does a
revocation (``service/services/live_feed.py``). Triggers are written by hand: autogenerate
does not see them. A later migration that copies ``tokens`` on SQLite (a batch operation)
drops the trigger and must make it again.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0019_deleted_tokens"
down_revision = "0018_program_tokens"
branch_labels = None
depends_on = None

# SQLAlchemy's text of a time on SQLite (microseconds), so that the feeds' bound times
# compare with it as they do with ``tokens.revoked_at``.
_SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'"
_SQLITE_A_DAY_AGO = "strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 day') || '000'"


def upgrade():
    op.create_table(
        "deleted_tokens",
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_id", name=op.f("pk_deleted_tokens")),
    )
    op.create_index(
        op.f("ix_deleted_tokens_deleted_at"), "deleted_tokens", ["deleted_at"], unique=False
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("""
            CREATE FUNCTION note_token_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM deleted_tokens WHERE deleted_at < now() - interval '1 day';
                INSERT INTO deleted_tokens (token_id, deleted_at) VALUES (OLD.id, now())
                    ON CONFLICT (token_id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at;
                PERFORM pg_notify('token_revocations', OLD.id);
                RETURN OLD;
            END
            $$""")
        op.execute("""
            CREATE TRIGGER tokens_deleted_note
            AFTER DELETE ON tokens
            FOR EACH ROW EXECUTE FUNCTION note_token_deleted()""")
    else:
        op.execute(f"""
            CREATE TRIGGER tokens_deleted_note
            AFTER DELETE ON tokens
            FOR EACH ROW BEGIN
                DELETE FROM deleted_tokens WHERE deleted_at < {_SQLITE_A_DAY_AGO};
                INSERT OR REPLACE INTO deleted_tokens (token_id, deleted_at)
                    VALUES (OLD.id, {_SQLITE_NOW});
            END""")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER tokens_deleted_note ON tokens")
        op.execute("DROP FUNCTION note_token_deleted()")
    else:
        op.execute("DROP TRIGGER tokens_deleted_note")
    op.drop_index(op.f("ix_deleted_tokens_deleted_at"), table_name="deleted_tokens")
    op.drop_table("deleted_tokens")
