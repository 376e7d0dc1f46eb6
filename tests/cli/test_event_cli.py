"""``qisai event ...``: every format run start to finish from the command line
(issue 16, desk item 1), on the small sheets of tests/data/entries.

Results are not fixed in advance: each test enters them by a rule (the
lower-numbered entry wins, every board drawn, Red wins ...) and checks what
the rule text makes of them (clauses 11-15, 18.4, 20.2-20.4, 21.4)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.competition.events.file import EventFile
from qisai.competition.events.views import round_count, round_rows

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()


def q(*args: object) -> str:
    res = runner.invoke(app, ["event", *[str(a) for a in args]])
    assert res.exit_code == 0, res.output
    return res.output


def fails(*args: object) -> str:
    res = runner.invoke(app, ["event", *[str(a) for a in args]])
    assert res.exit_code == 2, res.output
    return res.output


def play_round(ev: Path, decide: Callable[[int, int], str], **opts: object) -> None:
    """Enter a result for every open board of the last round:
    ``decide(red, black)`` gives it."""
    ef = EventFile.load(ev)
    r = round_count(ef)
    for row in round_rows(ef, r):
        if not row.pending:
            continue
        assert row.red_no is not None and row.black_no is not None
        extra = [a for k, v in opts.items() for a in (f"--{k}", v)]
        board = row.board.split("-")[-1]
        q("result", ev, r, board, decide(row.red_no, row.black_no), *extra)


def lower_wins(red: int, black: int) -> str:
    return "1-0" if red < black else "0-1"


def standings_json(ev: Path) -> list[list[str]]:
    return json.loads(q("standings", ev, "--format", "json"))["rows"]


def test_swiss_start_to_finish_with_warning_and_withdrawal(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    out = q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "swiss",
            "--rounds", "3", "--name", "测试公开赛", "--arbiter", "张裁判", "--seed", "3")
    assert "8 entries" in out
    said = fails("create", ev, "--entries", DATA / "players_zh.csv").splitlines()
    assert said[0].startswith("错误：") and said[1].startswith("error: ")  # issue 32.8
    q("pair", ev)
    play_round(ev, lower_wins)
    # 18.1: a warning; 18.4 puts the warned entry last among equal points
    warned = standings_json(ev)[0][1]
    assert "warning (18.1)" in q("penalty", ev, warned, "warning", "--round", "1")
    rows = standings_json(ev)
    assert [r[-1] for r in rows if r[1] == warned] == ["警告×1"]
    top = [r for r in rows if r[4] == rows[0][4]]
    assert len(top) == 4  # the four winners of round 1 share the points
    assert top[-1][1] == warned  # placed last of its score group (18.4)
    # 20.4: a Swiss withdrawal keeps results and is not paired again
    assert "(20.4)" in q("withdraw", ev, "8")
    for _ in (2, 3):
        q("pair", ev)
        play_round(ev, lower_wins)
    ef = EventFile.load(ev)
    assert all(8 not in p.players() for rec in ef.individual.rounds[1:] for p in rec.pairings)
    assert ef.event.finished
    cross = q("crosstable", ev)
    assert "红" in cross and "黑" in cross and "第3轮" in cross


def test_round_robin_20_3_and_18_2(tmp_path: Path) -> None:
    ev = tmp_path / "rr.json"
    q("create", ev, "--entries", DATA / "players_en.csv", "--format", "round-robin")
    q("pair", ev)
    # 18.2: the chief arbiter disqualifies Red of board 1 from the game: it is lost
    ef = EventFile.load(ev)
    row = round_rows(ef, 1)[1] if round_rows(ef, 1)[0].is_bye else round_rows(ef, 1)[0]
    msg = q("penalty", ev, row.red_no, "forfeit", "--round", "1")
    assert f"board {row.board} lost (--+)" in msg
    play_round(ev, lower_wins)
    # 20.3: withdrawing having met fewer than half the opponents strikes the results
    assert "struck out (20.3)" in q("withdraw", ev, "5")
    for _ in range(4):
        q("pair", ev)
        play_round(ev, lower_wins)
    ef = EventFile.load(ev)
    ranked = [s.entry for s in ef.standings()]
    assert 5 not in ranked and len(ranked) == 4
    assert "注销" in q("crosstable", ev)


def test_double_round_robin_two_games_each(tmp_path: Path) -> None:
    ev = tmp_path / "drr.json"
    entries = tmp_path / "four.csv"
    entries.write_text("name,rating\nA,2000\nB,1900\nC,1800\nD,1700\n", encoding="utf-8")
    q("create", ev, "--entries", entries, "--format", "double-round-robin")
    for _ in range(6):  # 13.5: each pair twice, colours swapped
        q("pair", ev)
        play_round(ev, lambda r, b: "=")
    rows = standings_json(ev)
    assert [r[4] for r in rows] == ["3"] * 4 and all(r[0] == "1=" for r in rows)
    assert "error" in fails("pair", ev)


def test_mcmahon_go_ranks(tmp_path: Path) -> None:
    ev = tmp_path / "mm.json"
    q("create", ev, "--entries", DATA / "go_players.csv", "--format", "mcmahon",
      "--rounds", "3", "--game", "go", "--bar", "5d", "--floor", "5k")
    ef = EventFile.load(ev)
    t = ef.individual
    # bar 5d: the four 9段 and the 5d start equal; 1k four grades above the 5k floor
    starts = {p.name: t.start_score(p.id) for p in t.players}
    assert starts["柯洁"] == starts["业余甲"] > starts["业余乙"] > starts["业余丙"] > \
        starts["业余丁"] == 0
    out = q("pair", ev)
    assert "(黑)" in out and "(白)" in out  # Go colours: the first-listed has Black
    play_round(ev, lower_wins)
    for _ in (2, 3):
        q("pair", ev)
        play_round(ev, lower_wins)
    assert standings_json(ev)[0][2] == t.player(1).name  # McMahon 1 won every game
    assert "McMahon分" in q("standings", ev)


def test_knockout_best_of_three_bracket(tmp_path: Path) -> None:
    ev = tmp_path / "ko.json"
    q("create", ev, "--entries", DATA / "players_en.csv", "--format", "knockout",
      "--series", "best_of_three")
    out = q("pair", ev)
    assert "bye (轮空)" in out  # 5 entries in a bracket of 8: three byes to the top seeds
    for _ in range(3):
        for _game in range(3):
            ef = EventFile.load(ev)
            r = round_count(ef)
            if all(row.is_bye or "胜者" in row.note for row in round_rows(ef, r)):
                break
            play_round(ev, lower_wins)
        if EventFile.load(ev).event.finished:
            break
        q("pair", ev)
    ef = EventFile.load(ev)
    assert ef.event.finished
    table = standings_json(ev)
    assert table[0][:2] == ["1", "1"]  # the top seed wins every series
    assert table[1][0] == "2"
    assert "1 Li Lai Qun" in q("bracket", ev)


def test_knockout_card_draw_two_games_and_lot(tmp_path: Path) -> None:
    """Local rules 9: a card draw each round; 13.5 two games, a level
    series goes to an extra game and then a lot (local rules 6)."""
    ev = tmp_path / "cards.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "knockout",
      "--draw", "cards", "--series", "two_games", "--seed", "2")
    q("pair", ev)
    ef = EventFile.load(ev)
    rows = round_rows(ef, 1)
    assert len(rows) == 4  # 8 entries: cards 1-4 of each colour, no K
    cards = sorted(row.note.split("；")[0] for row in rows)
    assert cards == [f"抽牌 红{k}/黑{k}" for k in range(1, 5)]  # same number meets
    for row in rows:  # the red card holder plays Red (local rules 9)
        assert ef.event.match(1, int(row.board) - 1).red == row.red_no
    for _ in range(3):  # two games and the extra game, all drawn
        play_round(ev, lambda r, b: "=")
    ef = EventFile.load(ev)
    for row in round_rows(ef, 1):
        assert "胜者" in row.note
        s = ef.event.series(1, int(row.board) - 1)
        assert s is not None and len(s.games) == 3
        assert s.how == "lot after a drawn extra game"
    out = q("pair", ev)  # round 2 is drawn afresh among the four left
    assert len([x for x in out.splitlines() if "(红)" in x]) == 2


def test_best_of_three_level_series_extra_game_or_lot(tmp_path: Path) -> None:
    """Local rules 6: a level 三局两胜 goes to 加赛一局 or straight to a lot, as
    the organiser chose."""
    entries = tmp_path / "two.csv"
    entries.write_text("姓名\n甲\n乙\n", encoding="utf-8")
    for tied, games in (("extra_game", 4), ("lot", 3)):
        ev = tmp_path / f"{tied}.json"
        q("create", ev, "--entries", entries, "--format", "knockout", "--series",
          "best_of_three", "--tied", tied)
        q("pair", ev)
        while not EventFile.load(ev).event.finished:
            q("result", ev, 1, 1, "=")
        s = EventFile.load(ev).event.series(1, 0)
        assert s is not None and len(s.games) == games
        assert s.games[-1][0].kind == ("extra" if tied == "extra_game" else "game")
        assert "抽签" in s.how  # all drawn: the lot decides either way


def test_double_elimination(tmp_path: Path) -> None:
    ev = tmp_path / "de.json"
    entries = tmp_path / "four.csv"
    entries.write_text("name,rating\nA,2000\nB,1900\nC,1800\nD,1700\n", encoding="utf-8")
    q("create", ev, "--entries", entries, "--format", "knockout", "--double")
    for _ in range(10):
        q("pair", ev)
        play_round(ev, lower_wins)
        if EventFile.load(ev).event.finished:
            break
    ef = EventFile.load(ev)
    assert ef.event.finished and ef.placements()[0][2] == 1
    losses = ef.event.ko.losses()
    assert all(losses.get(e, 0) == 2 for e in (2, 3, 4))  # out after a second loss


def test_league_2021_decider_colour_choice(tmp_path: Path) -> None:
    ev = tmp_path / "lg.json"
    entries = tmp_path / "two.csv"
    entries.write_text("姓名\n甲\n乙\n", encoding="utf-8")
    q("create", ev, "--entries", entries, "--format", "knockout", "--series", "league_2021")
    q("pair", ev)
    q("result", ev, 1, 1, "=")  # slow game drawn
    q("result", ev, 1, 1, "=")  # rapid game, colours swapped, drawn
    shown = q("show", ev)
    assert "选择先后手" in shown
    ef = EventFile.load(ev)
    chooser = ef.event.awaiting_choice(1, 0)
    assert "error" in fails("result", ev, 1, 1, "1-0")  # the decider waits for the choice
    q("choose", ev, 1, 1, chooser)
    q("result", ev, 1, 1, "1-0")
    ef = EventFile.load(ev)
    assert ef.event.finished and ef.event.ko.champion == chooser


def test_groups_with_final(tmp_path: Path) -> None:
    ev = tmp_path / "groups.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "groups",
      "--groups", "2", "--advance", "2")
    q("pair", ev)
    assert "give --group" in fails("result", ev, 1, 1, "1-0")
    for _ in range(3):
        ef = EventFile.load(ev)
        r = round_count(ef)
        for row in round_rows(ef, r):
            if not row.is_bye:
                group = row.board.split("-")[0][1:]
                board = row.board.split("-")[1]
                q("result", ev, r, board, lower_wins(row.red_no or 0, row.black_no or 0),
                  "--group", group)
        q("pair", ev)
    ef = EventFile.load(ev)
    assert ef.event.final is not None and len(ef.event.final.players) == 4
    for _ in range(3):
        ef = EventFile.load(ev)
        r = round_count(ef)
        for row in round_rows(ef, r):
            if not row.is_bye:
                q("result", ev, r, row.board.split("-")[1],
                  lower_wins(row.red_no or 0, row.black_no or 0), "--group", 0)
        if r < 6:
            q("pair", ev)
    ef = EventFile.load(ev)
    assert ef.event.finished
    places = ef.placements()
    assert [p[0] for p in places][:4] == [1, 2, 3, 4] and len(places) == 8


def test_team_round_robin_lineups_and_match_points(tmp_path: Path) -> None:
    ev = tmp_path / "team.json"
    q("create", ev, "--entries", DATA / "teams.csv", "--format", "team-round-robin",
      "--boards", "2", "--name", "团体赛")
    out = q("pair", ev)
    assert "1.1" in out and "1.2" in out
    ef = EventFile.load(ev)
    tt = ef.event.team_tournament()
    m = tt.rounds[0][0]
    red, black = tt.team(m.red_team), tt.team(m.black_team)
    # 12.2: the registered order may not be reversed; a reserve may come in
    assert "12.2" in fails("lineup", ev, 1, m.board, "--red", f"{red.roster[1]},{red.roster[0]}",
                           "--black", ",".join(black.roster[:2]))
    lu = q("lineup", ev, 1, m.board, "--red", f"{red.roster[0]},{red.roster[2]}",
           "--black", ",".join(black.roster[:2]))
    assert red.roster[2] in lu
    assert "2 results for" not in q("result", ev, 1, m.board, "1-0,1-0")
    # 14.2: Red wins on both boards: the first-listed team wins board 1 (Red), loses
    # board 2 (Black): 局分 1:1, a drawn match worth 1 场分 each
    ef = EventFile.load(ev)
    assert ef.event.match(1, m.board).board_points(tt.scoring) == (1.0, 1.0)
    other = tt.rounds[0][1]
    q("result", ev, 1, other.board, "=", "--board", 1)
    q("result", ev, 1, other.board, "1-0", "--board", 2)
    for _ in (2, 3):
        q("pair", ev)
        ef = EventFile.load(ev)
        r = round_count(ef)
        for tm in ef.event.team_tournament().rounds[r - 1]:
            q("result", ev, r, tm.board, "=,=")
    table = q("standings", ev)
    assert "场分" in table and "局分" in table and "全队胜局" in table
    rows = standings_json(ev)
    assert sum(float(r[3]) for r in rows) == 12  # six matches, 2 场分 each (14.2)
    assert sum(float(r[4]) for r in rows) == 12  # twelve boards, 1 局分 each (14.1)
    cross = q("crosstable", ev)
    assert "场分" in cross and "队名" in cross and "match points" not in cross  # 33.5


def test_team_swiss_forfeit_and_withdrawal(tmp_path: Path) -> None:
    ev = tmp_path / "ts.json"
    q("create", ev, "--entries", DATA / "teams.csv", "--format", "team-swiss", "--rounds", "3",
      "--boards", "2", "--lineup-mode", "fixed")
    q("pair", ev)
    ef = EventFile.load(ev)
    first = ef.event.team_tournament().rounds[0][0]
    q("result", ev, 1, first.board, "+-", "--match-forfeit")  # 21.4: a forfeited match
    for tm in ef.event.team_tournament().rounds[0][1:]:
        q("result", ev, 1, tm.board, "1-0,0-1")
    winner = ef.event.team_tournament().team(first.red_team).name
    rows = standings_json(ev)
    assert [r for r in rows if r[2] == winner][0][3] == "2"  # '+' is worth 2 for a team
    assert "(20.4)" in q("withdraw", ev, "上海队")
    q("pair", ev)
    ef = EventFile.load(ev)
    gone = next(t.id for t in ef.event.team_tournament().teams if t.name == "上海队")
    assert all(gone not in (m.red_team, m.black_team) for m in ef.event.team_tournament().rounds[1])


def test_playoff_15_6(tmp_path: Path) -> None:
    ev = tmp_path / "po.json"
    entries = tmp_path / "two.csv"
    entries.write_text("姓名\n甲\n乙\n丙\n", encoding="utf-8")
    q("create", ev, "--entries", entries, "--format", "round-robin")
    for _ in range(3):
        q("pair", ev)
        play_round(ev, lambda r, b: "=")
    assert "15.6" in q("standings", ev)
    tied = q("ties", ev).splitlines()[0]
    assert tied.count(",") == 2  # all three share first place
    assert "order" in q("playoff", ev, "--entries", "1,2,3")
    q("playoff-order", ev, 1, "3,1,2")
    rows = standings_json(ev)
    assert [(r[0], r[1]) for r in rows] == [("1", "3"), ("2", "1"), ("3", "2")]
    assert "no shared place" in q("ties", ev)


def test_playoff_series_of_two(tmp_path: Path) -> None:
    ev = tmp_path / "po2.json"
    entries = tmp_path / "two.csv"
    entries.write_text("姓名\n甲\n乙\n", encoding="utf-8")
    q("create", ev, "--entries", entries, "--format", "round-robin", "--no-draw-numbers")
    q("pair", ev)
    q("result", ev, 1, 1, "=")
    out = q("playoff", ev, "--entries", "1,2", "--series", "best_of_three")
    assert "game 1" in out
    q("playoff-game", ev, 1, "1-0")
    done = q("playoff-game", ev, 1, "1-0")  # colours alternate: Red wins again, 1-1
    assert "not decided" in done
    po = EventFile.load(ev).playoffs[0]
    s = po.replay()
    assert s is not None
    nxt = s.next_game()
    assert nxt is not None
    final = q("playoff-game", ev, 1, "1-0")
    assert f"order {nxt.red}, {nxt.black}" in final
    assert standings_json(ev)[0][:2] == ["1", str(nxt.red)]


def test_entries_export_from_event_and_before_start_removal(tmp_path: Path) -> None:
    ev = tmp_path / "e.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "swiss", "--rounds", "3",
      "--section", "甲组")
    out = tmp_path / "out.xlsx"
    assert "6 entries" in q("export-entries", ev, "-o", out)
    listed = q("check-entries", out)
    assert "王天一" in listed and "唐丹" not in listed
    bad = fails("check-entries", DATA / "bad_rows.csv")
    assert "row 4, column 等级分" in bad


def test_20_2_entries_change_before_the_start(tmp_path: Path) -> None:
    """20.2: withdrawn before the start, the numbers are drawn again at the
    start; a Swiss may make the number even with another entry."""
    ev = tmp_path / "open.json"
    out = q("create", ev, "--entries", DATA / "players_en.csv", "--format", "swiss",
            "--rounds", "3", "--no-start")
    assert "not started" in out
    assert "error" in fails("pair", ev)
    assert "before the start (20.2)" in q("withdraw", ev, "Liu Dahua", "--before-start")
    q("add-entry", ev, "Wang Tianyi", "--rating", "2700")
    q("add-entry", ev, "Zheng Weitong", "--rating", "2690")
    numbers = q("start", ev)
    assert "Liu Dahua" not in numbers and numbers.splitlines()[0].strip() == "1  Wang Tianyi"
    assert "error" in fails("add-entry", ev, "Late Comer")
    q("pair", ev)
    ef = EventFile.load(ev)
    assert len(ef.individual.players) == 6
    assert not any(p.is_bye for p in ef.individual.rounds[0].pairings)  # even again


def test_team_reserve_added_before_the_start(tmp_path: Path) -> None:
    ev = tmp_path / "team.json"
    q("create", ev, "--entries", DATA / "teams.csv", "--format", "team-round-robin",
      "--boards", "2", "--no-start")
    assert "reserve (12.2)" in q("add-entry", ev, "王天一", "--team", "浙江队")
    assert "no team" in fails("add-entry", ev, "某某", "--team", "四川队")
    q("start", ev)
    ef = EventFile.load(ev)
    zj = next(t for t in ef.event.team_tournament().teams if t.name == "浙江队")
    assert zj.roster[-1] == "王天一" and len(zj.roster) == 4


def test_team_totals_12_5_from_an_individual_event(tmp_path: Path) -> None:
    """12.5 队员总分制 and 15.5: the team with the smaller sum of individual
    places is ahead."""
    ev = tmp_path / "ind.json"
    q("create", ev, "--entries", DATA / "teams.csv", "--format", "round-robin",
      "--no-draw-numbers")
    for _ in range(11):
        q("pair", ev)
        play_round(ev, lower_wins)
    ef = EventFile.load(ev)
    places = {ef.individual.player(s.entry).name: s.rank for s in ef.standings()}
    out = q("team-ranking", ev)
    lines = out.splitlines()[2:]
    sums = {}
    for team in ("北京队", "广东队", "浙江队", "上海队"):
        roster = [p.name for p in ef.individual.players if p.team == team]
        sums[team] = sum(places[n] for n in roster)
    assert [ln.split()[1] for ln in lines] == sorted(sums, key=sums.get)
    assert all(str(sums[ln.split()[1]]) == ln.split()[2] for ln in lines)
    assert "no entry has a club" in fails("team-ranking", ev, "--by", "club")
