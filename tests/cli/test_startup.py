"""The ``qisai`` command starts without the heavy libraries: importing
:mod:`qisai.cli`, and running the light commands, imports none of scipy,
networkx, numpy, SQLAlchemy, FastAPI, uvicorn, nor qisai's competition,
engine, store or web layers (``bench/cli_startup.py`` measures the time)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SGF = ROOT / "tests" / "data" / "readme" / "game.sgf"

HEAVY = ("scipy", "networkx", "numpy", "sqlalchemy", "fastapi", "uvicorn", "alembic",
         "qisai.competition", "qisai.engines", "qisai.store", "qisai.web")

# Runs the command in this interpreter, then prints the imported modules as
# the last line of standard output.
RUN = """
import json, sys
from qisai.cli import app
try:
    app(sys.argv[1:], prog_name="qisai")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print()
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def imported_by(*args: str) -> tuple[int, set[str]]:
    """Exit code and modules imported by ``qisai ARGS`` in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", RUN, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.strip().splitlines()[-1])
    return last["code"] or 0, set(last["modules"])


def heavy(modules: set[str]) -> set[str]:
    """The heavy packages (top level, or qisai layer) among ``modules``."""
    return {h for h in HEAVY if h in modules}


def test_importing_the_cli_imports_no_heavy_package() -> None:
    code = "import json, sys, qisai.cli; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(done.stdout))
    assert "qisai.cli" in modules
    assert heavy(modules) == set()
    # nor the rules cores: each command imports the one it needs
    assert {"qisai.xiangqi", "qisai.go", "qisai.referee"} & modules == set()


@pytest.mark.parametrize("args", [
    ["--help"],
    ["perft", "startpos", "1"],
    ["notation", "--moves", "h2e2 h9g7", "--to", "wxf"],
    ["judge", "--moves", "h2e2 h9g7 h0g2 b9c7"],
    ["go", "score", str(SGF)],
], ids=["help", "perft", "notation", "judge", "go-score"])
def test_light_commands_import_no_heavy_package(args: list[str]) -> None:
    code, modules = imported_by(*args)
    assert code == 0
    assert heavy(modules) == set()


def test_the_check_sees_a_command_that_needs_the_competition_layer() -> None:
    # control: the same probe does see the layers a heavier command loads
    code, modules = imported_by("tournament", "berger", "4")
    assert code == 0
    assert "qisai.competition" in heavy(modules)


def test_notation_help_names_every_notation_of_the_rules_core() -> None:
    # the CLI keeps the names itself so that --help needs no notation module
    from qisai.cli.notation import NOTATION_NAMES
    from qisai.xiangqi.notation import NOTATIONS

    assert tuple(NOTATION_NAMES) == tuple(NOTATIONS)
