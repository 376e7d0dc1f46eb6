"""Start-up time of the ``qisai`` command.

Runs each command below in a fresh interpreter (``python -m qisai ...``, from
this checkout) and prints the median and the fastest of ``--runs`` wall-clock
times, and the median CPU time (user + system) of the child, which a busy
machine inflates less than the wall clock.  The commands do almost no work (perft to depth 1, two moves, a 9x9
game without dead-stone search), so the time is the interpreter, the imports
and Typer.  Target on an idle machine: median under 0.3 s each.

Usage: python bench/cli_startup.py [--runs 10] [--python PATH]
"""

from __future__ import annotations

import argparse
import os
import resource
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_run(argv: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of ``argv`` (from the repository
    root, with this checkout first on the path).

    Raises :class:`RuntimeError` if it exits non-zero.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {done.returncode}: "
                           f"{done.stderr.decode(errors='replace')}")
    return elapsed, _children_cpu() - cpu


def report(label: str, argv: list[str], runs: int) -> None:
    """Print the median and fastest wall-clock time and the median CPU time
    of ``runs`` runs of ``argv`` (after one unmeasured run)."""
    time_run(argv)  # warm the file cache and the .pyc files
    walls, cpus = zip(*(time_run(argv) for _ in range(runs)), strict=True)
    print(f"{label:32} {statistics.median(walls):8.3f} {min(walls):8.3f} "
          f"{statistics.median(cpus):8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs per command (default 10)")
    parser.add_argument("--python", default=sys.executable, help="interpreter to run")
    options = parser.parse_args()
    print(f"{'command':32} {'median':>8} {'fastest':>8} {'cpu':>8}  (seconds)")
    report("python -c pass", [options.python, "-c", "pass"], options.runs)
    for label, args in COMMANDS:
        report(label, [options.python, "-m", "qisai", *args], options.runs)


if __name__ == "__main__":
    main()
