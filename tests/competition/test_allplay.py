"""12.4 全队轮赛制 end to end from ``qisai tournament`` (issue 16, desk).

The rule text: "12.4 全队轮赛制适用于队与队之间的对抗赛，一方所有队员与另一方
所有队员逐一对弈" -- every player of one team meets every player of the
other.  Colours: 13.2 (循环制团体比赛, the first-listed team Red on odd
boards, Black on even boards).  Scoring 14.1 (win 1, draw 0.5) and 14.2
(a 场 is won on 局分: 场分 2, level 1 each, lost 0).  Ranking 15.3 (场分,
全队总局分, 全队胜局, 直胜, 全队犯规; then shared).  Every expected figure
below is worked out in the test from those clauses, not read from the code.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli.event import app as event_app
from qisai.cli.tournament import app
from qisai.competition.errors import CompetitionError, LineupError
from qisai.competition.events.allplay_event import AllPlayAllEvent
from qisai.competition.events.file import EventFile

runner = CliRunner()

# 14.1: the points of a result for the side that had Red on the board.
RED_POINTS = {"1-0": 1.0, "=": 0.5, "0-1": 0.0}


def _event(n: int) -> AllPlayAllEvent:
    ev = AllPlayAllEvent("match", boards=n, seed=3)
    ev.add_team("A", [f"a{i}" for i in range(1, n + 1)])
    ev.add_team("B", [f"b{i}" for i in range(1, n + 1)])
    ev.start()
    return ev


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_12_4_every_player_meets_every_opponent_once(n: int) -> None:
    ev = _event(n)
    met: list[frozenset[str]] = []
    colours: dict[str, list[str]] = {}
    for r in range(1, n + 1):
        assert ev.pair_next_round() == r
        boards = ev.board_players(r, 1)
        seated = [p for _, red, black in boards for p in (red, black)]
        assert sorted(seated) == sorted(ev.orders["A"] + ev.orders["B"])  # nobody sits out
        first = ev.team_tournament().team(ev.match(r, 1).red_team).name
        for board, red, black in boards:
            assert red[0] != black[0]  # a game is between the two teams
            # 13.2: the first-listed team is Red on odd boards, Black on even ones
            assert (red[0].upper() == first) == (board % 2 == 1)
            colours.setdefault(red, []).append("R")
            colours.setdefault(black, []).append("B")
            met.append(frozenset((red, black)))
        for board in range(1, n + 1):
            ev.record_board(r, 1, board, "=")
    # 12.4: each of the n*n pairs of opponents exactly once
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.product(ev.orders["A"], ev.orders["B"])), key=sorted)
    # colours shared fairly: an odd number of games splits within one; an even
    # number evenly when n is a multiple of 4, within two otherwise (n = 2: see
    # test_two_a_side_cannot_balance_colours)
    bound = 1 if n % 2 else 0 if n % 4 == 0 else 2
    for seq in colours.values():
        assert len(seq) == n and abs(seq.count("R") - seq.count("B")) <= bound, seq
    with pytest.raises(CompetitionError, match="all"):
        ev.pair_next_round()
    assert ev.finished


def test_two_a_side_cannot_balance_colours() -> None:
    """Two a side, every schedule (who meets whom in which round, which team
    has Red on board 1 under 13.2): some player has one colour twice, so the
    bound 2 above is the best there is."""
    best = 2
    for round_one in ([("a1", "b1"), ("a2", "b2")], [("a1", "b2"), ("a2", "b1")]):
        round_two = [(a, "b2" if b == "b1" else "b1") for a, b in round_one]
        for boards1 in (round_one, round_one[::-1]):
            for boards2 in (round_two, round_two[::-1]):
                for a_first in itertools.product((True, False), repeat=2):
                    reds: dict[str, int] = {}
                    for boards, first in zip((boards1, boards2), a_first, strict=True):
                        for k, (a, b) in enumerate(boards, start=1):
                            a_red = (k % 2 == 1) == first
                            reds[a if a_red else b] = reds.get(a if a_red else b, 0) + 1
                    worst = max(abs(2 * reds.get(p, 0) - 2) for p in ("a1", "a2", "b1", "b2"))
                    best = min(best, worst)
    assert best == 2


def test_12_4_checks() -> None:
    ev = AllPlayAllEvent("m", boards=2)
    ev.add_team("A", ["a1", "a2", "a3"])  # a reserve on the roster
    ev.add_team("B", ["b1", "b2"])
    with pytest.raises(CompetitionError, match="two teams"):
        ev.add_team("C", ["c1", "c2"])
    ev.start()
    with pytest.raises(LineupError, match="not on the roster"):
        ev.set_order("A", ["a1", "x"])
    with pytest.raises(LineupError, match="all 2"):
        ev.set_order("A", ["a1"])
    with pytest.raises(LineupError, match="twice"):
        ev.set_order("A", ["a1", "a1"])
    assert ev.set_order("A", ["a3", "a1"]) == ["a3", "a1"]  # the reserve plays instead of a2
    ev.pair_next_round()
    with pytest.raises(LineupError, match="12.4"):
        ev.set_lineups(1, 1, ["a3", "a1"], ["b1", "b2"])
    ev.record_board(1, 1, 1, "1-0")
    with pytest.raises(CompetitionError, match="order is fixed"):
        ev.set_order("A", ["a1", "a3"])
    with pytest.raises(CompetitionError, match="not complete"):
        ev.pair_next_round()
    single = AllPlayAllEvent("m", boards=2)
    single.add_team("A", ["a1", "a2"])
    with pytest.raises(CompetitionError, match="exactly two"):
        single.start()


def _cli(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def _sheet(tmp_path: Path) -> Path:
    sheet = tmp_path / "teams.csv"
    sheet.write_text("姓名,队名,等级分\n"
                     "甲一,北京,2400\n甲二,北京,2300\n甲三,北京,2200\n"
                     "乙一,上海,2350\n乙二,上海,2250\n乙三,上海,2150\n", encoding="utf-8")
    return sheet


# The worked example: three a side, so three rounds of three boards.  Results
# are given per pair of players (whoever has Red), as the arbiter reads them
# off the signed slips; the test looks up who had Red on each board.
WORKED = {  # (北京 player, 上海 player) -> 北京 player's score (14.1)
    ("甲一", "乙一"): 1.0, ("甲一", "乙二"): 0.5, ("甲一", "乙三"): 0.0,
    ("甲二", "乙一"): 0.5, ("甲二", "乙二"): 0.5, ("甲二", "乙三"): 1.0,
    ("甲三", "乙一"): 0.0, ("甲三", "乙二"): 1.0, ("甲三", "乙三"): 0.5,
}
FOULS = {("甲三", "乙三"): (0, 2)}  # 上海's 乙三 fouled twice (9.2) in that game


def _play(tmp_path: Path, ev: Path) -> list[tuple[float, float]]:
    """Pair and enter every round of the worked example through the CLI;
    return (北京 局分, 上海 局分) per round as 14.1 counts them."""
    per_round = []
    for r in (1, 2, 3):
        out = json.loads(_cli("pairings", str(ev), str(r), "--format", "json"))
        items, bj = [], 0.0
        for k, row in enumerate(out, start=1):
            red, black = row["red"], row["black"]
            bj_red = row["red_team"] == "北京"
            pair = (red, black) if bj_red else (black, red)
            bj_score = WORKED[pair]
            red_score = bj_score if bj_red else 1 - bj_score
            res = {1.0: "1-0", 0.5: "=", 0.0: "0-1"}[red_score]
            assert RED_POINTS[res] == red_score
            f = FOULS.get(pair)
            fouls = "" if f is None else (f" f={f[0]}/{f[1]}" if bj_red else f" f={f[1]}/{f[0]}")
            items.append(f"{k} {res}{fouls}")
            bj += bj_score
        per_round.append((bj, 3 - bj))
        if r == 2:  # one board alone, then the rest: the round completes on the last
            first, *rest = items
            b, res_fouls = first.split(" ", 1)
            _cli("result", str(ev), "2", b, res_fouls.split()[0])
            _cli("result", str(ev), "--round", "2", ", ".join(rest))
        else:
            _cli("result", str(ev), "--round", str(r), ", ".join(items))
        if r < 3:
            assert f"round {r + 1}" in _cli("pair", str(ev))
    return per_round


@pytest.mark.parametrize("score_by", ["matches", "games"])
def test_worked_example_through_the_cli(tmp_path: Path, score_by: str) -> None:
    ev = tmp_path / "match.json"
    out = _cli("create", str(ev), "--entries", str(_sheet(tmp_path)), "--system",
               "all-play-all", "--name", "京沪对抗赛", "--seed", "2", "--score-by", score_by)
    assert "12.4" in out and "3 rounds" in out
    assert ("总局分" if score_by == "games" else "各轮场分") in out
    # 12.1: boards by rating; 北京 hands in another order for the match
    sched = _cli("lineup", str(ev), "北京", "甲二,甲一,甲三")
    assert sched.count("round ") == 3
    assert "round 1" in _cli("pair", str(ev))
    per_round = _play(tmp_path, ev)
    # 14.2 by hand: 场分 2 to the side with more 局分 in a round, 1 each if level
    bj_match = sum(2 if a > b else 1 if a == b else 0 for a, b in per_round)
    sh_match = sum(2 if b > a else 1 if a == b else 0 for a, b in per_round)
    bj_games = sum(a for a, _ in per_round)
    assert bj_games == sum(WORKED.values()) == 5.0  # 14.1 over the nine games
    table = json.loads(_cli("standings", str(ev), "--format", "json"))
    head, rows = table["header"], table["rows"]
    got = {r[head.index("队名")]: r for r in rows}
    assert float(got["北京"][head.index("场分")]) == bj_match
    assert float(got["上海"][head.index("场分")]) == sh_match
    assert float(got["北京"][head.index("局分")]) == bj_games
    assert float(got["上海"][head.index("局分")]) == 9 - bj_games
    if score_by == "matches":  # 15.3: 场分 first, then 全队总局分
        assert head[3] == "场分"
        leader = "北京" if (bj_match, bj_games) > (sh_match, 9 - bj_games) else "上海"
    else:  # the match is one 场 decided on all its 局分 (14.2)
        assert head[3] == "局分" and "直胜" not in head
        leader = "北京" if bj_games > 9 - bj_games else "上海"
    assert rows[0][head.index("队名")] == leader
    assert float(got["上海"][head.index("全队犯规")]) == 2
    assert ("总局分" if score_by == "games" else "场分") in table["note"]
    # the crosstable shows one 场 per round against the same opponent: 场分
    # (局分) for the 场分 reading, 局分 [场分] for the 局分 reading
    assert _cli("crosstable", str(ev)).count("(" if score_by == "matches" else "[") >= 3
    # nothing more to pair; a manual pairing is refused with the clause
    res = runner.invoke(app, ["pair", str(ev)])
    assert res.exit_code == 2 and "all 3 rounds" in res.output
    res = runner.invoke(app, ["pair", str(ev), "--manual", "1-2"])
    assert res.exit_code == 2 and "12.4" in res.output
    # the file is a qisai event file of a team event that 'qisai event' reads too
    ef = EventFile.load(ev)
    assert ef.kind == "team" and isinstance(ef.event, AllPlayAllEvent) and ef.event.finished


def test_15_3_level_on_match_and_game_points_falls_to_fouls(tmp_path: Path) -> None:
    """Two a side, two rounds: each round level 1-1 (场分 1 each, 14.2), so
    场分 2:2, 局分 2:2, wins 2:2 and 直胜 level; the team with fewer fouls
    goes first (15.3 全队犯规)."""
    ev = AllPlayAllEvent("m", boards=2, seed=1, score_by="matches")
    ev.add_team("A", ["a1", "a2"])
    ev.add_team("B", ["b1", "b2"])
    ef = EventFile("team", ev)
    ef.start()
    for r in (1, 2):
        ev.pair_next_round()
        ev.record_board(r, 1, 1, "1-0")
        # board 2: Red wins too, with a foul by whoever is Red there in round 2
        ev.record_board(r, 1, 2, "1-0", red_fouls=1 if r == 2 else 0)
    st = ef.standings()
    assert [s.points for s in st] == [2.0, 2.0]
    fouled = ev.team_tournament().team(ev.match(2, 1).black_team or 0).name  # 13.2: Red on board 2
    first = ev.team_tournament().team(st[0].entry).name
    assert first != fouled and not st[0].shared
    ef2 = EventFile("team", ev)
    # without the foul the teams share the place (15.3: 无法区分，则名次并列)
    ev.record_board(2, 1, 2, "1-0", overwrite=True)
    st = ef2.standings()
    assert st[0].shared and st[1].shared and st[0].rank == st[1].rank == 1


def test_15_3_match_points_before_game_points() -> None:
    """Three a side: A wins rounds 1 and 2 by 2-1 and loses round 3 0-3, so
    场分 A 4, B 2 although 局分 A 4, B 5: 场分 ranks first (15.3)."""
    ev = AllPlayAllEvent("m", boards=3, seed=0, score_by="matches")
    ev.add_team("A", ["a1", "a2", "a3"])
    ev.add_team("B", ["b1", "b2", "b3"])
    ef = EventFile("team", ev)
    ef.start()
    a_scores = [(1, 1, 0), (1, 0, 1), (0, 0, 0)]  # A's score on boards 1-3 per round
    for r, scores in enumerate(a_scores, start=1):
        ev.pair_next_round()
        a_red_on_odd = ev.team_tournament().team(ev.match(r, 1).red_team).name == "A"
        for b, s in enumerate(scores, start=1):
            a_red = a_red_on_odd == (b % 2 == 1)
            ev.record_board(r, 1, b, ("1-0" if s else "0-1") if a_red else
                            ("0-1" if s else "1-0"))
    st = ef.standings()
    names = [ev.team_tournament().team(s.entry).name for s in st]
    assert names == ["A", "B"] and [s.points for s in st] == [4.0, 2.0]
    recs = ef.team_records()
    gp = {ev.team_tournament().team(t).name: sum(e.game_points for e in r.encounters)
          for t, r in recs.items()}
    assert gp == {"A": 4.0, "B": 5.0}


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler) missing")
def test_papers_of_the_match(tmp_path: Path) -> None:
    from qisai.papers.pdf import PapersError, find_font

    try:
        find_font()
    except PapersError:
        pytest.skip("no Chinese font (Debian fonts-noto-cjk)")
    ev = tmp_path / "match.json"
    _cli("create", str(ev), "--entries", str(_sheet(tmp_path)), "--system", "all-play-all",
         "--name", "京沪对抗赛")
    _cli("pair", str(ev))
    assert "complete" in _cli("result", str(ev), "--round", "1", "1 1-0, 2 =, 3 0-1")
    for kind in ("pairings", "standings", "lineups", "ratings"):
        pdf = tmp_path / f"{kind}.pdf"
        assert "1 page" in _cli("papers", str(ev), "--kind", kind, "-o", str(pdf))
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                              capture_output=True, text=True).stdout
        assert "京沪对抗赛" in text and "北京" in text, kind
        if kind == "standings":
            assert "场分" in text and "局分" in text
            # which reading ranks is printed under the table (default: 总局分)
            assert "总局分" in text.replace(" ", ""), text
        if kind == "ratings":
            assert "等级分变化" in text and "甲一" in text


def test_withdrawal_forfeits_the_rest(tmp_path: Path) -> None:
    """20.3 (a 全队轮 match is played as a round robin): a team that leaves
    keeps what it played; its remaining rounds are forfeits, the opponent
    winning each (21.4: a '+' match is worth 2 match points)."""
    ev = tmp_path / "match.json"
    _cli("create", str(ev), "--entries", str(_sheet(tmp_path)), "--system", "all-play-all")
    _cli("pair", str(ev))
    _cli("result", str(ev), "--round", "1", "1 1-0, 2 =, 3 0-1")  # 1.5 : 1.5, 场分 1 each
    out = _cli("withdraw", str(ev), "1")
    assert "(20.3)" in out
    gone = out.split(" withdrew")[0]
    for r in (2, 3):
        assert "--+" in _cli("pair", str(ev)) or "+--" in _cli("pairings", str(ev), str(r))
    table = json.loads(_cli("standings", str(ev), "--format", "json"))
    h = table["header"]
    points = {row[h.index("队名")]: float(row[h.index("场分")]) for row in table["rows"]}
    stayed = next(t for t in points if t != gone)
    assert points == {stayed: 1 + 2 + 2, gone: 1}
    assert table["rows"][0][h.index("队名")] == stayed


def test_knockout_file_is_pointed_to_qisai_event(tmp_path: Path) -> None:
    sheet = tmp_path / "ko.csv"
    sheet.write_text("name,rating\na,1\nb,2\nc,3\nd,4\n", encoding="utf-8")
    ko = tmp_path / "ko.json"
    assert runner.invoke(event_app, ["create", str(ko), "--entries", str(sheet), "--format",
                                     "knockout"]).exit_code == 0
    for args in (["result", str(ko), "1", "1", "1-0"], ["pair", str(ko)],
                 ["standings", str(ko)], ["lineup", str(ko), "x", "a"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 2 and "qisai event" in res.output, args


# ---------------------------------------------------------------- score_by
# The two readings of a 对抗赛's result.  Four a side, four rounds: A wins
# rounds 1-3 narrowly (2.5 : 1.5) and loses round 4 0 : 4.  By hand, 14.1
# and 14.2: 场分 A 2+2+2+0 = 6, B 0+0+0+2 = 2; 局分 A 3 * 2.5 = 7.5,
# B 3 * 1.5 + 4 = 8.5.  Ranked by 场分 (15.3) A wins the match; decided on
# the total 局分 (总比分) B does.
NARROW = {1: (1.0, 1.0, 0.5, 0.0), 2: (1.0, 0.5, 1.0, 0.0), 3: (0.0, 1.0, 1.0, 0.5),
          4: (0.0, 0.0, 0.0, 0.0)}  # A's score on boards 1-4 per round


def _four_a_side(tmp_path: Path) -> Path:
    sheet = tmp_path / "four.csv"
    sheet.write_text("队名,姓名,等级分\n" + "".join(
        f"{t},{t.lower()}{i},{2500 - 10 * i}\n" for t in "AB" for i in range(1, 5)),
        encoding="utf-8")
    return sheet


def _play_narrow(tmp_path: Path, *flags: str) -> dict[str, object]:
    """Create the four-a-side match with ``flags``, play NARROW through the
    CLI and return the standings as JSON."""
    ev = tmp_path / "m.json"
    _cli("create", str(ev), "--entries", str(_four_a_side(tmp_path)), "--system",
         "all-play-all", "--name", "AB", *flags)
    for r, scores in NARROW.items():
        _cli("pair", str(ev))
        items = []
        for k, row in enumerate(json.loads(_cli("pairings", str(ev), str(r), "--format",
                                                "json")), start=1):
            a = scores[k - 1]  # 13.2 decides who has Red: the result is Red's
            red = a if row["red_team"] == "A" else 1 - a
            items.append(f"{k} " + {1.0: "1-0", 0.5: "=", 0.0: "0-1"}[red])
        _cli("result", str(ev), "--round", str(r), ", ".join(items))
    out: dict[str, object] = json.loads(_cli("standings", str(ev), "--format", "json"))
    return out


def test_score_by_hand_example_the_readings_disagree() -> None:
    def play(score_by: str) -> tuple[list[str], dict[str, float], dict[str, float]]:
        ev = AllPlayAllEvent("m", boards=4, seed=5, score_by=score_by)
        ev.add_team("A", ["a1", "a2", "a3", "a4"])
        ev.add_team("B", ["b1", "b2", "b3", "b4"])
        ef = EventFile("team", ev)
        ef.start()
        for r, scores in NARROW.items():
            ev.pair_next_round()
            a_first = ev.team_tournament().team(ev.match(r, 1).red_team).name == "A"
            for b, s in enumerate(scores, start=1):
                red = s if a_first == (b % 2 == 1) else 1 - s  # 13.2
                ev.record_board(r, 1, b, {1.0: "1-0", 0.5: "=", 0.0: "0-1"}[red])
        name = {t.id: t.name for t in ev.team_tournament().teams}
        st = ef.standings()
        mp = {name[t]: r.points for t, r in ev.match_records().items()}
        gp = {name[t]: sum(e.game_points for e in r.encounters)
              for t, r in ev.match_records().items()}
        return [name[s.entry] for s in st], mp, gp

    for score_by, winner in (("matches", "A"), ("games", "B")):
        order, mp, gp = play(score_by)
        assert mp == {"A": 6.0, "B": 2.0} and gp == {"A": 7.5, "B": 8.5}
        assert order[0] == winner, score_by
    assert play("games")[0] == play("matches")[0][::-1]


@pytest.mark.parametrize("flags,winner,ranked", [
    ((), "B", "局分"),  # the default reading: 总比分 (see the module notes)
    (("--score-by", "games"), "B", "局分"),
    (("--score-by", "matches"), "A", "场分"),
])
def test_score_by_hand_example_through_the_cli(tmp_path: Path, flags: tuple[str, ...],
                                               winner: str, ranked: str) -> None:
    table = _play_narrow(tmp_path, *flags)
    head, rows = table["header"], table["rows"]
    assert isinstance(head, list) and isinstance(rows, list)
    assert head[3] == ranked  # the column that ranks comes first
    got = {r[head.index("队名")]: r for r in rows}
    assert float(got["A"][head.index("场分")]) == 6 and float(got["B"][head.index("场分")]) == 2
    assert float(got["A"][head.index("局分")]) == 7.5
    assert float(got["B"][head.index("局分")]) == 8.5
    assert rows[0][head.index("队名")] == winner
    assert ("总局分" if ranked == "局分" else "各轮场分") in str(table["note"])


def test_score_by_games_level_totals_go_to_wins_then_fouls() -> None:
    """Two a side: round 1 A 2 : 0, round 2 B 2 : 0, so 局分 2 : 2 and boards
    won 2 : 2; 直胜 is skipped (the same two teams), so 全队犯规 decides
    (the fewer first), and without fouls the place is shared."""
    ev = AllPlayAllEvent("m", boards=2, seed=0)
    assert ev.score_by == "games"
    ev.add_team("A", ["a1", "a2"])
    ev.add_team("B", ["b1", "b2"])
    ef = EventFile("team", ev)
    ef.start()
    for r, a in ((1, 1.0), (2, 0.0)):
        ev.pair_next_round()
        a_first = ev.team_tournament().team(ev.match(r, 1).red_team).name == "A"
        for b in (1, 2):
            red = a if a_first == (b % 2 == 1) else 1 - a
            ev.record_board(r, 1, b, "1-0" if red else "0-1",
                            black_fouls=1 if (r, b) == (2, 1) else 0)
    st = ef.standings()
    name = {t.id: t.name for t in ev.team_tournament().teams}
    assert [s.points for s in st] == [2.0, 2.0] and not st[0].shared
    fouled = name[ev.match(2, 1).black_team or 0]  # Black on board 1 of round 2
    assert name[st[0].entry] != fouled
    ev.record_board(2, 1, 1, ev.matches["2:1"]["results"]["1"], overwrite=True)
    st = EventFile("team", ev).standings()
    assert st[0].shared and st[1].shared


def test_score_by_games_counts_a_forfeited_round_as_all_its_games(tmp_path: Path) -> None:
    """20.3: a team gone forfeits the rest, the opponent winning each game
    (21.4 '+'): round 1 1.5 : 1.5, then two rounds of 3 boards each."""
    ev = tmp_path / "match.json"
    _cli("create", str(ev), "--entries", str(_sheet(tmp_path)), "--system", "all-play-all")
    _cli("pair", str(ev))
    _cli("result", str(ev), "--round", "1", "1 1-0, 2 =, 3 0-1")
    gone = _cli("withdraw", str(ev), "1").split(" withdrew")[0]
    for _ in (2, 3):
        _cli("pair", str(ev))
    table = json.loads(_cli("standings", str(ev), "--format", "json"))
    h = table["header"]
    gp = {row[h.index("队名")]: float(row[h.index("局分")]) for row in table["rows"]}
    stayed = next(t for t in gp if t != gone)
    assert gp == {stayed: 1.5 + 3 + 3, gone: 1.5}
    assert table["rows"][0][h.index("队名")] == stayed


def test_score_by_round_trip_and_old_files(tmp_path: Path) -> None:
    for score_by in ("games", "matches"):
        path = tmp_path / f"{score_by}.json"
        _cli("create", str(path), "--entries", str(_sheet(tmp_path)), "--system",
             "all-play-all", "--score-by", score_by)
        _cli("pair", str(path))
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["event"]["score_by"] == score_by
        again = EventFile.load(path)
        assert isinstance(again.event, AllPlayAllEvent) and again.event.score_by == score_by
        assert again.to_dict() == EventFile.load(path).to_dict()
        # a file written before the option (no key) reads as the 场分 reading
        del data["event"]["score_by"]
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        old = EventFile.load(path).event
        assert isinstance(old, AllPlayAllEvent) and old.score_by == "matches"
        assert "直胜" in [c.chinese for c in old.team_tournament().tiebreaks]  # 15.3's list
    with pytest.raises(CompetitionError, match="score_by"):
        AllPlayAllEvent("m", score_by="boards")
    data["event"]["score_by"] = "both"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(CompetitionError, match="score_by"):
        EventFile.load(path)


def test_score_by_cli_checks(tmp_path: Path) -> None:
    sheet = _sheet(tmp_path)
    res = runner.invoke(app, ["create", str(tmp_path / "x.json"), "--entries", str(sheet),
                              "--system", "all-play-all", "--score-by", "boards"])
    assert res.exit_code == 2 and "games" in res.output and "matches" in res.output
    res = runner.invoke(app, ["create", str(tmp_path / "y.json"), "--entries", str(sheet),
                              "--system", "swiss", "--rounds", "3", "--score-by", "games"])
    assert res.exit_code == 2 and "all-play-all" in res.output
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "y.json").exists()


def test_score_by_from_qisai_event(tmp_path: Path) -> None:
    """``qisai event create --format team-all-play-all --score-by`` sets the
    reading too; ``qisai event standings`` says which one ranks; the option
    is refused for another format."""
    sheet = _four_a_side(tmp_path)
    for score_by, ranked in (("matches", "场分"), ("games", "局分")):
        ev = tmp_path / f"{score_by}.json"
        res = runner.invoke(event_app, ["create", str(ev), "--entries", str(sheet), "--format",
                                        "team-all-play-all", "--boards", "4", "--score-by",
                                        score_by])
        assert res.exit_code == 0, res.output
        loaded = EventFile.load(ev).event
        assert isinstance(loaded, AllPlayAllEvent) and loaded.score_by == score_by
        res = runner.invoke(event_app, ["standings", str(ev), "--format", "json"])
        assert res.exit_code == 0, res.output
        table = json.loads(res.output)
        assert table["header"][3] == ranked and "12.4" in table["note"]
        res = runner.invoke(event_app, ["standings", str(ev)])
        assert res.exit_code == 0 and table["note"] in res.output
    res = runner.invoke(event_app, ["create", str(tmp_path / "s.json"), "--entries", str(sheet),
                                    "--format", "swiss", "--rounds", "3", "--score-by", "games"])
    assert res.exit_code != 0 and "team-all-play-all" in res.output
    assert not (tmp_path / "s.json").exists()
