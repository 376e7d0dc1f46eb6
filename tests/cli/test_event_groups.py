"""Group round robin (11.3) tables on the command line and the papers
(issue 33 item 2): every group's standings and crosstable from the first
round on, in text, CSV, JSON and PDF.

Results follow a rule (the lower event number wins), so each group's table
is known by hand: in a group of four after its three rounds, the entries
score 3, 2, 1, 0 in the order of their numbers, and a crosstable cell of
the winner of a game reads ``<opponent's number><colour>1``."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
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


def play_group_rounds(ev: Path, rounds: int) -> None:
    """Pair and play ``rounds`` rounds, the lower event number winning."""
    for _ in range(rounds):
        q("pair", ev)
        ef = EventFile.load(ev)
        r = round_count(ef)
        for row in round_rows(ef, r):
            if row.is_bye:
                continue
            group, board = row.board[1:].split("-")
            assert row.red_no is not None and row.black_no is not None
            q("result", ev, r, board, "1-0" if row.red_no < row.black_no else "0-1",
              "--group", group)


def test_group_tables_and_crosstables_during_the_group_stage(tmp_path: Path) -> None:
    ev = tmp_path / "groups.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "groups",
      "--groups", "2", "--advance", "2", "--name", "分组赛")
    play_group_rounds(ev, 1)
    # after round 1: two tables, one a group, each with its four entries
    text = q("standings", ev)
    assert "分组赛 第1组 成绩" in text and "分组赛 第2组 成绩" in text
    ef = EventFile.load(ev)
    groups = ef.event.groups
    for t in groups:
        for p in t.players:
            assert p.name in text
    data = json.loads(q("standings", ev, "--format", "json"))
    assert [g["title"] for g in data["groups"]] == ["分组赛 第1组 成绩", "分组赛 第2组 成绩"]
    assert data["rows"] == []  # no placings yet
    play_group_rounds(ev, 2)
    data = json.loads(q("standings", ev, "--format", "json"))
    for g, t in zip(data["groups"], groups, strict=True):
        head = g["header"]
        numbers = sorted(ef.event.number(p.name) for p in t.players)
        got = [(int(row[head.index("编号")]), float(row[head.index("积分")]))
               for row in g["rows"]]
        # lower number wins every game: 3, 2, 1, 0 in number order
        assert got == list(zip(numbers, [3.0, 2.0, 1.0, 0.0], strict=True))
    csv_text = q("standings", ev, "--format", "csv")
    assert csv_text.splitlines()[0] == "分组赛 第1组 成绩"
    cross = q("crosstable", ev)
    assert "分组赛 第1组 交叉表" in cross and "分组赛 第2组 交叉表" in cross
    ef = EventFile.load(ev)
    t = ef.event.groups[0]
    first = min(ef.event.number(p.name) for p in t.players)
    line = next(x for x in cross.splitlines() if x.split()[:2] == ["1", str(first)])
    cells = line.split()[3:6]
    assert len(cells) == 3 and all(c.endswith("1") for c in cells)
    opponents = sorted(int(c[:-2]) for c in cells)
    assert opponents == sorted(ef.event.number(p.name) for p in t.players
                               if ef.event.number(p.name) != first)
    # the papers show the same tables
    pytest.importorskip("fpdf")
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) reads the PDFs back")
    for kind in ("standings", "crosstable"):
        out = tmp_path / f"{kind}.pdf"
        q("papers", ev, "--kind", kind, "-o", out)
        pdf = subprocess.run(["pdftotext", "-layout", str(out), "-"], check=True,
                             capture_output=True, text=True).stdout
        assert "第1组" in pdf and "第2组" in pdf, kind
        for p in t.players:
            assert p.name in pdf
