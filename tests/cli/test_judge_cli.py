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


# A rule-book diagram (issue 13.8): case 1's perpetual check with a red soldier
# on e1, behind its start rank, as printed diagrams sometimes have it.
DIAGRAM = "4k4/9/4b4/9/9/9/9/9/4P4/R2K5 w - - 0 1"
DIAGRAM_MOVES = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9"


def test_unreachable_diagram_is_refused_without_setup() -> None:
    result = runner.invoke(app, ["judge", "--fen", DIAGRAM, "-m", DIAGRAM_MOVES])
    assert result.exit_code == 1
    assert "cannot stand" in result.output and "--setup" in result.output


def test_setup_judges_a_diagram_and_warns_it_is_not_reachable() -> None:
    result = runner.invoke(app, ["judge", "--setup", "--fen", DIAGRAM, "-m", DIAGRAM_MOVES])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    # 24.1, 26.1: one-sided perpetual check loses, diagram or not.
    assert lines[-1] == "red_loses" and lines[-2] == "26.1"
    assert "warning" in result.output and "not reachable in play" in result.output
    assert "soldier" in result.output.lower()


def test_setup_on_a_reachable_position_gives_no_warning() -> None:
    case = CASES[0]
    result = runner.invoke(app, ["judge", "--setup", "--fen", case["fen"], "-m",
                                 " ".join(case["moves"])])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    assert result.output.strip().splitlines()[-1] == "red_loses"


def test_setup_json_output_keeps_the_verdict_last() -> None:
    # The warning goes to stderr: stdout stays the JSON and the verdict.
    result = runner.invoke(app, ["judge", "--setup", "--json", "--fen", DIAGRAM, "-m",
                                 DIAGRAM_MOVES])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert json.loads(out[: out.rindex("}") + 1])["verdict"] == "red_loses"
    assert out.strip().splitlines()[-1] == "red_loses"
    assert "not reachable in play" in result.stderr
