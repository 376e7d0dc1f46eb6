"""A Xiangqi game under a rule profile (seeds 000/001, clauses 2-5, 9, 21-24).

Example::

    >>> from qisai.referee.clock import ManualTime
    >>> t = ManualTime()
    >>> game = XiangqiGame(now=t)
    >>> _ = game.start()
    >>> t.advance(5); _ = game.move(Side.FIRST, "h2e2")
    >>> game.to_move
    <Side.SECOND: 1>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from qisai.bilingual import en_of
from qisai.referee.clock import TimeSource
from qisai.referee.errors import EventError, NotYourTurnError
from qisai.referee.events import ClaimKind, Event, NoticeType
from qisai.referee.game import Game
from qisai.referee.repetition import (
    RepetitionJudge,
    RepetitionQuery,
    RepetitionRuling,
    RulingKind,
    checks_only_judge,
    default_judge,
)
from qisai.referee.rulesets import Penalty, XiangqiRules, ruleset
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.qili.cycle import forbidden_moves
from qisai.xiangqi.squares import Move

__all__ = ["ChangeOrder", "IllegalMoveEventError", "XiangqiGame"]


def _clauses(*parts: str) -> str:
    """Return the clause lists ``parts`` merged, each clause once, in order."""
    seen: list[str] = []
    for part in parts:
        for clause in part.split(","):
            c = clause.strip()
            if c and c not in seen:
                seen.append(c)
    return ", ".join(seen)


class IllegalMoveEventError(EventError):
    """A move the rules forbid, refused (casual play); ``reason`` says why."""


@dataclass(frozen=True)
class ChangeOrder:
    """An order to change (24.3, 26.4): ``side`` must leave the cycle.

    ``key`` is the position (Zobrist key, side to move included) at which the
    order was given and ``ply`` the number of moves played then.  Repeating
    the cycle back to that position loses; a capture ends the order.
    """

    side: Side
    key: int
    ply: int


class XiangqiGame(Game):
    """A Xiangqi game.

    ``rules`` defaults to the ``cxa`` profile; ``fen`` sets a start position;
    ``judge`` rules repetitions (default: :func:`~qisai.referee.repetition.default_judge`).
    ``board`` is the current position (read it, do not change it).
    """

    kind: ClassVar[GameKind] = GameKind.XIANGQI
    CLAUSES: ClassVar[dict[str, str]] = {
        "time": "4.1.4, 22.1",
        "move_limit": "本次比赛规则 2",
        "late": "4.1.5, 21.1",
        "both_late": "21.3",
        "offer": "23.1",
        "repeat_offer": "9.1.3, 23.1",
        "agreement": "4.2.2, 23.1",
        "resign": "4.1.9",
        "fouls": "4.1.8",
        "warnings": "8.8",
        "foul": "9.1",
        "warning": "8.8",
        "penalty": "8.8",
        "pause": "17.4, 22.4",
        "adjourn": "6",
        "checkmate": "4.1.1, 3.1",
        "stalemate": "4.1.3, 3.2",
        "facing": "4.1.2, 2.2",
        "illegal": "4.1.6",
        "out_of_turn": "5.8, 4.1.6",
        "illegal_foul": "本次比赛规则 8(五)",
        "natural": "4.2.4, 23.3",
        "false_claim": "9.1.4, 23.3",
        "forbidden": "4.1.7, 24.3, 26.4",
    }

    def __init__(self, rules: XiangqiRules | None = None, fen: str | None = None,
                 now: TimeSource | None = None, judge: RepetitionJudge | None = None) -> None:
        profile = rules if rules is not None else ruleset("cxa")
        if not isinstance(profile, XiangqiRules):
            raise EventError(f"rule profile {profile.name!r} is not a Xiangqi profile")
        super().__init__(profile, now)
        self.xrules: XiangqiRules = profile
        try:
            self.board = Board() if fen is None else Board(fen)
        except XiangqiError as exc:
            raise EventError(f"start position: {en_of(exc)}") from exc
        self.start_fen = self.board.fen()
        self._judge = judge or default_judge
        self._orders: dict[Side, ChangeOrder] = {}
        self.last_ruling: RepetitionRuling | None = None
        """The latest repetition ruling, with its move-by-move reasoning."""

    @property
    def to_move(self) -> Side:
        """Return the side to move (Red is :attr:`Side.FIRST`)."""
        return Side.FIRST if self.board.turn is Color.RED else Side.SECOND

    def _foul_limit(self) -> int | None:
        return self.xrules.foul_limit

    def _default_late_limit(self, side: Side) -> float | None:
        """Return the late limit (规定时限) of ``side`` from the time control.

        21.1-21.2: a late player's clock runs from his turn and he must still
        make the moves of the first period in the time left, so the limit is
        the time of his first period; alone, his running clock enforces it
        (``None``).  21.3: when both are late each one's late time counts
        from the start, so each exceeds the limit at the start plus his first
        period (both at once: 双方弃权).  ``None`` without clocks.
        """
        if not self._presence.both_late or self.clock is None:
            return None
        return self.clock.control.of(side).stages[0].seconds

    def _foul_clause(self) -> str:
        return self.xrules.foul_clause

    def _on_start(self, event: Event) -> None:
        super()._on_start(event)
        if not self.board.has_legal_moves():
            # A set-up position in which the side to move is already mated or
            # stalemated (3.1, 3.2): it has lost.
            self._rule_position(self.to_move.other, event.at)

    # ---------------------------------------------------------------- moves
    def _on_move(self, side: Side, move: str, at: float) -> None:
        try:
            mv = Move.from_iccs(move)
        except XiangqiError as exc:
            raise EventError(f"move at {at} s: {en_of(exc)}") from exc
        if side is not self.to_move:
            self._irregular(side, at, self.xrules.out_of_turn, "out_of_turn",
                            f"{move}：不是该方走棋", f"{move} played out of turn",
                            NotYourTurnError(f"move at {at} s: it is "
                                             f"{self.to_move.name_en(self.kind)}'s turn"))
            return
        board = self.board
        if not board.is_legal(mv):
            facing = self._makes_generals_face(mv)
            reason = board.illegal_reason(mv)
            key = "facing" if facing else "illegal"
            self._irregular(side, at, self.xrules.illegal_move, key,
                            f"{move}：{'帅将对面' if facing else '走棋违反行棋规定'}", reason,
                            IllegalMoveEventError(f"move at {at} s: {reason}"))
            return
        elapsed, snap = self._press(side, at)
        capture = board.is_capture(mv)
        board.push_unchecked(mv)  # is_legal just said so
        check = board.is_check()
        iccs = mv.iccs()
        self._record_move(side, iccs, at, elapsed, snap, gave_check=check, capture=capture)
        if capture:
            self._orders.clear()
        zh, en = self._name(side)
        self._emit(NoticeType.MOVED, at, side, f"{zh} {iccs}", f"{en} {iccs}",
                   move=iccs, check=check, capture=capture, elapsed=elapsed,
                   fen=board.fen())
        self._after_move(side, at)
        self._rule_position(side, at)

    def _irregular(self, side: Side, at: float, penalty: Penalty, key: str, zh: str, en: str,
                   error: EventError) -> None:
        """Apply ``penalty`` to an illegal or out-of-turn move."""
        if penalty is Penalty.REJECT:
            raise error
        if penalty is Penalty.LOSS:
            # 4.1.6 (4.1.2 for facing generals; 5.8 for a move out of turn).
            reason = Reason.FACING_GENERALS if key == "facing" else Reason.ILLEGAL_MOVE
            self._win(side.other, reason, self.CLAUSES[key], at, zh, en)
            return
        # Local rules 8(五): 一方多走一步或棋子走往不能去的位置 is a technical foul;
        # the move is not made.
        self._emit(NoticeType.INVALID_MOVE, at, side, zh, en, self.CLAUSES["illegal_foul"])
        self._add_infraction("foul", side, at, self.CLAUSES["illegal_foul"], f"{zh} / {en}")

    def _makes_generals_face(self, mv: Move) -> bool:
        """Return whether the pseudo-legal move ``mv`` leaves the generals
        facing on one file with nothing between (4.1.2)."""
        board = self.board
        if not board.is_pseudo_legal(mv):
            return False
        board.push_unchecked(mv)
        try:
            return board.generals_face()
        finally:
            board.pop()

    def banned_moves(self) -> list[str]:
        """Return the ICCS moves the side to move may not play because they
        would complete a repetition ruled against it (26.1-26.4; UCCI
        ``banmoves``), under this profile's code and count."""
        moves = forbidden_moves(self.board, self.xrules.repetition_code.value,
                                     self.xrules.repetition_count)
        return sorted(m.iccs() for m in moves)

    # ------------------------------------------------------------- endings
    @property
    def change_orders(self) -> tuple[ChangeOrder, ...]:
        """Return the orders to change in force (24.3), oldest first."""
        return tuple(sorted(self._orders.values(), key=lambda o: o.ply))

    def _rule_position(self, mover: Side, at: float) -> None:
        board = self.board
        if not board.has_legal_moves():
            if board.is_check():
                self._win(mover, Reason.CHECKMATE, self.CLAUSES["checkmate"], at)
            else:
                self._win(mover, Reason.STALEMATE, self.CLAUSES["stalemate"], at)
            return
        if self._orders:
            # 24.3: the arbiter who ordered the change watches the order,
            # with or without automatic rulings.
            self._enforce_orders(at)
            if self.is_over:
                return
        window = self._repetition_window()
        if window is not None and self.xrules.repetition_automatic:
            # 23.2: the arbiter rules a continuing repetition without a claim.
            self._rule_repetition(window, at)
            if self.is_over:
                return
        limit = self.xrules.natural_limit
        # The count never exceeds the quiet plies halved: only near the limit
        # is it worth making (every move of a game comes here).
        if limit is not None and self.xrules.natural_limit_automatic and \
                board.halfmove_clock // 2 >= limit:
            if self.natural_limit_rounds(None) >= limit:
                # 23.3: 双方均未审核时，裁判经审核着数亦可判和.
                self._finish(Result.ended(self.kind, Outcome.DRAW, Reason.NATURAL_LIMIT,
                                          self.CLAUSES["natural"]), at)

    def _window_floor(self) -> int:
        """Return the ply from which positions count for a repetition: the
        last capture's, or the latest order to change (24.3: after an order a
        new cycle is judged on its own)."""
        board = self.board
        plies = len(board.move_stack)
        floor = max(0, plies - board.halfmove_clock)
        for order in self._orders.values():
            floor = max(floor, order.ply)
        return floor

    def _repetition_window(self) -> tuple[int, int] | None:
        """Return (plies back to the first occurrence, count) when the current
        position has occurred ``repetition_count`` times since the last
        capture and since the latest order to change (24.3)."""
        board = self.board
        # Only the positions since the last capture can recur (and only
        # those are fetched: this runs after every move).
        last = min(board.halfmove_clock, len(board.move_stack) - self._window_floor())
        window = board.history_keys(last=last)
        current = window[-1]
        count = window.count(current)
        if count < self.xrules.repetition_count:
            return None
        return len(window) - 1 - window.index(current), count

    def _query(self, back: int, count: int) -> RepetitionQuery:
        """Return the judge's query on the last ``back`` moves, in which the
        current position occurs ``count`` times.  ``required`` is ``count``:
        this is the arbiter's first ruling on the window (24.3: whether an
        order was disobeyed is the referee's to say, not the judge's)."""
        probe = self.board.copy()
        moves = probe.move_stack[len(probe.move_stack) - back:]
        for _ in range(back):
            probe.pop()
        return RepetitionQuery(probe.fen(), tuple(moves), count, self.xrules.repetition_code,
                               count)

    def _ask_judge(self, query: RepetitionQuery) -> RepetitionRuling:
        try:
            ruling = self._judge(query)
        except ValueError as exc:
            # The judge could not rule (an error of the 棋例 module): fall back
            # to the check-only ruling and say so, rather than stop the game.
            base = checks_only_judge(query)
            ruling = RepetitionRuling(base.kind, base.side, base.perpetual_check, base.clause,
                                      f"{base.detail_zh}；棋例模块未能裁决：{exc}",
                                      f"{base.detail_en}; the repetition module failed: {exc}")
        self.last_ruling = ruling
        return ruling

    def _enforce_orders(self, at: float) -> None:
        """24.3 犯禁方必须立即变着，若再重复一次循环，即判负: a side under an
        order loses when the position of the order recurs and the cycle since
        the order is again ruled against it (forbidden, 26.4)."""
        board = self.board
        for order in self.change_orders:
            plies = len(board.move_stack)
            if board.key != order.key or plies <= order.ply:
                continue
            keys = board.history_keys(last=plies - order.ply)
            ruling = self._ask_judge(self._query(plies - order.ply, keys.count(board.key)))
            if ruling.side is not order.side or ruling.kind is RulingKind.DRAW:
                continue  # the side changed: its new moves are allowed
            side = order.side
            zh, en = self._name(side)
            reason = Reason.PERPETUAL_CHECK if ruling.perpetual_check else \
                Reason.FORBIDDEN_REPETITION
            self._win(side.other, reason,
                      _clauses(self.CLAUSES["forbidden"], "24.3", ruling.clause), at,
                      f"{zh}经裁定必须变着，仍再重复禁止着法的循环，判负（24.3）",
                      f"{en} repeated the forbidden cycle after the order to change: "
                      f"loses (24.3)")
            return

    def _rule_repetition(self, window: tuple[int, int], at: float) -> None:
        back, count = window
        ruling = self._ask_judge(self._query(back, count))
        if ruling.kind is RulingKind.DRAW:
            # 4.2.3, 24.2: 不变作和.
            self._finish(Result.ended(self.kind, Outcome.DRAW, Reason.REPETITION,
                                      _clauses("4.2.3, 24.2", ruling.clause),
                                      ruling.detail_zh, ruling.detail_en), at)
            return
        side = ruling.side
        assert side is not None
        if ruling.kind is RulingKind.LOSES and ruling.perpetual_check:
            # 24.1, 26.1: one-sided perpetual check loses at once.
            self._win(side.other, Reason.PERPETUAL_CHECK, _clauses("24.1", ruling.clause), at,
                      ruling.detail_zh, ruling.detail_en)
            return
        # 24.3: a forbidden cycle (26.4) is first an order to change, also
        # when the ruling waited for a claim until the cycle had recurred more
        # often; only repeating the cycle after the order loses
        # (:meth:`_enforce_orders`).  A judge's "loses" is read as that order.
        self._orders[side] = ChangeOrder(side, self.board.key, len(self.board.move_stack))
        zh, en = self._name(side)
        self._emit(NoticeType.MUST_CHANGE, at, side,
                   f"裁定{zh}必须变着，再重复一次循环即判负（24.3）：{ruling.detail_zh}",
                   f"{en} must change; repeating the cycle again loses (24.3): "
                   f"{ruling.detail_en}",
                   "24.3")

    def natural_limit_rounds(self, claimant: Side | None) -> int:
        """Return the rounds without a capture that count for the natural limit.

        23.3 审核回合时，提出方对非提出方"将军"的着数，最多只计10着: every move
        of the claimant is one round (回合), so each of his checks beyond
        ``natural_limit_check_cap`` takes one whole round off the count.
        Without a claimant (the arbiter's own count, 23.3 last sentence) a
        round with a check beyond either side's cap does not count.  Rounds
        are the complete pairs of plies counted back from the last move;
        plies before the start position count as quiet.
        """
        plies = self.board.halfmove_clock
        recorded = min(plies, len(self.moves))
        window = self.moves[len(self.moves) - recorded:]
        cap = self.xrules.natural_limit_check_cap
        rounds = plies // 2
        checks = {Side.FIRST: 0, Side.SECOND: 0}
        excluded: set[int] = set()
        for i, record in enumerate(window):
            if not record.gave_check or (claimant is not None and record.side is not claimant):
                continue
            checks[record.side] += 1
            if checks[record.side] > cap:
                back = len(window) - 1 - i  # plies before the last move
                if back // 2 < rounds:
                    excluded.add(back // 2)
        return rounds - len(excluded)

    # --------------------------------------------------------------- claims
    def _on_claim(self, event: Event) -> None:
        self._require_playing("claim")
        side = self._require_side(event)
        if side is not self.to_move:
            # 8.5: questions are raised in one's own time.
            raise NotYourTurnError(f"claim at {event.at} s: claims are made in one's own turn (8.5)")
        if event.claim is ClaimKind.NATURAL_LIMIT:
            self._claim_natural_limit(side, event.at)
        elif event.claim is ClaimKind.REPETITION:
            window = self._repetition_window()
            if window is None:
                zh, en = self._name(side)
                self._emit(NoticeType.CLAIM_REJECTED, event.at, side,
                           f"{zh}要求裁决：局面未循环反复{self.xrules.repetition_count}次",
                           f"{en}'s repetition claim: the position has not occurred "
                           f"{self.xrules.repetition_count} times", "24")
                return
            self._rule_repetition(window, event.at)
        else:
            raise EventError(f"claim at {event.at} s: say what is claimed")

    def _claim_natural_limit(self, side: Side, at: float) -> None:
        limit = self.xrules.natural_limit
        if limit is None:
            raise EventError(f"claim at {at} s: these rules have no natural move limit")
        rounds = self.natural_limit_rounds(side)
        if rounds >= limit:
            self._finish(Result.ended(self.kind, Outcome.DRAW, Reason.NATURAL_LIMIT,
                                      self.CLAUSES["natural"], f"{rounds}回合未吃子",
                                      f"{rounds} rounds without a capture"), at)
            return
        zh, en = self._name(side)
        self._emit(NoticeType.CLAIM_REJECTED, at, side,
                   f"{zh}提出自然限着，审核不属实（{rounds}/{limit}回合）",
                   f"{en}'s natural-limit claim is false ({rounds}/{limit} rounds)",
                   self.CLAUSES["false_claim"])
        if self.xrules.false_claim_is_foul:
            # 9.1.4 / 23.3: 如不属实，判提出方犯规一次.
            self._add_infraction("foul", side, at, self.CLAUSES["false_claim"],
                                 "提出自然限着和棋，经审核不属实 / false natural-limit claim")
        if not self.is_over and self.xrules.false_claim_seconds > 0:
            # 23.3: 并在其棋钟上加计5分钟继续对弈，若因此而超时，即判负.
            self._charge(side, self.xrules.false_claim_seconds, at, "23.3")
