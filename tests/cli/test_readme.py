"""Every command line of the README runs as written.

Each line that starts with ``qisai `` inside a ```` ```sh ```` block is run by
``bash`` in a copy of ``tests/data/readme/`` (the files the examples name),
with ``qisai`` on the PATH meaning this checkout, no input on stdin (so
``qisai play`` prints the board and stops at the end of its input), and a
fresh data folder: no arena database, no account, as on a new machine (the
README's ``qisai role`` line makes both, issue 32 item 10).
The lines run in README order (the tournament lines share an event file),
must exit 0, and when the comment says ``# → TEXT`` (up to three spaces or
the end), TEXT must be in what the command printed.

Lines marked ``# (shown only: REASON)`` are not run (``qisai serve`` starts
a server that does not stop).  Lines that name an outside engine
(fairy-stockfish, GNU Go) run in their own tests, skipped when the engine is
missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from qisai.cli import app

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
FIXTURES = ROOT / "tests" / "data" / "readme"
SHOWN_ONLY = "(shown only:"
ENGINES = ("fairy-stockfish", "gnugo", "maxqi")
EXTRA_PATH = "/usr/games"  # where Debian installs both engines


def readme_commands() -> list[tuple[int, str]]:
    """(line number, line) of each ``qisai ...`` line in the README's sh blocks."""
    found: list[tuple[int, str]] = []
    in_sh = False
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("```"):
            in_sh = not in_sh and line.strip() in ("```sh", "```bash", "```shell")
            continue
        if in_sh and line.startswith("qisai "):
            found.append((number, line))
    return found


def comment_of(line: str) -> str:
    """The shell comment of ``line`` (after the first ``#`` outside quotes
    that starts a word), or ""."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[i + 1:].strip()
    return ""


def expected_of(line: str) -> str | None:
    """The TEXT of a ``# → TEXT`` comment (up to three spaces), or None."""
    comment = comment_of(line)
    if not comment.startswith("→"):
        return None
    return comment[1:].strip().split("   ")[0].strip()


def engines_of(line: str) -> list[str]:
    """The outside engines ``line`` starts."""
    return [name for name in ENGINES if name in line]


COMMANDS = readme_commands()
PLAIN = [(n, line) for n, line in COMMANDS
         if SHOWN_ONLY not in comment_of(line) and not engines_of(line)]
WITH_ENGINES = [(n, line) for n, line in COMMANDS
                if SHOWN_ONLY not in comment_of(line) and engines_of(line)]


@pytest.fixture()
def workdir(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the README's files, and the environment to run qisai in."""
    work = tmp_path / "work"
    shutil.copytree(FIXTURES, work)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "qisai"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m qisai "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QISAI_")}
    env.update(PATH=os.pathsep.join([str(bin_dir), env.get("PATH", ""), EXTRA_PATH]),
               PYTHONPATH=str(ROOT), QISAI_DATA_DIR=str(data), NO_COLOR="1", COLUMNS="200")
    return work, env


def run_line(line: str, work: Path, env: dict[str, str]) -> str:
    """Run ``line`` with bash in ``work``; return its output (stdout and
    stderr).  Fails the test on a non-zero exit or a missing ``→`` result."""
    done = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=work, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"exit {done.returncode}: {line}\n{output}"
    expected = expected_of(line)
    if expected is not None:
        assert expected in output, f"{expected!r} not printed by: {line}\n{output}"
    return output


def test_the_readme_shows_every_command() -> None:
    words = {line.split()[1] for _, line in COMMANDS}
    group = typer.main.get_command(app)
    names = set(getattr(group, "commands", {}))
    assert {"play", "match", "go", "tournament"} <= names
    assert names <= words, f"no README example for: {sorted(names - words)}"
    lines = [line for _, line in COMMANDS]
    assert any(line.startswith("qisai play --game go --size 9") for line in lines)
    # the shown-only lines say why; only what starts a server or a worker,
    # or needs them (a match on the workers' queue), is not run
    shown = [line for line in lines if SHOWN_ONLY in comment_of(line)]
    assert [line.split()[1] for line in shown][0] == "serve"
    for line in shown:
        assert line.split()[1] in ("serve", "worker") or "--queue" in line, line


def test_comment_parsing() -> None:
    assert comment_of('qisai x --m "a # b"   # → c d   (more)') == "→ c d   (more)"
    assert expected_of('qisai x --m "a # b"   # → c d   (more)') == "c d"
    assert expected_of("qisai x#y") is None and expected_of("qisai x  # plain") is None


def test_readme_commands_run(workdir: tuple[Path, dict[str, str]]) -> None:
    work, env = workdir
    assert not Path(env["QISAI_DATA_DIR"]).exists()  # a fresh set-up
    assert len(PLAIN) >= 20
    for _, line in PLAIN:
        run_line(line, work, env)
    # what the examples wrote is there
    assert (work / "game.pgn").read_text(encoding="utf-8").count("[Red ") == 1
    assert (work / "board.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    assert (work / "club.json").is_file()


@pytest.mark.engine
@pytest.mark.parametrize("line", [line for _, line in WITH_ENGINES],
                         ids=[f"line{n}" for n, _ in WITH_ENGINES])
def test_readme_engine_examples_run(line: str, workdir: tuple[Path, dict[str, str]]) -> None:
    work, env = workdir
    for name in engines_of(line):
        if shutil.which(name, path=env["PATH"]) is None:
            pytest.skip(f"{name} not installed (scripts/install-tools)")
    run_line(line, work, env)
