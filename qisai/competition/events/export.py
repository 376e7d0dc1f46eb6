"""Tables of an event written for other programs: CSV that Excel opens as
UTF-8 (with a byte order mark) and Excel workbooks (.xlsx, openpyxl), so
that a director can hand the standings and pairings on.

:func:`write_tables` takes the :class:`~qisai.competition.events.views.Table`
rows the terminal prints and writes them by the file's suffix.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from pathlib import Path

from qisai.competition.errors import CompetitionError
from qisai.competition.events.views import Table

__all__ = ["SUFFIXES", "write_tables"]

SUFFIXES = (".csv", ".xlsx")


def _cell(text: str) -> str | float:
    """A number stays a number in the workbook (points, tie-breaks); the
    rest is text (``3=``, names)."""
    if re.fullmatch(r"-?\d+(\.\d+)?", text):
        return float(text) if "." in text else int(text)
    return text


def write_tables(tables: Sequence[Table], path: str | Path) -> None:
    """Write ``tables`` to ``path``: ``.csv`` as UTF-8 with a BOM (Excel
    reads Chinese then), the tables one after another, each under its
    title, a blank row between; ``.xlsx`` one sheet a table (its title as
    the first row, the header bold and frozen).  Raises
    :class:`CompetitionError` for another suffix or a file that cannot be
    written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise CompetitionError(f"{path}：请写 .csv 或 .xlsx，不是 {suffix or 'no suffix'!r}",
                               f"{path}: write .csv or .xlsx, not {suffix or 'no suffix'!r}")
    try:
        if suffix == ".csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\r\n")
            for k, t in enumerate(tables):
                if k:
                    w.writerow([])
                if len(tables) > 1:
                    w.writerow([t.title])
                w.writerows([t.header, *t.rows])
                if t.note:
                    w.writerow([t.note])
            path.write_text(buf.getvalue(), encoding="utf-8-sig", newline="")
            return
        from openpyxl import Workbook
        from openpyxl.styles import Font

        wb = Workbook()
        wb.remove(wb.active)
        used: set[str] = set()
        for k, t in enumerate(tables, start=1):
            name = re.sub(r"[\[\]:*?/\\]", " ", t.title)[-31:].strip() or f"表{k}"
            while name in used:
                name = f"{name[:28]}{k}"
            used.add(name)
            ws = wb.create_sheet(name)
            ws.append([t.title])
            ws["A1"].font = Font(bold=True, size=12)
            ws.append(list(t.header))
            for c in ws[2]:
                c.font = Font(bold=True)
            for row in t.rows:
                ws.append([_cell(x) for x in row])
            if t.note:
                ws.append([t.note])
            ws.freeze_panes = "A3"
            for col, head in enumerate(t.header, start=1):
                width = max([len(str(head))] + [len(str(r[col - 1])) for r in t.rows
                                                  if col - 1 < len(r)])
                ws.column_dimensions[ws.cell(2, col).column_letter].width = min(
                    40, 4 + 2 * width)
        wb.save(path)
    except OSError as exc:
        raise CompetitionError(f"{path}：无法写入（{exc.strerror}）",
                               f"{path}: cannot write ({exc.strerror})") from None
