"""Rating changes on the desk (issue 16): after each round and at the end
``qisai tournament`` shows each player's rating change under the project's
rating rules (qisai.competition.elo: R' = R + K (S - E) against the ratings
before the event, E = 1 / (1 + 10^((R_opp - R) / 400)), K = 20; forfeits
(21.4) and byes not rated; players without a rating left out with their
games).  The expected changes are computed here from that formula, by hand,
not by the code under test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli.tournament import app
from qisai.competition.errors import CompetitionError
from qisai.competition.events.allplay_event import AllPlayAllEvent
from qisai.competition.events.ratings import rating_rows

runner = CliRunner()


def expected(r: float, opp: float) -> float:
    """Elo's expected score, written out independently of the code."""
    return 1.0 / (1.0 + 10.0 ** ((opp - r) / 400.0))


def _cli(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def _changes(ev: Path, *extra: str) -> dict[str, tuple[int, float, float]]:
    """name -> (rated games, change, rating after) from ``ratings --format json``."""
    data = json.loads(_cli("ratings", str(ev), "--format", "json", *extra))
    h = data["header"]
    return {r[h.index("姓名")]: (int(r[h.index("局数")]), float(r[h.index("等级分变化")]),
                                float(r[h.index("赛后等级分")])) for r in data["rows"]}


def test_rating_changes_round_by_round(tmp_path: Path) -> None:
    sheet = tmp_path / "p.csv"
    # numbers kept in file order: 1 甲 2000, 2 乙 1900, 3 丙 1800, 4 丁 unrated
    sheet.write_text("name,rating\n甲,2000\n乙,1900\n丙,1800\n丁,0\n", encoding="utf-8")
    ev = tmp_path / "rr.json"
    _cli("create", str(ev), "--entries", str(sheet), "--system", "round_robin",
         "--no-draw-numbers")
    played = {1: "1-4 1-0, 2-3 =", 2: "1-2 1-0, 3-4 0-1", 3: "1-3 +-, 2-4 ="}
    for r, items in played.items():
        _cli("pair", str(ev))
        out = _cli("result", str(ev), "--round", str(r), items, "--by-player")
        assert f"rating changes after round {r}" in out
    # round 1 by hand: 甲's win is against the unrated 丁 (not rated); 乙 = 丙
    e_yi_bing = expected(1900, 1800)
    after1 = _changes(ev, "--round", "1")
    assert set(after1) == {"甲", "乙", "丙"}  # 丁 has no rating: left out (elo.py)
    assert after1["甲"][:2] == (0, 0.0)
    assert after1["乙"][0] == 1 and after1["乙"][1] == pytest.approx(
        20 * (0.5 - e_yi_bing), abs=0.05)
    assert after1["丙"][1] == pytest.approx(20 * (0.5 - expected(1800, 1900)), abs=0.05)
    # the end: 甲 beat 乙 in round 2; his round-3 win over 丙 is a forfeit (not rated)
    final = _changes(ev)
    jia = 20 * (1 - expected(2000, 1900))
    yi = 20 * ((0.5 - e_yi_bing) + (0 - expected(1900, 2000)))
    bing = 20 * (0.5 - expected(1800, 1900))
    assert final["甲"][0] == 1 and final["甲"][1] == pytest.approx(jia, abs=0.05)
    assert final["乙"][0] == 2 and final["乙"][1] == pytest.approx(yi, abs=0.05)
    assert final["丙"][0] == 1 and final["丙"][1] == pytest.approx(bing, abs=0.05)
    assert final["甲"][2] == round(2000 + jia)
    # an Elo pool of rated games gives and takes the same (equal K)
    assert jia + yi + bing == pytest.approx(0, abs=1e-9)
    # K of another rating list
    halved = _changes(ev, "--k", "10")
    assert halved["乙"][1] == pytest.approx(yi / 2, abs=0.05)
    text = _cli("ratings", str(ev))
    assert "等级分变化" in text and "K=20" in text
    bad = runner.invoke(app, ["ratings", str(ev), "--k", "0"])
    assert bad.exit_code == 2 and "K must be positive" in bad.output


def test_no_ratings_no_changes(tmp_path: Path) -> None:
    sheet = tmp_path / "p.csv"
    sheet.write_text("name\n甲\n乙\n", encoding="utf-8")
    ev = tmp_path / "rr.json"
    _cli("create", str(ev), "--entries", str(sheet), "--system", "round_robin")
    _cli("pair", str(ev))
    out = _cli("result", str(ev), "1", "1", "1-0")
    assert "rating changes" not in out  # nothing to show, nothing said
    bad = runner.invoke(app, ["ratings", str(ev)])
    assert bad.exit_code == 2 and "no player has a rating" in bad.output


def test_all_play_all_members_are_rated() -> None:
    """Two a side (12.4): a1 2000, a2 1800 v b1 1900, b2 1700; team A wins
    every game of round 1 and draws every game of round 2."""
    ev = AllPlayAllEvent("m", boards=2, seed=0)
    ev.add_team("A", ["a1", "a2"])
    ev.add_team("B", ["b1", "b2"])
    ev.ratings = {"a1": 2000, "a2": 1800, "b1": 1900, "b2": 1700}
    ev.start()
    opponents: dict[str, list[tuple[str, float]]] = {p: [] for p in ev.ratings}
    for r in (1, 2):
        ev.pair_next_round()
        for board, red, black in ev.board_players(r, 1):
            a_red = red.startswith("a")
            res = "=" if r == 2 else ("1-0" if a_red else "0-1")
            ev.record_board(r, 1, board, res)
            a, b = (red, black) if a_red else (black, red)
            score = 0.5 if r == 2 else 1.0
            opponents[a].append((b, score))
            opponents[b].append((a, 1 - score))
    rows = {row.name: row for row in rating_rows(ev)}
    for p, games in opponents.items():
        want = 20 * sum(s - expected(ev.ratings[p], ev.ratings[o]) for o, s in games)
        assert rows[p].games == 2 and rows[p].change == pytest.approx(want, abs=1e-9), p
    after_one = {row.name: row for row in rating_rows(ev, through=1)}
    assert all(row.games == 1 for row in after_one.values())
    with pytest.raises(CompetitionError, match="K must be positive"):
        rating_rows(ev, k=-1)
