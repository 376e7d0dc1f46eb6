"""A 500-player, 11-round 积分编排制 event run through the command line from
start to finish, as a chief arbiter runs it (issue 16): every step is one
``python -m qisai tournament ...`` process on the event file.

* ``create`` from a CSV of 500 entries (ratings 1200-2600);
* per round: ``pair``, the whole round's results from one file
  (``result --round R --file F``: random results with draws and a few
  forfeits, seeded), ``standings``;
* at the end: the rating changes (``ratings``; ``result`` prints them after
  each complete round too) and the papers (对阵表 of the last round, 成绩册,
  crosstable, 记录纸, 等级分变化) as A4 PDFs.

Prints the wall time of each kind of step (sum, and the slowest one) and the
total.  The figures include interpreter start-up and imports of each process.

    python3 bench/director_desk.py [--players N] [--rounds R] [--seed S] [--no-papers]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def qisai(args: list[str], work: Path, times: dict[str, list[float]], step: str) -> str:
    """Run ``python -m qisai ARGS`` in ``work``; record its wall time under
    ``step``; return its output.  Raises SystemExit if the command fails."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "qisai", *args], cwd=work, env=env,
                          capture_output=True, text=True)
    times[step].append(time.perf_counter() - t0)
    if proc.returncode != 0:
        raise SystemExit(f"qisai {' '.join(args)} failed ({proc.returncode}):\n"
                         f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-papers", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    times: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="qisai-desk-") as tmp:
        work = Path(tmp)
        with open(work / "entries.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["姓名", "单位", "等级分"])
            for i in range(a.players):
                w.writerow([f"棋手{i + 1:03d}", f"队{i % 40 + 1}", rng.randint(1200, 2600)])
        start = time.perf_counter()
        qisai(["tournament", "create", "event.json", "--entries", "entries.csv", "--name",
               "全国象棋个人赛", "--system", "swiss", "--rounds", str(a.rounds),
               "--seed", str(a.seed)], work, times, "create")
        for r in range(1, a.rounds + 1):
            qisai(["tournament", "pair", "event.json"], work, times, "pair")
            event = json.loads((work / "event.json").read_text(encoding="utf-8"))
            # pairings are [board, red, black]; a bye has no black
            boards = [b for b, _red, black in event["rounds"][r - 1]["pairings"] if black]
            items = []
            for board in boards:
                x = rng.random()
                res = "+-" if x < 0.01 else "1-0" if x < 0.40 else "=" if x < 0.65 else "0-1"
                items.append(f"{board} {res}")
            (work / f"round{r}.txt").write_text("\n".join(items) + "\n", encoding="utf-8")
            qisai(["tournament", "result", "event.json", "--round", str(r), "--file",
                   f"round{r}.txt"], work, times, "result (whole round)")
            qisai(["tournament", "standings", "event.json"], work, times, "standings")
        qisai(["tournament", "ratings", "event.json"], work, times, "ratings (end)")
        if not a.no_papers:
            for kind in ("pairings", "standings", "crosstable", "slips", "ratings"):
                qisai(["tournament", "papers", "event.json", "--kind", kind, "-o",
                       f"{kind}.pdf"], work, times, f"papers {kind}")
        total = time.perf_counter() - start
    print(f"{a.players} players, {a.rounds} rounds, one process a step")
    for step, ts in times.items():
        print(f"  {step:24s} {len(ts):3d} x  sum {sum(ts):7.2f} s  max {max(ts):6.2f} s")
    print(f"total {total:.1f} s")


if __name__ == "__main__":
    main()
