"""Entries in bulk (issue 16, desk item 2): CSV and Excel sheets with Chinese
or English headers, one clear error a bad row, and export that reads back."""

from __future__ import annotations

from pathlib import Path

import pytest

from qisai.competition.entries import (
    EntriesError,
    Entry,
    entries_csv,
    read_entries,
    write_entries,
)
from qisai.competition.errors import EventFileError

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"


def test_chinese_headers_and_ignored_columns() -> None:
    rows = read_entries(DATA / "players_zh.csv")
    assert [e.name for e in rows][:3] == ["王天一", "郑惟桐", "许银川"]
    first = rows[0]
    assert (first.club, first.rating, first.sex, first.group) == ("杭州", 2700, "男", "甲组")
    assert rows[2].extra == {"备注": "特级大师"}  # an unknown column is kept aside, not an error
    assert first.row == 2  # the header is row 1, as a spreadsheet numbers it
    assert {e.group for e in rows} == {"甲组", "乙组"}


def test_english_headers_and_sex_spellings() -> None:
    rows = read_entries(DATA / "players_en.csv")
    assert rows[0].name == "Li Lai Qun" and rows[0].rating == 2550
    assert {e.sex for e in rows} == {"男"}  # M is read as 男


def test_go_ranks_are_checked() -> None:
    rows = read_entries(DATA / "go_players.csv")
    assert [e.rank for e in rows][:5] == ["9段", "9段", "9段", "9段", "5d"]


def test_bad_rows_each_name_file_row_and_column() -> None:
    with pytest.raises(EntriesError) as err:
        read_entries(DATA / "bad_rows.csv")
    problems = {(p.row, p.column): p.message for p in err.value.problems}
    assert set(problems) == {(3, "姓名"), (4, "等级分"), (5, "姓名"), (6, "性别"), (7, "段位")}
    assert "empty" in problems[(3, "姓名")]
    assert "二千" in problems[(4, "等级分")]
    assert "row 2" in problems[(5, "姓名")]  # the duplicate names the first row
    text = str(err.value)
    assert "bad_rows.csv, row 4, column 等级分" in text


def test_missing_name_column_and_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "x.csv"
    p.write_text("单位,等级分\n杭州,2700\n", encoding="utf-8")
    with pytest.raises(EntriesError, match="row 1: the header needs a name column"):
        read_entries(p)
    p.write_text("", encoding="utf-8")
    with pytest.raises(EntriesError, match="empty"):
        read_entries(p)
    with pytest.raises(EventFileError, match="no such file"):
        read_entries(tmp_path / "missing.csv")


def test_gbk_csv_as_excel_saves_it(tmp_path: Path) -> None:
    p = tmp_path / "gbk.csv"
    p.write_bytes("姓名,单位\n王天一,杭州\n".encode("gbk"))
    assert read_entries(p)[0].club == "杭州"


def test_xlsx_read_with_chinese_headers_and_a_bad_row(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["姓名", "队名", "等级分", "性别"])
    ws.append(["王天一", "浙江队", 2700, "男"])
    ws.append(["唐丹", "北京队", 2500.0, "女"])  # Excel numbers arrive as floats
    wb.save(tmp_path / "ok.xlsx")
    rows = read_entries(tmp_path / "ok.xlsx")
    assert [(e.name, e.team, e.rating, e.sex) for e in rows] == [
        ("王天一", "浙江队", 2700, "男"), ("唐丹", "北京队", 2500, "女")]
    ws.append(["郑惟桐", "四川队", -5, "男"])
    wb.save(tmp_path / "bad.xlsx")
    with pytest.raises(EntriesError) as err:
        read_entries(tmp_path / "bad.xlsx")
    assert [(p.row, p.column) for p in err.value.problems] == [(4, "等级分")]
    (tmp_path / "junk.xlsx").write_text("not a workbook", encoding="utf-8")
    with pytest.raises(EventFileError, match="not an Excel"):
        read_entries(tmp_path / "junk.xlsx")


@pytest.mark.parametrize("suffix", ["csv", "xlsx"])
@pytest.mark.parametrize("chinese", [True, False])
def test_export_reads_back(tmp_path: Path, suffix: str, chinese: bool) -> None:
    if suffix == "xlsx":
        pytest.importorskip("openpyxl")
    rows = read_entries(DATA / "players_zh.csv") + [Entry("柯洁", club="浙江", rank="9段")]
    out = tmp_path / f"out.{suffix}"
    write_entries(rows, out, chinese=chinese, numbers=True)
    again = read_entries(out)
    fields = ("name", "club", "team", "rating", "sex", "group", "rank")
    assert [[getattr(e, f) for f in fields] for e in again] == \
        [[getattr(e, f) for f in fields] for e in rows]


def test_csv_text_has_only_used_columns() -> None:
    text = entries_csv([Entry("甲", rating=2000), Entry("乙")])
    assert text.splitlines() == ["姓名,等级分", "甲,2000", "乙,"]
