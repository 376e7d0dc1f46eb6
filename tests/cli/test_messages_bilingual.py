"""The command line's refusals in Chinese and English (issue 32.8): each
error is two lines, ``错误：`` with the Chinese (the rule book's terms: 轮,
台, 编排) and ``error:`` with the English, as ``pair --explain`` prints its
explanations; the exit status says the same as before."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app

runner = CliRunner()


def said(*args: object, code: int = 2) -> tuple[str, str]:
    """The two error lines of ``qisai ARGS``, which must exit with ``code``."""
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exit_code == code, res.output
    lines = [line for line in res.output.splitlines() if line.startswith(("错误：", "error: "))]
    assert len(lines) == 2 and lines[0].startswith("错误：") and lines[1].startswith("error: "), \
        res.output
    return lines[0], lines[1]


def _event(tmp_path: Path) -> Path:
    entries = tmp_path / "entries.csv"
    entries.write_text("name,rating\n甲,2400\n乙,2300\n丙,2200\n丁,2100\n", encoding="utf-8")
    ev = tmp_path / "ev.json"
    res = runner.invoke(app, ["tournament", "create", str(ev), "--entries", str(entries),
                              "--rounds", "3", "--name", "春季赛", "--seed", "1"])
    assert res.exit_code == 0, res.output
    return ev


def test_bad_fen() -> None:
    # nine ranks: a Xiangqi board has ten (clause 1)
    zh, en = said("perft", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "1")
    # each line in its own language (issue 32.8): the rules core's Chinese
    # in the 错误 line, naming the field and the count, its English in the other
    assert zh == "错误：FEN 有误：FEN 第 1 段（棋子位置）有 9 行，应为 10 行"
    assert en == "error: bad FEN: FEN field 1 (placement) has 9 ranks, 10 expected"


def test_bad_fen_character_is_named_in_chinese() -> None:
    # 'x' is no piece letter (clause 1.3); the place is said as 第 N 行, 第 K 个字符
    zh, en = said("notation", "--moves", "h2e2", "--fen",
                  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w")
    assert zh == ("错误：FEN 有误：FEN 第 1 段（棋子位置）第 10 行（横线 0）第 59 个字符："
                  "未知的棋子字母 'X'")
    assert not re.search(r"[A-Za-z]{3,}", zh.replace("FEN", "")), zh  # no English words
    assert en == ("error: bad FEN: FEN field 1 (placement), rank 0 (row 10), character 59: "
                  "unknown piece letter 'X'")


def test_illegal_move_is_said_in_chinese() -> None:
    # 车一平二 at the start: the chariot on i0 cannot go sideways onto h0, its own
    # 马 stands there (clause 2.5)
    zh, en = said("notation", "--moves", "车一平二", code=1)
    assert zh == ("错误：第 1 着（车一平二）：第 1 步（红方走）：'车一平二'：i0 的车不能走到 h0"
                  "（第 2 条）；合法着法：车一进一 车一进二")
    assert en == ("error: move 1 (车一平二): ply 1 (Red to move): '车一平二': the chariot on i0 "
                  "cannot move to h0 (clause 2); its legal moves: 车一进一 车一进二")


def test_unknown_event_file(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    zh, en = said("event", "standings", missing)
    assert zh.startswith(f"错误：{missing}：无法读取")
    assert en.startswith(f"error: {missing}: cannot read")


def test_result_on_an_unpaired_round(tmp_path: Path) -> None:
    ev = _event(tmp_path)
    zh, en = said("tournament", "result", ev, "1", "1", "1-0")
    assert zh == "错误：春季赛：第 1 轮尚未编排"
    assert en == "error: 春季赛: round 1 has not been paired"
    assert runner.invoke(app, ["tournament", "pair", str(ev)]).exit_code == 0
    zh, en = said("tournament", "result", ev, "1", "9", "1-0")
    assert zh == "错误：第 1 轮没有第 9 台" and en == "error: round 1 has no board 9"


def test_bad_format(tmp_path: Path) -> None:
    ev = _event(tmp_path)
    zh, en = said("tournament", "standings", ev, "--format", "yaml")
    assert zh == "错误：未知格式 'yaml'" and en == "error: unknown format 'yaml'"


def test_a_bad_entries_sheet_lists_each_row_in_both_languages(tmp_path: Path) -> None:
    entries = tmp_path / "entries.csv"
    entries.write_text("姓名,等级分\n甲,2400\n甲,-5\n", encoding="utf-8")
    res = runner.invoke(app, ["tournament", "create", str(tmp_path / "ev.json"), "--entries",
                              str(entries), "--rounds", "3"])
    assert res.exit_code == 2
    out = res.output
    assert "第 3 行，姓名 列：'甲' 报名两次（第 2 行）" in out
    assert "row 3, column 姓名: '甲' is entered twice (row 2)" in out
    assert "等级分 '-5' 不是不小于 0 的整数" in out and "rating '-5' is not a whole number >= 0" in out
