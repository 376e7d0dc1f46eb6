"""Making a server game with a side played by a consultation group (会商):
used by ``POST /api/consultations`` and by any event that pairs a group
entrant (a simul's ``group:N`` entrant with ``user:ID`` members, see
:class:`qisai.competition.simul.SimulEntrant`).

The side is held by a *group account* (a user row without password, named
after the members) and the group's setting goes into the game's settings
under ``groups`` (see :mod:`qisai.web.exhibitions.consult`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from qisai.referee.consultation import Consultation, ConsultationError
from qisai.store import NotFoundError, repo

__all__ = ["GroupSpec", "create_group_game", "member_ids"]


class GroupSpec:
    """A group side: member account ids, captain, mode and reserved seconds.

    Raises :class:`ConsultationError` (its message in Chinese and English)
    for a setting that cannot work (see :class:`Consultation`)."""

    def __init__(self, members: Sequence[int], captain: int | None = None,
                 mode: str = "majority", reserve: float = 60.0) -> None:
        Consultation(tuple(str(m) for m in members), None if captain is None else str(captain),
                     mode, reserve)
        self.members = list(members)
        self.captain = captain
        self.mode = mode
        self.reserve = reserve


def member_ids(keys: Sequence[str]) -> list[int]:
    """Return the account ids of a group entrant's member keys
    (``user:7`` ...).  Raises :class:`ConsultationError` for any other key."""
    out: list[int] = []
    for k in keys:
        kind, _, num = k.partition(":")
        if kind != "user" or not num.isdigit():
            raise ConsultationError(f"小组成员须是账号：{k!r} / a group member must be an "
                                    f"account (user:ID), not {k!r}")
        out.append(int(num))
    return out


def create_group_game(s: Session, *, kind: str, ruleset: str, settings: dict[str, Any],
                      side: str, group: GroupSpec, other_user_id: int | None,
                      engine: str | None = None, created_by_id: int | None = None,
                      pairing_id: int | None = None, invited: Sequence[int] = ()) -> str:
    """Create (and commit) a game whose ``side`` (``first``/``second``) is
    played by ``group``; the other seat is ``other_user_id`` (``None``: open,
    or the engine's when ``engine`` is given).  Never rated.  Returns the
    game's id.  ``invited``: members of ``group`` asked to join who have
    not accepted yet (:func:`qisai.web.exhibitions.consult.GroupBoards.answer`):
    they are kept apart (``invited``) and named nowhere until they accept;
    the game starts once all have answered and the side has two members.

    Raises :class:`ConsultationError` for a member without an account.
    """
    names = []
    for uid in group.members:
        try:
            name = repo.get_user(s, uid).display_name
        except NotFoundError:
            raise ConsultationError(f"没有账号 {uid} / no account {uid}") from None
        if uid not in invited:
            names.append(name)
    # The group account holds the seat: the side is one player for the hub,
    # the clock and the records; nobody can log in as it.
    account = repo.create_user(s, f"group-{secrets.token_hex(6)}", password_hash=None,
                               display_name="、".join(names)[:80])
    settings = dict(settings)
    settings["groups"] = {side: {
        "members": [m for m in group.members if m not in invited], "names": names,
        "invited": [m for m in group.members if m in invited], "account": account.id,
        "captain": group.captain, "mode": group.mode, "reserve": group.reserve}}
    first, second = (account.id, other_user_id) if side == "first" else (other_user_id,
                                                                          account.id)
    g = repo.create_game(s, kind=kind, ruleset=ruleset, settings=settings, first_user_id=first,
                         second_user_id=second, created_by_id=created_by_id, rated=False,
                         engine=engine, pairing_id=pairing_id)
    return g.id
