"""A result corrected after a later round was paired.

积分编排制 pairs each round inside score groups (Appendix 2: "同分组内编排"),
so a result corrected after the next round is paired changes the scores
that round was paired on: a board paired inside one score group may now
cross two, and a player may now stand in another group.  The arbiter must
know that, say why he corrects (the correction is logged in the round's
record), and may re-pair the boards of the next round not yet played.

* :func:`correct_result` corrects one board and returns a
  :class:`Correction`: the old and new result, the reason and the later
  boards it affects (each with the scores before and after);
* :func:`repair_unplayed` re-pairs the unplayed boards of the last paired
  round around the boards that have a result (Swiss only: a round robin's
  boards come from the Berger table and do not depend on scores).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qisai.competition.errors import EventStateError, ResultError
from qisai.competition.model import Game, Pairing, Result
from qisai.competition.tournament import System, Tournament

__all__ = ["Affected", "Correction", "correct_result", "repair_unplayed", "scores_before"]


@dataclass(frozen=True, slots=True)
class Affected:
    """A board of a later round whose players' scores before that round
    changed: the players (Red first), their scores before the round
    before and after the correction, and whether the board now crosses
    score groups where it did not (or no longer does where it did)."""

    round: int
    board: int
    red: int
    black: int | None
    before: tuple[float, float]
    after: tuple[float, float]
    played: bool

    @property
    def crosses(self) -> bool:
        """True if the two players were in one score group and no longer are."""
        return self.before[0] == self.before[1] and self.after[0] != self.after[1]

    def describe(self) -> str:
        """One line in English, e.g. ``round 3 board 2: 5 - 8 now crosses
        score groups (1.5 - 1.5 before, 2 - 1.5 now)``."""
        who = f"{self.red} - {self.black}" if self.black is not None else f"{self.red} (bye)"
        what = ("now crosses score groups" if self.crosses else
                "no longer crosses score groups"
                if self.before[0] != self.before[1] and self.after[0] == self.after[1]
                else "scores changed")
        state = "played" if self.played else "not played yet"
        return (f"round {self.round} board {self.board}: {who} {what} "
                f"({self.before[0]:g} - {self.before[1]:g} before, "
                f"{self.after[0]:g} - {self.after[1]:g} now; {state})")

    def describe_zh(self) -> str:
        """:meth:`describe` in Chinese, e.g. ``第 3 轮第 2 台：5 - 8 现在跨
        分组（更正前 1.5 - 1.5，现在 2 - 1.5；未赛）``."""
        who = f"{self.red} - {self.black}" if self.black is not None else f"{self.red}（轮空）"
        what = ("现在跨分组" if self.crosses else
                "不再跨分组" if self.before[0] != self.before[1] and self.after[0] == self.after[1]
                else "积分有变")
        state = "已赛" if self.played else "未赛"
        return (f"第 {self.round} 轮第 {self.board} 台：{who} {what}"
                f"（更正前 {self.before[0]:g} - {self.before[1]:g}，"
                f"现在 {self.after[0]:g} - {self.after[1]:g}；{state}）")


@dataclass(slots=True)
class Correction:
    """What :func:`correct_result` did."""

    round: int
    board: int
    old: str
    new: str
    reason: str
    affected: list[Affected] = field(default_factory=list)

    @property
    def log_line(self) -> str:
        """The line kept in the corrected round's record."""
        tail = "; affects " + "; ".join(a.describe() for a in self.affected) \
            if self.affected else ""
        return f"correction of board {self.board}: {self.old} -> {self.new} " \
               f"(reason: {self.reason}){tail}"


def scores_before(t: Tournament, round_no: int) -> dict[int, float]:
    """Every entry's score before round ``round_no`` (byes and forfeits
    counted as the event scores them)."""
    out = {p.id: 0.0 for p in t.players}
    for rec in t.rounds[: round_no - 1]:
        for g in rec.results.values():
            for pid in (g.red, g.black):
                if pid is not None:
                    out[pid] += t.scoring.game_points(g, pid)
    return out


def later_rounds_paired(t: Tournament, round_no: int) -> list[int]:
    """The rounds after ``round_no`` that are paired."""
    return [r.number for r in t.rounds if r.number > round_no]


def correct_result(t: Tournament, round_no: int, board: int, result: Result | str,
                   reason: str, *, red_fouls: int = 0, black_fouls: int = 0) -> Correction:
    """Replace the result of a board that has one, for ``reason``; log it in
    round ``round_no``'s record and return what it changed, with the boards
    of later paired rounds whose players' scores before their round moved.

    Raises :class:`ResultError` for a board without a result (enter it
    instead), an empty reason, or what :meth:`Tournament.record_result`
    raises.
    """
    if not 1 <= round_no <= len(t.rounds):
        raise ResultError(f"{t.name}：第 {round_no} 轮尚未编排",
                          f"{t.name}: round {round_no} has not been paired")
    rec = t.rounds[round_no - 1]
    if board not in rec.results:
        raise ResultError(f"第 {round_no} 轮第 {board} 台没有可更正的成绩",
                          f"round {round_no} board {board} has no result to correct")
    if not reason.strip():
        raise ResultError(f"第 {round_no} 轮第 {board} 台：更正须写明理由",
                          f"round {round_no} board {board}: a correction needs a reason")
    old = rec.results[board]
    wanted = Result.parse(result) if isinstance(result, str) else result
    if wanted is old.result:
        raise ResultError(f"第 {round_no} 轮第 {board} 台已是 {old.result.value}",
                          f"round {round_no} board {board} is {old.result.value} already")
    later = later_rounds_paired(t, round_no)
    before = {r: scores_before(t, r) for r in later}
    new = t.record_result(round_no, board, result, red_fouls=red_fouls,
                          black_fouls=black_fouls, overwrite=True)
    out = Correction(round_no, board, old.result.value, new.result.value, reason.strip())
    for r in later:
        after = scores_before(t, r)
        nxt = t.rounds[r - 1]
        for p in nxt.pairings:
            pair = [p.red] + ([p.black] if p.black is not None else [])
            if all(before[r][x] == after[x] for x in pair):
                continue
            b = (before[r][p.red], before[r][p.black] if p.black is not None else 0.0)
            a = (after[p.red], after[p.black] if p.black is not None else 0.0)
            played = p.board in nxt.results and nxt.results[p.board].result is not Result.BYE
            out.affected.append(Affected(r, p.board, p.red, p.black, b, a, played))
    rec.explanation.append(out.log_line)
    return out


def repair_unplayed(t: Tournament, reason: str) -> tuple[int, list[Pairing]]:
    """Re-pair the last paired round's boards that have no result (and its
    bye), around the boards already played, by the event's Swiss pairer
    on the scores as they now are.  The played boards keep their players,
    colours and results.  Returns the round and its new boards.

    Raises :class:`EventStateError` for a round robin, a round whose
    boards are all played, or when the pairer fails."""
    if t.system is not System.SWISS:
        raise EventStateError(f"{t.name}：循环赛的对阵来自贝格尔编排表（13.1）；更正成绩不改变对阵",
                              f"{t.name}: a round robin's boards come from the Berger table "
                              "(13.1); a corrected score does not change them")
    if not t.rounds:
        raise EventStateError(f"{t.name}：尚无编排的轮次",
                              f"{t.name}: no round is paired")
    rec = t.rounds[-1]
    open_boards = [p for p in rec.pairings
                   if p.is_bye or p.board not in rec.results]
    if not any(not p.is_bye for p in open_boards):
        raise EventStateError(f"{t.name}：第 {rec.number} 轮各台均已赛过；没有可重新编排的",
                              f"{t.name}: every board of round {rec.number} is played; "
                              "nothing to re-pair")
    played: dict[frozenset[int], Game] = {}
    fixed: list[Pairing] = []
    for p in rec.pairings:
        if not p.is_bye and p.board in rec.results:
            fixed.append(p)
            played[frozenset(p.players())] = rec.results[p.board]
    t.rounds.pop()
    try:
        new = t.pair_around(fixed)
    except Exception:
        t.rounds.append(rec)  # the pairer failed: the round stays as it was
        raise
    for p in new.pairings:
        g = played.get(frozenset(p.players()))
        if g is not None:
            new.results[p.board] = Game(new.number, p.red, p.black, g.result, g.red_fouls,
                                        g.black_fouls)
    new.explanation.insert(0, f"unplayed boards re-paired after a correction ({reason})")
    return new.number, list(new.pairings)
