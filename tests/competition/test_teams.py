"""Team events: line-ups (12.1-12.5), colours (13.2), 场分/局分 (14.2),
team tie-breaks (15.3, 15.4), 队员总分制 (15.5)."""

from __future__ import annotations

import random

import pytest

from qisai.competition.errors import CompetitionError, LineupError, ResultError
from qisai.competition.model import Colour, Result
from qisai.competition.teams import (
    LineupMode,
    Team,
    TeamTournament,
    all_play_all_schedule,
    board_colour,
    legal_lineups,
    rank_by_place_sum,
    validate_lineup,
)
from qisai.competition.tiebreaks import Criterion


def _team(name: str, n: int = 6, boards: int = 4) -> Team:
    return Team(name, [f"{name}{k}" for k in range(1, n + 1)], boards)


def test_12_2_four_boards_two_reserves_fifteen_lineups() -> None:
    t = _team("A")
    lineups = legal_lineups(t)
    assert len(lineups) == 15
    assert lineups[0] == ("A1", "A2", "A3", "A4") and lineups[-1] == ("A3", "A4", "A5", "A6")
    assert ("A1", "A2", "A3", "A5") in lineups
    for lu in lineups:
        assert validate_lineup(t, lu, LineupMode.SUBSTITUTES) == lu
    with pytest.raises(LineupError, match="reversed"):
        validate_lineup(t, ["A2", "A1", "A3", "A4"], LineupMode.SUBSTITUTES)


def test_12_1_fixed_and_12_3_free() -> None:
    t = _team("A")
    assert legal_lineups(t, LineupMode.FIXED) == [("A1", "A2", "A3", "A4")]
    with pytest.raises(LineupError, match="12.1"):
        validate_lineup(t, ["A1", "A2", "A3", "A5"], LineupMode.FIXED)
    assert validate_lineup(t, ["A4", "A1", "A6", "A2"], LineupMode.FREE)
    assert len(legal_lineups(t, LineupMode.FREE)) == 6 * 5 * 4 * 3
    with pytest.raises(LineupError, match="not registered"):
        validate_lineup(t, ["A1", "A2", "A3", "B1"], LineupMode.FREE)
    with pytest.raises(LineupError, match="two boards"):
        validate_lineup(t, ["A1", "A1", "A3", "A4"], LineupMode.FREE)


def test_13_2_odd_boards_red_for_first_listed() -> None:
    assert [board_colour(b, True) for b in (1, 2, 3, 4)] == [
        Colour.RED, Colour.BLACK, Colour.RED, Colour.BLACK]
    assert board_colour(1, False) is Colour.BLACK


def test_12_4_all_play_all() -> None:
    a, b = ["a1", "a2", "a3"], ["b1", "b2", "b3"]
    rounds = all_play_all_schedule(a, b)
    games = {frozenset(g) for r in rounds for g in r}
    assert len(games) == 9 and all(len(g) == 2 for g in games)
    for r in rounds:
        assert len({p for g in r for p in g}) == 6
    with pytest.raises(LineupError):
        all_play_all_schedule(a, b[:2])


def _event(system: str = "round_robin", n: int = 4, rounds: int | None = None) -> TeamTournament:
    return TeamTournament("league", [_team(chr(65 + k)) for k in range(n)],
                          system=system, rounds=rounds, seed=1)


def test_14_2_match_points_from_board_points() -> None:
    ev = _event()
    m = ev.pair_next_round()[0]
    red, black = ev.team(m.red_team), ev.team(m.black_team or 0)
    # boards 1,3: first team Red. Results from Red's side: win, draw, draw, draw
    ev.record_match(1, m.board, red.roster[:4], black.roster[:4],
                    [Result.RED_WIN, Result.DRAW, Result.DRAW, Result.DRAW])
    recs = ev.records()
    first, second = recs[m.red_team].encounters[0], recs[m.black_team or 0].encounters[0]
    assert (first.game_points, second.game_points) == (2.5, 1.5)
    assert (first.points, second.points) == (2.0, 0.0)  # 局分多者为胜 场分 2
    assert (first.game_wins, second.game_wins) == (1, 0)


def test_15_3_team_round_robin_ranking() -> None:
    ev = _event()
    rng = random.Random(3)
    while len(ev.rounds) < ev.rounds_planned:
        for m in ev.pair_next_round():
            r, b = ev.team(m.red_team), ev.team(m.black_team or 0)
            ev.record_match(m.round, m.board, legal_lineups(r)[rng.randrange(15)],
                            legal_lineups(b)[rng.randrange(15)],
                            [rng.choice([Result.RED_WIN, Result.DRAW, Result.BLACK_WIN])
                             for _ in range(4)])
    st = ev.standings()
    assert ev.tiebreaks == (Criterion.GAME_POINTS, Criterion.WINS,
                            Criterion.DIRECT_ENCOUNTER, Criterion.FOULS)
    # 场分 sum: 6 matches x 2
    assert sum(s.points for s in st) == 12
    assert sum(s.values[Criterion.GAME_POINTS] for s in st) == 6 * 4
    pts = [(s.points, s.values[Criterion.GAME_POINTS]) for s in st]
    assert pts == sorted(pts, reverse=True)


def test_15_4_team_swiss_and_forfeit() -> None:
    ev = _event("swiss", n=5, rounds=3)
    rnd = ev.pair_next_round()
    byes = [m for m in rnd if m.black_team is None]
    assert len(byes) == 1
    played = [m for m in rnd if m.black_team is not None]
    ev.record_forfeit(1, played[0].board, Result.RED_FORFEIT_WIN)  # 21.4: + worth 2
    m = played[1]
    ev.record_match(1, m.board, ev.team(m.red_team).roster[:4],
                    ev.team(m.black_team or 0).roster[:4], ["1-0", "0-1", "=", "="])
    recs = ev.records()
    assert recs[played[0].red_team].points == 2.0
    assert recs[played[0].black_team or 0].points == 0.0
    assert recs[byes[0].red_team].points == 2.0
    assert ev.tiebreaks[0] is Criterion.BUCHHOLZ  # 团体对手分
    ev.pair_next_round()
    with pytest.raises(ResultError):
        ev.record_forfeit(2, 1, Result.DRAW)


def test_record_match_errors() -> None:
    ev = _event()
    m = ev.pair_next_round()[0]
    r, b = ev.team(m.red_team), ev.team(m.black_team or 0)
    with pytest.raises(ResultError, match="3 results for 4 boards"):
        ev.record_match(1, m.board, r.roster[:4], b.roster[:4], ["1-0"] * 3)
    with pytest.raises(LineupError):
        ev.record_match(1, m.board, r.roster[:3], b.roster[:4], ["1-0"] * 4)
    with pytest.raises(CompetitionError):
        TeamTournament("x", [_team("A"), _team("B", boards=3)])


def test_15_5_sum_of_places() -> None:
    a, b, c = _team("A", 2, 2), _team("B", 2, 2), _team("C", 2, 2)
    places = {"A1": 1, "A2": 6, "B1": 2, "B2": 5, "C1": 3, "C2": 4}
    out = rank_by_place_sum(places, [a, b, c])
    # all sum to 7: the best individual place decides (A has 1st)
    assert [name for _, name, _ in out] == ["A", "B", "C"]
    assert [p for p, _, _ in out] == [1, 2, 3]
    places2 = {"A1": 1, "A2": 4, "B1": 1, "B2": 4, "C1": 2, "C2": 2}
    out2 = rank_by_place_sum(places2, [a, b, c])
    assert out2[0][1] == "C" and out2[1][0] == out2[2][0] == 2  # A and B share
    fouls = rank_by_place_sum(places2, [a, b, c], fouls={"A1": 1})
    assert [name for _, name, _ in fouls] == ["C", "B", "A"]


def test_team_event_json_round_trip() -> None:
    import json

    from qisai.competition.errors import EventFileError

    ev = _event("swiss", n=5, rounds=2)
    rnd = ev.pair_next_round()
    for m in rnd:
        if m.black_team is None:
            continue
        ev.record_match(1, m.board, ev.team(m.red_team).roster[:4],
                        ev.team(m.black_team).roster[1:5], ["1-0", "=", "0-1", "1-0"],
                        fouls=[(0, 1), (0, 0), (2, 0), (0, 0)])
    data = json.loads(json.dumps(ev.to_dict()))
    back = TeamTournament.from_dict(data)
    assert back.to_dict() == ev.to_dict()
    assert [(s.entry, s.points, s.values) for s in back.standings()] == [
        (s.entry, s.points, s.values) for s in ev.standings()]
    data["rounds"][0][0]["red_team"] = 42
    with pytest.raises(EventFileError):
        TeamTournament.from_dict(data)
    with pytest.raises(EventFileError, match="format"):
        TeamTournament.from_dict({"format": "x"})


def test_12_5_team_total_of_individual_results() -> None:
    from qisai.competition.teams import team_totals

    a, b = _team("A", 2, 2), _team("B", 2, 2)
    assert team_totals({"A1": 5, "A2": 3.5, "B1": 4, "B2": 4}, [a, b]) == {"A": 8.5, "B": 8.0}
    with pytest.raises(CompetitionError, match="B2"):
        team_totals({"A1": 5, "A2": 3.5, "B1": 4}, [a, b])


def test_15_5_fouls_before_third_place() -> None:
    """15.5 (000/001): equal sums are separated by 最高个人名次, 次高个人名次,
    then 全队犯规 -- the third and later places are not compared at all."""
    a, b = _team("A", 4, 4), _team("B", 4, 4)
    places = {"A1": 1, "A2": 5, "A3": 6, "A4": 10, "B1": 1, "B2": 5, "B3": 7, "B4": 9}
    fouls = {"A1": 2, "A3": 3}  # A: 5 team fouls, B: none
    out = rank_by_place_sum(places, [a, b], fouls=fouls)
    assert [name for _, name, _ in out] == ["B", "A"]
    assert [p for p, _, _ in out] == [1, 2]
    # equal fouls as well: "无法区分，则名次并列" -- the third place (6 v 7) does not count
    tied = rank_by_place_sum(places, [a, b])
    assert [p for p, _, _ in tied] == [1, 1]
