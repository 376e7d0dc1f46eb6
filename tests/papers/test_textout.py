"""The papers' placed texts written a run at a time (issue 29): the pages
come out as fpdf2's own ``text()`` and ``cell()`` write them, read back
from the PDF by pypdf, not from the code that drew them.

* :class:`~qisai.papers.textout.TextWriter` writes a page byte for byte
  as one ``text()`` a text does, and takes its fast path on a plain page
  (this fails loudly when fpdf2 changes what ``text()`` writes or the
  internals the writer uses: see :mod:`qisai.papers.textout`);
* where ``text()`` writes more (a fill colour other than the text's,
  underline), the writer leaves each text to ``text()``;
* a crosstable's rows read back with each player's cells in round order,
  left to right in the page's content as on the page (what a reader or a
  copy and paste gets), the cells those of the games played (7-8 results
  entered by the test, not by the code under test);
* the page header's lines sit where fpdf2's centred cells put them.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from qisai.competition.entries import Entry
from qisai.competition.events.create import EventOptions, create_event
from qisai.competition.events.file import Header
from qisai.papers import fonts, write_paper
from qisai.papers.pdf import Document, FontSpec, PapersError, find_font
from qisai.papers.textout import TextWriter

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDFs back")
fpdf = pytest.importorskip("fpdf", reason="fpdf2 writes the PDFs")
try:
    find_font()
except PapersError:
    pytest.skip("no Chinese font (Debian fonts-noto-cjk)", allow_module_level=True)

PT = 72 / 25.4  # points a mm


def _font() -> FontSpec:
    whole = find_font()
    return fonts.cached(whole) or whole


def _contents(doc: Document) -> list[bytes]:
    """Each page's content stream as fpdf2 holds it before compression,
    the footer's placeholder of the page count (a random name a document)
    made one."""
    pdf = doc.pdf
    return [re.sub(rb"::placeholder:[0-9a-f-]+::", b"::placeholder::", bytes(pdf.pages[n].contents))
            for n in range(1, pdf.page_no() + 1)]


def _table(doc: Document) -> int:
    """Draw a table over several pages with shaded rows and long names
    (shrunk: a face change mid-row); return the number of texts."""
    doc.new_page()
    names = ["王天一", "欧阳" * 9, "郑惟桐", "诸葛" * 20, "许银川"]
    rows = [[str(n), names[n % 5], "广东" if n % 2 else "上海", f"{n % 7}红{'1=0'[n % 3]}", ""]
            for n in range(1, 91)]
    doc.table(["编号", "姓名", "单位", "第1轮", "备注"], rows, size=10, height=7,
              widths=[20.0, 40.0, 30.0, 30.0, doc.width - 120.0],
              shade=[n % 6 == 0 for n in range(90)])
    return 5 + sum(1 for r in rows for c in r if c)


def test_writer_writes_the_pages_texts_as_fpdf2s_text_does(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = Document(Header("写入"), "表", font=_font())
    calls = 0
    real_text = fast.pdf.text

    def counted(*args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        real_text(*args, **kwargs)

    fast.pdf.text = counted
    cells = _table(fast)
    assert fast.writer.direct  # fpdf2's internals are where the writer expects them
    assert calls < cells / 4  # the fast path wrote most texts
    fast_pages = _contents(fast)

    monkeypatch.setattr(TextWriter, "direct", property(lambda self: False))
    slow = Document(Header("写入"), "表", font=_font())
    _table(slow)
    assert len(fast_pages) >= 3
    assert fast_pages == _contents(slow)  # byte for byte: one text() a text


@pytest.mark.parametrize("state", ["fill", "underline"])
def test_writer_leaves_to_text_what_text_writes_more_of(state: str) -> None:
    docs = []
    for via_writer in (True, False):
        doc = Document(Header("写入"), "颜色", font=_font())
        doc.new_page()
        pdf = doc.pdf
        if state == "fill":
            pdf.set_fill_color(200, 200, 200)  # text() wraps each text in its colour
        else:
            pdf.set_font("cjk", "U", 10)
        texts = [(20.0, 60.0 + 6 * n, f"第{n}台 王天一") for n in range(5)]
        if via_writer:
            assert not doc.writer.direct
            doc.writer.write(texts)
        else:
            for x, y, s in texts:
                pdf.text(x, y, s)
        docs.append(_contents(doc)[0])
    assert docs[0] == docs[1]
    assert (b"q 0 g BT" in docs[0]) if state == "fill" else (b" re f" in docs[0])


def _lines(pdf: bytes, page: int) -> list[list[tuple[float, str]]]:
    """The texts of ``page`` by line (top down), each line's texts in the
    order the page's content gives them, with their x in pt."""
    return [line for _y, line in _lines_at(pdf, page)]


def _lines_at(pdf: bytes, page: int) -> list[tuple[float, list[tuple[float, str]]]]:
    """:func:`_lines` with each line's baseline y in pt (to 0.1 pt)."""
    rows: dict[float, list[tuple[float, str]]] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        text = text.replace("\x00", "").strip()
        if text:
            rows.setdefault(round(tm[5] * cm[3] + cm[5], 1), []).append(
                (tm[4] * cm[0] + cm[4], text))

    pypdf.PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return [(y, rows[y]) for y in sorted(rows, reverse=True)]


def test_crosstable_rows_read_back_in_round_order(tmp_path: Any) -> None:
    names = ["王天一", "郑惟桐", "许银川", "蒋川", "赵鑫鑫", "洪智", "孟辰", "谢靖", "汪洋",
             "王廓", "程鸣", "徐超"]
    ef = create_event([Entry(n, rating=2700 - 10 * k) for k, n in enumerate(names)],
                      EventOptions("swiss", rounds=4, seed=5), Header("交叉表读回"))
    t = ef.individual
    marks = {"1-0": ("1", "0"), "0-1": ("0", "1"), "=": ("=", "=")}
    expected: dict[str, list[str]] = {n: [] for n in names}
    for r in range(1, 5):
        t.pair_next_round()
        for k, p in enumerate(t.rounds[-1].pairings):
            if p.is_bye:
                continue
            result = ("1-0", "=", "0-1")[(r + k) % 3]
            t.record_result(r, p.board, result)
            red, black = t.player(p.red).name, t.player(p.black).name
            expected[red].append(f"{p.black}红{marks[result][0]}")
            expected[black].append(f"{p.red}黑{marks[result][1]}")
    out = tmp_path / "x.pdf"
    write_paper(ef, "crosstable", out)
    pdf = out.read_bytes()
    found = 0
    for line in _lines(pdf, 0):
        xs = [x for x, _ in line]
        assert xs == sorted(xs), line  # the content runs left to right, as the page
        texts = [s for _, s in line]
        name = next((s for s in texts if s in expected), None)
        if name is None:
            continue
        found += 1
        cells = texts[texts.index(name) + 1:]
        assert cells[:4] == expected[name], (name, texts)
    assert found == len(names)


def test_page_header_sits_where_centred_cells_put_it() -> None:
    header = Header("全国象棋个人赛", date="2026-12-04", venue="北京", chief_arbiter="裁判长甲",
                    organiser="中国象棋协会")
    doc = Document(header, "第3轮 对阵表", font=_font())
    doc.new_page()
    doc.text("正文")
    ref = fpdf.FPDF(unit="mm", format="A4")  # the header as fpdf2's cells draw it
    ref.set_margins(Document.MARGIN, Document.MARGIN, Document.MARGIN)
    spec = _font()
    ref.add_font("cjk", "", str(spec.path), collection_font_number=spec.index)
    ref.add_font("cjk", "B", str(spec.bold or spec.path), collection_font_number=spec.index)
    ref.add_page()
    for text, style, size, h in (
            (header.name, "B", 15, 8), ("第3轮 对阵表", "B", 12, 7),
            ("日期：2026-12-04    地点：北京    裁判长：裁判长甲    主办：中国象棋协会", "", 9, 5)):
        ref.set_font("cjk", style, size)
        ref.cell(0, h, text, align="C", new_x="LMARGIN", new_y="NEXT")
    ref.ln(2)
    ref.set_font("cjk", "", 10)
    ref.cell(0, 6, "正文", new_x="LMARGIN", new_y="NEXT")
    got = _lines_at(bytes(doc.pdf.output()), 0)[:4]  # the header's three lines, the body's
    want = _lines_at(bytes(ref.output()), 0)[:4]
    assert [[s for _, s in g] for _, g in got] == [[s for _, s in w] for _, w in want]
    assert got[3][1] == [(pytest.approx(want[3][1][0][0], abs=0.02), "正文")]
    for (gy, g), (wy, w) in zip(got, want, strict=True):
        assert gy == pytest.approx(wy, abs=0.11)  # the baselines, the body's after the header
        assert g[0][0] == pytest.approx(w[0][0], abs=0.02)
