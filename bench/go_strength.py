"""Measure the strength of qisai's built-in Go engine against GNU Go.

Plays ``--games`` games (colours alternating) of ``qisai engine go`` against
``gnugo --mode gtp --level L --chinese-rules`` through the match runner, on
9x9 with komi 7.5 under the Chinese rules, at a fixed time a move, and
prints the score, each game's result and the engine's playouts a second
(from its ``--log``).

    python bench/go_strength.py [--games 10] [--seconds 2] [--level 0]
                                [--concurrency 2] [--size 9] [--sgf FILE]
                                [--time '300 byoyomi 3x10']
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
from pathlib import Path

from qisai.competition.match import EngineSpec, MatchConfig, parse_time_control, run_match
from qisai.engines.builtin import builtin_command
from qisai.engines.play import Adjudication
from qisai.referee.verdict import Outcome


def _gnugo() -> str:
    found = shutil.which("gnugo") or (
        "/usr/games/gnugo" if Path("/usr/games/gnugo").exists() else None)
    if found is None:
        sys.exit("gnugo is not installed (apt-get install gnugo)")
    return found


def main() -> None:
    """Run the games and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=2.0, help="time a move for both")
    parser.add_argument("--level", type=int, default=0, help="GNU Go's level")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--time", default=None,
                        help="a clock instead of --seconds a move, e.g. '300 byoyomi 3x10'")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--sgf", type=Path, default=None, help="append the games' SGF here")
    args = parser.parse_args()
    gnugo = _gnugo()
    log = Path(tempfile.mkdtemp(prefix="qisai-go-strength-")) / "engine.log"
    qisai = EngineSpec("qisai", tuple(builtin_command("go")) + (
        "--seconds", f"{args.seconds:g}", "--log", str(log)), "gtp")
    gnu = EngineSpec(f"gnugo-{args.level}", (gnugo, "--mode", "gtp", "--level", str(args.level),
                                            "--chinese-rules"), "gtp")
    config = MatchConfig(
        "go", [qisai, gnu],
        time=parse_time_control(args.time or f"movetime={args.seconds:g}"),
        rules="chinese", games=args.games, concurrency=args.concurrency,
        board_size=args.size, komi=args.komi,
        adjudication=Adjudication(max_plies=args.max_plies), startup_timeout=60,
        sgfout=args.sgf)
    report = asyncio.run(run_match(config))
    for record in sorted(report.games, key=lambda r: r.number):
        result = record.report.result
        names = record.report.names
        if result is None:
            text = "no result"
        elif result.outcome is Outcome.WIN and result.winner is not None:
            text = f"{names[result.winner.value]} wins ({result.reason.value})"
        else:
            text = f"{result.outcome.value} ({result.reason.value})"
        score = re.search(r"RE\[([^\]]*)\]", record.record)
        print(f"game {record.number}: black {names[0]}, white {names[1]}, "
              f"{len(record.report.game.moves)} moves: {text}"
              f"{f' [{score.group(1)}]' if score else ''}")
    print(report.summary())
    stats = report.pairs.get((0, 1))
    if stats is not None and stats.games:
        print(f"qisai took {stats.wins} of {stats.games} games from GNU Go level {args.level} "
              f"({100 * stats.wins / stats.games:.0f}%) "
              f"{f'at {args.time}' if args.time else f'at {args.seconds:g} s a move'}")
    playouts = seconds = 0.0
    moves = 0
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            m = re.search(r"playouts (\d+) seconds ([\d.]+)", line)
            if m and int(m.group(1)):
                playouts += int(m.group(1))
                seconds += float(m.group(2))
                moves += 1
    if moves:
        print(f"qisai searched {moves} moves: {playouts / moves:.0f} playouts a move, "
              f"{playouts / seconds:.0f} playouts/s")


if __name__ == "__main__":
    main()
