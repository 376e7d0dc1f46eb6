"""Group round robin (分组循环制, 11.3).

Seeds are ordered by rating (or previous results) and snaked into groups —
group 1 gets seeds 1, 2k, 2k+1, ...; group 2 seeds 2, 2k-1, ... — so the
groups are as even as possible.  Each group is a round robin
(:class:`qisai.competition.tournament.Tournament`); the top places of each
group go on to the final stage ("从各组选出一定人(队)数进行决赛").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from qisai.competition.errors import CompetitionError, EventStateError
from qisai.competition.scoring import ScoringTable
from qisai.competition.tournament import Player, System, Tournament


def snake_groups(seeded: Sequence[Player], groups: int) -> list[list[Player]]:
    """Distribute ``seeded`` (best first) into ``groups`` groups by the snake
    (蛇形) order.  Returns the groups.

    Raises :class:`CompetitionError` if ``groups`` < 1 or a group would have
    fewer than two entries.
    """
    if groups < 1:
        raise CompetitionError(f"组数至少为 1，实为 {groups}",
                               f"number of groups must be at least 1, got {groups}")
    if len(seeded) < 2 * groups:
        raise CompetitionError(
            f"{len(seeded)} 名参赛者分不满 {groups} 个至少两人的组",
            f"{len(seeded)} entries cannot fill {groups} groups of at least two")
    out: list[list[Player]] = [[] for _ in range(groups)]
    for k, p in enumerate(seeded):
        row, col = divmod(k, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(p)
    return out


@dataclass(slots=True)
class GroupStage:
    """The preliminary stage: one round robin per group."""

    name: str
    groups: list[Tournament] = field(default_factory=list)

    @classmethod
    def create(cls, name: str, players: Sequence[Player], groups: int, *,
               scoring: ScoringTable | None = None, rules: str | None = None,
               seed: int = 0) -> GroupStage:
        """Seed ``players`` by rating (best first; equal ratings keep their
        order), snake them into ``groups`` round robins and start them.
        Each group plays under ``rules`` and scores by ``scoring``, which
        defaults to the profile's points (see :class:`Tournament`).

        Raises :class:`CompetitionError` (see :func:`snake_groups`).
        """
        seeded = sorted(players, key=lambda p: -p.rating)
        stage = cls(name)
        for k, members in enumerate(snake_groups(seeded, groups), start=1):
            t = Tournament(f"{name} group {k}", System.ROUND_ROBIN, scoring=scoring,
                           rules=rules, seed=seed * 1000 + k)
            for p in members:
                t.add_player(Player(p.name, p.rating, p.title, p.club, p.team, p.federation))
            t.start()
            stage.groups.append(t)
        return stage

    def qualifiers(self, per_group: int) -> list[Player]:
        """Return the top ``per_group`` of each group, ordered by place and then
        group (all group winners first), for the final stage.

        Raises :class:`EventStateError` while a group is unfinished and
        :class:`CompetitionError` if ``per_group`` is out of range.
        """
        if per_group < 1:
            raise CompetitionError(f"per_group 至少为 1，实为 {per_group}",
                                   f"per_group must be at least 1, got {per_group}")
        table: list[list[Player]] = []
        for t in self.groups:
            if not t.finished:
                raise EventStateError(f"{t.name} 尚未结束",
                                      f"{t.name} is not finished")
            st = t.standings()
            if per_group > len(st):
                raise CompetitionError(f"{t.name} 只有 {len(st)} 名排出名次的参赛者",
                                       f"{t.name} has only {len(st)} ranked entries")
            table.append([t.player(s.entry) for s in st[:per_group]])
        return [table[g][place] for place in range(per_group) for g in range(len(table))]
