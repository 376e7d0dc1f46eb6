"""scripts/install-tools covers every outside program the tests look up, and
its ``--check`` mode agrees with the tests' own lookup."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "install-tools"
LOOKUP = re.compile(r"""\b(?:require_binary|find_binary|tool|which)\(\s*["']([\w.+-]+)["']""")


def programs_looked_up() -> set[str]:
    """The program names the test modules and fixtures look up by name."""
    names = {"fairy-stockfish", "gnugo", "chromium"}  # the fixtures fairy, gnugo, browser
    for path in (ROOT / "tests").rglob("*.py"):
        if path.resolve() == Path(__file__).resolve():
            continue  # its own examples
        names |= set(LOOKUP.findall(path.read_text(encoding="utf-8")))
    return names


def test_lookups_are_found_in_source() -> None:
    text = 'x = which("maxqi")\ny = tool( "sjaakii")\nz = shutil.which("ls")\n'
    assert set(LOOKUP.findall(text)) == {"maxqi", "sjaakii", "ls"}


def test_the_script_installs_every_program_the_tests_look_up() -> None:
    script = SCRIPT.read_text(encoding="utf-8")
    checked = set(re.findall(r"has_program ([\w.+-]+)", script))
    # Plain shutil.which look-ups of Python's own tools are not outside programs.
    wanted = programs_looked_up() - {"python", "python3", "sh", "bash"}
    assert wanted <= checked, f"not in scripts/install-tools: {sorted(wanted - checked)}"
    for package in ("postgresql", "fonts-noto-cjk", "redis-server", "fairymax", "sjaakii"):
        assert f"need+=({package})" in script


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash not installed")
def test_check_mode_agrees_with_what_is_installed() -> None:
    r = subprocess.run(["bash", str(SCRIPT), "--check"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode in (0, 1), r.stderr
    line = r.stdout.strip()
    # Really missing (QISAI_TEST_HIDE does not fool the script).
    missing = [n for n in ("fairy-stockfish", "gnugo", "sjaakii", "chromium")
               if shutil.which(n) is None and not Path("/usr/games", n).exists()]
    if r.returncode == 0:
        assert line == "install-tools: every outside program is installed"
        assert missing == []
    else:
        assert line.startswith("install-tools: missing: ")
        assert all(name in line.split() for name in missing), (line, missing)
    # A wrong option is refused with a message, not run.
    bad = subprocess.run(["bash", str(SCRIPT), "--nonsense"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 2 and "unknown option" in bad.stderr
