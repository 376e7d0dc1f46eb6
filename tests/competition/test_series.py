"""Match formats: 13.5 two games, 三局两胜 (000 clause 6), 2021 league (001)."""

from __future__ import annotations

import pytest

from qisai.competition.errors import EventStateError, ResultError
from qisai.competition.model import Result
from qisai.competition.series import Series, SeriesFormat


def _play(s: Series, results: list[Result]) -> list[tuple[int, int]]:
    colours = []
    for r in results:
        g = s.next_game()
        assert g is not None
        colours.append((g.red, g.black))
        s.record(r)
    return colours


def test_13_5_two_games_swap_colours() -> None:
    s = Series(1, 2, SeriesFormat.TWO_GAMES, seed=3, decide_ties=False)
    cols = _play(s, [Result.RED_WIN, Result.DRAW])
    assert cols[1] == (cols[0][1], cols[0][0])
    assert s.decided and s.winner == cols[0][0]
    d = Series(1, 2, SeriesFormat.TWO_GAMES, decide_ties=False)
    _play(d, [Result.RED_WIN, Result.RED_WIN])
    assert d.decided and d.winner is None


def test_first_game_colours_by_lot() -> None:
    reds = {Series(1, 2, SeriesFormat.TWO_GAMES, seed=s).next_game().red  # type: ignore[union-attr]
            for s in range(30)}
    assert reds == {1, 2}


def test_best_of_three_stops_when_decided() -> None:
    s = Series(1, 2, SeriesFormat.BEST_OF_THREE, seed=1)
    g1 = s.next_game()
    assert g1 is not None
    s.record(Result.RED_WIN)
    g2 = s.next_game()
    assert g2 is not None and g2.red == g1.black  # colours alternate
    s.record(Result.BLACK_WIN)  # g1.red wins again: 2-0
    assert s.decided and s.winner == g1.red and s.next_game() is None


def test_best_of_three_level_goes_to_extra_game_then_lot() -> None:
    s = Series(1, 2, SeriesFormat.BEST_OF_THREE, seed=2)
    _play(s, [Result.DRAW, Result.DRAW, Result.DRAW])
    extra = s.next_game()
    assert extra is not None and extra.kind == "extra"  # 加赛一局
    s.record(Result.DRAW)
    assert s.decided and s.winner in (1, 2) and "lot" in s.how  # 抽签


def test_2021_league_slow_rapid_decider() -> None:
    s = Series(7, 8, SeriesFormat.LEAGUE_2021, seed=5)
    slow = s.next_game()
    assert slow is not None and slow.kind == "slow"
    s.record(Result.DRAW)
    rapid = s.next_game()
    assert rapid is not None and rapid.kind == "rapid"
    assert (rapid.red, rapid.black) == (slow.black, slow.red)  # 换先
    s.record(Result.DRAW)
    with pytest.raises(EventStateError, match="colour choice"):
        s.next_game()
    # the rapid game's Black chooses: takes Black again here
    decider = s.next_game(chosen_red=rapid.red)
    assert decider is not None and decider.kind == "decider" and decider.black == rapid.black
    s.record(Result.BLACK_WIN)
    assert s.winner == rapid.black and s.decided


def test_2021_league_slow_game_decides() -> None:
    s = Series(7, 8, SeriesFormat.LEAGUE_2021, seed=5)
    g = s.next_game()
    assert g is not None
    s.record(Result.RED_WIN)
    assert s.winner == g.red and s.next_game() is None


def test_errors() -> None:
    s = Series(1, 2)
    with pytest.raises(ResultError):
        s.record(Result.DRAW)
    with pytest.raises(EventStateError):
        Series(3, 3)
