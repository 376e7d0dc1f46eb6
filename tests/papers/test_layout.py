"""The papers' layout after issue 29's speed-ups (a frame laid out once and
drawn a page at a time; tables of placed texts): read back from the PDF
by pypdf (each text's position and size) and from poppler's rendering
(pdftoppm: the rules a reader sees), not from the code that drew them.

* a :class:`~qisai.papers.pdf.Frame` label sits where fpdf2's own ``cell``
  puts the same text (centred and left-aligned);
* the 记录纸 (7.1/7.5) has one move grid a game page: 31 rows of rules
  (the header and 30 rounds) by two columns of five, the headers
  回合/红方/用时/黑方/用时 twice, the rounds 1-60, the notes of 7.5/7.1/10.1;
  a bye has no sheet;
* a table fits a long Chinese name into its column (shrunk by half points,
  not below 5 pt), repeats its header on every page and keeps every cell
  inside its column, shaded rows included.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from qisai.competition.entries import Entry
from qisai.competition.events.create import EventOptions, create_event
from qisai.competition.events.file import EventFile, Header
from qisai.competition.events.views import round_rows
from qisai.papers import fonts, write_paper
from qisai.papers.pdf import Document, FontSpec, PapersError, find_font
from qisai.papers.slips import GRID_ROUNDS

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDFs back")
pytest.importorskip("fpdf", reason="fpdf2 writes the PDFs")
try:
    find_font()
except PapersError:
    pytest.skip("no Chinese font (Debian fonts-noto-cjk)", allow_module_level=True)

PT = 72 / 25.4  # points a mm


def _font() -> FontSpec:
    """The papers' cut faces when cut already (fast), else the whole font."""
    whole = find_font()
    return fonts.cached(whole) or whole


def placed(pdf: bytes, page: int = 0) -> list[tuple[str, float, float, float]]:
    """Each text drawn on ``page`` as (text, x, y, size): x and y of its
    origin in pt from the page's bottom left, as pypdf reads them."""
    out: list[tuple[str, float, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        text = text.replace("\x00", "").strip()  # fpdf2's two-byte codes
        if text:
            out.append((text, tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], size))

    pypdf.PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return out


def test_frame_labels_sit_where_fpdf2s_cell_puts_them() -> None:
    cells = [(20.0, 60.0, 30.0, 5.6, "回合", 9.0, True), (50.0, 60.0, 40.0, 5.6, "红方", 9.0, True),
             (20.0, 65.6, 30.0, 5.6, "17", 8.5, False), (90.0, 65.6, 25.0, 7.0, "用时", 11.0, False)]
    drawn: dict[str, dict[str, tuple[float, float, float]]] = {}
    for align in ("C", "L"):
        by_cell = Document(Header("排版"), "格子", font=_font())
        by_cell.new_page()
        for x, y, w, h, text, size, bold in cells:
            by_cell.pdf.set_font("cjk", "B" if bold else "", size)
            by_cell.pdf.set_xy(x, y)
            by_cell.pdf.cell(w, h, text, align=align)
        by_frame = Document(Header("排版"), "格子", font=_font())
        by_frame.new_page()
        frame = by_frame.frame([(x - 20, y - 60, w, h, t, s, b) for x, y, w, h, t, s, b in cells],
                               align=align)
        by_frame.draw_frame(frame, 20, 60)
        for name, doc in (("cell", by_cell), ("frame", by_frame)):
            drawn[name] = {t: (x, y, s) for t, x, y, s in placed(bytes(doc.pdf.output()))}
        for _x, _y, _w, _h, text, size, _b in cells:
            cx, cy, cs = drawn["cell"][text]
            fx, fy, fs = drawn["frame"][text]
            assert (fs, cs) == (size, size)
            assert abs(fx - cx) < 0.02 and abs(fy - cy) < 0.02, (align, text)


def test_frame_refuses_bad_layouts() -> None:
    doc = Document(Header("排版"), "格子", font=_font())
    with pytest.raises(PapersError, match="align"):
        doc.frame([], align="R")
    with pytest.raises(PapersError, match="rules"):
        doc.frame([], xs=[0, 10])


def _rules(png: Path) -> tuple[list[int], list[int]]:
    """The horizontal rules (y) longer than 80% of the page's usable width,
    then the vertical ones (x) spanning 90% of the height between the first
    and the last horizontal one: each a run of dark pixel rows or columns."""
    from PIL import Image

    img = Image.open(png).convert("L")
    w, h = img.size
    px = img.load()
    assert px is not None

    def runs(ix: list[int]) -> list[int]:
        # the first index of each run of consecutive indices
        return [i for k, i in enumerate(ix) if k == 0 or i - ix[k - 1] > 1]

    wide = 0.8 * w * 186 / 210
    rows = runs([y for y in range(h) if sum(px[x, y] < 160 for x in range(w)) > wide])
    top, bottom = rows[0], rows[-1]
    cols = runs([x for x in range(w)
                 if sum(px[x, y] < 160 for y in range(top, bottom + 1)) > 0.9 * (bottom - top)])
    return rows, cols


@pytest.mark.skipif(shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
                    reason="pdftoppm/pdftotext (poppler-utils) render and read the sheets")
def test_score_sheets_one_grid_a_game_page(tmp_path: Path) -> None:
    names = ["王天一", "郑惟桐", "许银川", "蒋川", "赵鑫鑫", "洪智", "孟辰", "谢靖", "汪洋"]
    ef = create_event([Entry(n, club="队", rating=2700 - 10 * k) for k, n in enumerate(names)],
                      EventOptions("swiss", rounds=3, seed=3), Header("记录纸测试"))
    ef.individual.pair_next_round()
    games = [b for b in round_rows(ef, 1) if not b.is_bye]
    assert len(games) == 4  # nine entries: four games and a bye
    out = tmp_path / "slips.pdf"
    assert write_paper(ef, "slips", out, 1) == len(games)  # a page a game, none for the bye
    for page, board in enumerate(games, start=1):
        text = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page),
                               str(out), "-"], check=True, capture_output=True,
                              text=True).stdout
        lines = text.splitlines()
        head = [x for x in lines if x.split()[:1] == ["回合"]]
        assert len(head) == 1 and head[0].split() == ["回合", "红方", "用时", "黑方", "用时"] * 2
        assert f"第 {board.board} 台" in text
        row = next(x for x in lines if "红方：" in x and "黑方：" in x)
        assert row.index(board.red_name) < row.index("黑方：") < row.index(board.black_name)
        numbers = [int(x) for x in text.split() if x.isdigit() and int(x) <= GRID_ROUNDS]
        assert set(range(1, GRID_ROUNDS + 1)) <= set(numbers)
        # the rounds run down the first column, then the second: 1 and 31 share a line
        assert any(x.split()[:2] == ["1", "31"] for x in lines)
        for s in ("7.5 记录示例", "7.1 双方对每一回合都要逐着记录", "结果：", "□ 和棋",
                  "红方签字", "黑方签字", "裁判签字", "10.1 对局终了后"):
            assert s in text, (page, s)
        subprocess.run(["pdftoppm", "-gray", "-r", "100", "-f", str(page), "-l", str(page),
                        "-png", str(out), str(tmp_path / f"p{page}")], check=True)
        png = next(tmp_path.glob(f"p{page}*.png"))
        rows, cols = _rules(png)
        # 31 rows (header + 30 rounds) need 32 rules; two columns of five, 11
        assert len(rows) == GRID_ROUNDS // 2 + 2, rows
        assert len(cols) == 11, cols
        gaps = {rows[k + 1] - rows[k] for k in range(len(rows) - 1)}
        assert max(gaps) - min(gaps) <= 1  # evenly spaced rows
        assert cols[5] - cols[0] == pytest.approx(cols[10] - cols[5], abs=1)  # equal halves


def test_table_fits_long_chinese_names_and_repeats_its_header(tmp_path: Path) -> None:
    doc = Document(Header("长名测试"), "成绩", font=_font())
    doc.new_page()
    widths = [20.0, 40.0, 30.0, doc.width - 90.0]
    long_names = ["欧阳" * 12, "司马" * 6 + "长风", "诸葛" * 30]
    rows = [[str(n), long_names[n % 3] if n % 7 == 0 else f"棋手{n:03d}", "广东省棋类协会" * 2,
             "第3轮后退出（20.4）" if n % 11 == 0 else ""] for n in range(1, 121)]
    doc.table(["编号", "姓名", "单位", "备注"], rows, size=10, height=7,
              widths=widths, shade=[n % 5 == 0 for n in range(120)])
    pdf = bytes(doc.pdf.output())
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert pages >= 3
    left = doc.MARGIN
    edges = [left]
    for w in widths:
        edges.append(edges[-1] + w)
    found: set[str] = set()
    for page in range(pages):
        texts = placed(pdf, page)
        assert sum(t == "姓名" for t, *_ in texts) == 1  # the header on every page
        for text, x, _y, size in texts:
            if not any(text == r[1] for r in rows):
                continue
            found.add(text)
            width = doc.string_width(text, size)
            col = 1
            x_mm = x / PT
            assert edges[col] <= x_mm + 0.01 and x_mm + width <= edges[col + 1] + 0.01 or \
                size == 5, (text, size)
            # the largest half-point size from 10 down that fits (1.5 mm of room), or 5 pt
            room = widths[col] - 1.5
            assert size == 5 or doc.string_width(text, size) <= room
            assert size == 10 or doc.string_width(text, size + 0.5) > room
            assert x_mm == pytest.approx(edges[col] + (widths[col] - width) / 2, abs=0.02)
    assert set(long_names) <= found  # each long name drawn, whole
    assert long_names[2] in found and any(
        t == long_names[2] and s == 5 for p in range(pages) for t, *_, s in placed(pdf, p))


def test_crosstable_of_an_odd_field_keeps_its_cells(tmp_path: Path) -> None:
    """The crosstable's cells (opponent, colour, result; 轮空) read back in
    each player's row, a shaded bye on the pairings."""
    names = ["王天一", "郑惟桐", "许银川", "蒋川", "赵鑫鑫"]
    ef = create_event([Entry(n, rating=2700 - 10 * k) for k, n in enumerate(names)],
                      EventOptions("swiss", rounds=3, seed=1), Header("交叉表测试"))
    t = ef.individual
    for r in (1, 2):
        t.pair_next_round()
        for p in t.rounds[-1].pairings:
            if not p.is_bye:
                t.record_result(r, p.board, "1-0" if p.board == 1 else "=")
    out = tmp_path / "x.pdf"
    write_paper(ef, "crosstable", out)
    texts = placed(out.read_bytes())
    by_line: dict[float, list[str]] = {}
    for text, _x, y, _s in texts:
        by_line.setdefault(round(y, 1), []).append(text)
    reloaded = EventFile.from_dict(ef.to_dict())
    for rec in reloaded.individual.rounds:
        for p in rec.pairings:
            line = next(v for v in by_line.values() if t.player(p.red).name in v)
            if p.black is None:
                assert "轮空" in line
                continue
            g = rec.results[p.board]
            mark = {"1-0": "1", "=-=": "="}[g.result.value]
            assert f"{p.black}红{mark}" in line
