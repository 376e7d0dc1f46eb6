"""Look-alike user names and failed log-ins told to the owner (issue 31)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 17:00:00

``user_name_keys``: the confusable skeletons (UTS #39) of each account's
user name, in the case written, lower and upper
(:func:`qisai.store.confusables.name_keys`), indexed, so a new name is
checked against every account's with one lookup; filled here for the
accounts there are (the accounts nobody logs in to, guests, consultation
groups and engines, have none: their names are the server's).

``users.failed_logins`` and ``users.failed_logins_since``: the wrong
passwords given for an account since its last log-in, which the owner is
told of when he next logs in.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from qisai.store.confusables import name_keys

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this migration."""
    keys = op.create_table('user_name_keys',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=255), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                            name=op.f('fk_user_name_keys_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_user_name_keys'))
    )
    with op.batch_alter_table('user_name_keys', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_user_name_keys_key'), ['key'], unique=False)
        batch_op.create_index(batch_op.f('ix_user_name_keys_user_id'), ['user_id'], unique=False)
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_logins', sa.Integer(), server_default='0',
                                      nullable=False))
        batch_op.add_column(sa.Column('failed_logins_since', sa.DateTime(timezone=True),
                                      nullable=True))
    conn = op.get_bind()
    users = conn.execute(sa.text("SELECT id, username FROM users "
                                 "WHERE password_hash IS NOT NULL"))
    rows = [{"user_id": uid, "key": key} for uid, name in users for key in name_keys(name)]
    if rows:
        op.bulk_insert(keys, rows)


def downgrade() -> None:
    """Revert this migration."""
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('failed_logins_since')
        batch_op.drop_column('failed_logins')
    with op.batch_alter_table('user_name_keys', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_user_name_keys_user_id'))
        batch_op.drop_index(batch_op.f('ix_user_name_keys_key'))
    op.drop_table('user_name_keys')
