"""``qisai match --engine``: the cutechess-cli form (key=value words after each
``--engine``) and the quoted form give the same engines."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.cli.engines import regroup_engine_specs
from qisai.competition.match import ENGINE_SPEC_KEYS, EngineSpec

runner = CliRunner()


def specs(argv: list[str], game: str = "xiangqi") -> list[EngineSpec]:
    """The engines that the regrouped ``argv`` names, parsed as the match does."""
    out = regroup_engine_specs(argv, ENGINE_SPEC_KEYS)
    return [EngineSpec.parse(out[i + 1], game) for i, w in enumerate(out) if w == "--engine"]


def test_unquoted_and_quoted_forms_name_the_same_engines() -> None:
    unquoted = ["--engine", "name=fsf", "cmd=/usr/games/fairy-stockfish", "proto=ucci",
                "option.Skill_Level=0", "option.Hash=16",
                "--engine", "name=q", "cmd=builtin", "--tc", "movetime=0.1"]
    quoted = ["--engine", "name=fsf cmd=/usr/games/fairy-stockfish proto=ucci "
              "option.Skill_Level=0 option.Hash=16",
              "--engine", "name=q cmd=builtin", "--tc", "movetime=0.1"]
    want = [EngineSpec("fsf", ("/usr/games/fairy-stockfish",), "ucci",
                       (("Skill_Level", "0"), ("Hash", "16"))),
            EngineSpec("q", (sys.executable, "-m", "qisai.engines.builtin.xiangqi_server"), "uci")]
    assert specs(unquoted) == want
    assert specs(quoted) == want
    # the quoted form passes through unchanged, and other options stay where they were
    assert regroup_engine_specs(quoted, ENGINE_SPEC_KEYS) == quoted
    assert regroup_engine_specs(unquoted, ENGINE_SPEC_KEYS)[-2:] == ["--tc", "movetime=0.1"]


def test_a_value_with_spaces_stays_one_value() -> None:
    # what the shell passes for: --engine name=gg cmd="gnugo --mode gtp" arg=--level arg=1
    argv = ["--engine", "name=gg", "cmd=gnugo --mode gtp", "arg=--level", "arg=1", "proto=gtp"]
    (spec,) = specs(argv, "go")
    assert spec == EngineSpec("gg", ("gnugo", "--mode", "gtp", "--level", "1"), "gtp")
    # a single word with spaces after --engine is one key=value, not a quoted spec
    (spec,) = specs(["--engine", "cmd=gnugo --mode gtp"], "go")
    assert spec.command == ("gnugo", "--mode", "gtp") and spec.name == "gnugo"
    (spec,) = specs(["--engine", "name=O'Neil", "cmd=builtin"])
    assert spec.name == "O'Neil"


def test_equals_form_double_dash_and_foreign_words() -> None:
    out = regroup_engine_specs(["--engine=name=a", "cmd=b", "--games", "4"], ENGINE_SPEC_KEYS)
    assert out == ["--engine", "name=a cmd=b", "--games", "4"]
    # words after "--" and words that are no spec key are left alone
    out = regroup_engine_specs(["--engine", "cmd=a", "colour=red", "--", "--engine", "x=1"],
                               ENGINE_SPEC_KEYS)
    assert out == ["--engine", "cmd=a", "colour=red", "--", "--engine", "x=1"]
    # an option where the value should be is not swallowed
    assert regroup_engine_specs(["--engine", "--tc", "1"], ENGINE_SPEC_KEYS) == \
        ["--engine", "--tc", "1"]
    # the input list is not changed
    argv = ["--engine", "name=a", "cmd=b"]
    regroup_engine_specs(argv, ENGINE_SPEC_KEYS)
    assert argv == ["--engine", "name=a", "cmd=b"]


@pytest.mark.parametrize("form", ["unquoted", "quoted"])
def test_match_command_plays_with_either_form(form: str, tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    if form == "unquoted":
        engines = ["--engine", "name=first", "cmd=builtin", "proto=uci",
                   "--engine", "name=second", "cmd=builtin", "proto=ucci"]
    else:
        engines = ["--engine", "name=first cmd=builtin proto=uci",
                   "--engine", "name=second cmd=builtin proto=ucci"]
    result = runner.invoke(app, ["match", *engines, "--tc", "movetime=0.02", "--games", "2",
                                 "--maxplies", "6", "--pgnout", str(pgn)])
    assert result.exit_code == 0, result.output
    assert "first vs second:" in result.output
    text = pgn.read_text(encoding="utf-8")
    assert text.count('[Red "first"]') == 1 and text.count('[Red "second"]') == 1


def test_match_command_reports_unknown_words() -> None:
    result = runner.invoke(app, ["match", "--engine", "name=a", "cmd=builtin", "colour=red",
                                 "--engine", "cmd=builtin"])
    assert result.exit_code == 2
    assert "colour=red" in result.output


def test_match_with_fairy_stockfish_unquoted(tmp_path: Path) -> None:
    fsf = shutil.which("fairy-stockfish") or (
        "/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)
    if fsf is None:
        pytest.skip("fairy-stockfish not installed (scripts/install-tools)")
    result = runner.invoke(app, [
        "match", "--engine", "name=fsf", f"cmd={fsf}", "proto=uci",
        "option.Skill_Level=0", "--engine", "name=q", "cmd=builtin",
        "--tc", "movetime=0.02", "--games", "2", "--maxplies", "6"])
    assert result.exit_code == 0, result.output
    assert "fsf vs q:" in result.output
