"""Papers to print (issue 16, desk item 5): A4 PDFs with Chinese fonts
embedded, read back by text extraction (pypdf) and rendered to PNG
(pdftoppm) to see that a page is not blank."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.competition.entries import Entry, read_entries
from qisai.competition.events.create import EventOptions, create_event
from qisai.competition.events.file import EventFile, Header
from qisai.competition.events.views import round_rows
from qisai.papers import write_paper
from qisai.papers.pdf import PapersError, find_font

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDFs back")
pytest.importorskip("fpdf", reason="fpdf2 writes the PDFs")
try:
    find_font()
except PapersError:
    pytest.skip("no Chinese font (Debian fonts-noto-cjk)", allow_module_level=True)

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
HEADER = dict(date="2026年12月1日-3日", venue="杭州棋院", chief_arbiter="张裁判")
runner = CliRunner()


def text_of(pdf: Path) -> str:
    """The PDF's text: pdftotext (poppler) when installed, else pypdf (which
    reads fpdf2's two-byte glyph codes with a NUL before each character)."""
    if shutil.which("pdftotext"):
        return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                              capture_output=True, text=True).stdout
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages
                     ).replace("\x00", "")


def swiss(tmp_path: Path, game: str = "xiangqi") -> EventFile:
    """Five entries (so a bye), two rounds played: Red wins board 1, the rest drawn."""
    entries = [Entry(n, club=c, rating=r) for n, c, r in
               (("王天一", "杭州", 2700), ("郑惟桐", "四川", 2690), ("许银川", "广东", 2650),
                ("蒋川", "北京", 2620), ("赵鑫鑫", "浙江", 2600))]
    ef = create_event(entries, EventOptions("swiss", rounds=3, seed=1),
                      Header("全国象棋个人赛", game=game, **HEADER))
    t = ef.individual
    for r in (1, 2):
        t.pair_next_round()
        for p in t.rounds[-1].pairings:
            if not p.is_bye:
                t.record_result(r, p.board, "1-0" if p.board == 1 else "=")
    ef.save(tmp_path / "swiss.json")
    return ef


def test_pairings_have_header_boards_colours_results_and_bye(tmp_path: Path) -> None:
    ef = swiss(tmp_path)
    out = tmp_path / "p.pdf"
    assert write_paper(ef, "pairings", out, 2) == 1
    text = text_of(out)
    for s in ("全国象棋个人赛", "第2轮 对阵表", "杭州棋院", "裁判长：张裁判", "2026年12月1日",
              "红方", "黑方", "台次", "轮空", "1-0", "="):
        assert s in text, s
    for row in round_rows(ef, 2):
        assert row.red_name in text and (row.is_bye or row.black_name in text)
    page = pypdf.PdfReader(out).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (595, 842)
    assert b"/FontFile" in out.read_bytes()  # the font is embedded, not referenced


def test_go_colours_are_black_and_white(tmp_path: Path) -> None:
    ef = swiss(tmp_path, game="go")
    out = tmp_path / "go.pdf"
    write_paper(ef, "pairings", out)
    text = text_of(out)
    assert "黑方" in text and "白方" in text and "红方" not in text


def test_standings_carry_every_tiebreak_column(tmp_path: Path) -> None:
    ef = swiss(tmp_path)
    out = tmp_path / "s.pdf"
    write_paper(ef, "standings", out)
    text = text_of(out)
    for c in ef.individual.tiebreaks:
        assert c.chinese in text
    for s in ef.standings():
        assert ef.individual.player(s.entry).name in text
    assert "裁判长" in text and "第2轮后" in text


def test_crosstable_shows_opponent_colour_result_and_bye(tmp_path: Path) -> None:
    ef = swiss(tmp_path)
    out = tmp_path / "x.pdf"
    write_paper(ef, "crosstable", out)
    text = text_of(out).replace(" ", "")
    rec = ef.individual.rounds[0]
    board1 = rec.pairings[0] if not rec.pairings[0].is_bye else rec.pairings[1]
    assert f"{board1.black}红1" in text and f"{board1.red}黑0" in text  # board 1: Red won
    assert "轮空" in text and "第1轮" in text and "第2轮" in text


def test_slips_one_per_board_with_three_signatures(tmp_path: Path) -> None:
    ef = swiss(tmp_path)
    out = tmp_path / "slips.pdf"
    write_paper(ef, "slips", out, 1)
    text = text_of(out)
    boards = [r for r in round_rows(ef, 1) if not r.is_bye]
    assert text.count("裁判签字") == len(boards) == text.count("红方签字")
    assert text.count("黑方签字") == len(boards)
    assert "10.1" in text and "用时" in text and "犯规" in text


def test_lineups_and_team_pairings(tmp_path: Path) -> None:
    ef = create_event(read_entries(DATA / "teams.csv"),
                      EventOptions("team-round-robin", boards=2), Header("团体赛", **HEADER))
    ef.event.pair_next_round()
    out = tmp_path / "l.pdf"
    pages = write_paper(ef, "lineups", out)
    text = text_of(out)
    assert pages == 2  # two matches, a form a team, two forms a page
    for team in ("北京队", "广东队", "浙江队", "上海队"):
        assert team in text
    assert "第1台" in text and "第2台" in text and "12.2" in text and "领队签字" in text
    write_paper(ef, "pairings", out)
    text = text_of(out)
    assert "1.1" in text and "1.2" in text and "红方队" in text
    with pytest.raises(PapersError, match="bracket"):
        write_paper(ef, "bracket", out)
    for m in ef.event.team_tournament().rounds[0]:
        for b in (1, 2):
            ef.event.record_board(1, m.board, b, "1-0" if b == 1 else "=")
    write_paper(ef, "standings", out)
    text = text_of(out)
    # 14.2: board 1 won by the first-listed team (Red), board 2 drawn: 局分 1.5:0.5
    assert "场分" in text and "局分" in text and "1.5" in text and "0.5" in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) missing")
def test_bracket_picture_is_drawn(tmp_path: Path) -> None:
    from PIL import Image

    ef = create_event(read_entries(DATA / "players_zh.csv"), EventOptions("knockout"),
                      Header("淘汰赛", **HEADER))
    ef.event.pair_next_round()
    ef.event.record_game(1, 0, 1, "1-0")
    out = tmp_path / "b.pdf"
    write_paper(ef, "slips", out)  # match 1 is decided: no slip for it
    assert text_of(out).count("裁判签字") == 3
    write_paper(ef, "bracket", out)
    text = text_of(out)
    assert "四分之一决赛" in text and "决赛" in text and "冠军" in text
    assert all(p.name in text for p in ef.event.players)
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(out),
                    str(tmp_path / "b")], check=True)
    png = next(tmp_path.glob("b*.png"))
    img = Image.open(png).convert("L")
    dark = sum(img.histogram()[:128])
    assert img.width > img.height  # landscape
    assert dark > 0.005 * img.width * img.height  # boxes, lines and names, not blank


def test_unknown_kind_and_missing_font(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ef = swiss(tmp_path)
    with pytest.raises(PapersError, match="unknown paper"):
        write_paper(ef, "menu", tmp_path / "m.pdf")
    monkeypatch.setenv("QISAI_CJK_FONT", str(tmp_path / "none.ttc"))
    with pytest.raises(PapersError, match="no such font file"):
        write_paper(ef, "pairings", tmp_path / "m.pdf")
    monkeypatch.delenv("QISAI_CJK_FONT")
    monkeypatch.setattr("qisai.papers.pdf.FONT_CANDIDATES", ())
    with pytest.raises(PapersError, match="fonts-noto-cjk"):
        write_paper(ef, "pairings", tmp_path / "m.pdf")


def test_cli_papers_for_event_and_tournament_files(tmp_path: Path) -> None:
    swiss(tmp_path)
    res = runner.invoke(app, ["event", "papers", str(tmp_path / "swiss.json"), "--kind",
                              "crosstable", "-o", str(tmp_path / "c.pdf")])
    assert res.exit_code == 0, res.output
    # a file of `qisai tournament create` prints too
    entries = tmp_path / "e.csv"
    entries.write_text("name,rating\n甲,2000\n乙,1900\n丙,1800\n丁,1700\n", encoding="utf-8")
    ev = tmp_path / "t.json"
    assert runner.invoke(app, ["tournament", "create", str(ev), "--entries", str(entries),
                               "--rounds", "2"]).exit_code == 0
    assert runner.invoke(app, ["tournament", "pair", str(ev)]).exit_code == 0
    res = runner.invoke(app, ["tournament", "papers", str(ev), "--kind", "slips", "-o",
                              str(tmp_path / "s.pdf")])
    assert res.exit_code == 0, res.output
    assert "甲" in text_of(tmp_path / "s.pdf")
    bad = runner.invoke(app, ["tournament", "papers", str(ev), "--kind", "bracket", "-o",
                              str(tmp_path / "b.pdf")])
    assert bad.exit_code == 2 and "bracket" in bad.output
