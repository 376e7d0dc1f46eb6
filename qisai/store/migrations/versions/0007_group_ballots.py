"""Consultation groups' open decisions in the database (issue 33 item 7)

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 23:00:00

``group_ballots``: one row per consultation side of a game, holding its
open ballot (votes in order, the captain's confirmation, the deadline),
the members counted absent and the support of its motions as JSON, the
open ballot's deadline (indexed: the tick's lookup) and a version every
save increments (saves are conditional on it).  Before this the ballots
lived in one server's memory: a restart, or a second server of a cluster,
lost them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_table('group_ballots',
    sa.Column('game_id', sa.String(length=16), nullable=False),
    sa.Column('side', sa.String(length=8), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('deadline', sa.Float(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'],
                            name=op.f('fk_group_ballots_game_id_games'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('game_id', 'side', name=op.f('pk_group_ballots'))
    )
    with op.batch_alter_table('group_ballots', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_ballots_deadline'), ['deadline'],
                              unique=False)


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table('group_ballots', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_ballots_deadline'))
    op.drop_table('group_ballots')
