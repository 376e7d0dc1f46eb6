"""Tournament: entries, rounds, results, withdrawals, standings, crosstable.

An individual event under one of the systems of clause 11:

* ``round_robin`` / ``double_round_robin`` (11.2): Berger tables (Appendix 1),
  pairing numbers drawn by lot (制签) at :meth:`Tournament.start`;
* ``swiss`` (11.4): 积分编排制 (Appendix 2), seeded by rating.

Knock-out events are :class:`qisai.competition.pairing.knockout.Knockout`;
group round robins :class:`qisai.competition.groups.GroupStage`.

The object is plain data plus rules; :meth:`to_dict` / :meth:`from_dict`
round-trip it through JSON so an event can be kept in a file (and later in
the store).
"""

from __future__ import annotations

import copy
import enum
import json
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from qisai.bilingual import BilingualText
from qisai.competition.errors import (
    CompetitionError,
    EntryError,
    EventFileError,
    EventStateError,
    ResultError,
)
from qisai.competition.jsonfile import check_fields, entry_fields, read_object, write_atomic
from qisai.competition.model import Colour, Game, Pairing, Result
from qisai.competition.pairing.berger import berger_table, double_round_robin
from qisai.competition.pairing.swiss import SwissPlayer, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions
from qisai.competition.ranking import Ranker
from qisai.competition.scoring import CLASSIC, ScoringTable, table_for_rules
from qisai.competition.tiebreaks import (
    ROUND_ROBIN_INDIVIDUAL,
    SWISS_INDIVIDUAL,
    Criterion,
    Record,
    Standing,
    TiebreakPolicy,
    records_from_games,
)

FORMAT_VERSION = 1


class System(enum.Enum):
    """Competition system (比赛办法, clause 11)."""

    ROUND_ROBIN = "round_robin"  # 大循环制, one game
    DOUBLE_ROUND_ROBIN = "double_round_robin"  # 两局制 循环
    SWISS = "swiss"  # 积分编排制


@dataclass(slots=True)
class Player:
    """An entry: name, rating (等级分), title (e.g. 特级大师), club, team,
    federation.  ``id`` is the pairing number (编号) once the event started.
    ``withdrawn_after`` is the last round the player took part in (20.x),
    ``penalty`` the weight of 18.1/18.2 penalties (18.4)."""

    name: str
    rating: int = 0
    title: str = ""
    club: str = ""
    team: str = ""
    federation: str = ""
    id: int = 0
    withdrawn_after: int | None = None
    penalty: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return the player as a JSON-ready dict."""
        return {key: getattr(self, key) for key in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        """Inverse of :meth:`to_dict`. Raises :class:`EntryError`."""
        clean = entry_fields(data, set(cls.__dataclass_fields__))
        p = cls(**clean)
        if p.rating < 0:
            raise EntryError(f"参赛者 {p.name!r}：等级分为负数 {p.rating}",
                             f"entry {p.name!r}: negative rating {p.rating}")
        return p


@dataclass(slots=True)
class RoundRecord:
    """A paired round: boards, the results entered so far (by board), and
    the pairer's explanation."""

    number: int
    pairings: list[Pairing]
    results: dict[int, Game] = field(default_factory=dict)
    explanation: list[str] = field(default_factory=list)

    def board(self, board: int) -> Pairing:
        """Return board ``board``. Raises :class:`ResultError` if absent."""
        for p in self.pairings:
            if p.board == board:
                return p
        raise ResultError(f"第 {self.number} 轮没有第 {board} 台",
                          f"round {self.number} has no board {board}")

    @property
    def complete(self) -> bool:
        """True when every board that needs a result has one."""
        return all(p.board in self.results for p in self.pairings if not p.is_bye)


class Tournament:
    """An individual event (round robin or 积分编排制).

    Typical use::

        t = Tournament("Club championship", System.SWISS, rounds=7, seed=1)
        for name, rating in entries:
            t.add_player(Player(name, rating))
        t.start()
        rnd = t.pair_next_round()
        t.record_result(1, 1, Result.RED_WIN)
        ...
        t.standings()
    """

    def __init__(self, name: str, system: System | str = System.SWISS, *,
                 rounds: int | None = None, scoring: ScoringTable | None = None,
                 rules: str | None = None,
                 tiebreaks: Sequence[Criterion] | None = None,
                 policy: TiebreakPolicy | None = None,
                 swiss: SwissOptions | None = None, seed: int = 0,
                 draw_numbers: bool = True) -> None:
        """Create an event.  ``rounds`` is required for Swiss and defaults to
        the table length for round robins.  ``tiebreaks`` defaults to 15.1 for
        round robins and 15.2 for Swiss.  ``rules`` names the rule profile
        the games are played under (:mod:`qisai.referee.rulesets`);
        ``scoring`` defaults to that profile's points
        (:func:`~qisai.competition.scoring.table_for_rules`: ``cxa-2007``
        scores win 3, draw 1 to Red and 2 to Black), and to 14.1's 1/½/0
        without a profile; a table given here overrides the profile's.
        ``draw_numbers``: round robin
        pairing numbers by lot (制签), Swiss seeding by rating with lots for
        unrated and equal entries; off, both keep the registration order.

        Raises :class:`CompetitionError` on an unknown system or rule
        profile, or bad rounds.
        """
        try:
            self.system = System(system)
        except ValueError:
            raise CompetitionError(
                f"未知赛制 {system!r}；可选 {', '.join(s.value for s in System)}",
                f"unknown system {system!r}; use one of "
                f"{', '.join(s.value for s in System)}") from None
        if rounds is not None and rounds < 1:
            raise CompetitionError(f"轮数至少为 1，实为 {rounds}",
                                   f"rounds must be at least 1, got {rounds}")
        self.name = name
        self.rounds_planned = rounds
        self.rules = rules
        if scoring is None:
            scoring = table_for_rules(rules) if rules is not None else CLASSIC
        self.scoring = scoring
        if tiebreaks is None:
            tiebreaks = SWISS_INDIVIDUAL if self.system is System.SWISS else ROUND_ROBIN_INDIVIDUAL
        self.tiebreaks: tuple[Criterion, ...] = tuple(tiebreaks)
        self.policy = policy or TiebreakPolicy()
        self.swiss = swiss or SwissOptions()
        self.seed = seed
        self.draw_numbers = draw_numbers
        self.players: list[Player] = []
        self.rounds: list[RoundRecord] = []
        self.started = False
        self.warnings: list[str] = []  # said at start(), e.g. rounds close to entries
        self._ranker = Ranker()  # the standings kept from one change to the next

    # -- entries ---------------------------------------------------------------
    def add_player(self, player: Player) -> Player:
        """Register ``player`` before the start; returns it.

        Raises :class:`EventStateError` after the start and
        :class:`EntryError` for a duplicate name.
        """
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始，报名已截止",
                                  f"{self.name}: entries are closed once the event started")
        if any(p.name == player.name for p in self.players):
            raise EntryError(f"{self.name}：参赛者 {player.name!r} 重复",
                             f"{self.name}: duplicate entry {player.name!r}")
        self.players.append(player)
        return player

    def remove_player(self, name: str) -> None:
        """Withdraw before the start (20.2): the entry is removed and the
        numbers are drawn again at :meth:`start` (重新制签).

        Raises :class:`EventStateError` after the start, :class:`EntryError`
        for an unknown name.
        """
        if self.started:
            raise EventStateError(f"{self.name}：比赛开始后请用 withdraw()（退赛）",
                                  f"{self.name}: use withdraw() once the event started")
        before = len(self.players)
        self.players = [p for p in self.players if p.name != name]
        if len(self.players) == before:
            raise EntryError(f"{self.name}：没有名为 {name!r} 的参赛者",
                             f"{self.name}: no entry named {name!r}")

    def player(self, pid: int) -> Player:
        """Return the player with pairing number ``pid``.

        Raises :class:`EntryError` if there is none.
        """
        if 1 <= pid <= len(self.players) and self.players[pid - 1].id == pid:
            return self.players[pid - 1]
        for p in self.players:
            if p.id == pid:
                return p
        raise EntryError(f"{self.name}：没有编号为 {pid} 的参赛者",
                         f"{self.name}: no entry number {pid}")

    def start(self) -> None:
        """Close entries and assign pairing numbers: by lot for a round robin
        (制签, unless ``draw_numbers`` is off), by rating for Swiss (unrated
        entries after the rated ones, in an order drawn by lot).

        Raises :class:`EventStateError` if already started or fewer than two
        entries, :class:`CompetitionError` if a Swiss has no round count.
        """
        if self.started:
            raise EventStateError(f"{self.name}：比赛已开始",
                                  f"{self.name}: already started")
        if len(self.players) < 2:
            raise EventStateError(f"{self.name}：至少需要两名参赛者才能开始",
                                  f"{self.name}: at least two entries are needed to start")
        rng = random.Random(f"{self.seed}:numbers")
        if self.system is System.SWISS:
            if self.rounds_planned is None:
                raise CompetitionError(f"{self.name}：积分编排制比赛须定轮数",
                                       f"{self.name}: a Swiss event needs a number of rounds")
            if self.rounds_planned >= len(self.players) + (len(self.players) % 2):
                raise CompetitionError(
                    f"{self.name}：{len(self.players)} 名参赛者不重复对阵打不满 {self.rounds_planned} 轮",
                    f"{self.name}: {self.rounds_planned} rounds is too many for "
                    f"{len(self.players)} entries without rematches")
            nodes = len(self.players) + len(self.players) % 2
            if self.rounds_planned > nodes // 2:
                # up to n/2 rounds every history can be paired (a graph of
                # degree >= n/2 has a perfect matching); beyond that a round
                # can be a dead end (相遇过的对手不再编对) unless paired with look-ahead
                self.warnings.append(BilingualText(
                    f"{self.rounds_planned} rounds for {len(self.players)} entries is more "
                    f"than {nodes // 2} (half the field): rounds are paired with look-ahead "
                    "so that the later ones stay pairable without rematches, which can "
                    "take some pairings out of their score groups (Appendix 2)",
                    f"{len(self.players)} 名参赛者打 {self.rounds_planned} 轮，多于半数（{nodes // 2} 轮）："
                    "各轮编排时向后看，使以后各轮仍能不重复对阵，因此有些对阵会跨出同分组（附录二）"))
            if self.draw_numbers:
                # Appendix 2: order by 等级分; unrated entries after the rated
                # ones, in an order drawn by lot; equal ratings by lot too
                rated = [p for p in self.players if p.rating > 0]
                unrated = [p for p in self.players if p.rating <= 0]
                rng.shuffle(unrated)
                keyed = [(-p.rating, rng.random(), p) for p in rated]
                keyed.sort(key=lambda t: (t[0], t[1]))
                ordered = [t[2] for t in keyed] + unrated
            else:
                # the organiser's own seeding (e.g. "以往比赛成绩排定序列"): as registered
                ordered = list(self.players)
        else:
            ordered = list(self.players)
            if self.draw_numbers:
                rng.shuffle(ordered)
            n = len(ordered)
            table_rounds = (n if n % 2 == 0 else n + 1) - 1
            if self.system is System.DOUBLE_ROUND_ROBIN:
                table_rounds *= 2
            if self.rounds_planned is None:
                self.rounds_planned = table_rounds
            elif self.rounds_planned > table_rounds:
                raise CompetitionError(
                    f"{self.name}：{n} 人的循环赛共 {table_rounds} 轮，不是 {self.rounds_planned} 轮",
                    f"{self.name}: a round robin of {n} has {table_rounds} rounds, "
                    f"not {self.rounds_planned}")
        for k, p in enumerate(ordered, start=1):
            p.id = k
        self.players = ordered
        self.started = True

    # -- rounds ----------------------------------------------------------------
    @property
    def current_round(self) -> int:
        """Number of rounds paired so far."""
        return len(self.rounds)

    @property
    def finished(self) -> bool:
        """True when every planned round is paired and complete."""
        return (self.started and self.rounds_planned is not None
                and len(self.rounds) == self.rounds_planned
                and all(r.complete for r in self.rounds))

    def active(self, round_no: int) -> list[Player]:
        """Return the entries still playing in ``round_no``."""
        return [p for p in self.players
                if p.withdrawn_after is None or p.withdrawn_after >= round_no]

    def pair_next_round(self) -> RoundRecord:
        """Pair the next round and return it.

        Round robins follow the Berger table; a game against an entry that
        has withdrawn is recorded at once as a forfeit (20.3, 20.4).
        Raises :class:`EventStateError` when not started, finished, or the
        previous round lacks results; :class:`PairingError` if Swiss pairing
        is impossible.
        """
        return self.pair_around(())

    def pair_around(self, fixed: Sequence[Pairing]) -> RoundRecord:
        """Pair the next round around ``fixed``, Swiss boards set by the
        arbiter (see :mod:`qisai.competition.hand_pairings`, which checks them);
        the pairer pairs the other entries.  Returns and raises as
        :meth:`pair_next_round`; :class:`EventStateError` for fixed boards
        in a round robin."""
        if not self.started:
            raise EventStateError(f"{self.name}：编排前须先开始比赛",
                                  f"{self.name}: start the event before pairing")
        if fixed and self.system is not System.SWISS:
            raise EventStateError(f"{self.name}：循环赛的对阵来自贝格尔编排表（13.1）；改动请用人工编排",
                                  f"{self.name}: a round robin's boards come from the "
                                  "Berger table (13.1); change them with a manual pairing")
        assert self.rounds_planned is not None
        if len(self.rounds) >= self.rounds_planned:
            raise EventStateError(f"{self.name}：全部 {self.rounds_planned} 轮均已编排",
                                  f"{self.name}: all {self.rounds_planned} rounds are paired")
        if self.rounds and not self.rounds[-1].complete:
            missing = [p.board for p in self.rounds[-1].pairings
                       if not p.is_bye and p.board not in self.rounds[-1].results]
            raise EventStateError(
                f"{self.name}：第 {self.rounds[-1].number} 轮第 {', '.join(map(str, missing))} 台尚无成绩",
                f"{self.name}: round {self.rounds[-1].number} still lacks results on "
                f"board(s) {', '.join(map(str, missing))}")
        number = len(self.rounds) + 1
        if self.system is System.SWISS:
            rec = self._pair_swiss(number, fixed)
        else:
            table = (double_round_robin(len(self.players))
                     if self.system is System.DOUBLE_ROUND_ROBIN
                     else berger_table(len(self.players)))
            rec = RoundRecord(number, list(table[number - 1]),
                              explanation=[f"Berger table round {number} (Appendix 1; "
                                           "first-listed plays Red, 13.1)"])
        return self.install_round(number, rec.pairings, rec.explanation)

    def install_round(self, number: int, pairings: Sequence[Pairing],
                      explanation: Sequence[str] = ()) -> RoundRecord:
        """Append round ``number`` with ``pairings`` as given (the pairer's,
        or the arbiter's once :mod:`qisai.competition.hand_pairings` has checked
        them): a Swiss bye is scored at once, games against withdrawn
        entries become forfeits (20.3, 20.4).  Returns the round.

        Raises :class:`EventStateError` unless ``number`` is the next round.
        """
        if number != len(self.rounds) + 1:
            raise EventStateError(f"{self.name}：第 {number} 轮不是下一轮",
                                  f"{self.name}: round {number} is not the next round")
        rec = RoundRecord(number, list(pairings), explanation=list(explanation))
        self.rounds.append(rec)
        for p in rec.pairings:
            if p.is_bye:
                if self.system is System.SWISS:
                    rec.results[p.board] = Game(number, p.red, None, Result.BYE)
                continue
            self._auto_forfeit(rec, p)
        return rec

    def _auto_forfeit(self, rec: RoundRecord, p: Pairing) -> None:
        assert p.black is not None
        red_gone = self._withdrawn_before(p.red, rec.number)
        black_gone = self._withdrawn_before(p.black, rec.number)
        if red_gone and black_gone:
            rec.results[p.board] = Game(rec.number, p.red, p.black, Result.DOUBLE_FORFEIT)
        elif red_gone:
            rec.results[p.board] = Game(rec.number, p.red, p.black, Result.BLACK_FORFEIT_WIN)
        elif black_gone:
            rec.results[p.board] = Game(rec.number, p.red, p.black, Result.RED_FORFEIT_WIN)

    def _withdrawn_before(self, pid: int, round_no: int) -> bool:
        w = self.player(pid).withdrawn_after
        return w is not None and w < round_no

    def swiss_states(self, number: int) -> list[SwissPlayer]:
        """Return the pairer's view (score, opponents, colours, byes, group)
        of every entry still in the event before round ``number``, from the
        results of the rounds before it."""
        by_player: dict[int, list[Game]] = {}
        for rec in self.rounds[:number - 1]:
            for _, g in sorted(rec.results.items()):
                by_player.setdefault(g.red, []).append(g)
                if g.black is not None:
                    by_player.setdefault(g.black, []).append(g)
        states = []
        for p in self.active(number):
            mine = by_player.get(p.id, [])
            opponents = frozenset(o for g in mine if (o := g.opponent_of(p.id)) is not None)
            colours = tuple(g.colour_of(p.id) for g in mine if g.result.played)
            byes = sum(1 for g in mine if g.result is Result.BYE)
            score = sum(self.scoring.game_points(g, p.id) for g in mine)
            group = (p.team or p.club or p.federation) or None
            unplayed = (number - 1) - len(colours)
            states.append(SwissPlayer(p.id, score, p.id, opponents, colours, byes, group,
                                      unplayed))
        return states

    def _pair_swiss(self, number: int, fixed: Sequence[Pairing] = ()) -> RoundRecord:
        held = {x for p in fixed for x in p.players()}
        states = [s for s in self.swiss_states(number) if s.id not in held]
        rng = random.Random(f"{self.seed}:round:{number}")
        assert self.rounds_planned is not None
        notes: list[str] = []
        boards: list[Pairing] = []
        if len(states) >= 2:
            # look-ahead: this round must leave the later rounds pairable (Appendix 2)
            res = pair_swiss_round(states, number, self.swiss, rng,
                                   rounds_left=self.rounds_planned - number)
            boards, notes = list(res.pairings), list(res.explanation)
        elif states:
            boards = [Pairing(states[0].id, None)]
        if fixed:
            score = {s.id: s.score for s in self.swiss_states(number)}
            played = sorted([*fixed, *boards], key=lambda p: (
                p.is_bye, -max(score.get(x, 0.0) for x in p.players()), min(p.players())))
            boards = [Pairing(p.red, p.black, k) for k, p in enumerate(played, start=1)]
            notes.insert(0, "boards fixed by the arbiter: " + ", ".join(
                f"{p.red}-{p.black}" if p.black is not None else f"{p.red} bye"
                for p in fixed))
        return RoundRecord(number, boards, explanation=notes)

    def record_result(self, round_no: int, board: int, result: Result | str, *,
                      red_fouls: int = 0, black_fouls: int = 0,
                      overwrite: bool = False) -> Game:
        """Enter the result of one board; returns the stored :class:`Game`.

        A late arrival beyond the limit is a forfeit (21.1, 21.4: ``+-``);
        both late is a double forfeit (21.3: ``--``).
        Raises :class:`ResultError` for an unknown round or board, a bye
        board, a result already entered (unless ``overwrite``), negative
        fouls, or an unreadable result.
        """
        if not 1 <= round_no <= len(self.rounds):
            raise ResultError(f"{self.name}：第 {round_no} 轮尚未编排",
                              f"{self.name}: round {round_no} has not been paired")
        res = Result.parse(result) if isinstance(result, str) else result
        rec = self.rounds[round_no - 1]
        p = rec.board(board)
        if p.is_bye or res is Result.BYE:
            raise ResultError(f"第 {round_no} 轮第 {board} 台：轮空不登记成绩",
                              f"round {round_no} board {board}: a bye takes no result")
        if board in rec.results and not overwrite:
            raise ResultError(f"第 {round_no} 轮第 {board} 台：成绩已登记（{rec.results[board].result.value}）",
                              f"round {round_no} board {board}: result already entered "
                              f"({rec.results[board].result.value})")
        if red_fouls < 0 or black_fouls < 0:
            raise ResultError(f"第 {round_no} 轮第 {board} 台：犯规次数不能为负",
                              f"round {round_no} board {board}: fouls cannot be negative")
        game = Game(round_no, p.red, p.black, res, red_fouls, black_fouls)
        rec.results[board] = game
        return game

    def settled_round(self, pid: int) -> int:
        """Return the last round in which entry ``pid``'s game is settled:
        the current round, or the one before when its game of the current
        round has no result yet.  Withdrawing after it makes that game a
        forfeit, the opponent winning (20.3, 20.4: 未赛对局均作弃权, a game
        not finished is not played)."""
        if self.rounds:
            rec = self.rounds[-1]
            for p in rec.pairings:
                if pid in p.players() and not p.is_bye and p.board not in rec.results:
                    return self.current_round - 1
        return self.current_round

    def withdraw(self, pid: int, after_round: int | None = None) -> None:
        """Withdraw entry ``pid`` after ``after_round`` (default: the last
        round paired).  Its unplayed games of a round already paired become
        forfeits; later rounds pair it no more (Swiss) or forfeit its games
        (round robin).  The 20.3 half rule is applied by :meth:`games`.

        Raises :class:`EntryError` for an unknown entry and
        :class:`EventStateError` before the start.
        """
        if not self.started:
            raise EventStateError(f"{self.name}：比赛开始前请用 remove_player()（20.2）",
                                  f"{self.name}: before the start use remove_player() (20.2)")
        player = self.player(pid)
        last = self.current_round if after_round is None else after_round
        if not 0 <= last <= self.current_round:
            raise EventStateError(f"{self.name}：第 {last} 轮之后不能退赛",
                                  f"{self.name}: cannot withdraw after round {last}")
        player.withdrawn_after = last
        for rec in self.rounds[last:]:
            for p in rec.pairings:
                # 20.4: results already entered stand; unplayed games are forfeits
                if pid in p.players() and not p.is_bye and p.board not in rec.results:
                    self._auto_forfeit(rec, p)

    # -- results and standings --------------------------------------------------
    def games(self, *, annul: bool = True) -> list[Game]:
        """Return every game with a result, in round and board order.

        With ``annul`` (the default), 20.3 is applied for round robins: an
        entry that withdrew having met fewer than half of its opponents has
        all its games struck out.
        """
        out = [g for rec in self.rounds for _, g in sorted(rec.results.items())]
        if annul and self.system is not System.SWISS:
            struck = self.annulled_entries()
            if struck:
                out = [g for g in out if g.red not in struck and g.black not in struck]
        return out

    def annulled_entries(self) -> set[int]:
        """Entries whose results 20.3 strikes out: withdrawn from a round
        robin having played fewer than half of their opponents ("已赛对手不足
        半数"; exactly half keeps the results)."""
        if self.system is System.SWISS:
            return set()
        opponents = len(self.players) - 1
        if self.system is System.DOUBLE_ROUND_ROBIN:
            opponents *= 2
        struck = set()
        all_games = self.games(annul=False)
        for p in self.players:
            if p.withdrawn_after is None:
                continue
            played = sum(1 for g in all_games if p.id in (g.red, g.black) and g.result.played)
            if 2 * played < opponents:
                struck.add(p.id)
        return struck

    def records(self) -> dict[int, Record]:
        """Return the per-entry records the ranking works on (after 20.3)."""
        return self._records_of(self._ranked_entries(), self.games(), True)

    def _ranked_entries(self) -> list[int]:
        struck = self.annulled_entries()
        return [p.id for p in self.players if p.id not in struck]

    def _records_of(self, entries: Collection[int], games: Sequence[Game],
                    strict: bool) -> dict[int, Record]:
        """The records of ``entries`` from ``games`` (a subclass adds its
        own lines); see :data:`~qisai.competition.ranking.RecordsOf`."""
        return records_from_games(entries, games, self.scoring,
                                  {p.id: p.penalty for p in self.players}, strict=strict)

    def standings(self) -> list[Standing]:
        """Return the standings with every tie-break value (clause 15, 18.4).

        Entries struck out by 20.3 are not ranked.  Kept from one change to
        the next (:class:`~qisai.competition.ranking.Ranker`: a result
        recomputes the entries it touches, any other change ranks afresh),
        always a full ranking's answer; each call returns its own copy."""
        entries = self._ranked_entries()
        return self._ranker.standings(self._ranking_setup(entries), entries, self.games(),
                                      self._records_of, self.tiebreaks, self.policy)

    def _ranking_setup(self, entries: list[int]) -> tuple[Any, ...]:
        """What the ranking reads besides the games (a subclass adds its own)."""
        return (self.system, self.scoring, self.tiebreaks, self.policy, tuple(entries),
                tuple(p.penalty for p in self.players))

    def clone(self) -> Tournament:
        """A copy sharing nothing a change of either touches (entries,
        rounds, results, the kept ranking; games and pairings are immutable),
        for a reader to keep while the original goes on changing."""
        new = copy.copy(self)
        new.players = [replace(p) for p in self.players]
        new.rounds = [RoundRecord(r.number, list(r.pairings), dict(r.results),
                                  list(r.explanation)) for r in self.rounds]
        new.warnings = list(self.warnings)
        new._ranker = self._ranker.copy()
        return new

    def crosstable(self) -> dict[int, dict[int, list[str]]]:
        """Return, per entry, per opponent, the marks of their games from the
        entry's side in round order: ``1``, ``=``, ``0``, ``+``, ``-`` (games
        struck out by 20.3 are left out).
        """
        marks: dict[int, dict[int, list[str]]] = {p.id: {} for p in self.players}
        for g in self.games():  # 20.3: annulled results are struck out here too
            if g.black is None:
                continue
            for pid in (g.red, g.black):
                opp = g.opponent_of(pid)
                assert opp is not None
                outcome = g.outcome_of(pid)
                mark = {"win": "1", "draw": "=", "loss": "0", "forfeit_win": "+",
                        "forfeit_loss": "-"}[outcome.value]
                marks[pid].setdefault(opp, []).append(mark)
        return marks

    def rating_changes(self, k: float = 20.0) -> dict[int, float]:
        """Return each entry's rating after the event's played games (Elo, see
        :mod:`qisai.competition.elo`); unrated entries (rating 0) are left out
        together with their games."""
        from qisai.competition.elo import rate_games

        rated = {p.id: float(p.rating) for p in self.players if p.rating > 0}
        games = [g for g in self.games(annul=False)
                 if g.red in rated and (g.black is None or g.black in rated)]
        return rate_games(rated, games, k)

    def colour_history(self, pid: int) -> list[Colour]:
        """Return the colours ``pid`` played, in round order (played games)."""
        return [g.colour_of(pid) for g in self.games(annul=False)
                if pid in (g.red, g.black) and g.result.played]

    # -- persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Return the whole event as JSON-ready data."""
        return {
            "format": "qisai-tournament",
            "version": FORMAT_VERSION,
            "name": self.name,
            "system": self.system.value,
            "rounds_planned": self.rounds_planned,
            "rules": self.rules,
            "scoring": self.scoring.to_dict(),
            "tiebreaks": [c.value for c in self.tiebreaks],
            "policy": self.policy.to_dict(),
            "swiss": asdict(self.swiss),
            "seed": self.seed,
            "draw_numbers": self.draw_numbers,
            "started": self.started,
            "players": [p.to_dict() for p in self.players],
            "rounds": [
                {
                    "number": r.number,
                    "pairings": [[p.board, p.red, p.black] for p in r.pairings],
                    "results": [
                        {"board": b, "result": g.result.value, "red_fouls": g.red_fouls,
                         "black_fouls": g.black_fouls}
                        for b, g in sorted(r.results.items())
                    ],
                    "explanation": r.explanation,
                }
                for r in self.rounds
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "<event>") -> Tournament:
        """Rebuild an event from :meth:`to_dict` output.

        Raises :class:`EventFileError` naming ``source`` and the key at fault.
        """
        try:
            if data.get("format") != "qisai-tournament":
                raise EventFileError(f"{source}：不是 qisai 的比赛文件（format 键）",
                                     f"{source}: not a qisai tournament file (format key)")
            check_fields(source, data, {"name": str, "system": str, "started": bool,
                                  "players": list, "rounds": list, "tiebreaks": list,
                                  "scoring": dict})
            rp = data.get("rounds_planned")
            if rp is not None and (isinstance(rp, bool) or not isinstance(rp, int)):
                raise EventFileError(f"{source}：rounds_planned 须为整数",
                                     f"{source}: rounds_planned must be a whole number")
            for key in ("seed",):
                if isinstance(data.get(key, 0), bool) or not isinstance(data.get(key, 0), int):
                    raise EventFileError(f"{source}：{key} 须为整数",
                                         f"{source}: {key} must be a whole number")
            rules = data.get("rules")
            if rules is not None and not isinstance(rules, str):
                raise EventFileError(f"{source}：rules 须为规则配置的名称",
                                     f"{source}: rules must be a rule profile name")
            t = cls(
                str(data["name"]), data["system"], rounds=data.get("rounds_planned"),
                scoring=ScoringTable.from_dict(dict(data["scoring"])), rules=rules,
                tiebreaks=[Criterion(c) for c in data["tiebreaks"]],
                policy=TiebreakPolicy.from_dict(data.get("policy", {})),
                swiss=SwissOptions(**data.get("swiss", {})),
                seed=int(data.get("seed", 0)),
                draw_numbers=bool(data.get("draw_numbers", True)),
            )
            t.players = [Player.from_dict(p) for p in data["players"]]
            t.started = bool(data["started"])
            if t.started:
                ids = sorted(p.id for p in t.players)
                if ids != list(range(1, len(t.players) + 1)):
                    raise EventFileError(f"{source}：编排号不是 1..n",
                                         f"{source}: pairing numbers are not 1..n")
            for k, r in enumerate(data["rounds"], start=1):
                check_fields(f"{source}, round {k}", r, {"number": int, "pairings": list,
                                                    "results": list})
                for b in r["pairings"]:
                    if not (isinstance(b, list) and len(b) == 3
                            and all(isinstance(x, int) and not isinstance(x, bool)
                                    for x in b[:2])
                            and (b[2] is None or isinstance(b[2], int))):
                        raise EventFileError(f"{source}，第 {k} 轮：对阵有误 {b!r}",
                                             f"{source}, round {k}: bad pairing {b!r}")
                for res in r["results"]:
                    check_fields(f"{source}, round {k}", res, {"board": int, "result": str})
                    for f in ("red_fouls", "black_fouls"):
                        v = res.get(f, 0)
                        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                            raise EventFileError(f"{source}，第 {k} 轮：{f} 有误 {v!r}",
                                                 f"{source}, round {k}: bad {f} {v!r}")
                if int(r["number"]) != k:
                    raise EventFileError(f"{source}：第 {k} 轮次序不对",
                                         f"{source}: rounds out of order at round {k}")
                pairings = [Pairing(int(red), None if black is None else int(black), int(b))
                            for b, red, black in r["pairings"]]
                for p in pairings:
                    for pid in p.players():
                        t.player(pid)
                rec = RoundRecord(k, pairings, explanation=list(r.get("explanation", [])))
                by_board = {p.board: p for p in pairings}
                for res in r["results"]:
                    board = int(res["board"])
                    p = by_board[board] if board in by_board else rec.board(board)
                    rec.results[board] = Game(k, p.red, p.black, Result(res["result"]),
                                              int(res.get("red_fouls", 0)),
                                              int(res.get("black_fouls", 0)))
                seen = [x for p in pairings for x in p.players()]
                if len(seen) != len(set(seen)):
                    raise EventFileError(f"{source}，第 {k} 轮：有参赛者被编排两次",
                                         f"{source}, round {k}: an entry is paired twice")
                t.rounds.append(rec)
            t._check_consistency(source)
        except EventFileError:
            raise
        except CompetitionError as exc:
            raise EventFileError(f"{source}：{exc.zh}",
                                 f"{source}: {exc.en}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise EventFileError(f"{source}：字段有误或缺失（{exc!r}）",
                                 f"{source}: bad or missing field ({exc!r})") from None
        return t

    def _check_consistency(self, source: str) -> None:
        """Raise :class:`EventFileError` when loaded data contradict each other."""
        if not self.started:
            if self.rounds:
                raise EventFileError(f"{source}：比赛开始前记录了轮次",
                                     f"{source}: rounds recorded before the start")
            return
        if self.rounds_planned is None or self.rounds_planned < 1:
            raise EventFileError(f"{source}：已开始的比赛须有 rounds_planned >= 1",
                                 f"{source}: a started event needs rounds_planned >= 1")
        if self.system is not System.SWISS:
            n = len(self.players)
            table = (n if n % 2 == 0 else n + 1) - 1
            if self.system is System.DOUBLE_ROUND_ROBIN:
                table *= 2
            if self.rounds_planned > table:
                raise EventFileError(f"{source}：{self.rounds_planned} 轮多于循环赛编排表的 {table} 轮",
                                     f"{source}: {self.rounds_planned} rounds is more than "
                                     f"the {table} of the round robin table")
        if len(self.rounds) > self.rounds_planned:
            raise EventFileError(f"{source}：已记录 {len(self.rounds)} 轮，计划 {self.rounds_planned} 轮",
                                 f"{source}: {len(self.rounds)} rounds recorded, "
                                 f"{self.rounds_planned} planned")

    def to_json(self) -> str:
        """Return :meth:`to_dict` as JSON text: one line per entry and per
        round (readable and diffable, and written by the C encoder, which
        matters at hundreds of entries)."""
        data = self.to_dict()
        parts = []
        for key, value in data.items():
            if key in ("players", "rounds") and value:
                items = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in value)
                parts.append(f"{json.dumps(key)}: [\n  {items}\n ]")
            else:
                parts.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
        return "{\n " + ",\n ".join(parts) + "\n}\n"

    def save(self, path: str | Path) -> None:
        """Write the event as JSON to ``path`` (atomically: a crash leaves the
        old file whole)."""
        write_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> Tournament:
        """Read an event written by :meth:`save`.

        Raises :class:`EventFileError` if the file is missing or malformed.
        """
        return cls.from_dict(read_object(path), str(path))
