"""A Go game under a rule profile (seed 003: competition rules 3-5, 8-12).

Example::

    >>> from qisai.referee.clock import ManualTime
    >>> game = GoGame(ruleset("chinese", board_size=9), now=ManualTime())
    >>> _ = game.start(); _ = game.move(Side.FIRST, "E5")
    >>> game.to_move
    <Side.SECOND: 1>
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from qisai.bilingual import en_of
from qisai.go.board import Board
from qisai.go.coords import Point, gtp_name, parse_gtp
from qisai.go.deadstones import estimate_dead
from qisai.go.errors import GoError, IllegalReason
from qisai.go.rules import Color, Scoring
from qisai.go.scoring import Score, score
from qisai.referee.clock import TimeSource
from qisai.referee.errors import EventError, NotYourTurnError
from qisai.referee.events import Event, EventType, Notice, NoticeType
from qisai.referee.game import Game, Phase
from qisai.referee.rulesets import GoRules, Penalty, ruleset
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side, format_fraction

__all__ = ["GoGame", "InvalidGoMoveError"]


class InvalidGoMoveError(EventError):
    """An invalid Go move refused (casual play); ``reason`` says why."""

    def __init__(self, message: str, reason: IllegalReason) -> None:
        super().__init__(message)
        self.reason = reason


_REASON_CLAUSE = {
    IllegalReason.SUICIDE: "竞赛规定 10",
    IllegalReason.KO: "竞赛规定 11(1)",
    IllegalReason.SUPERKO: "竞赛规定 11（禁止全局同形再现）",
    IllegalReason.OCCUPIED: "基本下法 2, 竞赛规定 12(1)",
}


class GoGame(Game):
    """A Go game.

    ``rules`` defaults to the ``chinese`` profile.  ``board`` is the current
    position (read it, do not change it).  After two passes the game is in
    :attr:`Phase.SCORING`: dead stones are marked (:meth:`mark_dead`), then
    confirmed by the side to move and then the other (:meth:`confirm_dead`,
    4(4)), or disputed (:meth:`dispute_dead`), which resumes play.
    """

    kind: ClassVar[GameKind] = GameKind.GO
    CLAUSES: ClassVar[dict[str, str]] = {
        "time": "竞赛规定 3（读秒：超时判负）",
        "move_limit": "竞赛规定 3",
        "late": "竞赛规定 4(3)",
        "both_late": "竞赛规定 4(3)",
        "offer": "竞赛规定 12(1)",
        "repeat_offer": "竞赛规定 12(1)",
        "agreement": "竞赛规定 12(1)",
        "resign": "竞赛规定 4(2)",
        "fouls": "竞赛规定 12(1)",
        "warnings": "竞赛规定 12(2)",
        "foul": "竞赛规定 12(1)",
        "warning": "竞赛规定 12(2)",
        "penalty": "竞赛规定 12(1)",
        "pause": "竞赛规定 5",
        "adjourn": "竞赛规定 5（封棋）",
        "moved_twice": "竞赛规定 8(1)",
        "end": "竞赛规定 4(1)",
        "dead": "竞赛规定 4(4), 4(5)",
        "score": "胜负判别, 竞赛规定 4(5)",
        "cycle": "竞赛规定 11(3)",
    }

    def __init__(self, rules: GoRules | None = None, now: TimeSource | None = None) -> None:
        profile = rules if rules is not None else ruleset("chinese")
        if not isinstance(profile, GoRules):
            raise EventError(f"rule profile {profile.name!r} is not a Go profile")
        super().__init__(profile, now)
        self.grules: GoRules = profile
        self.board = Board(profile.board_size, profile.core)
        if profile.handicap >= 2:
            try:
                self.board.place_handicap(profile.handicap)
            except GoError as exc:
                raise EventError(f"handicap: {en_of(exc)}") from exc
        self.dead: set[Point] = set()
        self.final_score: Score | None = None
        self._confirmed: list[Side] = []
        self._pass_floor = 0

    @property
    def to_move(self) -> Side:
        """Return the side to move (Black is :attr:`Side.FIRST`)."""
        return Side.FIRST if self.board.to_move is Color.BLACK else Side.SECOND

    def _warning_limit(self) -> int | None:
        return self.grules.warning_limit

    # Convenience wrappers --------------------------------------------------
    def pass_move(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` passes (虚着).  See :meth:`Game.apply`."""
        return self.apply(Event(EventType.PASS, self._time(at), side))

    def mark_dead(self, side: Side | None, points: Iterable[str], dead: bool | None = True,
                  at: float | None = None) -> list[Notice]:
        """Mark the groups holding ``points`` dead (``dead`` True, the
        default) or alive (False) in the proposal (4(4), 4(5)); ``side``
        ``None`` is the arbiter.  Each group counts once however many of its
        stones are named, and marking is idempotent: the whole of
        :meth:`suggest_dead` may be sent.  ``dead=None`` toggles each named
        group once (a click on the board).  Returns the notices; raises
        :class:`EventError` outside the dead-stone phase, for no points or a
        point without a stone (see :meth:`Game.apply`)."""
        return self.apply(Event(EventType.MARK_DEAD, self._time(at), side, points=tuple(points),
                                dead=dead))

    def confirm_dead(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` confirms the dead stones (4(4)).  See :meth:`Game.apply`."""
        return self.apply(Event(EventType.CONFIRM_DEAD, self._time(at), side))

    def dispute_dead(self, side: Side, at: float | None = None) -> list[Notice]:
        """``side`` disputes the dead stones; play resumes.  See :meth:`Game.apply`."""
        return self.apply(Event(EventType.DISPUTE_DEAD, self._time(at), side))

    def suggest_dead(self, playouts: int = 64, seed: int = 0) -> list[str]:
        """Return the stones the Go core proposes dead (Benson's unconditional
        life, seki, then playouts: :func:`qisai.go.deadstones.estimate_dead`),
        as GTP names, every stone of every dead group.  Changes nothing: send
        them all with :meth:`mark_dead` (each group is marked once), so the
        proposal is in the event log.  Raises :class:`EventError` outside
        the dead-stone phase.
        """
        if self.phase is not Phase.SCORING:
            raise EventError(f"suggest dead: not in the dead-stone phase ({self.phase.value})")
        dead = estimate_dead(self.board, playouts=playouts, seed=seed)
        return sorted(gtp_name(p, self.board.size) for p in dead)

    # ---------------------------------------------------------------- moves
    def _on_move(self, side: Side, move: str, at: float) -> None:
        if move.strip().lower() == "pass":
            self._pass(side, at)
            return
        try:
            point = parse_gtp(move, self.board.size)
        except GoError as exc:
            raise EventError(f"move at {at} s: {en_of(exc)}") from exc
        if point is None:
            self._pass(side, at)
            return
        if not self._turn_ok(side, at, move):
            return
        reason = self.board.legal_reason(point)
        if reason is not None:
            self._invalid(side, point, reason, at)
            return
        elapsed, snap = self._press(side, at)
        played = self.board.play(point)
        name = gtp_name(point, self.board.size)
        self._record_move(side, name, at, elapsed, snap, capture=bool(played.captured))
        zh, en = self._name(side)
        self._emit(NoticeType.MOVED, at, side, f"{zh} {name}", f"{en} {name}", move=name,
                   captured=[gtp_name(p, self.board.size) for p in played.captured],
                   elapsed=elapsed)
        self._after_move(side, at)
        if self.board.repetitions() >= self.grules.cycle_repetitions - 1:
            # 11(3): 三劫循环、长生 … 可判和棋或者重下 (only possible without superko).
            self._finish(Result.ended(self.kind, self.grules.cycle_outcome, Reason.CYCLE,
                                      self.CLAUSES["cycle"]), at)

    def _turn_ok(self, side: Side, at: float, move: str) -> bool:
        if side is self.to_move:
            return True
        penalty = self.grules.out_of_turn
        if penalty is Penalty.REJECT:
            raise NotYourTurnError(f"move at {at} s: it is {self.to_move.name_en(self.kind)}'s turn")
        if penalty is Penalty.LOSS:
            # 8(1): 一方并未表示弃权，另一方连走二步，判连走二步者为负.
            self._win(side.other, Reason.MOVED_TWICE, self.CLAUSES["moved_twice"], at, move, move)
        else:
            self._add_infraction("warning", side, at, self.CLAUSES["moved_twice"],
                                 f"{move}：连走二步 / moved out of turn")
        return False

    def _invalid(self, side: Side, point: Point, reason: IllegalReason, at: float) -> None:
        name = gtp_name(point, self.board.size)
        clause = _REASON_CLAUSE.get(reason, "竞赛规定 12(1)")
        text_zh = f"{name}：{reason.value}，着手无效"
        text_en = f"{name}: {reason.english}; the move is void"
        penalty = self.grules.invalid_move
        if penalty is Penalty.REJECT:
            raise InvalidGoMoveError(f"move at {at} s: {name} is illegal: {reason.english}", reason)
        if penalty is Penalty.LOSS:
            self._win(side.other, Reason.ILLEGAL_MOVE, clause, at, text_zh, text_en)
            return
        # 10, 11(1): 判着手无效，弃权一次 — the move is void and counts as a pass.
        # No warning: 12(2) counts the arbiter's warnings (8(2), 9); only a
        # profile with invalid_move=WARNING adds one.
        elapsed, snap = self._press(side, at)
        self.board.pass_move()
        self._record_move(side, name, at, elapsed, snap, void=True)
        self._emit(NoticeType.INVALID_MOVE, at, side, text_zh + "，弃权一次",
                   text_en + " and counts as a pass", clause, move=name, reason=reason.name)
        self._after_move(side, at)
        if penalty is Penalty.WARNING:
            self._add_infraction("warning", side, at, clause, f"{text_zh} / {text_en}")
        if not self.is_over and self._two_passes():
            self._enter_scoring(at)

    def _pass(self, side: Side, at: float) -> None:
        if not self._turn_ok(side, at, "pass"):
            return
        elapsed, snap = self._press(side, at)
        self.board.pass_move()
        self._record_move(side, "pass", at, elapsed, snap)
        zh, en = self._name(side)
        self._emit(NoticeType.PASSED, at, side, f"{zh}虚着（停一手）", f"{en} passes", move="pass")
        self._after_move(side, at)
        if self._two_passes():
            self._enter_scoring(at)

    def _two_passes(self) -> bool:
        """Return whether the last two turns (since play last resumed) were
        passes or void moves (4(1))."""
        recent = self.moves[self._pass_floor:]
        if not (len(recent) >= 2 and all(r.move == "pass" or r.void for r in recent[-2:])):
            return False
        # AGA rule 7: White passes last, so each side has passed as often.
        return not self.grules.core.white_passes_last or recent[-1].side is Side.SECOND

    def _on_pass_event(self, event: Event) -> None:
        self._require_playing("pass")
        side = self._require_side(event)
        if side in self.absent:
            raise EventError(f"pass at {event.at} s: {side.name_en(self.kind)} is absent")
        self._pass(side, event.at)

    # ------------------------------------------------------------- scoring
    def _enter_scoring(self, at: float) -> None:
        # 4(1): both passed in succession: 终局.  The clocks stop while the
        # dead stones are agreed.
        if self.clock is not None and self.clock.running is not None:
            self.clock.pause(at=at)
        self.phase = Phase.SCORING
        self.dead = set()
        self._confirmed = []
        self._emit(NoticeType.SCORING, at, None, "双方停一手，终局：确认死子",
                   "both passed: mark and confirm the dead stones", self.CLAUSES["end"])

    def _require_scoring(self, event: Event) -> None:
        if self.phase is not Phase.SCORING:
            raise EventError(f"{event.type.value} at {event.at} s: not in the dead-stone phase "
                             f"(the game is {self.phase.value})")

    def _on_mark_dead(self, event: Event) -> None:
        self._require_scoring(event)
        if not event.points:
            raise EventError(f"mark dead at {event.at} s: no points given")
        groups: list[frozenset[Point]] = []
        named: set[Point] = set()
        for name in event.points:
            try:
                point = parse_gtp(name, self.board.size)
            except GoError as exc:
                raise EventError(f"mark dead at {event.at} s: {en_of(exc)}") from exc
            group = self.board.group(point) if point is not None else frozenset()
            if not group:
                raise EventError(f"mark dead at {event.at} s: no stone on {name}")
            if not group & named:  # one group, however many of its stones are named
                groups.append(group)
                named |= group
        for group in groups:
            if event.dead is True or (event.dead is None and not group <= self.dead):
                self.dead |= group
            else:
                self.dead -= group
        self._confirmed = []
        names = sorted(gtp_name(p, self.board.size) for p in self.dead)
        self._emit(NoticeType.DEAD_MARKED, event.at, event.side, f"死子：{' '.join(names) or '无'}",
                   f"dead stones: {' '.join(names) or 'none'}", self.CLAUSES["dead"], dead=names)

    def _on_confirm_dead(self, event: Event) -> None:
        self._require_scoring(event)
        side = self._require_side(event)
        if side in self._confirmed:
            raise EventError(f"confirm at {event.at} s: {side.name_en(self.kind)} has confirmed")
        if not self._confirmed and side is not self.to_move:
            # 4(4): 确认的次序应是，先由轮走方，后是对方.
            raise NotYourTurnError(f"confirm at {event.at} s: the side to move "
                                   f"({self.to_move.name_en(self.kind)}) confirms first (4(4))")
        self._confirmed.append(side)
        zh, en = self._name(side)
        self._emit(NoticeType.DEAD_CONFIRMED, event.at, side, f"{zh}确认终局", f"{en} confirms",
                   self.CLAUSES["dead"])
        if len(self._confirmed) == 2:
            self._count(event.at)

    def _count(self, at: float) -> None:
        result_score = score(self.board, self.dead, self.grules.core, komi=self.grules.komi)
        self.final_score = result_score
        margin = result_score.margin
        area = result_score.scoring is Scoring.AREA
        unit = "子" if area else "目"
        b, w = result_score.black_count, result_score.white_count
        detail_zh = f"黑{format_fraction(b)}{unit}，白{format_fraction(w)}{unit}"
        detail_en = f"Black {float(b):g}, White {float(w):g}"
        if margin == 0 and self.grules.core.tie_winner is not None:
            # Ing rules: an equal count is Black's win (贴8点，同点黑胜).
            winner = Side.FIRST if self.grules.core.tie_winner is Color.BLACK else Side.SECOND
            self._finish(Result.win(self.kind, winner, Reason.SCORE, self.CLAUSES["score"],
                                    detail_zh + "，同点黑胜", detail_en + "; Black wins a tie"),
                         at)
            return
        if margin == 0:
            self._finish(Result.ended(self.kind, Outcome.DRAW, Reason.SCORE, self.CLAUSES["score"],
                                      detail_zh, detail_en), at)
            return
        winner = Side.FIRST if margin > 0 else Side.SECOND
        value = abs(margin) / 2 if area else abs(margin)
        self._finish(Result.win(self.kind, winner, Reason.SCORE, self.CLAUSES["score"], detail_zh,
                                detail_en, margin=value, unit="子" if area else "目"), at)

    @property
    def confirmed(self) -> tuple[Side, ...]:
        """Return the sides that have confirmed the dead stones so far, in
        order (4(4): the side to move first, then the other)."""
        return tuple(self._confirmed)

    @property
    def confirms_next(self) -> Side | None:
        """Return the side whose confirmation the count waits for (4(4):
        the side to move first, then the other), ``None`` outside the
        dead-stone phase."""
        if self.phase is not Phase.SCORING:
            return None
        if not self._confirmed:
            return self.to_move
        return self._confirmed[0].other

    def _on_adjudicate(self, event: Event) -> None:
        # An arbiter's ruling "by the count" in the dead-stone phase (the
        # players left the count unconfirmed: issue 32.4) counts the board
        # with the dead stones as marked (4(4), 4(5)); any other ruling is
        # the general one.
        if event.reason is Reason.SCORE and self.phase is Phase.SCORING:
            if not event.clause:
                raise EventError(f"adjudicate at {event.at} s: a clause is required")
            self._count(event.at)
            return
        super()._on_adjudicate(event)

    def _on_dispute_dead(self, event: Event) -> None:
        self._require_scoring(event)
        side = self._require_side(event)
        # A dispute resumes play (area counting: playing in one's own area costs nothing).
        self.phase = Phase.PLAYING
        self.dead = set()
        self._confirmed = []
        self._pass_floor = len(self.moves)
        if self.clock is not None and self.clock.paused:
            self.clock.resume(at=event.at)
        self._calls_since = event.at
        zh, en = self._name(side)
        self._emit(NoticeType.PLAY_RESUMED, event.at, side, f"{zh}对死子有异议，继续对局",
                   f"{en} disputes the dead stones; play resumes", self.CLAUSES["dead"])
