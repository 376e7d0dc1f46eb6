"""bench/real_records.py counts what the issue-36 files hold (issue 36).

The expected counts come from how the files were made (README of
tests/data/xiangqi/records/issue36): 11 PGN games in five files, one XQF
game, one lenient tag, two games with U+E5E5 (which GBK cannot write), and
BadMoveTest3.xqf's illegal move at ply 10 (its name says so).
"""

from __future__ import annotations

import importlib.util
import io
import shutil
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "real_records.py"
RECORDS = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "records"


def load_bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("real_records_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_counts_reads_refusals_and_round_trips(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    shutil.copytree(RECORDS / "issue36", folder)
    shutil.copy(RECORDS / "BadMoveTest3.xqf", folder)
    out = io.StringIO()
    report = load_bench().run([folder], None, 1, out)
    assert report.games[".pgn"] == 11 and report.files[".pgn"] == 5
    assert report.games[".xqf"] == 1 and report.files[".xqf"] == 2
    assert dict(report.refused) == {
        "XqfError: XQF record at byte N (ply N): illegal move … in position …": 1}
    assert sum(report.warnings.values()) == 1
    assert report.trips["xiangqi PGN utf-8"] == 12
    assert report.trips["xiangqi PGN gbk: characters the encoding lacks"] == 2
    assert report.trips["xiangqi PGN gbk"] == 10
    assert sum(report.diffs.values()) == 0
    text = out.getvalue()
    assert "refused: 1" in text and "round-trip differences: 0" in text
