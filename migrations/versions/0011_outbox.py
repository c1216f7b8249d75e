"""change_events and change_cursors: the outbox, every change of a club numbered per club

Revision ID: 0011_outbox
Revises: 0008_idempotency
Create Date: 2026-12-02 17:30:00

Each change (a hand recorded, corrected or voided, a re-seating, a table opened or closed)
writes an event row in its own transaction (``service/services/outbox.py``); the streams, the
club's ``/changes`` feed and the webhooks read them. ``change_cursors`` holds each club's last
number.
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0011_outbox'
down_revision = '0010_club_nights'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('change_cursors',
    sa.Column('club_id', sa.String(length=32), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_change_cursors_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('club_id', name=op.f('pk_change_cursors'))
    )
    op.create_table('change_events',
    sa.Column('club_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('table_id', sa.String(length=32), nullable=True),
    sa.Column('version', sa.Integer(), nullable=True),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['club_id'], ['clubs.id'], name=op.f('fk_change_events_club_id_clubs'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('club_id', 'seq', name=op.f('pk_change_events'))
    )
    with op.batch_alter_table('change_events', schema=None) as batch_op:
        batch_op.create_index('ix_change_events_table', ['table_id', 'seq'], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        # Each event announced as "<club id> <seq>" when its transaction commits (the streams'
        # feed listens); written by hand, autogenerate does not see triggers.
        op.execute("""
            CREATE FUNCTION announce_change_event() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('club_changes', NEW.club_id || ' ' || NEW.seq);
                RETURN NEW;
            END
            $$""")
        op.execute("""
            CREATE TRIGGER change_events_announce
            AFTER INSERT ON change_events
            FOR EACH ROW EXECUTE FUNCTION announce_change_event()""")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER change_events_announce ON change_events")
        op.execute("DROP FUNCTION announce_change_event()")
    with op.batch_alter_table('change_events', schema=None) as batch_op:
        batch_op.drop_index('ix_change_events_table')

    op.drop_table('change_events')
    op.drop_table('change_cursors')
