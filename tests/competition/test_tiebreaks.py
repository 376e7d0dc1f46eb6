"""Tie-breaks (clause 15, 18.4, 2011 14.3/14.4) against independent values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qisai.competition.errors import CompetitionError
from qisai.competition.model import Game, Result
from qisai.competition.scoring import CLASSIC, CXA_2011
from qisai.competition.tiebreaks import (
    ROUND_ROBIN_INDIVIDUAL,
    SWISS_INDIVIDUAL,
    SWISS_INDIVIDUAL_2011_BUCHHOLZ,
    SWISS_INDIVIDUAL_2011_CUMULATIVE,
    ByePolicy,
    Criterion,
    DirectEncounterMode,
    TiebreakPolicy,
    previous_rounds,
    rank,
    records_from_games,
)
from qisai.competition.trf import parse_trf

C = Criterion


def test_sim20_chinese_tiebreaks(tdata: Path) -> None:
    trf = parse_trf((tdata / "simulated_swiss" / "sim20_9r_bbp2026.trf").read_text())
    expected = json.loads(
        (tdata / "simulated_swiss" / "sim20_chinese_tiebreaks.json").read_text())["players"]
    recs = records_from_games(trf.players, trf.games(), CLASSIC)
    crit = [C.BUCHHOLZ, C.SONNEBORN_BERGER, C.CUMULATIVE, C.WINS, C.BLACK_GAMES]
    st = {s.entry: s for s in rank(recs, crit)}
    assert len(st) == len(expected) == 20
    for pid, e in expected.items():
        s = st[int(pid)]
        assert s.points == e["points"]
        assert s.values[C.BUCHHOLZ] == e["duishoufen_buchholz"], pid
        assert s.values[C.SONNEBORN_BERGER] == e["xiaofen_sb"], pid
        assert s.values[C.CUMULATIVE] == e["leijinfen_cumulative"], pid
        assert s.values[C.WINS] == e["wins"], pid
        assert s.values[C.BLACK_GAMES] == e["games_black"], pid


def _jingushan(tdata: Path) -> tuple[dict[str, int], list[Game], dict]:
    data = json.loads((tdata / "real_crosstables" /
                       "jingushan_cup_mixed_doubles_group.json").read_text())
    ids = {name: k for k, name in enumerate(data["players"], start=1)}
    res = {"win": Result.RED_WIN, "draw": Result.DRAW, "loss": Result.BLACK_WIN}
    games = [Game(k, ids[g["a"]], ids[g["b"]], res[g["result_a"]])
             for k, g in enumerate(data["games"], start=1)]
    return ids, games, data


def test_real_crosstable_published_xiaofen(tdata: Path) -> None:
    # 15.1: 小分 = 1*A + 0.5*B on the 2/1/0 points; published 5.5 and 4.5
    ids, games, data = _jingushan(tdata)
    st = rank(records_from_games(ids.values(), games, CXA_2011), ROUND_ROBIN_INDIVIDUAL)
    by_name = {name: next(s for s in st if s.entry == pid) for name, pid in ids.items()}
    for name, total in data["expected_totals"].items():
        assert by_name[name].points == total
    for name, sb in data["expected_xiaofen_published"].items():
        assert by_name[name].values[C.SONNEBORN_BERGER] == sb
    for name, sb in data["expected_xiaofen_computed_all"].items():
        assert by_name[name].values[C.SONNEBORN_BERGER] == sb
    # 洪智 first: 4 points each, 小分 5.5 > 4.5
    assert st[0].entry == ids["洪智"] and st[1].entry == ids["赵鑫鑫"]
    assert st[0].rank == 1 and st[1].rank == 2 and not st[0].shared


def test_15_1_xiaofen_before_wins() -> None:
    # 1 drew everyone (1.5, no win); 2 beat 3, lost to 4, drew 1 (1.5, one win)
    games = [Game(1, 1, 2, Result.DRAW), Game(1, 3, 4, Result.DRAW),
             Game(2, 1, 3, Result.DRAW), Game(2, 2, 4, Result.BLACK_WIN),
             Game(3, 4, 1, Result.DRAW), Game(3, 2, 3, Result.RED_WIN)]
    recs = records_from_games([1, 2, 3, 4], games, CLASSIC)
    st = {s.entry: s for s in rank(recs, ROUND_ROBIN_INDIVIDUAL)}
    assert st[1].points == st[2].points == 1.5
    assert st[1].values[C.SONNEBORN_BERGER] == 2.25 and st[2].values[C.SONNEBORN_BERGER] == 1.75
    assert st[1].rank == 2 and st[2].rank == 3  # 小分 decides before 胜局
    by_wins = {s.entry: s.rank for s in rank(recs, [C.WINS, C.SONNEBORN_BERGER])}
    assert by_wins[2] < by_wins[1]


def test_direct_encounter_between_two() -> None:
    # 1 beat 2 and both end on 1 point; 3 and 4 drew their game: 直胜 cannot split them
    games = [Game(1, 1, 2, Result.RED_WIN), Game(1, 3, 4, Result.DRAW),
             Game(2, 2, 3, Result.RED_WIN)]
    recs = records_from_games([1, 2, 3, 4], games, CLASSIC)
    st = {s.entry: s for s in rank(recs, [C.DIRECT_ENCOUNTER])}
    assert st[1].points == st[2].points == 1.0
    assert st[1].values[C.DIRECT_ENCOUNTER] == 1.0 and st[2].values[C.DIRECT_ENCOUNTER] == 0.0
    assert (st[1].rank, st[2].rank) == (1, 2)
    assert st[3].points == st[4].points == 0.5
    assert st[3].rank == st[4].rank == 3 and st[3].shared


def test_direct_encounter_three_way_needs_all_met() -> None:
    # three tied, one pair never met: 直胜 does not apply (mini_table), all share
    games = [Game(1, 1, 2, Result.RED_WIN), Game(2, 2, 3, Result.RED_WIN),
             Game(3, 3, 4, Result.RED_WIN), Game(4, 4, 1, Result.RED_WIN)]
    recs = records_from_games([1, 2, 3, 4], games, CLASSIC)
    st = rank(recs, [C.DIRECT_ENCOUNTER])
    assert all(s.shared and s.rank == 1 for s in st)
    pair_only = rank(recs, [C.DIRECT_ENCOUNTER],
                     TiebreakPolicy(direct=DirectEncounterMode.PAIR_ONLY))
    assert all(s.rank == 1 for s in pair_only)


def test_15_1_unresolved_tie_shares_place() -> None:
    # 无法区分，则名次并列: two draws in a 2-player event
    games = [Game(1, 1, 2, Result.DRAW), Game(2, 2, 1, Result.DRAW)]
    st = rank(records_from_games([1, 2], games, CLASSIC), ROUND_ROBIN_INDIVIDUAL)
    assert [s.rank for s in st] == [1, 1] and all(s.shared for s in st)


def test_fouls_fewer_is_better() -> None:
    games = [Game(1, 1, 2, Result.DRAW, red_fouls=2, black_fouls=0)]
    st = rank(records_from_games([1, 2], games, CLASSIC), [C.FOULS])
    assert [s.entry for s in st] == [2, 1]


def test_18_4_penalised_last_among_equals() -> None:
    games = [Game(1, 1, 2, Result.DRAW), Game(1, 3, 4, Result.DRAW)]
    recs = records_from_games([1, 2, 3, 4], games, CLASSIC, penalties={1: 1, 3: 2})
    st = rank(recs, SWISS_INDIVIDUAL)
    # equal points: unpunished 2, 4 first, then 1 (one warning), then 3 (heavier)
    assert [s.entry for s in st] == [2, 4, 1, 3]


def test_14_4_bye_opponent_score_policies() -> None:
    # 5 players; 5 has a bye in round 1; player 4 has 0 points
    games = [Game(1, 1, 2, Result.RED_WIN), Game(1, 3, 4, Result.RED_WIN),
             Game(1, 5, None, Result.BYE), Game(2, 5, 1, Result.DRAW),
             Game(2, 2, 3, Result.DRAW), Game(2, 4, None, Result.BYE)]
    recs = records_from_games(range(1, 6), games, CLASSIC)
    # scores: 1:1.5 2:0.5 3:1.5 4:1 5:1.5; lowest with points 0.5, lowest of all 0.5
    low = {s.entry: s.values[C.BUCHHOLZ] for s in rank(recs, [C.BUCHHOLZ])}
    assert low[5] == 1.5 + 0.5  # opponent 1, plus the bye valued 0.5
    none = {s.entry: s.values[C.BUCHHOLZ]
            for s in rank(recs, [C.BUCHHOLZ], TiebreakPolicy(bye=ByePolicy.NONE))}
    assert none[5] == 1.5


def test_bye_policy_lowest_with_points_differs_from_lowest() -> None:
    games = [Game(1, 1, 2, Result.RED_WIN), Game(1, 3, None, Result.BYE)]
    recs = records_from_games([1, 2, 3], games, CLASSIC)
    with_pts = {s.entry: s.values[C.BUCHHOLZ] for s in rank(recs, [C.BUCHHOLZ])}
    lowest = {s.entry: s.values[C.BUCHHOLZ] for s in rank(
        recs, [C.BUCHHOLZ], TiebreakPolicy(bye=ByePolicy.LOWEST))}
    assert with_pts[3] == 1.0  # lowest among players with points (1 point)
    assert lowest[3] == 0.0  # lowest of all (player 2, 0 points)


def test_forfeits_policy() -> None:
    games = [Game(1, 1, 2, Result.RED_FORFEIT_WIN), Game(2, 2, 3, Result.RED_WIN)]
    recs = records_from_games([1, 2, 3], games, CLASSIC)
    yes = {s.entry: s.values[C.SONNEBORN_BERGER] for s in rank(recs, [C.SONNEBORN_BERGER])}
    no = {s.entry: s.values[C.SONNEBORN_BERGER] for s in rank(
        recs, [C.SONNEBORN_BERGER], TiebreakPolicy(forfeits_count=False))}
    assert yes[1] == 1.0 and no[1] == 0.0


def test_cumulative_and_its_cut() -> None:
    # 2011 14.3.2: 累进分, then drop round 1, then rounds 1-2 ...
    games = [Game(1, 1, 3, Result.RED_WIN), Game(2, 1, 4, Result.BLACK_WIN),
             Game(3, 1, 5, Result.RED_WIN),
             Game(1, 2, 6, Result.BLACK_WIN), Game(2, 2, 7, Result.RED_WIN),
             Game(3, 2, 8, Result.RED_WIN)]
    recs = records_from_games(range(1, 9), games, CLASSIC)
    st = {s.entry: s for s in rank(recs, [C.CUMULATIVE, C.CUMULATIVE_CUT])}
    assert st[1].values[C.CUMULATIVE] == 1 + 1 + 2 and st[2].values[C.CUMULATIVE] == 0 + 1 + 2
    assert st[1].values[C.CUMULATIVE_CUT] == (0 + 1, 1)
    assert st[1].rank < st[2].rank


def test_previous_rounds_of_14_3_1() -> None:
    # 2011 14.3.1: tied on 对手分, 胜局, 犯规 and 后走局数, the score after the
    # previous round decides, then the round before.  Players 1 and 2 both
    # end on 2 points with one win as Black each; 1 was ahead after round 2.
    games = [Game(1, 1, 3, Result.RED_WIN), Game(2, 4, 1, Result.BLACK_WIN),
             Game(3, 1, 5, Result.BLACK_WIN),
             Game(1, 2, 6, Result.BLACK_WIN), Game(2, 7, 2, Result.BLACK_WIN),
             Game(3, 2, 8, Result.RED_WIN)]
    recs = records_from_games(range(1, 9), games, CLASSIC)
    assert previous_rounds(recs[1]) == (2, 1) and previous_rounds(recs[2]) == (1, 0)
    crit = [C.WINS, C.BLACK_GAMES, C.PREVIOUS_ROUNDS]
    st = {s.entry: s for s in rank(recs, crit)}
    assert st[1].values[C.WINS] == st[2].values[C.WINS] == 2
    assert st[1].values[C.BLACK_GAMES] == st[2].values[C.BLACK_GAMES] == 1
    assert st[1].rank < st[2].rank
    # equal after round 2 but not after round 1: the earlier round decides
    games = [Game(1, 1, 3, Result.RED_WIN), Game(2, 1, 4, Result.BLACK_WIN),
             Game(3, 5, 1, Result.BLACK_WIN),
             Game(1, 2, 6, Result.BLACK_WIN), Game(2, 2, 7, Result.RED_WIN),
             Game(3, 8, 2, Result.BLACK_WIN)]
    recs = records_from_games(range(1, 9), games, CLASSIC)
    st = {s.entry: s for s in rank(recs, crit)}
    assert st[1].values[C.PREVIOUS_ROUNDS] == (1, 1) and st[2].values[C.PREVIOUS_ROUNDS] == (1, 0)
    assert st[1].rank < st[2].rank
    assert Criterion.parse("前一轮成绩") is C.PREVIOUS_ROUNDS
    assert SWISS_INDIVIDUAL_2011_BUCHHOLZ[-1] is C.PREVIOUS_ROUNDS
    assert SWISS_INDIVIDUAL_2011_CUMULATIVE[-1] is C.CUMULATIVE_CUT


def test_criterion_names() -> None:
    assert Criterion.parse("小分") is C.SONNEBORN_BERGER
    assert Criterion.parse("团体对手分") is C.BUCHHOLZ
    assert Criterion.parse("buchholz") is C.BUCHHOLZ
    with pytest.raises(CompetitionError, match="unknown tie-break"):
        Criterion.parse("median")


def test_15_6_playoff_needed_for_shared_first_place() -> None:
    from qisai.competition.tiebreaks import needs_playoff

    games = [Game(1, 1, 2, Result.DRAW), Game(1, 3, 4, Result.RED_WIN),
             Game(2, 1, 3, Result.DRAW), Game(2, 2, 4, Result.DRAW)]
    st = rank(records_from_games([1, 2, 3, 4], games, CLASSIC), [])
    # 3 leads alone on 1.5; then 1 and 2 share second place on 1 point
    assert needs_playoff(st) == []
    assert needs_playoff(st, places=2) == [[1, 2]]


def test_bye_in_wins_is_a_policy() -> None:
    games = [Game(1, 1, 2, Result.RED_WIN), Game(1, 3, None, Result.BYE)]
    recs = records_from_games([1, 2, 3], games, CLASSIC)
    plain = {s.entry: s.values[C.WINS] for s in rank(recs, [C.WINS])}
    counted = {s.entry: s.values[C.WINS] for s in rank(
        recs, [C.WINS], TiebreakPolicy(bye_counts_as_win=True))}
    assert (plain[3], counted[3]) == (0, 1)
    assert plain[1] == counted[1] == 1
    assert TiebreakPolicy.from_dict(TiebreakPolicy(bye_counts_as_win=True).to_dict()) == \
        TiebreakPolicy(bye_counts_as_win=True)
