"""``qisai tournament ...`` commands (the Typer app of qisai/cli/tournament.py)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli.tournament import app

runner = CliRunner()


def test_berger_contract(tdata: Path) -> None:
    res = runner.invoke(app, ["berger", "8"])
    assert res.exit_code == 0
    assert res.output.splitlines()[0] == "1-8 2-7 3-6 4-5"
    tables = json.loads((tdata / "berger" / "berger_tables_3_to_16.json").read_text())["tables"]
    for n in (3, 9, 16):
        lines = runner.invoke(app, ["berger", str(n)]).output.splitlines()
        want = [" ".join(f"{a}-{b}" if b is not None else f"{a}-({n + 1})" for a, b in rnd)
                for rnd in tables[str(n)]]
        assert lines == want
    assert len(runner.invoke(app, ["berger", "6", "--double"]).output.splitlines()) == 10
    bad = runner.invoke(app, ["berger", "1"])
    assert bad.exit_code == 2 and "at least 2" in bad.output


def test_event_lifecycle(tmp_path: Path) -> None:
    entries = tmp_path / "entries.csv"
    entries.write_text("name,rating,club\n甲,2400,A\n乙,2300,B\n丙,2200,A\n丁,2100,B\n",
                       encoding="utf-8")
    ev = tmp_path / "ev.json"
    res = runner.invoke(app, ["create", str(ev), "--entries", str(entries), "--rounds", "3",
                              "--tiebreaks", "对手分,胜局,犯规", "--seed", "5"])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["create", str(ev), "--entries", str(entries),
                               "--rounds", "3"]).exit_code == 2  # no silent overwrite
    for rnd in (1, 2, 3):
        res = runner.invoke(app, ["pair", str(ev), "--explain"])
        assert res.exit_code == 0, res.output
        assert f"round {rnd}" in res.output
        for board in (1, 2):
            res = runner.invoke(app, ["result", str(ev), str(rnd), str(board), "1-0",
                                      "--red-fouls", "1"])
            assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["standings", str(ev)])
    assert res.exit_code == 0 and "对手分" in res.output
    data = json.loads(runner.invoke(app, ["standings", str(ev), "--format", "json"]).output)
    assert sum(r["points"] for r in data["standings"]) == 6
    assert runner.invoke(app, ["standings", str(ev), "--format", "csv"]).output.startswith(
        "place,")
    assert "<table" in runner.invoke(app, ["standings", str(ev), "--format", "html"]).output
    assert runner.invoke(app, ["crosstable", str(ev)]).exit_code == 0
    assert runner.invoke(app, ["export-trf", str(ev)]).output.startswith("012 ")
    assert runner.invoke(app, ["pairings", str(ev), "2"]).exit_code == 0
    assert json.loads(runner.invoke(app, ["pairings", str(ev), "1", "--format", "json"]).output)[0]["round"] == 1
    done = runner.invoke(app, ["pair", str(ev)])
    assert done.exit_code == 2 and "all 3 rounds" in done.output


def test_errors_are_one_line_not_tracebacks(tmp_path: Path) -> None:
    bad = tmp_path / "entries.csv"
    bad.write_text("who,rating\nx,1\n")
    res = runner.invoke(app, ["create", str(tmp_path / "e.json"), "--entries", str(bad),
                              "--rounds", "1"])
    assert res.exit_code == 2 and "name column (姓名 or name)" in res.output
    bad.write_text("name,rating\nx,abc\ny,1\n")
    res = runner.invoke(app, ["create", str(tmp_path / "e.json"), "--entries", str(bad),
                              "--rounds", "1"])
    assert res.exit_code == 2 and "row 2, column rating" in res.output
    js = tmp_path / "entries.json"
    js.write_text('[{"name": "a"}, {"nom": "b"}]')
    res = runner.invoke(app, ["create", str(tmp_path / "f.json"), "--entries", str(js),
                              "--rounds", "1"])
    assert res.exit_code == 2 and "entry 2" in res.output
    res = runner.invoke(app, ["standings", str(tmp_path / "missing.json")])
    assert res.exit_code == 2 and "cannot read" in res.output
    res = runner.invoke(app, ["result", str(tmp_path / "missing.json"), "1", "1", "x"])
    assert res.exit_code == 2
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)


def test_card_draw_command() -> None:
    res = runner.invoke(app, ["cards", "13", "--seed", "1"])
    lines = res.output.splitlines()
    assert res.exit_code == 0 and len(lines) == 7 and lines[-1].endswith("(K) bye")


def test_knockout_command() -> None:
    res = runner.invoke(app, ["knockout", "6"])
    lines = res.output.splitlines()
    assert res.exit_code == 0 and len(lines) == 4
    assert lines[0] == "1 bye" and sum(line.endswith("bye") for line in lines) == 2
    assert runner.invoke(app, ["knockout", "6", "--byes", "draw"]).exit_code == 2


def test_create_reads_chinese_headers_and_names_a_bad_row(tmp_path: Path) -> None:
    """``tournament create`` reads the same sheets as ``qisai event`` (issue 16,
    desk 2): Chinese headers; a bad row is named with its file, row and column."""
    sheet = tmp_path / "entries.csv"
    sheet.write_text("姓名,单位,等级分\n王天一,杭州,2700\n郑惟桐,成都,2680\n"
                     "许银川,广东,2650\n赵鑫鑫,浙江,2600\n", encoding="utf-8")
    r = runner.invoke(app, ["create", str(tmp_path / "e.json"), "--entries", str(sheet),
                            "--system", "swiss", "--rounds", "3"])
    assert r.exit_code == 0, r.output
    saved = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))
    assert [(p["name"], p["club"], p["rating"]) for p in saved["players"]] == [
        ("王天一", "杭州", 2700), ("郑惟桐", "成都", 2680), ("许银川", "广东", 2650),
        ("赵鑫鑫", "浙江", 2600)]
    sheet.write_text("姓名,等级分\n王天一,2700\n郑惟桐,高\n", encoding="utf-8")
    r = runner.invoke(app, ["create", str(tmp_path / "f.json"), "--entries", str(sheet),
                            "--system", "swiss", "--rounds", "3"])
    assert r.exit_code != 0 and "row 3" in r.output and not (tmp_path / "f.json").exists()
