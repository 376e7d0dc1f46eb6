"""Event staff (organisers, chief arbiter, arbiters per event) and the site
administrator role

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 22:15:00

The site administrator (``users.role = 'admin'``) is new.  On a database
that has none, the earliest organiser (the first made: lowest ``created_at``,
then lowest id) becomes its administrator, so that the site keeps someone
who may grant roles; a database without organisers gets none (``qisai role
NAME admin`` makes the first).  Downgrading turns administrators back into
organisers.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table('event_staff',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tournament_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('appointed_by_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['appointed_by_id'], ['users.id'],
                            name=op.f('fk_event_staff_appointed_by_id_users'),
                            ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                            name=op.f('fk_event_staff_tournament_id_tournaments'),
                            ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_event_staff_user_id_users'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_event_staff')),
    sa.UniqueConstraint('tournament_id', 'user_id', name='uq_event_staff_tournament_user')
    )
    with op.batch_alter_table('event_staff', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_staff_tournament_id'), ['tournament_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_event_staff_user_id'), ['user_id'], unique=False)

    users = sa.table('users', sa.column('id', sa.Integer()), sa.column('role', sa.String()),
                     sa.column('created_at', sa.DateTime(timezone=True)))
    conn = op.get_bind()
    has_admin = conn.execute(sa.select(users.c.id).where(users.c.role == 'admin')).first()
    if has_admin is None:
        first = conn.execute(sa.select(users.c.id).where(users.c.role == 'organiser')
                             .order_by(users.c.created_at, users.c.id).limit(1)).first()
        if first is not None:
            conn.execute(sa.update(users).where(users.c.id == first[0]).values(role='admin'))


def downgrade() -> None:
    """Revert this migration."""
    users = sa.table('users', sa.column('role', sa.String()))
    op.get_bind().execute(sa.update(users).where(users.c.role == 'admin')
                          .values(role='organiser'))
    with op.batch_alter_table('event_staff', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_staff_user_id'))
        batch_op.drop_index(batch_op.f('ix_event_staff_tournament_id'))
    op.drop_table('event_staff')
