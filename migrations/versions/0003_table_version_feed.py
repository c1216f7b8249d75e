"""PostgreSQL: every change of a table's version is announced on the channel table_versions

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 19:10:00

Written by hand (autogenerate does not see triggers). PostgreSQL only: each worker listens
on the channel and answers polls from the versions it hears (``service/services/
version_feed.py``). The payload is ``"<table id> <club id> <version>"``; a deleted table is
announced with version 0 and a TRUNCATE as ``"*"``. A trigger announces every writer's changes,
this service's on any host or anybody else's, and PostgreSQL sends a notification only when its
transaction commits. SQLite has no such channel, and nothing changes there.
"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("""
        CREATE FUNCTION announce_table_version() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN
                PERFORM pg_notify('table_versions', OLD.id || ' ' || OLD.club_id || ' 0');
                RETURN OLD;
            END IF;
            PERFORM pg_notify('table_versions',
                              NEW.id || ' ' || NEW.club_id || ' ' || NEW.version);
            RETURN NEW;
        END
        $$""")
    op.execute("""
        CREATE TRIGGER score_tables_announce_version
        AFTER INSERT OR DELETE OR UPDATE OF version, club_id ON score_tables
        FOR EACH ROW EXECUTE FUNCTION announce_table_version()""")
    op.execute("""
        CREATE FUNCTION announce_tables_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('table_versions', '*');
            RETURN NULL;
        END
        $$""")
    op.execute("""
        CREATE TRIGGER score_tables_announce_truncate
        AFTER TRUNCATE ON score_tables
        FOR EACH STATEMENT EXECUTE FUNCTION announce_tables_truncated()""")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER score_tables_announce_truncate ON score_tables")
    op.execute("DROP FUNCTION announce_tables_truncated()")
    op.execute("DROP TRIGGER score_tables_announce_version ON score_tables")
    op.execute("DROP FUNCTION announce_table_version()")
