"""The papers of issue 33 item 5, from the command line, read back with
pdftotext and kept as PNG artefacts (``$QISAI_TEST_ARTIFACTS``, else the
test's folder), as the browser tests keep their screenshots:

* 记录纸 with the move grid of 7.1/7.5 (回合, 红方, 黑方, 用时), a page a
  game, every game a best of three may still need, colours alternating;
* the knock-out pairings after results: the series score, game 1's colours
  once decided (the rule line says so), the lot and the arbiter's decision
  noted, remarks in Chinese (抽牌, 抽到K，轮空), no English;
* the team crosstable with Chinese headers, teams in file order with
  ``--no-draw-numbers``;
* withdrawn players marked (Swiss standings and papers; 注销 in a round
  robin, never ``+`` against a struck entry);
* standings and pairings as .xlsx and as CSV with a BOM.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.competition.events.file import EventFile
from qisai.papers.pdf import PapersError, find_font

pytest.importorskip("fpdf", reason="fpdf2 writes the PDFs")
try:
    find_font()
except PapersError:
    pytest.skip("no Chinese font (Debian fonts-noto-cjk)", allow_module_level=True)
if shutil.which("pdftotext") is None or shutil.which("pdftoppm") is None:
    pytest.skip("pdftotext/pdftoppm (poppler-utils) read the papers", allow_module_level=True)

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()


def q(*args: object, code: int = 0) -> str:
    res = runner.invoke(app, ["event", *[str(a) for a in args]])
    assert res.exit_code == code, res.output
    return res.output


def text_of(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout


def pages_of(pdf: Path) -> list[str]:
    return text_of(pdf).split("\f")[:-1]


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("QISAI_TEST_ARTIFACTS") or tmp_path / "papers")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def keep(pdf: Path, shots: Path, name: str) -> Path:
    """Render page 1 of ``pdf`` to ``shots/name.png`` (the artefact) and
    check that it is not blank."""
    from PIL import Image

    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile",
                    str(pdf), str(shots / name)], check=True)
    png = shots / f"{name}.png"
    img = Image.open(png).convert("L")
    dark = sum(img.histogram()[:128])
    assert dark > img.width * img.height * 0.005, f"{png} is blank"
    return png


def test_score_sheets_have_the_grid_one_page_a_game(tmp_path: Path, shots: Path) -> None:
    entries = tmp_path / "four.csv"
    entries.write_text("姓名,等级分\n甲,2600\n乙,2500\n丙,2400\n丁,2300\n", encoding="utf-8")
    ev = tmp_path / "ko.json"
    q("create", ev, "--entries", entries, "--format", "knockout", "--series", "best_of_three",
      "--name", "三局两胜赛")
    q("pair", ev)
    out = tmp_path / "slips.pdf"
    q("papers", ev, "--kind", "slips", "-o", out)
    pages = pages_of(out)
    ef = EventFile.load(ev)
    matches = ef.event.rounds[0]
    assert len(pages) == 3 * len(matches)  # a sheet for each of the three games
    for m, k in zip(matches, range(0, len(pages), 3), strict=True):
        red, black = ef.event.player(m.red).name, ef.event.player(m.black).name
        for g, page in enumerate(pages[k:k + 3], start=1):
            assert f"第{g}局" in page
            # colours alternate game by game (000 clause 6; game 1 from the pairing)
            first, second = (red, black) if g % 2 == 1 else (black, red)
            line = next(x for x in page.splitlines() if "红方：" in x and "黑方：" in x)
            assert line.index(first) < line.index("黑方：") < line.index(second)
            head = next(x for x in page.splitlines() if "回合" in x)
            assert head.split() == ["回合", "红方", "用时", "黑方", "用时"] * 2
            numbers = {int(x) for line in page.splitlines() for x in line.split()
                       if x.isdigit()}
            assert set(range(1, 61)) <= numbers  # 60 rounds of moves
            for s in ("7.1", "7.5", "炮二平五", "马8进7", "裁判签字", "10.1"):
                assert s in page, s
    keep(out, shots, "score-sheet-best-of-three")
    # game 1 played: games 2 and 3 remain to be recorded
    q("result", ev, 1, 1, "1-0")
    q("papers", ev, "--kind", "slips", "-o", out)
    assert len(pages_of(out)) == 3 * len(matches) - 1


def test_knockout_pairings_after_results_in_chinese(tmp_path: Path, shots: Path) -> None:
    ev = tmp_path / "cards.json"
    q("create", ev, "--entries", DATA / "players_en.csv", "--format", "knockout",
      "--draw", "cards", "--series", "best_of_three", "--tied", "lot", "--seed", "3",
      "--name", "抽牌淘汰赛")
    q("pair", ev)
    ef = EventFile.load(ev)
    played = [m for m in ef.event.rounds[0] if m.black is not None]
    bye = [m for m in ef.event.rounds[0] if m.black is None]
    assert len(played) == 2 and len(bye) == 1  # 5 entries: 1-2 of each colour and a K
    first, second = played
    # match A: the first-listed wins games 1 and 2 (game 2 with Black): 2:0
    q("result", ev, 1, first.index + 1, "1-0")
    q("result", ev, 1, first.index + 1, "0-1")
    # match B: three draws, settled by lot (--tied lot)
    for _ in range(3):
        q("result", ev, 1, second.index + 1, "=")
    out = tmp_path / "pairings.pdf"
    q("papers", ev, "--kind", "pairings", "-o", out)
    text = text_of(out)
    ef = EventFile.load(ev)
    a_red, a_black = ef.event.player(first.red).name, ef.event.player(first.black).name
    line = next(x for x in text.splitlines() if a_red in x and a_black in x)
    # game 1's colours (the red card holder first), the series score from that order
    assert line.index(a_red) < line.index(a_black) and "2:0" in line
    b_line = next(x for x in text.splitlines() if ef.event.player(second.red).name in x)
    assert "1.5:1.5" in b_line and "抽签决出" in text
    assert "抽到K，轮空" in text and "抽牌 红" in text
    for english in ("drew K", "bye", "cards", "colours by lot"):
        assert english not in text, english
    assert "已决出的按首局先后列出" in text
    keep(out, shots, "knockout-pairings-after-results")
    # an arbiter's decision is noted with its reason
    ev2 = tmp_path / "dec.json"
    q("create", ev2, "--entries", DATA / "players_en.csv", "--format", "knockout",
      "--name", "判定")
    q("pair", ev2)
    ef = EventFile.load(ev2)
    m = next(m for m in ef.event.rounds[0] if m.black is not None)
    q("decide", ev2, 1, m.index + 1, m.black, "--reason", "红方迟到超时")
    q("papers", ev2, "--kind", "pairings", "-o", out)
    assert "裁判判定：红方迟到超时" in text_of(out)


def test_team_crosstable_chinese_in_file_order(tmp_path: Path, shots: Path) -> None:
    entries = tmp_path / "teams.csv"
    entries.write_text("队名,姓名\n甲,甲一\n甲,甲二\n乙,乙一\n乙,乙二\n丙,丙一\n丙,丙二\n"
                       "丁,丁一\n丁,丁二\n", encoding="utf-8")
    ev = tmp_path / "t.json"
    out = q("create", ev, "--entries", entries, "--format", "team-round-robin", "--boards", 2,
            "--no-draw-numbers", "--name", "团体赛")
    assert [x.split()[1] for x in out.splitlines()[1:]] == ["甲", "乙", "丙", "丁"]
    q("pair", ev)
    q("result", ev, 1, 1, "1-0,1-0")
    q("result", ev, 1, 2, "1-0,=")
    cross = q("crosstable", ev)
    head = cross.splitlines()[1].split()
    assert head == ["序号", "队名", "1", "2", "3", "4", "场分"]
    assert [x.split()[1] for x in cross.splitlines()[2:]] == ["甲", "乙", "丙", "丁"]
    pdf = tmp_path / "cross.pdf"
    q("papers", ev, "--kind", "crosstable", "-o", pdf)
    text = text_of(pdf)
    assert "序号" in text and "场分" in text and "match points" not in text
    assert "格式：场分（局分）" in text and "对手编号" not in text
    keep(pdf, shots, "team-crosstable")


def test_withdrawn_players_are_marked(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "swiss", "--rounds", 3)
    q("pair", ev)
    for b in range(1, 5):
        q("result", ev, 1, b, "1-0")
    q("withdraw", ev, "8")
    text = q("standings", ev)
    line = next(x for x in text.splitlines() if x.split()[1:2] == ["8"])
    assert "第1轮后退出（20.4）" in line
    pdf = tmp_path / "st.pdf"
    q("papers", ev, "--kind", "standings", "-o", pdf)
    assert "第1轮后退出（20.4）" in text_of(pdf)
    # a round robin: struck out after one game of seven (20.3): no "+" against him
    rr = tmp_path / "rr.json"
    q("create", rr, "--entries", DATA / "players_zh.csv", "--format", "round-robin")
    q("pair", rr)
    for b in range(1, 5):
        q("result", rr, 1, b, "=")
    q("withdraw", rr, "8")
    for r in range(2, 8):
        q("pair", rr)
        ef = EventFile.load(rr)
        for p in ef.individual.rounds[-1].pairings:
            if p.board not in ef.individual.rounds[-1].results:
                q("result", rr, r, p.board, "=")
    cross = q("crosstable", rr)
    for x in cross.splitlines()[2:]:
        cells = x.split()
        struck_cells = [c for c in cells if c.startswith("8") and ("红" in c or "黑" in c)]
        assert all(c.endswith("注销") for c in struck_cells), x
    row8 = next(x for x in cross.splitlines() if x.split()[:2] == ["8", "王琳娜"]
                or (len(x.split()) > 1 and x.split()[0] == "8" and "注销" in x))
    assert "成绩注销" in row8


def test_standings_and_pairings_as_xlsx_and_bom_csv(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    ev = tmp_path / "swiss.json"
    q("create", ev, "--entries", DATA / "players_zh.csv", "--format", "swiss", "--rounds", 3)
    q("pair", ev)
    for b in range(1, 5):
        q("result", ev, 1, b, "1-0" if b % 2 else "=")
    shown = json.loads(q("standings", ev, "--format", "json"))
    x = tmp_path / "standings.xlsx"
    q("standings", ev, "-o", x)
    ws = load_workbook(x).worksheets[0]
    rows = [[("" if c is None else str(c)) for c in r] for r in ws.iter_rows(values_only=True)]
    assert rows[1] == shown["header"]
    assert [r[:3] for r in rows[2:]] == [r[:3] for r in shown["rows"]]
    c = tmp_path / "standings.csv"
    q("standings", ev, "-o", c)
    raw = c.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM Excel needs to read UTF-8
    back = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert back[0] == shown["header"] and back[1:] == shown["rows"]
    p = tmp_path / "pairings.xlsx"
    q("show", ev, 1, "-o", p)
    ws = load_workbook(p).worksheets[0]
    names = {str(v) for r in ws.iter_rows(values_only=True) for v in r if v}
    ef = EventFile.load(ev)
    assert {pl.name for pl in ef.individual.players} <= names
    res = runner.invoke(app, ["tournament", "pairings", str(ev), "1", "-o",
                              str(tmp_path / "p.csv")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "p.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    assert "write .csv or .xlsx" in q("standings", ev, "-o", tmp_path / "s.txt", code=2)
