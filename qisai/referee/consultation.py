"""Consultation play (会商 / 联棋): a side played by a group of people.

At the warm-up of the first man-vs-machine contest, 25 online amateurs
played five boards against 柳大华 (seed 001): each board's side was a group.
The group's members propose moves; the side's move is chosen by the game's
setting:

* ``captain``: the captain confirms one move (any legal move, usually one
  proposed); the others advise.
* ``majority``: every member votes once; once all have voted the move with
  the most votes is played.  When the group's reserved seconds run out
  (counted from the moment the side is to move), the votes cast so far
  decide.  A move with more than half of all members' votes is played at
  once: the remaining votes could not change the outcome.  A tie goes to
  the captain's vote when the captain voted for one of the tied moves, else
  to the tied move proposed first.

The reserve is capped at the side's time left (less :data:`SAFETY_SECONDS`
for the server to play the move), so a group with a move proposed never
loses on time waiting for the others: the votes cast decide first.

Absent members (issue 33 item 7): a member who had not voted when a ballot
ran to its reserve is counted *absent* from then on, until he votes again.
A ballot waits only for the members present, so an absent member costs the
reserve once, not on every split vote.

Resigning and draws (:meth:`Consultation.carries`): in ``captain`` mode the
captain's word is the group's; in ``majority`` mode a motion (resign, offer
or accept or decline a draw) carries once more than half of the members
present support it.

The clock runs for the side as one (the referee's clock knows nothing of
the group).  A :class:`Ballot` is one decision; open a new one for each of
the side's turns.  Pure: the caller gives the time and checks legality.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

__all__ = ["ConsultationError", "Consultation", "Ballot", "MOTIONS", "SAFETY_SECONDS"]

MAX_MEMBERS = 50

SAFETY_SECONDS = 2.0
"""Seconds of the side's clock left unused when the reserve is capped: the
server decides ballots on a half-second tick and then plays the move."""

MOTIONS = ("resign", "offer_draw", "accept_draw", "decline_draw")
"""What a group decides besides its move (the referee's action names)."""


class ConsultationError(ValueError):
    """A proposal, vote or confirmation is refused; the message says why in
    Chinese then English."""


def _refuse(zh: str, en: str) -> ConsultationError:
    return ConsultationError(f"{zh} / {en}")


@dataclass(frozen=True, slots=True)
class Consultation:
    """The group's setting: its member keys (2..:data:`MAX_MEMBERS`), the
    captain (one of them; required for ``captain`` mode), the mode and the
    reserved seconds for a majority decision.

    Raises :class:`ConsultationError` for a setting that cannot work.
    """

    members: tuple[str, ...]
    captain: str | None = None
    mode: str = "majority"
    reserve_seconds: float = 60.0

    def __post_init__(self) -> None:
        if not 2 <= len(self.members) <= MAX_MEMBERS:
            raise _refuse(f"会商小组须有 2 到 {MAX_MEMBERS} 人",
                          f"a consultation group has 2 to {MAX_MEMBERS} members")
        if len(set(self.members)) != len(self.members):
            raise _refuse("小组成员重复", "a member is listed twice")
        if self.mode not in ("captain", "majority"):
            raise _refuse(f"未知的会商方式 {self.mode!r}",
                          f"unknown mode {self.mode!r}; expected captain or majority")
        if self.captain is not None and self.captain not in self.members:
            raise _refuse("队长须是小组成员", "the captain must be a member")
        if self.mode == "captain" and self.captain is None:
            raise _refuse("队长决定方式须指定队长", "captain mode needs a captain")
        if not 1 <= self.reserve_seconds <= 3600:
            raise _refuse("保留时间须在 1 到 3600 秒之间",
                          "the reserved time must be 1 to 3600 seconds")

    def ballot(self, opened_at: float, time_left: float | None = None,
               absent: Collection[str] = ()) -> Ballot:
        """Return a new :class:`Ballot` for a turn that began at ``opened_at``
        with ``time_left`` seconds on the side's clock then (``None``: no
        clock) and the members in ``absent`` not waited for.

        Its deadline is the reserve, capped at ``time_left`` less
        :data:`SAFETY_SECONDS` (never before ``opened_at``)."""
        wait = self.reserve_seconds
        if time_left is not None:
            wait = max(0.0, min(wait, time_left - SAFETY_SECONDS))
        return Ballot(self, opened_at, opened_at + wait,
                      frozenset(a for a in absent if a in self.members))

    def present(self, absent: Collection[str]) -> int:
        """Return how many members are present (not in ``absent``), at least 1."""
        return max(1, sum(1 for m in self.members if m not in absent))

    def carries(self, motion: str, who: str, supporters: Collection[str],
                absent: Collection[str] = ()) -> bool:
        """Return whether ``motion`` (one of :data:`MOTIONS`), just supported
        by ``who`` and so far by ``supporters`` (``who`` among them), is the
        group's decision: the captain's word in ``captain`` mode; more than
        half of the members present in ``majority`` mode.

        Raises :class:`ConsultationError` for a non-member, an unknown motion,
        or a member other than the captain in ``captain`` mode."""
        if who not in self.members:
            raise _refuse("你不是这一方的会商成员", "you are not a member of this side's group")
        if motion not in MOTIONS:
            raise _refuse(f"未知的提议 {motion!r}", f"unknown motion {motion!r}")
        if self.mode == "captain":
            if who != self.captain:
                raise _refuse("队长决定方式：只有队长可以代表小组认输或提和、应和",
                              "captain mode: only the captain resigns or offers or "
                              "answers a draw for the group")
            return True
        support = sum(1 for m in set(supporters) if m in self.members)
        return support * 2 > self.present(absent)


@dataclass(slots=True)
class Ballot:
    """One decision of the group: proposals/votes in order, and the
    captain's confirmation."""

    setting: Consultation
    opened_at: float
    deadline: float = float("inf")
    """When the votes cast decide (see :meth:`Consultation.ballot`)."""
    absent: frozenset[str] = frozenset()
    """Members not waited for (they missed an earlier ballot's reserve)."""
    votes: dict[str, str] = field(default_factory=dict)  # member -> move, in voting order
    confirmed: str | None = None

    def __post_init__(self) -> None:
        if self.deadline == float("inf"):
            self.deadline = self.opened_at + self.setting.reserve_seconds

    def _member(self, who: str) -> None:
        if who not in self.setting.members:
            raise _refuse("你不是这一方的会商成员", "you are not a member of this side's group")
        if self.confirmed is not None:
            raise _refuse("本步已经决定", "this move has already been decided")

    def vote(self, who: str, move: str) -> None:
        """Record ``who``'s proposal/vote for ``move`` (canonical text, e.g.
        ICCS or a GTP point, checked legal by the caller).

        Raises :class:`ConsultationError` for a non-member, a second vote, an
        empty move, or a ballot already decided.
        """
        self._member(who)
        if not isinstance(move, str) or not move or len(move) > 16:
            raise _refuse("着法无效", "not a move")
        if who in self.votes:
            raise _refuse("你已经投过票", "you have already voted on this move")
        self.votes[who] = move

    def confirm(self, who: str, move: str) -> str:
        """The captain confirms ``move`` (captain mode, or in majority mode
        to settle at once); returns it.

        Raises :class:`ConsultationError` if ``who`` is not the captain.
        """
        self._member(who)
        if who != self.setting.captain:
            raise _refuse("只有队长可以确认着法", "only the captain confirms the move")
        if not isinstance(move, str) or not move or len(move) > 16:
            raise _refuse("着法无效", "not a move")
        self.confirmed = move
        return move

    def tally(self) -> list[tuple[str, int]]:
        """Return ``(move, votes)`` pairs, most votes first, then first proposed."""
        counts: dict[str, int] = {}
        for move in self.votes.values():
            counts[move] = counts.get(move, 0) + 1
        order = list(counts)  # insertion order = order first proposed
        return sorted(counts.items(), key=lambda kv: (-kv[1], order.index(kv[0])))

    def decision(self, now: float) -> str | None:
        """Return the group's move if it is decided at time ``now``, else None.

        Captain mode: the captain's confirmation.  Majority mode: as the
        module docstring says (the members present have all voted, or the
        deadline has come).  No vote at all when the reserve runs out
        gives None: the side's clock keeps running.
        """
        if self.confirmed is not None:
            return self.confirmed
        if self.setting.mode == "captain":
            return None
        table = self.tally()
        if not table:
            return None
        n = len(self.setting.members)
        if table[0][1] * 2 > n:
            return table[0][0]
        waiting = [m for m in self.setting.members
                   if m not in self.votes and m not in self.absent]
        if waiting and now < self.deadline:
            return None
        best = table[0][1]
        tied = [m for m, c in table if c == best]
        captain_vote = self.votes.get(self.setting.captain or "")
        if captain_vote in tied:
            return captain_vote
        return tied[0]

    def absent_after(self, now: float) -> frozenset[str]:
        """Return the members to count absent on the next ballot, this one
        decided at ``now``: those absent before or, if it ran to its
        deadline, not voting in it; a member who voted is present again."""
        missed = set(self.absent)
        if self.confirmed is None and now >= self.deadline:
            missed |= {m for m in self.setting.members if m not in self.votes}
        return frozenset(m for m in missed if m not in self.votes)
