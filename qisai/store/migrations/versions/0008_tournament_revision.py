"""An event row's revision: a token changed at every write (issue 29)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 22:30:00

``tournaments.revision``: a random token that every write of the row
replaces (:attr:`qisai.store.models.Tournament.revision`).  The event
pages keep an event read once per process and, before each page, checked
whether the stored event changed by reading and hashing the whole
``settings`` text (4.4 MB for a 2,000-entry, 50-round event); reading
this 32-character column is enough.  The rows there are get ``0`` (their
next write gives them a token).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.String(length=32), server_default='0',
                                      nullable=False))


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('revision')
