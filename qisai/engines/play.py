"""One refereed game between two engines.

The referee (:mod:`qisai.referee`) keeps the clocks, judges every move and
rules every ending; this module only relays moves and turns engine faults
into the referee's events:

===========================  ============================================
fault                        what the referee is told
===========================  ============================================
failed to start              adjudication: the side did not arrive (21)
hang (no move in time)       time passes: the flag falls (4.1.4, 22.1)
crash (process exited)       its clock can only run out: the flag falls
                             at the flag time (no waiting)
move that is not a move      adjudication: illegal move (4.1.6)
refused protocol command     adjudication: illegal move (4.1.6), "broke
or move (xboard ``Illegal``  the protocol"
``move`` to an accepted one)
illegal move                 the move itself: the referee's penalty
                             (loss under ``cxa``, a foul under
                             ``cxa-local``; Go: void, a pass, 10 and
                             11(1))
===========================  ============================================

What an engine says besides its move is put to the referee, who rules: a
resignation (UCCI ``bestmove ... resign``, xboard ``resign``); a draw offer
(UCCI ``draw``, xboard ``offer draw``) made with a move is an offer after
that move (23.1), passed on to an xboard opponent (``draw``), and made
while the opponent's offer is pending it is an acceptance (4.2.2); an
xboard result claim made instead of a move (``1/2-1/2 {...}``) is a claim
in its own turn (23.3 natural limit, 24 repetition; a claim of its own loss
is a resignation, a claim of its own win no claim the rules know).  An
engine that will not move after its claim was not upheld (it claims
again) has stopped playing: its flag falls, as for a crash.  A claim sent
after a move is recorded in the notes; play goes on.

Time is measured with :func:`time.monotonic`, from the moment the search
command is sent to the moment the answer is read.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from qisai.engines.clients import XiangqiClient
from qisai.engines.errors import (
    EngineError,
    EngineMoveError,
    EngineTerminatedError,
    EngineTimeoutError,
    GtpCommandError,
)
from qisai.engines.gtp import GtpEngine, KgsTimeSystem
from qisai.engines.results import Limit, PlayResult
from qisai.engines.uci import Protocol
from qisai.go.coords import gtp_name
from qisai.go.deadstones import estimate_dead
from qisai.go.rules import Color as GoColor
from qisai.referee.clock import ByoyomiKind, SideTimeControl
from qisai.referee.errors import GameOverError, RefereeError
from qisai.referee.events import ClaimKind
from qisai.referee.go_game import GoGame
from qisai.referee.rulesets import RepetitionCode
from qisai.referee.verdict import GameKind, Outcome, Reason, Result, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.xiangqi.board import Board
from qisai.xiangqi.qili.cycle import forbidden_moves
from qisai.xiangqi.squares import Move

__all__ = ["Adjudication", "Fault", "GameReport", "play_go", "play_xiangqi"]

_GRACE = 0.05
"""Seconds added to the flag time before a silent engine is given up."""


class Fault(enum.Enum):
    """How an engine failed during a game (``None`` in a report: it did not)."""

    START = "failed to start"
    TIMEOUT = "no move in time"
    CRASH = "crashed"
    GARBAGE = "sent something that is not a move"
    PROTOCOL = "broke the protocol"


@dataclass(frozen=True)
class Adjudication:
    """Score adjudication (cutechess-cli's ``-resign``/``-draw``).

    Resign: after ``resign_moves`` consecutive moves of *both* engines with
    the mover's score at or below ``-resign_score`` cp, the loser resigns.
    Draw: from move ``draw_from`` on, after ``draw_moves`` consecutive moves
    with both scores within ``draw_score`` cp, the arbiter declares a draw
    (4.2.1).  ``max_plies`` ends a game that runs on by a draw (adjudicated).
    ``None`` switches a rule off.
    """

    resign_moves: int | None = None
    resign_score: int = 1000
    draw_from: int | None = None
    draw_moves: int = 8
    draw_score: int = 10
    max_plies: int | None = None


@dataclass
class GameReport:
    """What happened in one game: the referee's game and the engines' faults."""

    game: XiangqiGame | GoGame
    names: tuple[str, str]
    """Engine names: (first mover, second mover)."""
    faults: dict[Side, tuple[Fault, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    opening: str = ""
    engine_names: tuple[str, str] = ("", "")
    """The names the engines give themselves (UCI ``id name``, xboard
    ``myname``; empty if unknown), for the record."""

    @property
    def result(self) -> Result | None:
        """The referee's result (``None`` only while the game runs)."""
        return self.game.result


def _engine_limit(game: XiangqiGame, movetime: float | None, at: float) -> Limit:
    if movetime is not None or game.clock is None:
        return Limit(movetime=movetime if movetime is not None else 1.0)
    clock = game.clock
    red = clock.remaining(Side.FIRST, at=at)
    black = clock.remaining(Side.SECOND, at=at)
    snap = clock.snapshot(game.to_move, at=at)
    control = game.rules.time_control
    assert control is not None
    own: SideTimeControl = control.of(game.to_move)
    inc_red = control.of(Side.FIRST).increment or None
    inc_black = control.of(Side.SECOND).increment or None
    togo = snap.moves_to_go
    if own.byoyomi is not None and own.byoyomi.kind is ByoyomiKind.JAPANESE and snap.in_byoyomi:
        togo = 1
    return Limit(red_clock=red, black_clock=black, red_inc=inc_red, black_inc=inc_black,
                 moves_to_go=togo)


def _safely(action: Callable[..., object], *args: Any, **kwargs: Any) -> None:
    """Apply a referee action; if time had already ended the game (the
    referee rules the flag fall first, then refuses the action), that ruling
    stands."""
    try:
        action(*args, **kwargs)
    except GameOverError:
        pass


def _flag_time(game: XiangqiGame | GoGame) -> float | None:
    return game.clock.deadline() if game.clock is not None else None


def _fault_of(exc: EngineError) -> Fault:
    if isinstance(exc, EngineTimeoutError):
        return Fault.TIMEOUT
    if isinstance(exc, EngineTerminatedError):
        return Fault.CRASH
    if isinstance(exc, EngineMoveError):
        return Fault.GARBAGE
    return Fault.PROTOCOL


def _rule_fault(report: GameReport, side: Side, exc: EngineError, now: Callable[[], float]) -> None:
    """Turn an engine failure during its move into the referee's ruling."""
    game = report.game
    fault = _fault_of(exc)
    report.faults[side] = (fault, str(exc))
    kind = game.kind
    if fault in (Fault.TIMEOUT, Fault.CRASH):
        flag = _flag_time(game)
        if flag is not None:
            # A hung engine used its time; a crashed one can never move, so
            # its flag falls at the flag time: tell the referee that time.
            game.tick(at=max(flag, now()))
            if game.is_over:
                return
        # No clock: the arbiter rules the game lost on time all the same.
        _safely(game.adjudicate, Outcome.WIN, Reason.TIME_FORFEIT, game.CLAUSES["time"],
                winner=side.other, note=str(exc), at=now())
        return
    clause = game.CLAUSES["illegal"] if kind is GameKind.XIANGQI else game.CLAUSES["foul"]
    _safely(game.adjudicate, Outcome.WIN, Reason.ILLEGAL_MOVE, clause, winner=side.other,
            note=f"{fault.value}: {exc}", at=now())


def _rule_start_failure(report: GameReport, failed: dict[Side, str],
                        now: Callable[[], float]) -> None:
    game = report.game
    for side, message in failed.items():
        report.faults[side] = (Fault.START, message)
    if len(failed) == 2:
        # 21.3: both absent beyond the limit: both forfeit.
        _safely(game.adjudicate, Outcome.DOUBLE_FORFEIT, Reason.LATE_ARRIVAL,
                game.CLAUSES["both_late"], note="neither engine started", at=now())
    else:
        (side, message), = failed.items()
        _safely(game.adjudicate, Outcome.WIN, Reason.LATE_ARRIVAL, game.CLAUSES["late"],
                winner=side.other, note=f"engine failed to start: {message}", at=now())


class _ScoreWatch:
    """Tracks the engines' scores for resign/draw adjudication."""

    def __init__(self, rules: Adjudication) -> None:
        self.rules = rules
        self.resign_run = {Side.FIRST: 0, Side.SECOND: 0}
        self.draw_run = 0

    def update(self, side: Side, ply: int, cp: int | None) -> str | None:
        r = self.rules
        if cp is None:
            self.resign_run[side] = 0
            self.draw_run = 0
            return None
        if r.resign_moves is not None:
            self.resign_run[side] = self.resign_run[side] + 1 if cp <= -r.resign_score else 0
            winning = self.resign_run[side.other] == 0 and cp <= -r.resign_score
            if self.resign_run[side] >= r.resign_moves and winning:
                return "resign"
        if r.draw_from is not None and ply // 2 + 1 >= r.draw_from:
            self.draw_run = self.draw_run + 1 if abs(cp) <= r.draw_score else 0
            if self.draw_run >= 2 * r.draw_moves:
                return "draw"
        return None


def _cp(result: PlayResult) -> int | None:
    info = result.last_info
    if info is None or info.score is None:
        return None
    if info.score.mate is not None:
        return 100000 if info.score.mate > 0 else -100000
    return info.score.cp


def _forbidden(game: XiangqiGame) -> list[Move]:
    """The moves the 棋例 forbids the side to move (fed to engines as banmoves).

    A move can only complete a forbidden cycle if the position it reaches
    has already occurred ``repetition_count - 1`` times since the last
    capture, so the (costly) rulings are asked for only then.
    """
    board = game.board
    window = board.history_keys(last=board.halfmove_clock)
    need = game.xrules.repetition_count
    if len(window) < 2 * need or max(Counter(window).values()) < need - 1:
        return []
    profile = "axf" if game.xrules.repetition_code is RepetitionCode.AXF else "cxa"
    return forbidden_moves(board, profile, occurrences=need)


def _offer_or_accept(report: GameReport, side: Side, result: PlayResult,
                     players: dict[Side, XiangqiClient], at: float) -> None:
    """The engine playing ``side`` offered a draw with its move (23.1): the
    referee records the offer (or refuses it: a note), and an xboard
    opponent is told."""
    game = report.game
    try:
        game.offer_draw(side, at=at)
    except RefereeError as exc:
        report.notes.append(f"{report.names[side.value]} offered a draw: {exc}")
        return
    tell = getattr(players[side.other], "opponent_offers_draw", None)
    if tell is not None and game.pending_offer is side:
        tell()


def _rule_claim(report: GameReport, side: Side, result: PlayResult, at: float) -> None:
    """Put the result the engine playing ``side`` claimed in its own turn
    to the referee (see the module's docstring)."""
    game = report.game
    assert isinstance(game, XiangqiGame)
    name = report.names[side.value]
    claim = f"{result.claim} {{{result.claim_comment}}}" if result.claim_comment else \
        str(result.claim)
    own_win = "1-0" if side is Side.FIRST else "0-1"
    if result.claim == "1/2-1/2":
        if "repet" in result.claim_comment.lower() or game.xrules.natural_limit is None:
            kind = ClaimKind.REPETITION
        else:
            kind = ClaimKind.NATURAL_LIMIT
        report.notes.append(f"{name} claims {claim}: a {kind.value} claim")
        try:
            game.claim(side, kind, at=at)
        except RefereeError as exc:
            report.notes.append(f"{name}'s claim is not one the referee can take: {exc}")
    elif result.claim == own_win:
        report.notes.append(f"{name} claims {claim}: the rules know no such claim, the game "
                            "goes on")
    else:
        report.notes.append(f"{name} claims {claim}: its resignation (4.1.9)")
        _safely(game.resign, side, at=at)


def _engine_board(prelude: Board | None, game: XiangqiGame) -> Board | None:
    """The game's position as reached from ``prelude`` (the moves before
    the start position), for engines that cannot be set up from a FEN."""
    if prelude is None or prelude.fen() != game.start_fen:
        return None
    board = prelude.copy()
    for move in game.board.move_stack:
        board.push(move)
    return board


async def play_xiangqi(
    engines: tuple[XiangqiClient | BaseException, XiangqiClient | BaseException],
    game: XiangqiGame,
    *,
    names: tuple[str, str],
    movetime: float | None = None,
    adjudication: Adjudication = Adjudication(),
    on_move: Callable[[GameReport], None] | None = None,
    prelude: Board | None = None,
) -> GameReport:
    """Play ``game`` (not yet started) between ``engines`` (Red, Black).

    An engine given as an exception failed to start.  ``movetime`` plays a
    fixed time a move (the referee's clock must then carry a per-move limit
    or a generous sudden death); otherwise the engines get the referee's
    clocks.  ``prelude``, a board at the game's start position holding the
    moves that led there (an opening), is what xboard engines are given, so
    that one without ``setboard`` can replay them.  Returns the report with
    the refereed game over.  Never raises for engine faults.
    """
    now = time.monotonic
    report = GameReport(game, names)
    game.start(at=now())
    failed = {side: str(e) for side, e in zip((Side.FIRST, Side.SECOND), engines, strict=True)
              if isinstance(e, BaseException)}
    if failed:
        _rule_start_failure(report, failed, now)
        return report
    watch = _ScoreWatch(adjudication)
    players: dict[Side, XiangqiClient] = {}
    for side, e in zip((Side.FIRST, Side.SECOND), engines, strict=True):
        assert not isinstance(e, BaseException)
        players[side] = e
    report.engine_names = (players[Side.FIRST].id_name, players[Side.SECOND].id_name)
    claimed: set[Side] = set()
    # A fixed time a move is the same limit every move (and the engine can
    # then reuse its go command).
    fixed = Limit(movetime=movetime) if movetime is not None else None
    for engine in players.values():
        try:
            await engine.new_game()
        except EngineError:
            pass  # a broken engine shows it at its first move
    while not game.is_over:
        side = game.to_move
        engine = players[side]
        board = game.board
        if adjudication.max_plies is not None and len(board.move_stack) >= adjudication.max_plies:
            _safely(game.adjudicate, Outcome.DRAW, Reason.NO_WIN_POSSIBLE, "4.2.1",
                    note=f"adjudicated after {adjudication.max_plies} plies", at=now())
            break
        # UCCI has banmoves for this; a UCI engine answers for its own moves.
        banned = _forbidden(game) if engine.protocol is Protocol.UCCI else []
        limit = fixed if fixed is not None else _engine_limit(game, movetime, now())
        flag = _flag_time(game)
        timeout = None if flag is None else max(0.0, flag - now()) + _GRACE
        seen = board
        if engine.protocol == "xboard":
            seen = _engine_board(prelude, game) or board
        try:
            result = await engine.play(seen, limit, banmoves=banned, timeout=timeout)
        except EngineError as exc:
            _rule_fault(report, side, exc, now)
            break
        at = now()
        move = result.move
        if result.draw_offer and game.pending_offer is side.other:
            # 4.2.2: its answer to the opponent's offer.
            report.notes.append(f"{names[side.value]} accepts the draw offer")
            _safely(game.accept_draw, side, at=at)
            break
        if move is None and result.claim is not None and not result.resign:
            if side in claimed:
                # It claimed again instead of moving: it will not move, so
                # its flag can only fall (as for a crash).
                _rule_fault(report, side, EngineTimeoutError(
                    f"engine {names[side.value]} stopped playing after its claim "
                    f"{result.claim} was not upheld"), now)
                break
            claimed.add(side)
            _rule_claim(report, side, result, at)
            continue
        claimed.discard(side)
        if move is None or result.resign:
            # bestmove (none) with legal moves on the board, or UCCI "resign".
            report.notes.append(f"{names[side.value]} resigned ({result.text or 'no move'})")
            _safely(game.resign, side, at=at)
            break
        ply = len(board.move_stack)
        _safely(game.move, side, move.iccs(), at=at)
        if on_move is not None:
            on_move(report)
        if result.claim is not None:
            report.notes.append(f"{names[side.value]} claimed {result.claim} "
                                f"{{{result.claim_comment}}} after its move: "
                                + ("the referee rules as above" if game.is_over else
                                   "claims are made in one's own turn (8.5); play goes on"))
        if game.is_over:
            break
        if result.draw_offer and game.to_move is side.other:
            _offer_or_accept(report, side, result, players, now())
        if adjudication.resign_moves is None and adjudication.draw_from is None:
            continue
        verdict = watch.update(side, ply, _cp(result))
        if verdict == "resign":
            report.notes.append(f"{names[side.value]} resigned by score adjudication")
            _safely(game.resign, side, at=now())
        elif verdict == "draw":
            _safely(game.adjudicate, Outcome.DRAW, Reason.NO_WIN_POSSIBLE, "4.2.1",
                    note="draw by score adjudication", at=now())
    return report


# ------------------------------------------------------------------- Go
async def _go_setup(engine: GtpEngine, game: GoGame, movetime: float | None) -> None:
    rules = game.grules
    await engine.boardsize(rules.board_size)
    await engine.clear_board()
    await engine.komi(float(rules.komi))
    await engine.set_rules(rules.core)  # kgs-rules where listed; GNU Go got options at start
    if game.board.handicap:
        # The referee placed the handicap stones (fixed points); tell the engine where.
        await engine.set_free_handicap(
            [p for m in game.board.history if m.setup for p in _setup_black(game, m)])
    for move in game.board.history:
        if move.point is not None:
            await engine.play(move.color, move.point)
    control = rules.time_control
    if control is None or movetime is not None:
        return  # GTP has no "time a move": the engine uses its own default
    own = control.first
    main = sum(stage.seconds for stage in own.stages)
    b = own.byoyomi
    try:
        if b is None:
            await engine.kgs_time_settings(KgsTimeSystem.ABSOLUTE, main)
        elif b.kind is ByoyomiKind.CANADIAN:
            await engine.kgs_time_settings(KgsTimeSystem.CANADIAN, main, b.period_seconds, b.moves)
        else:
            await engine.kgs_time_settings(KgsTimeSystem.BYOYOMI, main, b.period_seconds, b.periods)
    except GtpCommandError:
        pass  # time settings are advice; the referee keeps the real clock


async def _send_time_left(engine: GtpEngine, game: GoGame, side: Side, color: GoColor,
                          at: float) -> None:
    """Tell the engine its clock: main time with 0 stones, or in overtime
    the time and stones of the current period (GTP ``time_left``)."""
    clock = game.clock
    assert clock is not None
    snap = clock.snapshot(side, at=at)
    control = game.grules.time_control
    assert control is not None
    byo = control.of(side).byoyomi
    if not snap.in_byoyomi or byo is None:
        await engine.time_left(color, snap.main, 0)
    elif byo.kind is ByoyomiKind.CANADIAN:
        await engine.time_left(color, snap.period_left, snap.moves_to_go or byo.moves)
    else:
        # Japanese and Chinese byo-yomi: a move inside one period costs nothing.
        await engine.time_left(color, byo.period_seconds, 1)


async def _resync(engine: GtpEngine, game: GoGame) -> None:
    """Rebuild the engine's board from the referee's (after a void move)."""
    await engine.clear_board()
    if game.board.handicap:
        await engine.set_free_handicap(
            [p for m in game.board.history if m.setup for p in _setup_black(game, m)])
    for move in game.board.history:
        if move.setup:
            continue
        await engine.play(move.color, move.point)


def _setup_black(game: GoGame, move: object) -> list[tuple[int, int]]:
    size = game.board.size
    position = getattr(move, "position", ())
    return [(i // size, i % size) for i, v in enumerate(position) if v == int(GoColor.BLACK)]


async def _dead_opinion(engine: GtpEngine) -> frozenset[tuple[int, int]] | None:
    if "final_status_list" not in engine.commands:
        return None
    try:
        return frozenset(await engine.final_status_list("dead"))
    except EngineError:
        return None


async def play_go(
    engines: tuple[GtpEngine | BaseException, GtpEngine | BaseException],
    game: GoGame,
    *,
    names: tuple[str, str],
    movetime: float | None = None,
    adjudication: Adjudication = Adjudication(),
    on_move: Callable[[GameReport], None] | None = None,
    opening: Sequence[tuple[int, int]] = (),
) -> GameReport:
    """Play ``game`` (not yet started) between ``engines`` (Black, White).

    ``opening`` points are played first, alternately, as moves of the
    refereed game (before the engines are set up, which then replay them).

    The engines are set up from the game's rules (size, komi, handicap,
    time).  After two passes the engines' dead-stone lists are compared;
    when they agree (or only one engine has an opinion) it is marked, else
    the arbiter's estimate (:func:`qisai.go.deadstones.estimate_dead`)
    decides, and both sides confirm (4(4)).  Returns the report with the
    refereed game over.  Never raises for engine faults.
    """
    now = time.monotonic
    report = GameReport(game, names)
    game.start(at=now())
    failed = {side: str(e) for side, e in zip((Side.FIRST, Side.SECOND), engines, strict=True)
              if isinstance(e, BaseException)}
    if failed:
        _rule_start_failure(report, failed, now)
        return report
    for point in opening:
        game.move(game.to_move, gtp_name(point, game.board.size), at=now())
    players: dict[Side, GtpEngine] = {}
    for side, e in zip((Side.FIRST, Side.SECOND), engines, strict=True):
        assert isinstance(e, GtpEngine)
        players[side] = e
    for side, engine in players.items():
        try:
            await _go_setup(engine, game, movetime)
        except EngineError as exc:
            _rule_fault(report, side, exc, now)
            return report
    size = game.board.size
    while not game.is_over:
        if game.phase.value == "scoring":
            await _agree_dead(report, players, now)
            break
        side = game.to_move
        color = GoColor.BLACK if side is Side.FIRST else GoColor.WHITE
        engine = players[side]
        if adjudication.max_plies is not None and len(game.moves) >= adjudication.max_plies:
            _safely(game.adjudicate, Outcome.NO_RESULT, Reason.ADJUDICATION, "竞赛规定 11(3)",
                    note=f"stopped after {adjudication.max_plies} moves", at=now())
            break
        flag = _flag_time(game)
        timeout = None if flag is None else max(0.0, flag - now()) + _GRACE
        if movetime is not None:
            timeout = min(timeout, movetime * 4 + 2) if timeout is not None else movetime * 4 + 2
        try:
            if game.clock is not None and movetime is None and "time_left" in engine.commands:
                await _send_time_left(engine, game, side, color, now())
            reply = await engine.genmove(color, timeout=timeout)
        except EngineError as exc:
            _rule_fault(report, side, exc, now)
            break
        at = now()
        if reply.resign:
            _safely(game.resign, side, at=at)
            break
        voided = len([m for m in game.moves if m.void])
        _safely(game.move, side, gtp_name(reply.point, size), at=at)
        if on_move is not None:
            on_move(report)
        if game.is_over:
            break
        other = players[side.other]
        try:
            if len([m for m in game.moves if m.void]) > voided:
                report.notes.append(f"{names[side.value]} played the invalid move {reply.text}")
                await _resync(engine, game)
                await _resync(other, game)
            else:
                await other.play(color, reply.point)
        except GtpCommandError as exc:
            # The other engine refuses a move the referee accepted: its board
            # differs from the referee's (e.g. another ko rule).  Resync it.
            report.notes.append(f"{names[side.other.value]} refused {reply.text}: {exc.reply}")
            try:
                await _resync(other, game)
            except EngineError as exc2:
                _rule_fault(report, side.other, exc2, now)
        except EngineError as exc:
            _rule_fault(report, side.other, exc, now)
    return report


async def _agree_dead(report: GameReport, players: dict[Side, GtpEngine],
                      now: Callable[[], float]) -> None:
    game = report.game
    assert isinstance(game, GoGame)
    opinions = [await _dead_opinion(players[s]) for s in (Side.FIRST, Side.SECOND)]
    known = [o for o in opinions if o is not None]
    if known and all(o == known[0] for o in known):
        dead = set(known[0])
    else:
        dead = set(estimate_dead(game.board))
        if known:
            report.notes.append("the engines disagreed on the dead stones; the arbiter's estimate "
                                "was used")
    size = game.board.size
    marks = [gtp_name(p, size) for p in sorted(dead) if game.board.get(p) is not None]
    if marks:
        game.mark_dead(None, marks, dead=True, at=now())  # each group once (4(5))
    first = game.to_move
    game.confirm_dead(first, at=now())
    game.confirm_dead(first.other, at=now())

