"""A consultation group's open decisions in the database (issue 33 item 7).

One :class:`~qisai.store.models.GroupBallot` row per group side of a game
holds what the group has not decided yet: the ballot of its turn (the
votes in the order cast, the captain's confirmation, when it opened and
its deadline), the members counted absent, and the supporters of each
motion (resign, draw) in the current position.  Every vote and motion
reads the row, changes it and writes it back on condition that nobody
wrote it meanwhile (``version``); so a restarted server resumes an open
vote, a second server of the cluster counts the votes taken by the first
(issue 30: the database is the truth), and the group's move is played by
the one server whose write closed the ballot.

Blocking calls: the caller runs them in a worker thread.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from qisai.referee.consultation import MOTIONS, Ballot, Consultation
from qisai.store.models import GroupBallot

__all__ = ["Decisions", "due", "load", "save"]


@dataclass
class Decisions:
    """A group side's open decisions, as stored (``version`` 0: no row yet)."""

    version: int = 0
    ballot: Ballot | None = None
    ply: int = 0
    """The ply the ballot is for."""
    absent: frozenset[str] = frozenset()
    """Members who missed a ballot's reserve and have not voted since."""
    motions: dict[str, set[str]] = field(default_factory=dict)
    """Motion (resign, offer_draw ...) -> its supporters, for :attr:`motion_ply`."""
    motion_ply: int = -1


def _data(d: Decisions) -> dict[str, Any]:
    b = d.ballot
    return {
        "ply": d.ply, "absent": sorted(d.absent),
        "ballot": None if b is None else {
            "opened_at": b.opened_at, "deadline": b.deadline, "absent": sorted(b.absent),
            # a list, not an object: the order of the votes breaks ties
            "votes": [[who, move] for who, move in b.votes.items()],
            "confirmed": b.confirmed},
        "motions": {k: sorted(v) for k, v in d.motions.items()}, "motion_ply": d.motion_ply}


def _strings(value: Any) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list) else []


def _decisions(data: dict[str, Any], version: int, setting: Consultation) -> Decisions:
    """The stored ``data`` read back; what does not fit the group's setting
    now (a member who left) is dropped."""
    members = set(setting.members)
    d = Decisions(version=version, ply=int(data.get("ply", 0)),
                  absent=frozenset(m for m in _strings(data.get("absent")) if m in members),
                  motion_ply=int(data.get("motion_ply", -1)))
    motions = data.get("motions")
    if isinstance(motions, dict):
        d.motions = {k: {m for m in _strings(v) if m in members}
                     for k, v in motions.items() if k in MOTIONS}
    b = data.get("ballot")
    if isinstance(b, dict):
        ballot = Ballot(setting, float(b["opened_at"]), float(b["deadline"]),
                        frozenset(m for m in _strings(b.get("absent")) if m in members))
        for pair in b.get("votes", []):
            if isinstance(pair, list) and len(pair) == 2 and str(pair[0]) in members:
                ballot.votes[str(pair[0])] = str(pair[1])
        confirmed = b.get("confirmed")
        ballot.confirmed = None if confirmed is None else str(confirmed)
        d.ballot = ballot
    return d


def load(s: Session, game_id: str, side: str, setting: Consultation) -> Decisions:
    """Return the open decisions of ``side`` (``first``/``second``) of game
    ``game_id`` played by a group of ``setting``; empty if none is stored."""
    row = s.get(GroupBallot, (game_id, side), populate_existing=True)
    if row is None:
        return Decisions()
    return _decisions(dict(row.data), row.version, setting)


def save(s: Session, game_id: str, side: str, d: Decisions) -> bool:
    """Store ``d`` if nobody stored the side's decisions since it was read
    (``d.version``) and commit; then ``d.version`` grows by one.  Returns
    False, storing nothing, when another request (or server) wrote first:
    read again and retry."""
    data = _data(d)
    b = d.ballot
    # the tick looks only for ballots its deadline can decide: majority, a vote cast
    deadline = None if (b is None or b.confirmed is not None or not b.votes
                        or b.setting.mode != "majority") else b.deadline
    try:
        if d.version == 0:
            s.add(GroupBallot(game_id=game_id, side=side, data=data, deadline=deadline,
                              version=1))
            s.commit()
        else:
            res = s.execute(update(GroupBallot)
                            .where(GroupBallot.game_id == game_id, GroupBallot.side == side,
                                   GroupBallot.version == d.version)
                            .values(data=data, deadline=deadline, version=d.version + 1))
            if res.rowcount != 1:  # type: ignore[attr-defined]
                s.rollback()
                return False
            s.commit()
    except IntegrityError:  # another server made the row first
        s.rollback()
        return False
    d.version += 1
    return True


def due(s: Session, game_ids: Collection[str], now: float) -> list[tuple[str, str]]:
    """Return ``(game id, side)`` of the open ballots of games ``game_ids``
    whose deadline has come at ``now`` (the tick decides them)."""
    if not game_ids:
        return []
    return [(g, side) for g, side in s.execute(
        select(GroupBallot.game_id, GroupBallot.side)
        .where(GroupBallot.game_id.in_(list(game_ids)), GroupBallot.deadline <= now))]
