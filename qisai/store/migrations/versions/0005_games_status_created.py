"""The games' lists by status, newest first, read from one index (status, created_at)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 01:40:00

The home page lists the open, live and finished games, twenty of each,
newest first (``repo.list_games`` with a status).  With an index on
``created_at`` and another on ``status`` the databases walked the games by
date and skipped those of other statuses: every game, for a status that is
rare (open games among many finished ones).  One index on (status,
created_at) is a seek and twenty rows, on SQLite and PostgreSQL alike
(checked with EXPLAIN).  Its first column serves the lookups by status
alone, so the index of status by itself goes.

Measured 2026-12-02 (shared 2-core machine, load average 3 to 4): the home
page's three lists on 21,100 games (20,000 finished, 1,000 live, 100 open)
took p50 4.6 ms before and 2.0 ms after on SQLite, 4.8 to 7.6 ms before and
4.3 to 4.9 ms after on PostgreSQL (which already walked the date index
well for the common statuses).  ``bench/home.py`` (1,000 live games, no
finished or open ones) shows no difference beyond its noise.
"""

from __future__ import annotations

from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    op.create_index('ix_games_status_created_at', 'games', ['status', 'created_at'],
                    unique=False)
    op.drop_index('ix_games_status', table_name='games')


def downgrade() -> None:
    """Revert this migration."""
    op.create_index('ix_games_status', 'games', ['status'], unique=False)
    op.drop_index('ix_games_status_created_at', table_name='games')
