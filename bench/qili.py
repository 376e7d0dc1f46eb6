"""Time the repetition code 棋例 on every cycle of qili_cases.json.

Each case's cycle is played three times from its start position and ruled at
the third occurrence, as the referee does.  Prints the median and worst CPU
time per ruling for each profile (target: median < 50 ms, worst < 1 s) and how
many rulings agree with the file's (its ``cxa_ruling``/``axf_ruling`` where a
record has one, else its ``ruling``).

Usage: python bench/qili.py
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from qisai.xiangqi import Board, Move
from qisai.xiangqi.qili.cycle import judge

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "xiangqi" / "qili_cases.json"


def main() -> None:
    cases = json.loads(CASES.read_text(encoding="utf-8"))
    for profile in ("cxa", "axf"):
        times: list[tuple[float, str]] = []
        agree = 0
        for case in cases:
            board = Board(case["fen"])
            cycle = [Move.from_iccs(m) for m in case["cycle_moves_iccs"]]
            for move in cycle * 2:
                board.push(move)
            start = time.process_time()
            ruling = judge(board, profile)
            elapsed = time.process_time() - start
            times.append((elapsed, case["id"]))
            expected = case.get(f"{profile}_ruling", case["ruling"])
            if ruling is not None and ruling.verdict.value == expected:
                agree += 1
        values = sorted(t for t, _ in times)
        worst = max(times)
        print(f"{profile}: {len(cases)} rulings, median {statistics.median(values) * 1000:.1f} ms, "
              f"worst {worst[0] * 1000:.0f} ms ({worst[1]}), "
              f"{agree}/{len(cases)} equal to the file's ruling for {profile}")


if __name__ == "__main__":
    main()
