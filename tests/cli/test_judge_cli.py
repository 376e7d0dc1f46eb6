"""``qisai judge`` rules on the hand-built repetition cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app

CASES = json.loads((Path(__file__).resolve().parents[1] / "data" / "xiangqi"
                    / "repetition_basic.json").read_text(encoding="utf-8"))
runner = CliRunner()


def test_perpetual_check_loses_with_clause() -> None:
    case = CASES[0]
    result = runner.invoke(app, ["judge", "--fen", case["fen"], "-m", " ".join(case["moves"])])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1] == "red_loses"
    assert lines[-2] == "26.1"
    assert "长将" in result.output


@pytest.mark.parametrize("case", CASES, ids=[c["name"][:40] for c in CASES])
def test_verdicts_match_expected_results(case: dict[str, object]) -> None:
    moves = " ".join(case["moves"])  # type: ignore[arg-type]
    result = runner.invoke(app, ["judge", "--fen", str(case["fen"]), "-m", moves, "--json",
                                 "--rules", "cxa"])
    expected = case["expected_verdict"]["result"]  # type: ignore[index]
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output[: result.output.rindex("}") + 1])["verdict"]
    assert result.output.strip().splitlines()[-1] == verdict
    loser = {"1-0": "black", "0-1": "red"}.get(expected)
    if loser is None:
        assert verdict == "draw"
    else:
        assert verdict in (f"{loser}_loses", f"{loser}_must_change")


def test_no_repetition_and_bad_input() -> None:
    none = runner.invoke(app, ["judge", "-m", "h2e2 h9g7"])
    assert none.exit_code == 0 and none.output.strip().splitlines()[-1] == "none"
    bad = runner.invoke(app, ["judge", "-m", "h2e2 zz"])
    assert bad.exit_code == 1 and "error" in bad.output
