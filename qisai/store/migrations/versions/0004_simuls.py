"""Simultaneous displays (issue 21): the ``simuls`` table

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 00:30:00

One row per display: host, name, status and the display's state as JSON
(:meth:`qisai.competition.simul.Simul.to_dict`), with a version that every
save increments (saves are conditional on it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table('simuls',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('host_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['host_id'], ['users.id'], name=op.f('fk_simuls_host_id_users')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_simuls'))
    )
    with op.batch_alter_table('simuls', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_simuls_host_id'), ['host_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_simuls_status'), ['status'], unique=False)


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table('simuls', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_simuls_status'))
        batch_op.drop_index(batch_op.f('ix_simuls_host_id'))
    op.drop_table('simuls')
