"""Papers to print (PDF, A4, Chinese fonts embedded).

An output layer above the competition layer: it reads an
:class:`~qisai.competition.events.file.EventFile` and draws 对阵表,
成绩册, the crosstable, team line-up forms and the knock-out bracket and
the rating changes (:mod:`qisai.papers.sheets`), 记录纸 with the move grid
of 7.1/7.5 (:mod:`qisai.papers.slips`) on A4 pages
(:mod:`qisai.papers.pdf`, fpdf2; see there why; texts placed a run at a
time by :mod:`qisai.papers.textout`).  Nothing below imports it;
the command line (``qisai event papers``, ``qisai tournament papers``) and
the arena may.  fpdf2 is imported only when a paper is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qisai.competition.events.file import EventFile

__all__ = ["KINDS", "paper_bytes", "write_paper"]

KINDS = ("pairings", "standings", "crosstable", "slips", "lineups", "bracket", "ratings")
"""The papers :func:`write_paper` makes."""


def write_paper(event: EventFile, kind: str, path: str | Path,
                round_no: int | None = None, *, cut: bool = True) -> int:
    """Draw paper ``kind`` of ``event`` (round ``round_no``, default the
    last paired, where the paper is of a round) and write it to ``path``.

    With ``cut`` (the default) the paper is drawn with the Chinese font's
    faces cut to the common characters (:mod:`qisai.papers.fonts`; cut into
    the cache on the first paper), and drawn again with the whole font
    when it has a character they lack; without, with the whole font.

    Returns the number of pages.  Raises
    :class:`~qisai.papers.pdf.PapersError` for an unknown kind, a kind the
    event has not (a bracket of a Swiss), a round not paired, no Chinese
    font, or a file that cannot be written; other
    :class:`~qisai.competition.errors.CompetitionError` as the event raises.
    """
    from qisai.papers import fonts, sheets
    from qisai.papers import slips as score_sheets
    from qisai.papers.pdf import PapersError, find_font

    makers = {"pairings": sheets.pairings, "standings": sheets.standings,
              "crosstable": sheets.crosstable, "slips": score_sheets.slips,
              "lineups": sheets.lineups, "bracket": sheets.bracket,
              "ratings": sheets.ratings}
    if kind not in makers:
        raise PapersError(f"unknown paper {kind!r}; use one of {', '.join(KINDS)}")
    whole = find_font()
    common = None
    if cut:
        common = fonts.cached(whole)
        if common is None:
            try:
                common = fonts.prepare(whole)
            except PapersError:  # no writable cache: every paper with the whole font
                common = None
    doc = makers[kind](event, round_no, font=common or whole)
    if common is not None and doc.missing():  # a rare character: the whole font has it
        doc = makers[kind](event, round_no, font=whole)
    return doc.save(path)


def paper_bytes(event: EventFile, kind: str, round_no: int | None = None) -> bytes:
    """Draw paper ``kind`` of ``event`` as :func:`write_paper` does and
    return the PDF's bytes (written through a temporary folder).  A
    module-level function of plain arguments, so that a server can draw
    it in a worker process.  Raises as :func:`write_paper`."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="qisai-papers-") as tmp:
        out = Path(tmp) / "paper.pdf"
        write_paper(event, kind, out, round_no)
        return out.read_bytes()
