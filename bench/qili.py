"""Time the repetition code 棋例 on every cycle of qili_cases.json.

Each case's cycle is played three times from its start position and ruled at
the third occurrence, as the referee does.  Prints the median and worst CPU
time per ruling for each profile (target: median < 50 ms, worst < 1 s), how
many rulings agree with the source's own (a record's ``ruling`` under its own
rule set) and how many of qisai's snapshots (``qili_snapshots.json``) hold.

Usage: python bench/qili.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from qisai.xiangqi import Board, Move
from qisai.xiangqi.qili.cycle import judge

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "xiangqi"
CASES = DATA / "qili_cases.json"
SNAPSHOTS = DATA / "qili_snapshots.json"


def main() -> None:
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    snapshots = {(s["case"], s["profile"]): s["verdict"]
                 for s in json.loads(SNAPSHOTS.read_text(encoding="utf-8"))}
    for profile in ("cxa", "axf"):
        times: list[tuple[float, str]] = []
        agree = sourced = held = snapped = 0
        for case in cases:
            board = Board(case["fen"])
            cycle = [Move.from_iccs(m) for m in case["cycle_moves_iccs"]]
            for move in cycle * 2:
                board.push(move)
            start = time.process_time()
            ruling = judge(board, profile)
            elapsed = time.process_time() - start
            times.append((elapsed, case["id"]))
            verdict = None if ruling is None else ruling.verdict.value
            if case["ruleset"].lower().startswith(profile):
                sourced += 1
                agree += verdict == case["ruling"]
            if (case["id"], profile) in snapshots:
                snapped += 1
                held += verdict == snapshots[(case["id"], profile)]
        values = sorted(t for t, _ in times)
        worst = max(times)
        print(f"{profile}: {len(cases)} rulings, median {statistics.median(values) * 1000:.1f} ms, "
              f"worst {worst[0] * 1000:.0f} ms ({worst[1]}), "
              f"{agree}/{sourced} equal to the source's ruling, {held}/{snapped} snapshots hold")


if __name__ == "__main__":
    main()
