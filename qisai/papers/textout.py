"""Many placed texts written at once, exactly as fpdf2's ``text()`` writes them.

A 2,000 x 50 crosstable places 119,000 texts and a round's 记录纸 20,000;
fpdf2's ``FPDF.text(x, y, s)`` costs several microseconds each (its
decorators, the font and colour checks, encoding the string to the font
subset's codes, one append to the page a call: half the crosstable's
time, issue 29).  :class:`TextWriter` writes a run of texts of the face set
last in one append, each as the same ``BT x y Td (codes) Tj ET`` line
``text()`` writes, with each string's codes computed once a document.

This is the one place qisai reaches inside fpdf2 (2.8): the page is
appended to with ``FPDF._out`` (private; fpdf2 has no public call that
writes content), and a string's codes come from the font's
``encode_text``, the call ``text()`` itself makes (it also marks the
glyphs for the subset and records missing ones).  Everything else goes
through fpdf2: the first text of a face on a page is written by ``text()``
itself, so that fpdf2 selects the font on the page and lists it among the
page's resources.  Where fpdf2 would write more than the plain line (the
fill colour differing from the text colour, a text mode other than fill,
underline, strike-through, text annotations being recorded, a core font)
or the internals are not there, each text goes through ``text()``.
``tests/papers/test_textout.py`` checks that the pages come out byte for
byte as ``text()`` writes them, so a change of fpdf2 fails loudly there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["TextWriter"]


class TextWriter:
    """Writes placed texts on an fpdf2 ``FPDF``'s current page in the face
    set last (see the module)."""

    def __init__(self, pdf: Any) -> None:
        """Bind to ``pdf`` (an ``fpdf.FPDF``).  Raises nothing: without the
        internals it needs, :meth:`write` calls ``text()`` for each text."""
        from fpdf.enums import TextMode

        self.pdf = pdf
        self._fill = TextMode.FILL
        self._out = getattr(pdf, "_out", None)
        # font object's id -> text -> the line's end, "(codes) Tj ET": the codes
        # of a character never change once the subset has picked its glyph
        self._codes: dict[int, dict[str, str]] = {}

    @property
    def direct(self) -> bool:
        """Whether :meth:`write` can append the texts itself now (else it
        calls fpdf2's ``text()`` for each)."""
        pdf = self.pdf
        font = pdf.current_font
        return (self._out is not None and font is not None
                and callable(getattr(font, "encode_text", None))
                and bool(getattr(pdf, "is_ttf_font", False))
                and pdf.fill_color == pdf.text_color
                and pdf.text_mode == self._fill
                and not pdf.underline and not pdf.strikethrough
                and not getattr(pdf, "_record_text_quad_points", True))

    def write(self, texts: Sequence[tuple[float, float, str]]) -> None:
        """Draw each ``(x, y, text)`` (mm, the origin at the left end of
        the baseline, as ``text()`` takes it) in the current face, in
        order; empty texts are skipped.  Raises as fpdf2's ``text()``
        (no page, no font)."""
        pdf = self.pdf
        items = [t for t in texts if t[2]]
        if not items:
            return
        if not self.direct:
            for x, y, s in items:
                pdf.text(x, y, s)
            return
        start = 0
        if not pdf.current_font_is_set_on_page:  # fpdf2 selects the font on this page
            x, y, s = items[0]
            pdf.text(x, y, s)
            start = 1
            if len(items) == 1:
                return
        font = pdf.current_font
        codes = self._codes.get(id(font))
        if codes is None:
            codes = self._codes[id(font)] = {}
        k = float(pdf.k)
        h = float(pdf.h)
        lines = []
        for x, y, s in items[start:] if start else items:
            end = codes.get(s)
            if end is None:
                end = codes[s] = f"{font.encode_text(s)} ET"
            lines.append(f"BT {x * k:.2f} {(h - y) * k:.2f} Td {end}")
        assert self._out is not None
        self._out("\n".join(lines))  # _out ends the append with the newline text() ends with
