"""A ply is stored once per game: the index on (game_id, ply) becomes unique

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 00:00:00

Several server processes serve one database (issue 15): besides the
conditional append (the log's event count), the database itself refuses a
second event of the same ply in a game.  Non-move events have no ply (NULL),
and NULLs never collide in a unique index (PostgreSQL and SQLite alike).
"""

from __future__ import annotations

from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.drop_index('ix_game_events_game_ply', table_name='game_events')
    op.create_index('uq_game_events_game_ply', 'game_events', ['game_id', 'ply'], unique=True)


def downgrade() -> None:
    """Revert this migration."""
    op.drop_index('uq_game_events_game_ply', table_name='game_events')
    op.create_index('ix_game_events_game_ply', 'game_events', ['game_id', 'ply'], unique=False)
