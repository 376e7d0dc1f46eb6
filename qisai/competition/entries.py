"""Entries in bulk (报名表): read and write CSV and Excel (.xlsx) entry lists.

A sheet has one entry a row under a header row.  Headers may be Chinese or
English, in any order and any case; columns that are not known are ignored
(a 备注 column, say):

============  ==========================================  ==================
field         headers                                     value
============  ==========================================  ==================
``name``      姓名, 棋手, 选手, name, player                required, unique
``club``      单位, 代表单位, 俱乐部, club                    text
``team``      队名, 队, 代表队, team                         text (team events:
                                                          the roster, in
                                                          board order, 12.1)
``rating``    等级分, rating, elo                           whole number >= 0
``sex``       性别, sex, gender                             男/女, M/F
``group``     组别, group, section                          text
``rank``      段位, 级位, rank                              Go rank: 5d, 3k,
                                                          2段, 10级
``title``     称号, title                                   text
``federation`` 省市, 地区, federation                        text
============  ==========================================  ==================

Every row is checked and all the problems are reported at once, each with
the file, the row (as the spreadsheet numbers it, the header being row 1),
the column and what is wrong (:class:`EntriesError`).

Excel goes through openpyxl (maintained, pure Python, reads and writes
.xlsx without Excel); it is imported only when an .xlsx file is used.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from qisai.bilingual import en_of, zh_of
from qisai.competition.errors import EventFileError
from qisai.competition.pairing.mcmahon import rank_value
from qisai.competition.tournament import Player

__all__ = ["FIELDS", "Entry", "EntriesError", "EntryProblem", "read_entries", "write_entries",
           "entries_csv"]

FIELDS: dict[str, tuple[str, ...]] = {
    "name": ("姓名", "棋手", "选手", "name", "player"),
    "club": ("单位", "代表单位", "俱乐部", "club"),
    "team": ("队名", "队", "代表队", "team"),
    "rating": ("等级分", "rating", "elo"),
    "sex": ("性别", "sex", "gender"),
    "group": ("组别", "group", "section"),
    "rank": ("段位", "级位", "rank"),
    "title": ("称号", "title"),
    "federation": ("省市", "地区", "federation"),
}
"""Each field and the headers (Chinese first) that name it."""

_CHINESE_HEADER = {f: names[0] for f, names in FIELDS.items()}
_ENGLISH_HEADER = {f: f for f in FIELDS}
_SEX = {"男": "男", "m": "男", "male": "男", "女": "女", "f": "女", "female": "女"}


@dataclass(frozen=True, slots=True)
class EntryProblem:
    """One thing wrong in an entries file: where (file, row, column) and what."""

    file: str
    row: int
    column: str
    message: str
    """What is wrong, in English."""
    zh: str = ""
    """What is wrong, in Chinese (issue 32.8)."""

    def __str__(self) -> str:
        where = f"{self.file}, row {self.row}" + (f", column {self.column}" if self.column else "")
        return f"{where}: {self.message}"

    def text_zh(self) -> str:
        """Return the problem in Chinese: ``文件，第 N 行，列 X：说明``."""
        where = f"{self.file}，第 {self.row} 行" + (f"，{self.column} 列" if self.column else "")
        return f"{where}：{self.zh or self.message}"


class EntriesError(EventFileError):
    """An entries file has bad rows; :attr:`problems` lists each one (file,
    row, column, what is wrong) and the message shows them one a line."""

    def __init__(self, problems: Sequence[EntryProblem]) -> None:
        self.problems = list(problems)
        shown = self.problems[:20]
        more = len(self.problems) - len(shown)
        zh = [p.text_zh() for p in shown] + ([f"……另有 {more} 处"] if more else [])
        en = [str(p) for p in shown] + ([f"... and {more} more"] if more else [])
        super().__init__("\n".join(zh), "\n".join(en))


@dataclass(slots=True)
class Entry:
    """An entry as read from a sheet; :attr:`row` is its row in the file."""

    name: str
    club: str = ""
    team: str = ""
    rating: int = 0
    sex: str = ""
    group: str = ""
    rank: str = ""
    title: str = ""
    federation: str = ""
    row: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    def player(self) -> Player:
        """Return the competition layer's :class:`Player` for this entry."""
        return Player(self.name, self.rating, self.title, self.club, self.team,
                      self.federation)

    def value(self, key: str) -> str:
        """Return field ``key`` as text (the rating as digits, 0 as empty)."""
        v = getattr(self, key)
        if key == "rating":
            return str(v) if v else ""
        return str(v)


def _field_of(header: str) -> str | None:
    key = header.strip().lower()
    for f, names in FIELDS.items():
        if key in (n.lower() for n in names):
            return f
    return None


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _rows_csv(path: Path) -> list[list[str]]:
    raw = path.read_bytes()
    for enc in ("utf-8-sig", "gb18030"):  # Excel in China saves CSV as GBK
        try:
            text = raw.decode(enc)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - gb18030 decodes any byte string
        raise EntriesError([EntryProblem(str(path), 0, "", "not UTF-8 or GB18030 text",
                                         zh="不是 UTF-8 或 GB18030 文本")])
    return [[c.strip() for c in row] for row in csv.reader(io.StringIO(text))]


def _rows_xlsx(path: Path) -> list[list[str]]:
    try:
        import openpyxl
    except ImportError:  # pragma: no cover - a dependency of qisai
        raise EventFileError(f"{path}：读 .xlsx 需要 openpyxl（pip install openpyxl）",
                             f"{path}: reading .xlsx needs openpyxl (pip install openpyxl)") \
            from None
    try:
        wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a bad file
        raise EventFileError(f"{path}：不是 Excel .xlsx 工作簿（{exc}）",
                             f"{path}: not an Excel .xlsx workbook ({exc})") from None
    try:
        ws = wb.worksheets[0]
        return [[_cell(v) for v in row] for row in ws.iter_rows(values_only=True)]
    finally:
        wb.close()


def read_entries(path: str | Path) -> list[Entry]:
    """Read an entries file: ``.xlsx`` (first sheet) or CSV (UTF-8, or GBK as
    Excel writes it).  Blank rows are skipped.

    Returns the entries in file order.  Raises :class:`EventFileError` if the
    file cannot be read and :class:`EntriesError` listing every bad row
    (missing or duplicate name, a rating that is not a whole number >= 0, an
    unreadable sex or Go rank, no name column).
    """
    p = Path(path)
    if not p.is_file():
        raise EventFileError(f"{p}：没有这个文件",
                             f"{p}: no such file")
    try:
        rows = _rows_xlsx(p) if p.suffix.lower() in (".xlsx", ".xlsm") else _rows_csv(p)
    except OSError as exc:
        raise EventFileError(f"{p}：无法读取（{exc.strerror}）",
                             f"{p}: cannot read ({exc.strerror})") from None
    while rows and not any(rows[0]):
        rows.pop(0)
    if not rows:
        raise EntriesError([EntryProblem(str(p), 1, "", "the file is empty",
                                         zh="文件是空的")])
    header = rows[0]
    columns: dict[int, str] = {}
    problems: list[EntryProblem] = []
    for k, h in enumerate(header):
        f = _field_of(h)
        if f is None:
            continue
        if f in columns.values():
            problems.append(EntryProblem(str(p), 1, h, f"a second column for {f}",
                                         zh=f"{f} 的第二个列"))
        columns[k] = f
    if "name" not in columns.values():
        raise EntriesError([EntryProblem(
            str(p), 1, "", "the header needs a name column (姓名 or name); found "
            + ", ".join(repr(h) for h in header if h),
                                         zh="表头须有姓名列（姓名 或 name）；现有 " + "、".join(repr(h) for h in header if h))])
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(row):
            continue
        values: dict[str, str] = {}
        extra: dict[str, str] = {}
        for k, cell in enumerate(row):
            if k in columns:
                values[columns[k]] = cell
            elif k < len(header) and header[k] and cell:
                extra[header[k]] = cell
        heading = {f: header[k] for k, f in columns.items()}
        bad = len(problems)
        name = values.get("name", "")
        if not name:
            problems.append(EntryProblem(str(p), n, heading["name"], "the name is empty",
                                         zh="姓名为空"))
        elif name in seen:
            problems.append(EntryProblem(str(p), n, heading["name"],
                                         f"{name!r} is entered twice (row {seen[name]})",
                                         zh=f"{name!r} 报名两次（第 {seen[name]} 行）"))
        rating = 0
        text = values.get("rating", "")
        if text:
            try:
                number = float(text)
                if not number.is_integer() or number < 0:
                    raise ValueError
                rating = int(number)
            except ValueError:
                problems.append(EntryProblem(str(p), n, heading["rating"],
                                             f"rating {text!r} is not a whole number >= 0",
                                             zh=f"等级分 {text!r} 不是不小于 0 的整数"))
        sex = values.get("sex", "")
        if sex:
            if sex.lower() not in _SEX:
                problems.append(EntryProblem(str(p), n, heading["sex"],
                                             f"sex {sex!r} is not 男/女 (M/F)",
                                             zh=f"性别 {sex!r} 不是 男/女（M/F）"))
            else:
                sex = _SEX[sex.lower()]
        rank = values.get("rank", "")
        if rank:
            try:
                rank_value(rank)
            except ValueError as exc:
                problems.append(EntryProblem(str(p), n, heading["rank"], en_of(exc),
                                             zh=zh_of(exc)))
        if len(problems) > bad:
            continue
        seen[name] = n
        entries.append(Entry(name, values.get("club", ""), values.get("team", ""), rating, sex,
                             values.get("group", ""), rank, values.get("title", ""),
                             values.get("federation", ""), n, extra))
    if problems:
        raise EntriesError(problems)
    if not entries:
        raise EntriesError([EntryProblem(str(p), 2, "", "no entries under the header",
                                         zh="表头下没有报名者")])
    return entries


def _used_fields(entries: Iterable[Entry]) -> list[str]:
    entries = list(entries)
    return ["name"] + [f for f in FIELDS if f != "name" and any(e.value(f) for e in entries)]


def _table(entries: Sequence[Entry], chinese: bool, numbers: bool) -> list[list[Any]]:
    fields = _used_fields(entries)
    names = _CHINESE_HEADER if chinese else _ENGLISH_HEADER
    head: list[Any] = ([("编号" if chinese else "number")] if numbers else []) \
        + [names[f] for f in fields]
    rows: list[list[Any]] = [head]
    for k, e in enumerate(entries, start=1):
        cells: list[Any] = [k] if numbers else []
        for f in fields:
            cells.append(e.rating if f == "rating" and e.rating else e.value(f))
        rows.append(cells)
    return rows


def entries_csv(entries: Sequence[Entry], *, chinese: bool = True,
                numbers: bool = False) -> str:
    """Return ``entries`` as CSV text with Chinese (or English) headers; only
    the fields some entry uses are written."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(_table(entries, chinese, numbers))
    return buf.getvalue()


def write_entries(entries: Sequence[Entry], path: str | Path, *, chinese: bool = True,
                  numbers: bool = False) -> None:
    """Write ``entries`` to ``path``: ``.xlsx`` (one sheet 报名表) or CSV
    (UTF-8 with a byte-order mark, so Excel opens the Chinese right), with
    the headers :func:`read_entries` reads back; ``numbers`` adds a first
    column of pairing numbers (编号), which reading ignores.

    Raises :class:`EventFileError` if the file cannot be written.
    """
    p = Path(path)
    try:
        if p.suffix.lower() == ".xlsx":
            import openpyxl

            wb = openpyxl.Workbook()
            ws = wb.active
            assert ws is not None
            ws.title = "报名表" if chinese else "entries"
            for row in _table(entries, chinese, numbers):
                ws.append(row)
            wb.save(p)
        else:
            p.write_text("\ufeff" + entries_csv(entries, chinese=chinese, numbers=numbers),
                         encoding="utf-8")
    except OSError as exc:
        raise EventFileError(f"{p}：无法写入（{exc.strerror}）",
                             f"{p}: cannot write ({exc.strerror})") from None
