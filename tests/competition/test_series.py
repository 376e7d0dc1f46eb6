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


def test_000_card_holder_plays_red_in_game_one_of_the_series() -> None:
    """000 clause 9: "抽到红色数字扑克牌者执红棋先走" -- the red card holder has
    Red in game 1 of a best-of-three (000 clause 6), in every one of 200 draws."""
    import random

    from qisai.competition.pairing.knockout import card_draw

    boards = 0
    for seed in range(200):
        cd = card_draw(list(range(1, 14)), random.Random(seed))
        red, black = cd.pairs[0]
        assert cd.cards[red].startswith("红")
        s = Series(red, black, SeriesFormat.BEST_OF_THREE, seed=seed)
        g1 = s.next_game()
        assert g1 is not None and (g1.red, g1.black) == (red, black)
        boards += 1
    assert boards == 200


def test_13_2_team_board_colour_carries_into_the_series() -> None:
    """13.2/13.4: the first-listed team's even boards play Black; a series on
    board 2 starts with the other team's player on Red."""
    from qisai.competition.model import Colour
    from qisai.competition.teams import board_colour

    first_team_player, other_player = 21, 31
    assert board_colour(2, True) is Colour.BLACK
    red, black = ((first_team_player, other_player) if board_colour(2, True) is Colour.RED
                  else (other_player, first_team_player))
    for seed in range(20):
        s = Series(red, black, SeriesFormat.BEST_OF_THREE, seed=seed)
        g1 = s.next_game()
        assert g1 is not None and g1.red == other_player


def test_13_5_two_games_still_by_lot_and_lot_can_be_asked_for() -> None:
    """13.5 says 猜先 for the first of two games; any format can ask for it."""
    reds = {Series(1, 2, SeriesFormat.BEST_OF_THREE, seed=s, first_colours="lot")
            .next_game().red for s in range(30)}  # type: ignore[union-attr]
    assert reds == {1, 2}
    with pytest.raises(EventStateError):
        Series(1, 2, SeriesFormat.BEST_OF_THREE, first_colours="coin")


def test_000_6_tied_series_by_lot_when_the_organiser_chooses_it() -> None:
    """000 clause 6: "若出现平局现象，双方选择加赛一局或以抽签方式分出胜负"."""
    s = Series(1, 2, SeriesFormat.BEST_OF_THREE, seed=2, tied="lot")
    _play(s, [Result.DRAW, Result.DRAW, Result.DRAW])
    assert s.decided and s.winner in (1, 2) and "lot" in s.how and s.next_game() is None
    assert len(s.games) == 3  # no extra game
    e = Series(1, 2, SeriesFormat.BEST_OF_THREE, seed=2)  # default: the extra game
    _play(e, [Result.DRAW, Result.DRAW, Result.DRAW])
    assert not e.decided and e.next_game().kind == "extra"  # type: ignore[union-attr]
    with pytest.raises(EventStateError):
        Series(1, 2, SeriesFormat.BEST_OF_THREE, tied="coin")


def test_knockout_card_draw_series_keeps_the_card_colours() -> None:
    """000 clauses 6 and 9 together: a card-draw knock-out played as
    best-of-three; game 1 of every match is Red for the red card holder."""
    from qisai.competition.pairing.knockout import Knockout

    for seed in range(40):
        ko = Knockout(list(range(1, 14)), draw="cards", seed=seed)
        for k, m in enumerate(ko.pair_next_round()):
            if m.black is None:
                with pytest.raises(ResultError):
                    ko.series(1, k)
                continue
            assert m.note.startswith("cards 红")
            s = ko.series(1, k, tied="lot")
            g1 = s.next_game()
            assert g1 is not None and g1.red == m.red
    with pytest.raises(EventStateError):
        ko.series(1, 0, "best_of_five")
