"""The 2021 national team league as a team event (issue 33 item 1).

Seed 001 (象甲联赛2021): "每台对阵必须分出胜负 ... 双方先进行一盘慢棋，慢棋如弈和，
则换先加赛超快棋；超快棋再和，则进行一局附加赛，由超快棋执黑的一方选择先后手", the
slow game 20 minutes ("慢棋时间只有20分钟"), and the table after 11 rounds of
12 teams: 21, 15, 15, 14, 14, 12, 11, 11, 9, 5, 3, 2.

The table is the independent truth here: a set of match outcomes giving
it is found by a max-flow (networkx) outside qisai, each match is then
played board by board through ``qisai event`` under the 2021 format, the
colours of every game are worked out by the test from 13.2 (first-listed
team Red on odd boards), 换先 and the recorded choice, and the standings
the command prints must be the seed's table.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import networkx as nx
from typer.testing import CliRunner

from qisai.cli import app
from qisai.competition.events.file import EventFile

runner = CliRunner()

# 001: the standings after 11 rounds (teams and 场分 as the seed lists them)
TABLE_001 = [("广东碧桂园", 21), ("浙江民泰银行", 15), ("河南楚河汉界天伦", 15),
             ("北京威凯金环建设京冀联队", 14), ("四川成都懿锦控股", 14), ("厦门象屿", 12),
             ("深圳弈川象棋俱乐部", 11), ("杭州环境集团", 11), ("上海金外滩", 9),
             ("江苏海特俱乐部", 5), ("浙江体彩", 3), ("黑龙江长生", 2)]


def q(*args: object) -> str:
    res = runner.invoke(app, ["event", *[str(a) for a in args]])
    assert res.exit_code == 0, res.output
    return res.output


def fails(*args: object) -> str:
    res = runner.invoke(app, ["event", *[str(a) for a in args]])
    assert res.exit_code == 2, res.output
    return res.output


def entries(path: Path, teams: list[str], boards: int = 4) -> Path:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["队名", "姓名", "等级分"])
        for k, t in enumerate(teams):
            for b in range(boards):
                w.writerow([t, f"{t[:2]}{k + 1}-{b + 1}", 2600 - 10 * b - k])
    return path


def outcomes_for(table: list[tuple[str, int]]) -> dict[frozenset[str], dict[str, int]]:
    """Match points (2/1/0, 14.2) of every pairing of a round robin that
    give ``table``: each match hands out 2 points; a max flow of value
    2 x matches finds a split, or the table is impossible."""
    g = nx.DiGraph()
    names = [t for t, _ in table]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            m = ("m", a, b)
            g.add_edge("s", m, capacity=2)
            g.add_edge(m, a, capacity=2)
            g.add_edge(m, b, capacity=2)
    for t, pts in table:
        g.add_edge(t, "t", capacity=pts)
    value, flow = nx.maximum_flow(g, "s", "t")
    n = len(names)
    assert value == n * (n - 1), "the seed's table is not a 2/1/0 round robin"
    return {frozenset((a, b)): {a: flow[("m", a, b)][a], b: flow[("m", a, b)][b]}
            for i, a in enumerate(names) for b in names[i + 1:]}


def won_by(player: str, red: str) -> str:
    return "1-0" if player == red else "0-1"


def test_2021_league_twelve_teams_gives_the_seed_table(tmp_path: Path) -> None:
    teams = [t for t, _ in TABLE_001]
    ev = tmp_path / "league.json"
    out = q("create", ev, "--entries", entries(tmp_path / "league.csv", teams),
            "--format", "team-round-robin", "--series", "league_2021",
            "--decider-drawn", "black", "--name", "2021全国象棋甲级联赛")
    assert "12 teams" in out
    data = json.loads(ev.read_text(encoding="utf-8"))["event"]
    assert data["series"] == "league_2021" and data["decider_drawn"] == "black"
    assert data["times"]["slow"] == "1200"  # 001: 慢棋 20 minutes
    want = outcomes_for(TABLE_001)
    counts = {"rapid": 0, "decider": 0}
    for r in range(1, 12):
        q("pair", ev)
        ef = EventFile.load(ev)
        tt = ef.event.team_tournament()
        for tm in tt.rounds[r - 1]:
            x, y = tt.team(tm.red_team), tt.team(tm.black_team)
            wins_x = {2: 3, 1: 2, 0: 1}[want[frozenset((x.name, y.name))][x.name]]
            plan = {}
            for b in range(1, 5):
                px, py = x.roster[b - 1], y.roster[b - 1]
                red, black = (px, py) if b % 2 == 1 else (py, px)  # 13.2
                winner = px if b <= wins_x else py
                plan[b] = (red, black, winner, (r + tm.board + b) % 4)
            # the slow games: decided on path 0, drawn otherwise
            q("result", ev, r, tm.board, ",".join(
                won_by(w, red) if path == 0 else "=" for red, _, w, path in plan.values()))
            # the rapid games, colours swapped (换先): decided on path 1
            rapid = [("" if path == 0 else won_by(w, black) if path == 1 else "=")
                     for red, black, w, path in plan.values()]
            out = q("result", ev, r, tm.board, ",".join(rapid))
            for b, (red, black, w, path) in plan.items():
                if path >= 1:
                    counts["rapid"] += 1
                    assert f"超快棋 {black}-{red}" in out
                if path >= 2:
                    # 001: the rapid game's Black chooses; he takes Red on path 2, and
                    # on path 3 gives Black to the winner of the drawn decider
                    counts["decider"] += 1
                    assert f"{red} chooses the colours" in out
                    pick = red if path == 2 else (red if w == black else black)
                    said = q("choose", ev, r, tm.board, pick, "--board", b)
                    assert f"{red} (Black in the rapid game) chose" in said
                    other = black if pick == red else red
                    assert f"附加赛 decider {pick} (红) - {other} (黑), time 30/300" in said
                    plan[b] = (pick, other, w, path)
            deciders = [("" if path < 2 else won_by(w, red) if path == 2 else "=")
                        for red, _, w, path in plan.values()]
            if any(deciders):
                out = q("result", ev, r, tm.board, ",".join(deciders))
                if any(path == 3 for *_, path in plan.values()):
                    assert "附加赛和，执黑方胜" in out
            ef = EventFile.load(ev)
            assert ef.event.match(r, tm.board).board_wins() == (wins_x, 4 - wins_x)
    rows = json.loads(q("standings", ev, "--format", "json"))
    head = rows["header"]
    got = [(row[head.index("队名")], float(row[head.index("场分")])) for row in rows["rows"]]
    assert sorted((p for _, p in got), reverse=True) == [p for _, p in TABLE_001]
    assert dict(got) == {t: float(p) for t, p in TABLE_001}
    # every board decided: 66 matches x 4 boards of 局分 1:0
    assert sum(float(row[head.index("局分")]) for row in rows["rows"]) == 66 * 4
    assert counts["rapid"] > 0 and counts["decider"] > 0
    # the games stay in the file with their kind, colours, time and the choice
    ef = EventFile.load(ev)
    g = [gm for rnd in range(1, 12) for m in ef.event.team_tournament().rounds[rnd - 1]
         for b in range(1, 5) for gm in ef.event.board_games(rnd, m.board, b)]
    assert sum(gm["kind"] == "rapid" for gm in g) == counts["rapid"]
    assert sum(gm["kind"] == "decider" for gm in g) == counts["decider"]
    assert all(gm["time"] == {"slow": "1200", "rapid": "40/600:30/300",
                              "decider": "30/300"}[gm["kind"]] for gm in g)
    assert all(gm.get("chosen_by") for gm in g if gm["kind"] == "decider")


def test_league_board_rules_and_the_lot_reading(tmp_path: Path) -> None:
    """A team Swiss under the 2021 format: the decider waits for the choice
    and only its chooser's board takes it; the default reading settles a
    drawn decider by lot and says so; a correction of the slow game drops
    the games after it."""
    teams = ["甲队", "乙队", "丙队", "丁队"]
    ev = tmp_path / "swiss.json"
    q("create", ev, "--entries", entries(tmp_path / "t.csv", teams, boards=2),
      "--format", "team-swiss", "--rounds", "2", "--boards", "2", "--series", "league_2021",
      "--time-slow", "1200+10")
    q("pair", ev)
    ef = EventFile.load(ev)
    tm = ef.event.team_tournament().rounds[0][0]
    x, y = ef.event.team_tournament().team(tm.red_team), ef.event.team_tournament().team(tm.black_team)
    q("result", ev, 1, tm.board, "=", "--board", 1)
    out = q("result", ev, 1, tm.board, "=", "--board", 1)
    chooser = x.roster[0]  # Red in the slow game of board 1, so Black in the rapid one
    assert f"{chooser} chooses the colours" in out
    assert "colour choice" in fails("result", ev, 1, tm.board, "1-0", "--board", 1)
    assert "does not play" in fails("choose", ev, 1, tm.board, "某某", "--board", 1)
    q("choose", ev, 1, tm.board, y.roster[0], "--board", 1)
    assert "no colour choice is due" in fails("choose", ev, 1, tm.board, y.roster[0],
                                               "--board", 1)
    out = q("result", ev, 1, tm.board, "=", "--board", 1)
    assert "和局后抽签" in out  # the default reading of a drawn decider: a lot
    ef = EventFile.load(ev)
    games = ef.event.board_games(1, tm.board, 1)
    assert [g["kind"] for g in games] == ["slow", "rapid", "decider"]
    assert games[0]["time"] == "1200+10"
    assert "decided already" in fails("result", ev, 1, tm.board, "1-0", "--board", 1)
    # a correction of game 1 drops the rapid game and the decider (and its choice)
    q("result", ev, 1, tm.board, "0-1", "--board", 1, "--game", 1, "--overwrite")
    ef = EventFile.load(ev)
    assert len(ef.event.board_games(1, tm.board, 1)) == 1
    assert ef.event.matches[f"1:{tm.board}"]["results"]["1"] == "0-1"
    assert "not 'best_of_three'" in fails(
        "create", tmp_path / "bad.json", "--entries", tmp_path / "t.csv", "--format",
        "team-swiss", "--rounds", "2", "--boards", "2", "--series", "best_of_three")
    assert "series" in fails("create", tmp_path / "bad2.json", "--entries", tmp_path / "t.csv",
                             "--format", "swiss", "--rounds", "2", "--series", "league_2021")
    assert re.search(r"times\.slow", fails(
        "create", tmp_path / "bad3.json", "--entries", tmp_path / "t.csv", "--format",
        "team-swiss", "--rounds", "2", "--boards", "2", "--series", "league_2021",
        "--time-slow", "twenty"))
