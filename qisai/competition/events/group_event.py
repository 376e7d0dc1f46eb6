"""Group round robin with a final (分组循环制, 11.3)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from qisai.competition.errors import CompetitionError, EventStateError, ResultError
from qisai.competition.events.common import (
    BoardSlot,
    EntryList,
)
from qisai.competition.groups import GroupStage, snake_groups
from qisai.competition.model import Result
from qisai.competition.tournament import Player, System, Tournament

# -------------------------------------------------------------------- groups
GROUPINGS = ("snake", "lot")
FINAL_STAGES = ("round_robin", "none")


class GroupEvent(EntryList):
    """A group round robin (分组循环制, 11.3).

    At :meth:`start` the entries are split into ``groups`` groups: seeded by
    rating and snaked (:meth:`GroupStage.create`), or snaked in an order
    drawn by lot.  Every group is a round robin (Berger tables, numbers by
    lot, 15.1 tie-breaks) and the groups play their round ``r`` in the
    event's round ``r``.  Once every group is over, the top ``advance`` of
    each go on to a final round robin (``final="round_robin"``, "从各组选出一定
    人数进行决赛"), whose rounds follow the group rounds; with ``final="none"``
    the group standings are the result.

    Entry numbers of the event (``Player.id`` in :attr:`players`) run 1..n
    group after group, each group in its own pairing-number order; inside a
    group or the final an entry has that round robin's number.
    """

    def __init__(self, name: str, *, groups: int = 2, grouping: str = "snake",
                 advance: int = 2, final: str = "round_robin", seed: int = 0,
                 rules: str | None = None) -> None:
        """Raises :class:`CompetitionError` for a bad option.  ``rules``
        names the rule profile: the groups and the final score by its points
        (``cxa-2007``: win 3, loss 0, draw 1 to Red and 2 to Black)."""
        if not 2 <= groups <= 32:
            raise CompetitionError(f"组数须为 2..32，不是 {groups}",
                                   f"groups must be 2..32, not {groups}")
        if grouping not in GROUPINGS:
            raise CompetitionError(f"分组方式须为 snake（蛇形）或 lot（抽签），不是 {grouping!r}",
                                   f"grouping must be snake or lot, not {grouping!r}")
        if final not in FINAL_STAGES:
            raise CompetitionError(f"决赛须为 round_robin（循环）或 none（无），不是 {final!r}",
                                   f"final must be round_robin or none, not {final!r}")
        if advance < 1:
            raise CompetitionError(f"出线人数至少为 1，不是 {advance}",
                                   f"advance must be at least 1, not {advance}")
        self.name, self.group_count, self.grouping = name, groups, grouping
        self.advance, self.final_stage, self.seed = advance, final, seed
        self.rules = rules
        self.players: list[Player] = []
        self.stage: GroupStage | None = None
        self.final: Tournament | None = None

    # -- entries
    @property
    def started(self) -> bool:
        """True once the groups are drawn."""
        return self.stage is not None

    def start(self) -> None:
        """Draw the groups and start their round robins.  Raises
        :class:`CompetitionError` if started, with too few entries for the
        groups, or, with a final, when a group would be smaller than
        ``advance`` + 1 (the final would take a whole group)."""
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
        n, g = len(self.players), self.group_count
        if n < 2 * g:
            raise EventStateError(f"{self.name}：{n} 名参赛者分不满 {g} 个至少两人的组",
                                  f"{self.name}: {n} entries cannot fill {g} groups of at "
                                  "least two")
        if self.final_stage == "round_robin" and n // g <= self.advance:
            raise CompetitionError(f"{self.name}：{n // g} 人一组，每组出线不了 {self.advance} 人",
                                   f"{self.name}: groups of {n // g} cannot send {self.advance} "
                                   "each on")
        if self.grouping == "snake":
            # 11.3 排定种子: by rating, snaked so that the groups are even
            stage = GroupStage.create(self.name, self.players, g, seed=self.seed,
                                      rules=self.rules)
        else:
            order = list(self.players)
            random.Random(f"{self.seed}:groups").shuffle(order)
            stage = GroupStage(self.name)
            for k, members in enumerate(snake_groups(order, g), start=1):
                t = Tournament(f"{self.name} group {k}", System.ROUND_ROBIN,
                               seed=self.seed * 1000 + k, rules=self.rules)
                for p in members:
                    t.add_player(Player(p.name, p.rating, p.title, p.club, p.team,
                                        p.federation))
                t.start()
                stage.groups.append(t)
        self.stage = stage
        numbered: list[Player] = []
        for t in stage.groups:
            for p in t.players:
                numbered.append(Player(p.name, p.rating, p.title, p.club, p.team,
                                       p.federation, id=len(numbered) + 1))
        self.players = numbered

    # -- structure
    def _stage(self) -> GroupStage:
        if self.stage is None:
            raise EventStateError(f"{self.name}：请先开始比赛",
                                  f"{self.name}: start the event first")
        return self.stage

    @property
    def groups(self) -> list[Tournament]:
        """The groups' round robins (empty before the start)."""
        return [] if self.stage is None else self.stage.groups

    @property
    def group_rounds(self) -> int:
        """Rounds of the group stage (of its largest group)."""
        return max((t.rounds_planned or 0 for t in self.groups), default=0)

    @property
    def groups_finished(self) -> bool:
        """True when every group has played all its rounds."""
        return self.started and all(t.finished for t in self.groups)

    @property
    def finished(self) -> bool:
        """True when the group stage and the final (if any) are over."""
        if not self.groups_finished:
            return False
        return self.final_stage == "none" or (self.final is not None and self.final.finished)

    @property
    def paired_rounds(self) -> int:
        """Event rounds paired so far (group rounds, then final rounds)."""
        if self.final is not None and self.final.rounds:
            return self.group_rounds + len(self.final.rounds)
        return max((len(t.rounds) for t in self.groups), default=0)

    def player(self, pid: int) -> Player:
        """Return the entry with the event's number ``pid``.  Raises
        :class:`CompetitionError` if there is none."""
        for p in self.players:
            if p.id == pid:
                return p
        raise CompetitionError(f"{self.name}：没有编号为 {pid} 的参赛者",
                               f"{self.name}: no entry number {pid}")

    def number(self, name: str) -> int:
        """Return the event's entry number of ``name``.  Raises
        :class:`CompetitionError`."""
        for p in self.players:
            if p.name == name:
                return p.id
        raise CompetitionError(f"{self.name}：没有名为 {name!r} 的参赛者",
                               f"{self.name}: no entry named {name!r}")

    def tournament(self, group: int) -> Tournament:
        """Return group ``group``'s round robin (1-based), or the final for
        0.  Raises :class:`ResultError` if there is none."""
        if group == 0:
            if self.final is None:
                raise ResultError(f"{self.name}：决赛尚未编排",
                                  f"{self.name}: the final is not paired yet")
            return self.final
        if not 1 <= group <= len(self.groups):
            raise ResultError(f"{self.name}：没有第 {group} 组",
                              f"{self.name}: no group {group}")
        return self.groups[group - 1]

    def round_parts(self, round_no: int) -> list[tuple[int, Tournament, int]]:
        """Return what event round ``round_no`` holds: ``(group, round robin,
        its round number)`` for every group that plays it (group 0: the
        final)."""
        if round_no <= self.group_rounds:
            return [(k, t, round_no) for k, t in enumerate(self.groups, start=1)
                    if round_no <= len(t.rounds)]
        local = round_no - self.group_rounds
        if self.final is not None and 1 <= local <= len(self.final.rounds):
            return [(0, self.final, local)]
        return []

    def boards(self, round_no: int) -> list[BoardSlot]:
        """Return every board of event round ``round_no`` with the event's
        entry numbers (a bye has ``black`` 0); ``key`` is ``[round, group,
        board]``."""
        out = []
        for g, t, local in self.round_parts(round_no):
            for p in t.rounds[local - 1].pairings:
                black = 0 if p.black is None else self.number(t.player(p.black).name)
                out.append(BoardSlot((round_no, g, p.board), self.number(t.player(p.red).name),
                                     black))
        return out

    # -- rounds and results
    def pair_next_round(self) -> int:
        """Pair the next round: the next round of every group with rounds
        left, or, once the groups are over, the next round of the final
        (made from the qualifiers at its first round).  Returns the event
        round's number.  Raises :class:`CompetitionError` while a board of
        the last round lacks a result, once everything is paired, or when
        the event has no final."""
        stage = self._stage()
        if not self.groups_finished:
            behind = [t.name for t in stage.groups if t.rounds and not t.rounds[-1].complete]
            if behind:
                raise EventStateError(f"{self.name}：第 {self.paired_rounds} 轮在 {', '.join(behind)} 尚缺成绩",
                                      f"{self.name}: round {self.paired_rounds} lacks results "
                                      f"in {', '.join(behind)}")
            for t in stage.groups:
                if len(t.rounds) < (t.rounds_planned or 0):
                    t.pair_next_round()
            return self.paired_rounds
        if self.final_stage == "none":
            raise EventStateError(f"{self.name}：分组赛已结束，本赛没有决赛阶段",
                                  f"{self.name}: the group stage is over and the event has no "
                                  "final stage")
        if self.final is None:
            final = Tournament(f"{self.name} final", System.ROUND_ROBIN, seed=self.seed * 1000,
                               rules=self.rules)
            for p in self.qualifiers():
                final.add_player(Player(p.name, p.rating, p.title, p.club, p.team,
                                        p.federation))
            final.start()
            self.final = final
        self.final.pair_next_round()
        return self.paired_rounds

    def qualifiers(self) -> list[Player]:
        """Return the entries that go on to the final: the top ``advance`` of
        each group, all group winners first, then the runners-up, ... (as
        :meth:`GroupStage.qualifiers`), except that an entry that withdrew
        does not go on and the next one in its group takes its place.
        Raises :class:`CompetitionError` while a group is unfinished or when
        a group has too few entries left."""
        table: list[list[Player]] = []
        for t in self._stage().groups:
            if not t.finished:
                raise EventStateError(f"{t.name} 尚未结束",
                                      f"{t.name} is not finished")
            ranked = [t.player(s.entry) for s in t.standings()
                      if t.player(s.entry).withdrawn_after is None]
            if len(ranked) < self.advance:
                raise CompetitionError(f"{t.name} 只有 {len(ranked)} 名参赛者可以出线",
                                       f"{t.name} has only {len(ranked)} entries to go on")
            table.append(ranked[: self.advance])
        return [table[g][k] for k in range(self.advance) for g in range(len(table))]

    def cut_ties(self) -> list[str]:
        """Return the groups whose qualifying cut falls inside a shared place
        (15.6: a play-off or the event's own rule must settle it; the
        standings' order, by entry number, is used otherwise)."""
        out = []
        for t in self.groups:
            if not t.started or not t.rounds:
                continue
            st = t.standings()
            if len(st) > self.advance and st[self.advance - 1].rank == st[self.advance].rank:
                out.append(t.name)
        return out

    def _local(self, round_no: int, group: int) -> tuple[Tournament, int]:
        for g, t, local in self.round_parts(round_no):
            if g == group:
                return t, local
        raise ResultError(f"{self.name}：第 {group} 组没有第 {round_no} 轮",
                          f"{self.name}: group {group} has no round {round_no}")

    def record_result(self, round_no: int, group: int, board: int, result: str | Result, *,
                      red_fouls: int = 0, black_fouls: int = 0, overwrite: bool = False) -> None:
        """Enter (or, with ``overwrite``, correct) a board of a group or of
        the final (group 0).  Group results are fixed once the final is
        made: they chose its entries.  Raises :class:`CompetitionError`."""
        t, local = self._local(round_no, group)
        if group != 0 and self.final is not None:
            raise EventStateError(f"{self.name}：决赛已编排；决定出线者的分组赛成绩不能再改",
                                  f"{self.name}: the final is paired; the group results that "
                                  "chose its entries stand")
        t.record_result(local, board, result, red_fouls=red_fouls, black_fouls=black_fouls,
                        overwrite=overwrite)

    def result_of(self, round_no: int, group: int, board: int) -> str | None:
        """Return a board's result (None while there is none)."""
        t, local = self._local(round_no, group)
        g = t.rounds[local - 1].results.get(board)
        return None if g is None else g.result.value

    def withdraw(self, name: str) -> str:
        """Withdraw ``name`` after the start (20.3 within its round robin:
        fewer than half of its opponents met strikes out its results, else
        its remaining games, its unfinished one of the current round too, are
        forfeits).  During the final it withdraws
        from the final.  Returns what was done.  Raises
        :class:`CompetitionError` for an unknown entry, or one that is out
        of the event already (not in the final once the groups are over)."""
        self.number(name)
        if self.groups_finished:
            if self.final is None or all(p.name != name for p in self.final.players):
                raise EventStateError(f"{self.name}：{name} 不在决赛中；分组赛已结束",
                                      f"{self.name}: {name} is not in the final; the group "
                                      "stage is over")
            t, where = self.final, "the final"
        else:
            t = next(t for t in self.groups if any(p.name == name for p in t.players))
            where = t.name
        pid = next(p.id for p in t.players if p.name == name)
        if t.player(pid).withdrawn_after is not None:
            raise EventStateError(f"{self.name}：{name} 已退赛",
                                  f"{self.name}: {name} withdrew already")
        after = t.settled_round(pid)  # an unfinished game of the round is forfeited
        t.withdraw(pid, after_round=after)
        struck = " — results struck out (20.3)" if pid in t.annulled_entries() else ""
        return f"{name} withdrew from {where} after its round {after} " \
               f"(20.3){struck}"

    def placements(self) -> list[tuple[int, bool, int]]:
        """Return ``(place, shared, entry)``, best first, once there is
        something to place: the final's standings (when it is over), then
        the entries that did not go on, by their place in their group (the
        third-placed of all groups share the next places, and so on).  With
        no final the group winners share first place.  Entries whose results
        20.3 struck out are not placed."""
        if not self.groups_finished:
            return []
        out: list[tuple[int, bool, int]] = []
        placed: set[str] = set()
        if self.final_stage == "round_robin":
            if self.final is None or not self.final.finished:
                return []
            for s in self.final.standings():
                name = self.final.player(s.entry).name
                out.append((s.rank, s.shared, self.number(name)))
                placed.add(name)
            for p in self.final.players:
                placed.add(p.name)  # struck out of the final: not placed lower either
        by_rank: dict[int, list[int]] = {}
        for t in self.groups:
            for s in t.standings():
                name = t.player(s.entry).name
                if name not in placed:
                    by_rank.setdefault(s.rank, []).append(self.number(name))
        place = len(out) + 1
        for r in sorted(by_rank):
            block = sorted(by_rank[r])
            out.extend((place, len(block) > 1, e) for e in block)
            place += len(block)
        return out

    # -- persistence
    def to_dict(self) -> dict[str, Any]:
        """Return the event as JSON-ready data."""
        return {"format": "qisai-groups", "name": self.name, "groups": self.group_count,
                "grouping": self.grouping, "advance": self.advance, "final": self.final_stage,
                "seed": self.seed, "rules": self.rules,
                "players": [p.to_dict() for p in self.players],
                "stage": None if self.stage is None else [t.to_dict() for t in self.groups],
                "final_event": None if self.final is None else self.final.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GroupEvent:
        """Inverse of :meth:`to_dict`.  Raises :class:`CompetitionError`."""
        try:
            ev = cls(str(data["name"]), groups=int(data["groups"]), grouping=data["grouping"],
                     advance=int(data["advance"]), final=data["final"], seed=int(data["seed"]),
                     rules=data.get("rules"))
            ev.players = [Player.from_dict(p) for p in data["players"]]
            if data.get("stage") is not None:
                ev.stage = GroupStage(ev.name, [
                    Tournament.from_dict(t, source=f"{ev.name} group {k}")
                    for k, t in enumerate(data["stage"], start=1)])
            if data.get("final_event") is not None:
                ev.final = Tournament.from_dict(data["final_event"], source=f"{ev.name} final")
        except (KeyError, TypeError, ValueError) as exc:
            raise CompetitionError(f"分组赛数据有误（{exc!r}）",
                                   f"bad group event data ({exc!r})") from None
        return ev


