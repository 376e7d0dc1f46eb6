"""Start-up time of the ``qisai`` command.

Runs each command below in a fresh interpreter (``python -m qisai ...``, from
this checkout) and prints the median and the fastest of ``--runs`` wall-clock
times.  The commands do almost no work (perft to depth 1, two moves, a 9x9
game without dead-stone search), so the time is the interpreter, the imports
and Typer.  Target on an idle machine: median under 0.3 s each.

Usage: python bench/cli_startup.py [--runs 10] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SGF = ROOT / "tests" / "data" / "readme" / "game.sgf"

COMMANDS: list[tuple[str, list[str]]] = [
    ("qisai --help", ["--help"]),
    ("qisai perft startpos 1", ["perft", "startpos", "1"]),
    ("qisai notation", ["notation", "--moves", "h2e2 h9g7", "--to", "chinese"]),
    ("qisai judge", ["judge", "--moves", "h2e2 h9g7 h0g2 b9c7"]),
    ("qisai go score --dead none", ["go", "score", str(SGF), "--dead", "none"]),
]


def time_command(python: str, args: list[str], runs: int) -> list[float]:
    """Wall-clock seconds of ``runs`` runs of ``python -m qisai ARGS``.

    Raises :class:`RuntimeError` if a run exits non-zero.
    """
    times: list[float] = []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([python, "-m", "qisai", *args], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"qisai {' '.join(args)}: exit {done.returncode}: "
                               f"{done.stderr.decode(errors='replace')}")
        times.append(elapsed)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per command (default 10)")
    parser.add_argument("--python", default=sys.executable, help="interpreter to run")
    options = parser.parse_args()
    bare = []
    for _ in range(options.runs):
        start = time.perf_counter()
        subprocess.run([options.python, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - start)
    print(f"{'command':32} {'median':>8} {'fastest':>8}")
    print(f"{'python -c pass':32} {statistics.median(bare):8.3f} {min(bare):8.3f}")
    for label, args in COMMANDS:
        time_command(options.python, args, 1)  # warm the file cache and .pyc files
        times = time_command(options.python, args, options.runs)
        print(f"{label:32} {statistics.median(times):8.3f} {min(times):8.3f}")


if __name__ == "__main__":
    main()
