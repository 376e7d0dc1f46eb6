"""Property tests: any random sequence of events leaves a game consistent or
raises qisai's own error, and the event log replays to the same game."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qisai.referee import (
    ClaimKind,
    GoGame,
    ManualTime,
    Outcome,
    Phase,
    Reason,
    RefereeError,
    Side,
    XiangqiGame,
    ruleset,
)
from qisai.referee.clock import SideTimeControl, Stage, TimeControl, chinese_byoyomi

STEPS = st.lists(
    st.tuples(st.integers(0, 19), st.floats(0, 400, allow_nan=False), st.integers(0, 10_000)),
    max_size=60,
)

XQ_PROFILES = [
    ("cxa", {"late_limit": 900.0}),
    ("cxa-local", {"time_control": TimeControl.both(SideTimeControl((Stage(None, 1800),), move_limit=300))}),
    ("casual", {}),
    ("axf", {"natural_limit": 3, "repetition_count": 2}),
    ("cxa-2007", {"natural_limit_automatic": False}),
]
GO_PROFILES = [
    ("chinese", {"board_size": 5, "time_control": TimeControl.both(
        SideTimeControl((Stage(None, 120),), byoyomi=chinese_byoyomi(2)))}),
    ("japanese", {"board_size": 4, "cycle_repetitions": 2}),
    ("go-casual", {"board_size": 3}),
]


def check_consistent(game: XiangqiGame | GoGame) -> None:
    assert (game.phase is Phase.OVER) == (game.result is not None)
    result = game.result
    if result is not None:
        assert result.clause and result.explanation_zh and result.explanation_en
        assert (result.winner is not None) == (result.outcome is Outcome.WIN)
        assert game.ended_at is not None
    if game.phase is Phase.PLAYING and game.clock is not None:
        assert game.clock.running is game.to_move
    for side in Side:
        limit = game._foul_limit()  # noqa: SLF001
        if limit is not None and game.fouls(side) >= limit:
            assert result is not None and result.reason is Reason.FOULS
    if isinstance(game, XiangqiGame):
        assert len(game.board.move_stack) == len(game.moves)
    else:
        assert game.board.move_number == len(game.moves)  # moves, passes and void moves
    times = [m.at for m in game.moves]
    assert times == sorted(times)


def drive_xiangqi(game: XiangqiGame, t: ManualTime, steps: list[tuple[int, float, int]]) -> None:
    for action, dt, n in steps:
        t.advance(dt)
        side = Side.FIRST if n % 2 else Side.SECOND
        try:
            if action <= 7:
                legal = game.board.legal_moves()
                move = legal[n % len(legal)].iccs() if legal else "a0a1"
                game.move(game.to_move, move)
            elif action == 8:
                files, ranks = "abcdefghi", "0123456789"
                move = files[n % 9] + ranks[(n // 9) % 10] + files[(n // 90) % 9] + ranks[(n // 810) % 10]
                game.move(side, move)
            elif action == 9:
                game.offer_draw(side)
            elif action == 10:
                (game.accept_draw if n % 3 else game.decline_draw)(side)
            elif action == 11:
                game.claim(side, ClaimKind.NATURAL_LIMIT if n % 2 else ClaimKind.REPETITION)
            elif action == 12:
                game.tick()
            elif action == 13:
                game.flag()
            elif action == 14:
                (game.pause if n % 2 else game.resume)()
            elif action == 15:
                legal = game.board.legal_moves()
                game.adjourn(side, legal[n % len(legal)].iccs() if legal else "a0a1")
            elif action == 16:
                game.record_foul(side, "9.1.5", "touch-move")
            elif action == 17:
                game.penalize_time(side, float(n % 400 + 1), "8.8")
            elif action == 18:
                game.arrive(side)
            elif n % 50 == 0:
                game.resign(side)
        except RefereeError:
            pass
        check_consistent(game)


def drive_go(game: GoGame, t: ManualTime, steps: list[tuple[int, float, int]]) -> None:
    size = game.board.size
    letters = "ABCDEFGHJKLMNOPQRST"[:size]
    for action, dt, n in steps:
        t.advance(dt)
        side = Side.FIRST if n % 2 else Side.SECOND
        point = f"{letters[n % size]}{(n // size) % size + 1}"
        try:
            if action <= 8:
                game.move(game.to_move, point)
            elif action == 9:
                game.move(side, point)
            elif action <= 11:
                game.pass_move(game.to_move)
            elif action == 12:
                game.mark_dead(side if n % 3 else None, [point])
            elif action == 13:
                game.confirm_dead(side)
            elif action == 14:
                game.dispute_dead(side)
            elif action == 15:
                game.tick()
            elif action == 16:
                (game.pause if n % 2 else game.resume)()
            elif action == 17:
                game.adjourn(side, point)
            elif action == 18:
                game.record_warning(side, "竞赛规定 9", "wrong capture")
            elif n % 50 == 0:
                game.resign(side)
        except RefereeError:
            pass
        check_consistent(game)


def same_game(a: Any, b: Any) -> None:
    assert a.result == b.result
    assert a.moves == b.moves
    assert a.infractions == b.infractions
    assert a.phase == b.phase


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(XQ_PROFILES), st.booleans(), STEPS)
def test_random_xiangqi_events(profile: tuple[str, dict[str, Any]], late: bool,
                               steps: list[tuple[int, float, int]]) -> None:
    name, overrides = profile
    rules = ruleset(name, **overrides)
    t = ManualTime(0)
    game = XiangqiGame(rules, now=t)  # type: ignore[arg-type]
    game.start(absent=[Side.SECOND] if late else [])
    drive_xiangqi(game, t, steps)
    copy = XiangqiGame.replay(game.events, rules=rules, now=ManualTime(0))
    same_game(copy, game)
    assert isinstance(copy, XiangqiGame) and copy.board.fen() == game.board.fen()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GO_PROFILES), STEPS)
def test_random_go_events(profile: tuple[str, dict[str, Any]], steps: list[tuple[int, float, int]]) -> None:
    name, overrides = profile
    rules = ruleset(name, **overrides)
    t = ManualTime(0)
    game = GoGame(rules, now=t)  # type: ignore[arg-type]
    game.start()
    drive_go(game, t, steps)
    copy = GoGame.replay(game.events, rules=rules, now=ManualTime(0))
    same_game(copy, game)
    assert isinstance(copy, GoGame) and str(copy.board) == str(game.board)
