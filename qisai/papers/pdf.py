"""A4 documents with Chinese text: fonts, the event header, tables.

The library is fpdf2 (PyPI ``fpdf2``): actively maintained (the 2.8
series, py-pdf organisation), pure Python with no system libraries (unlike WeasyPrint, which
needs Pango, or typst, a 30 MB binary), and it embeds TrueType/OpenType
fonts as subsets, TrueType collections (.ttc) included, so a page of
Chinese names carries only the glyphs it uses and prints the same on any
machine.  ReportLab can do the same but cannot read the CFF-flavoured
Noto CJK .ttc that Debian ships; fpdf2 reads it through fontTools.

The font is Noto Sans CJK SC from Debian's ``fonts-noto-cjk``
(``/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc``, face 2 of the
collection is Simplified Chinese); ``QISAI_CJK_FONT`` (and
``QISAI_CJK_FONT_INDEX`` for a collection) names another.  Without one,
:func:`find_font` raises :class:`PapersError` saying what to install.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qisai.competition.errors import CompetitionError
from qisai.papers.textout import TextWriter

if TYPE_CHECKING:
    from qisai.competition.events.file import Header

__all__ = ["FONT_CANDIDATES", "Document", "FontSpec", "Frame", "Label", "PapersError", "find_font"]


class PapersError(CompetitionError):
    """A paper cannot be made: no Chinese font, fpdf2 missing, a kind that
    does not fit the event, a file that cannot be written."""


@dataclass(frozen=True, slots=True)
class FontSpec:
    """A font file and, for a collection (.ttc), the face to use; ``bold``
    is the bold file (the regular one when there is none)."""

    path: Path
    index: int = 0
    bold: Path | None = None


FONT_CANDIDATES: tuple[tuple[str, int, str | None], ...] = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2,
     "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2,
     "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0, None),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0, None),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0, None),
)
"""Where Debian puts Chinese fonts (fonts-noto-cjk, fonts-wqy-microhei,
fonts-wqy-zenhei, fonts-arphic-uming), best first, with the collection
face of Simplified Chinese."""


Label = tuple[float, float, float, float, str, float, bool]
"""A label of a :class:`Frame` as :meth:`Document.frame` takes it: its
cell's ``(x, y, width, height)`` in mm from the frame's top-left corner,
the text, the size in pt and bold or not."""


@dataclass(frozen=True, slots=True)
class Frame:
    """Rules and labels laid out once by :meth:`Document.frame` and drawn
    on any number of pages by :meth:`Document.draw_frame` (the 记录纸's
    move grid and notes: the same on each of a round's 250 pages).
    Lengths in mm from the frame's top-left corner: ``xs`` the vertical
    rules and ``ys`` the horizontal ones (each spanning the other's
    extent), ``shaded`` bands ``(y0, y1)`` filled grey under the rules,
    ``placed`` each label's origin (left end of its baseline), face, size
    and text; ``height`` the extent downwards."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    shaded: tuple[tuple[float, float], ...]
    placed: tuple[tuple[float, float, bool, float, str], ...]
    height: float


def find_font() -> FontSpec:
    """Return the Chinese font to embed: ``QISAI_CJK_FONT`` if set, else
    the first of :data:`FONT_CANDIDATES` present.

    Raises :class:`PapersError` when there is none (or the named file is
    missing), saying which Debian package to install.
    """
    named = os.environ.get("QISAI_CJK_FONT")
    if named:
        p = Path(named)
        if not p.is_file():
            raise PapersError(f"QISAI_CJK_FONT={named}: no such font file")
        return FontSpec(p, int(os.environ.get("QISAI_CJK_FONT_INDEX", "0")))
    for path, index, bold in FONT_CANDIDATES:
        if Path(path).is_file():
            b = Path(bold) if bold and Path(bold).is_file() else None
            return FontSpec(Path(path), index, b)
    raise PapersError("no Chinese font found: install Debian's fonts-noto-cjk "
                      "(apt-get install fonts-noto-cjk) or set QISAI_CJK_FONT to a .ttf/.otf/.ttc")


def _fpdf() -> Any:
    try:
        import fpdf
    except ImportError:  # pragma: no cover - a dependency of qisai
        raise PapersError("PDF papers need fpdf2 (pip install fpdf2)") from None
    return fpdf


class Document:
    """An A4 PDF with the event header on every page, page numbers in the
    footer, and tables that repeat their header row across pages."""

    MARGIN = 12.0

    def __init__(self, header: Header, title: str, *, landscape: bool = False,
                 font: FontSpec | None = None) -> None:
        """Start a document; ``title`` is the paper's name (``第3轮对阵表``).
        Raises :class:`PapersError` without a Chinese font or fpdf2."""
        fpdf = _fpdf()
        spec = font or find_font()
        self.header = header
        self.title = title
        self._widths: dict[tuple[bool, str], float] = {}  # see string_width
        self._head: tuple[list[tuple[bool, float, float, float, str]], float] | None = None
        doc = self

        class _PDF(fpdf.FPDF):  # type: ignore[misc, name-defined]
            def header(self) -> None:
                doc._page_header()

            def footer(self) -> None:
                doc._page_footer()

        self.pdf = _PDF(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.pdf.set_margins(self.MARGIN, self.MARGIN, self.MARGIN)
        self.pdf.set_auto_page_break(True, margin=self.MARGIN + 6)
        self.pdf.set_title(f"{header.name} {title}")
        self.pdf.set_creator("qisai")
        try:
            self.pdf.add_font("cjk", "", str(spec.path), collection_font_number=spec.index)
            self.pdf.add_font("cjk", "B", str(spec.bold or spec.path),
                              collection_font_number=spec.index)
        except Exception as exc:  # fpdf2/fontTools raise several kinds for a bad font
            raise PapersError(f"font {spec.path}: cannot be embedded ({exc})") from None
        self.pdf.set_font("cjk", "", 10)
        self.writer = TextWriter(self.pdf)
        """Writes runs of placed texts (:mod:`qisai.papers.textout`)."""

    # -- page furniture --------------------------------------------------------
    @property
    def width(self) -> float:
        """Usable width of the page in mm."""
        return float(self.pdf.w) - 2 * self.MARGIN

    @property
    def bottom(self) -> float:
        """Lowest y a line may use before the footer."""
        return float(self.pdf.h) - self.MARGIN - 6

    def _page_header(self) -> None:
        # the same lines on every page (a round's 记录纸 has 250): laid out once,
        # each where fpdf2's centred cell of the full width puts it
        pdf = self.pdf
        if self._head is None:
            self._head = self._header_layout()
        lines, end = self._head
        for bold, size, x, y, text in lines:
            pdf.set_font("cjk", "B" if bold else "", size)
            self.writer.write([(x, y, text)])
        pdf.set_xy(float(pdf.l_margin), end)
        pdf.set_font("cjk", "", 10)

    def _header_layout(self) -> tuple[list[tuple[bool, float, float, float, str]], float]:
        """The page header's lines as ``(bold, size, x, y, text)``, each
        text's origin where ``cell(0, height, text, align="C")`` from the
        top margin down puts it, and the y under the header."""
        pdf, h = self.pdf, self.header
        info = "    ".join(x for x in (
            f"日期：{h.date}" if h.date else "", f"地点：{h.venue}" if h.venue else "",
            f"裁判长：{h.chief_arbiter}" if h.chief_arbiter else "",
            f"主办：{h.organiser}" if h.organiser else "") if x)
        left, width = float(pdf.l_margin), float(pdf.w - pdf.r_margin - pdf.l_margin)
        k = float(pdf.k)
        y = float(pdf.t_margin)
        lines = []
        for text, bold, size, height in ((h.name, True, 15.0, 8.0), (self.title, True, 12.0, 7.0),
                                         (info, False, 9.0, 5.0)):
            if height == 5.0 and not info:
                continue
            dx = (width - self.string_width(text, size, bold=bold)) / 2
            lines.append((bold, size, left + dx, y + height / 2 + 0.3 * size / k, text))
            y += height
        return lines, y + 2

    def _page_footer(self) -> None:
        pdf = self.pdf
        pdf.set_y(-self.MARGIN - 4)
        pdf.set_font("cjk", "", 8)
        pdf.cell(0, 5, f"第 {pdf.page_no()} 页 / 共 {{nb}} 页", align="C")

    def new_page(self) -> None:
        """Start a page (header included)."""
        self.pdf.add_page()

    # -- frames ------------------------------------------------------------------
    def frame(self, labels: Sequence[Label], *, xs: Sequence[float] = (),
              ys: Sequence[float] = (), shaded: Sequence[tuple[float, float]] = (),
              align: str = "C") -> Frame:
        """Lay out rules and labels once, to draw on many pages: each
        label placed in its cell where fpdf2's ``cell`` with ``align``
        (``C`` centred, ``L`` left after the cell margin) puts it, a
        centred one shrunk by half points (not below 5 pt) to fit; rules
        at ``xs`` (vertical, from ``ys[0]`` to ``ys[-1]``) and ``ys``
        (horizontal, from ``xs[0]`` to ``xs[-1]``); ``shaded`` bands filled
        grey.  Returns the :class:`Frame` (see :meth:`draw_frame`): a page
        of it costs a line a rule and a placed text a label, where a bordered
        ``cell`` costs ten times as much (the 记录纸 of a 500-player round
        drew 81,500 of them).  Raises :class:`PapersError` for an unknown
        ``align`` or rules on one axis only."""
        if align not in ("C", "L"):
            raise PapersError(f"frame: align {align!r}; use C or L")
        if bool(xs) != bool(ys):
            raise PapersError("frame: rules need both their columns (xs) and rows (ys)")
        k = float(self.pdf.k)
        margin = float(self.pdf.c_margin)
        placed = []
        for x, y, w, h, text, size, bold in labels:
            if not text:
                continue
            s = size
            if align == "C":
                while s > 5 and self.string_width(text, s, bold=bold) > w - 1.5:
                    s -= 0.5
                dx = (w - self.string_width(text, s, bold=bold)) / 2
            else:
                dx = margin
            # the baseline of fpdf2's cell: half the height, then 0.3 of the size
            placed.append((x + dx, y + h / 2 + 0.3 * s / k, bold, s, text))
        bottom = max([y + h for _x, y, _w, h, *_ in labels] + [max(ys, default=0.0)])
        return Frame(tuple(xs), tuple(ys), tuple(shaded), tuple(placed), bottom)

    def draw_frame(self, frame: Frame, left: float, top: float, *,
                   grey: int = 230) -> None:
        """Draw ``frame`` with its top-left corner at (``left``, ``top``) mm
        on the current page: the shaded bands (``grey``), the rules (a line
        each, where bordered cells would draw them) and the labels.  Leaves
        the regular face at 10 pt and the fill colour black."""
        pdf = self.pdf
        if frame.shaded:
            pdf.set_fill_color(grey, grey, grey)
            for y0, y1 in frame.shaded:
                pdf.rect(left + frame.xs[0], top + y0, frame.xs[-1] - frame.xs[0], y1 - y0,
                         style="F")
            pdf.set_fill_color(0, 0, 0)  # the text's colour: no colour change a text
        if frame.xs:
            x0, x1 = left + frame.xs[0], left + frame.xs[-1]
            y0, y1 = top + frame.ys[0], top + frame.ys[-1]
            for y in frame.ys:
                pdf.line(x0, top + y, x1, top + y)
            for x in frame.xs:
                pdf.line(left + x, y0, left + x, y1)
        face: tuple[bool, float] | None = None
        run: list[tuple[float, float, str]] = []  # the labels of one face, in one write
        for x, y, bold, size, text in frame.placed:
            if face != (bold, size):
                if run:
                    self.writer.write(run)
                    run = []
                pdf.set_font("cjk", "B" if bold else "", size)
                face = (bold, size)
            run.append((left + x, top + y, text))
        if run:
            self.writer.write(run)
        pdf.set_font("cjk", "", 10)

    # -- tables ------------------------------------------------------------------
    def string_width(self, text: str, size: float, *, bold: bool = False) -> float:
        """Width of ``text`` in mm at ``size`` pt in the regular (or bold)
        face, as fpdf2's ``get_string_width`` measures it (the sum of the
        glyphs' advances; the face's widths are linear in the size).  Each
        text is measured once a document: a 500-entry table measures
        thousands of cells, each with the same few names and marks."""
        key = (bold, text)
        per_pt = self._widths.get(key)
        if per_pt is None:
            font = self.pdf.fonts["cjkB" if bold else "cjk"]
            per_pt = sum(font.cw[ord(c)] for c in text) * 0.001 / self.pdf.k
            self._widths[key] = per_pt
        return float(per_pt * size)

    def column_widths(self, header: Sequence[str], rows: Sequence[Sequence[str]],
                      size: float, weights: Sequence[float] | None = None) -> list[float]:
        """Return column widths that fit the page: each column as wide as
        its widest cell (at ``size`` pt), scaled to the usable width."""
        natural = []
        for i, h in enumerate(header):
            cells = {r[i] for r in rows if i < len(r)}  # each text measured once
            cells.add(h)
            natural.append(max(self.string_width(c, size) for c in cells) + 3)
        if weights:
            natural = [n * w for n, w in zip(natural, weights, strict=True)]
        scale = self.width / sum(natural)
        return [n * scale for n in natural]

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]], *,
              size: float = 10, height: float = 7.0,
              widths: Sequence[float] | None = None,
              shade: Sequence[bool] | None = None) -> None:
        """Draw a bordered table, header row shaded and repeated on every
        page; ``shade`` marks body rows to shade (a bye, say).  Cells too
        long for their column are shrunk to fit (by half points, not below
        5 pt).

        The grid is drawn as lines (one per row, one per column and page)
        and each cell's text placed where fpdf2's centred ``cell`` would put
        it: a cell per ``cell`` call costs ten times as much, and a 2,000 x
        50 crosstable has 114,000 of them.  Each text is fitted to its
        column once (a crosstable repeats its texts), the face set only
        when it changes, the fill colour put back to the text's after
        shading (fpdf2 wraps every text in a colour change otherwise), and
        a row's texts of one face written at once (:attr:`writer`)."""
        pdf = self.pdf
        w = list(widths) if widths else self.column_widths(header, rows, size)
        ncols = len(header)
        left = float(pdf.l_margin)
        edges = [left]
        for width in w:
            edges.append(edges[-1] + width)
        right = edges[-1]
        bottom = self.bottom
        k = float(pdf.k)
        string_width = self.string_width
        line = pdf.line
        # per column width: text -> (face, size, offsets of its origin from the
        # cell's top left); a crosstable's round columns share one width and
        # repeat their texts
        by_width: dict[float, dict[str, tuple[bool, float, float, float]]] = {}
        fits = [by_width.setdefault(width, {}) for width in w]

        def fit(c: str, bold: bool, col: int) -> tuple[bool, float, float, float]:
            room = w[col] - 1.5
            per_pt = string_width(c, 1.0, bold=bold)  # widths are linear in the size
            s = size
            if per_pt * s > room:  # down by half points until it fits, not below 5
                s = max(5.0, size - 0.5 * math.ceil((per_pt * size - room) / (0.5 * per_pt)))
                while s < size and per_pt * (s + 0.5) <= room:  # rounding at the edge
                    s += 0.5
                while s > 5 and per_pt * s > room:
                    s -= 0.5
            # the baseline of fpdf2's cell: half the height, then 0.3 of the size
            return (bold, s, (w[col] - per_pt * s) / 2, height / 2 + 0.3 * s / k)

        face: tuple[bool, float] | None = None  # the face and size set last
        write = self.writer.write

        def texts(cells: Sequence[str], y: float, bold: bool) -> None:
            # a row's texts in one write a face (a shrunk cell changes the size)
            nonlocal face
            run: list[tuple[float, float, str]] = []
            for col, c in enumerate(cells[:ncols]):
                if not c:
                    continue
                got = fits[col].get(c)
                if got is None or got[0] is not bold:
                    got = fit(c, bold, col)
                    if not bold:  # the body's texts repeat; the header's do not
                        fits[col][c] = got
                if got[:2] != face:
                    if run:
                        write(run)
                        run = []
                    pdf.set_font("cjk", "B" if bold else "", got[1])
                    face = got[:2]
                run.append((edges[col] + got[2], y + got[3], c))
            if run:
                write(run)

        def shaded(y: float, grey: int) -> None:
            pdf.set_fill_color(grey, grey, grey)
            pdf.rect(left, y, right - left, height, style="F")
            pdf.set_fill_color(0, 0, 0)  # the text's colour: no colour change a text

        def head(y: float) -> float:
            shaded(y, 225)
            line(left, y, right, y)
            texts(header, y, True)
            line(left, y + height, right, y + height)
            return y + height

        top = float(pdf.get_y())  # where the table's part on this page starts
        y = head(top)
        for n, r in enumerate(rows):
            if y + height > bottom:
                for x in edges:  # the vertical rules of this page's part
                    line(x, top, x, y)
                pdf.set_y(y)
                pdf.add_page()
                face = None  # the page header set its own
                top = float(pdf.get_y())
                y = head(top)
            if shade and shade[n]:
                shaded(y, 242)
                line(left, y, right, y)  # the shading covered the rule above
            texts(r, y, False)
            y += height
            line(left, y, right, y)
        for x in edges:
            line(x, top, x, y)
        pdf.set_y(y)
        pdf.set_font("cjk", "", 10)

    def text(self, text: str, size: float = 10, *, bold: bool = False, height: float = 6,
             align: str = "L") -> None:
        """Write a line of text, wrapped to the page's width when longer."""
        self.pdf.set_font("cjk", "B" if bold else "", size)
        if self.string_width(text, size, bold=bold) > self.width:
            self.pdf.multi_cell(0, height * 0.8, text, align=align, new_x="LMARGIN",
                                new_y="NEXT")
        else:
            self.pdf.cell(0, height, text, align=align, new_x="LMARGIN", new_y="NEXT")
        self.pdf.set_font("cjk", "", 10)

    def signatures(self, labels: Sequence[str], size: float = 10) -> None:
        """Write signature lines side by side: ``label：________``."""
        pdf = self.pdf
        pdf.set_font("cjk", "", size)
        cell = self.width / len(labels)
        for label in labels:
            pdf.cell(cell, 9, f"{label}：________________", align="L")
        pdf.ln(9)

    def missing(self) -> set[str]:
        """The characters drawn so far that the font has no glyph for (in
        either face)."""
        out: set[str] = set()
        for key in ("cjk", "cjkB"):
            font = self.pdf.fonts.get(key)
            out.update(chr(c) for c in getattr(font, "missing_glyphs", ()))
        return out

    def save(self, path: str | Path) -> int:
        """Write the PDF to ``path``; return its page count.  Raises
        :class:`PapersError` if it cannot be written."""
        pages = int(self.pdf.page_no())
        try:
            self.pdf.output(str(path))
        except OSError as exc:
            raise PapersError(f"{path}: cannot write ({exc.strerror})") from None
        return pages
