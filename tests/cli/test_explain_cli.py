"""``qisai tournament pair --explain`` in Chinese and English (issue 32.8):
every explanation line of a Swiss event (round 1 by halves, later rounds
by score groups, colours, the bye) and of a round robin (the Berger table,
Appendix 1) is printed in Chinese first, then in the English the pairer
wrote; the numbers are the same in both."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.cli.explain_text import chinese

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()


def run(*args: object) -> str:
    res = runner.invoke(app, ["tournament", *[str(a) for a in args]])
    assert res.exit_code == 0, res.output
    return res.output


def explained(output: str) -> list[tuple[str, str]]:
    """The (Chinese, English) pairs of an --explain output."""
    lines = output.splitlines()
    pairs = []
    for i, line in enumerate(lines):
        if line.startswith("  · "):
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            assert nxt.startswith("    "), f"no English after {line!r}"
            pairs.append((line[4:], nxt[4:]))
    return pairs


def check(pairs: list[tuple[str, str]]) -> None:
    assert pairs
    for zh, en in pairs:
        assert re.search(r"[\u4e00-\u9fff]", zh), zh  # Chinese
        assert chinese(en) == zh
        assert re.findall(r"\d+", zh.replace("n/2+1", "")) == \
            re.findall(r"\d+", en.replace("n/2+1", "").replace("13.1", "").replace(
                "Appendix 1", "").replace("Appendix 2", "")) or "附录" in zh


def test_swiss_explanations_are_chinese_and_english(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    run("create", ev, "--entries", DATA / "players_zh.csv", "--system", "swiss", "--rounds", "3",
        "--seed", "5")
    pairs = explained(run("pair", ev, "--explain"))
    check(pairs)
    assert any(zh.startswith("第 1 轮：上半区") for zh, _ in pairs)
    assert any(zh.startswith("第 1 台：") and "（红）对" in zh for zh, _ in pairs)
    # round 2 by score groups: every board won by Red, then colours by history
    run("result", ev, "--round", "1", "1 1-0, 2 1-0, 3 1-0, 4 1-0")
    pairs = explained(run("pair", ev, "--explain"))
    check(pairs)
    assert any("执" in zh and zh.startswith("第 ") for zh, _ in pairs)


def test_round_robin_explanations_are_chinese_and_english(tmp_path: Path) -> None:
    ev = tmp_path / "rr.json"
    run("create", ev, "--entries", DATA / "players_zh.csv", "--system", "round_robin")
    pairs = explained(run("pair", ev, "--explain"))
    assert pairs == [("贝格尔表第 1 轮（附录 1；先列者执红，13.1）",
                      "Berger table round 1 (Appendix 1; first-listed plays Red, 13.1)")]


def test_an_unknown_sentence_stays_english() -> None:
    assert chinese("something new the pairer says") is None
    assert chinese("board 3: 4 (Red) - 7 (Black): 4 had Black last round") == \
        "第 3 台：4（红）对 7（黑）：4 上一轮执黑，本轮执红"
