"""Benchmark the match runner: Fairy-Stockfish self-play at a fixed time a
move, several games at once; prints games per minute and the runner's own
share of CPU against the engines' (target: under 10%).

    python bench/match.py [--games 100] [--movetime 0.01] [--concurrency 2]

The match is played by :func:`qisai.competition.match.play_match` (in
uvloop's event loop when uvloop is installed).  The runner's CPU is this
process's user+system time, all its threads included (the referee judging
every move, the 棋例 checks, the protocol clients); the engines' is that of the child processes, counted when they
are reaped at the end of the match (every engine is shut down and waited
for before the figure is read).  Both are also given per ply.

A fixed move time is wall-clock time: on a loaded machine the engines get
less CPU per move while the runner's work per move stays the same, so the
share rises with the load.  The load average is printed for that reason;
compare runs made at a similar (low) load.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from qisai.competition.match import EngineSpec, MatchConfig, parse_time_control, play_match
from qisai.engines.play import Adjudication


def _fairy() -> str:
    found = shutil.which("fairy-stockfish") or (
        "/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None)
    if found is None:
        sys.exit("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
    return found


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--movetime", type=float, default=0.01)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--rules", default="cxa")
    args = parser.parse_args()
    fairy = _fairy()
    config = MatchConfig(
        "xiangqi",
        [EngineSpec.parse(f"name=fsf-a cmd={fairy}"), EngineSpec.parse(f"name=fsf-b cmd={fairy}")],
        time=parse_time_control(f"movetime={args.movetime}"), rules=args.rules,
        games=args.games, concurrency=args.concurrency,
        adjudication=Adjudication(max_plies=400))
    load_before = os.getloadavg()
    report = play_match(config)
    load_after = os.getloadavg()
    plies = sum(len(g.report.game.moves) for g in report.games)
    print(report.summary())
    print(f"plies: {plies} ({plies / report.wall:.1f} per second)")
    print(f"games per minute: {60 * len(report.games) / report.wall:.1f}")
    share = report.runner_cpu / report.engines_cpu if report.engines_cpu else float("nan")
    print(f"CPU: runner {report.runner_cpu:.2f} s, engines {report.engines_cpu:.2f} s; "
          f"runner/engines = {100 * share:.1f}% (target < 10%)")
    if plies:
        print(f"CPU per ply: runner {1000 * report.runner_cpu / plies:.3f} ms, "
              f"engines {1000 * report.engines_cpu / plies:.2f} ms")
    print("load average (1 min) before/after: "
          f"{load_before[0]:.2f} / {load_after[0]:.2f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
