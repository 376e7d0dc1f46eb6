"""A 500-player, 11-round 积分编排制 event run through the command line from
start to finish, as a chief arbiter runs it (issues 16, 29): every step is
one ``python -m qisai tournament ...`` process on the event file.

* ``create`` from a CSV of 500 entries (ratings 1200-2600);
* per round: ``pair``, the whole round's results from one file
  (``result --round R --file F``: random results with draws and a few
  forfeits, seeded), ``standings``, ``crosstable``;
* after the last round: one correction (``result ... --overwrite``), a
  ``withdraw``, the rating changes (``ratings``) and the papers (对阵表 of
  the last round, 成绩册, crosstable, 记录纸, 等级分变化) as A4 PDFs, after
  ``qisai event fonts`` has cut the font's faces once (timed apart, into a
  folder of the run: ``QISAI_FONT_CACHE``).

Each step is timed by the wall clock and by the CPU time (user + system)
of its process, which a machine busy with other work inflates far less.
Start-up is timed apart: ``python -c pass`` (the interpreter) and
``python -m qisai tournament --help`` (interpreter, imports and Typer:
what every command pays before its work).  Each step is printed as its
median and max wall time and the median beyond that start-up (issue 29's
target: < 0.5 s beyond start-up for each desk command, < 1.5 s for each
paper).

``--root DIR`` times another checkout of qisai (e.g. an export of main)
with the same seed, so "before" and "after" come from one invocation:
``--root /tmp/qisai-base --root .`` runs both, one after the other.

    python3 bench/director_desk.py [--players N] [--rounds R] [--seed S]
                                   [--no-papers] [--root DIR ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("pairings", "standings", "crosstable", "slips", "ratings")


CPU: dict[str, list[float]] = defaultdict(list)
"""CPU seconds (user + system) of each step's process, by step: what a busy
machine inflates far less than the wall clock."""


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(root: Path, args: list[str], work: Path, step: str | None = None
        ) -> tuple[float, str]:
    """Run ``python ARGS`` in ``work`` with ``root`` first on the path (and
    the papers' font cache in ``work``); return the wall time and the
    output, and note its CPU time under ``step``.  Raises SystemExit if it
    fails."""
    env = dict(os.environ, PYTHONPATH=str(root), QISAI_FONT_CACHE=str(work / "fonts"))
    cpu = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, *args], cwd=work, env=env,
                          capture_output=True, text=True)
    took = time.perf_counter() - t0
    if step is not None:
        CPU[step].append(_children_cpu() - cpu)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({proc.returncode}):\n"
                         f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return took, proc.stdout


def desk(root: Path, players: int, rounds: int, seed: int, papers: bool,
         keep: Path | None) -> dict[str, list[float]]:
    """Run the event with checkout ``root``; return the wall times by step."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = defaultdict(list)

    def qisai(args: list[str], step: str) -> str:
        took, out = run(root, ["-m", "qisai", "tournament", *args], work, step)
        times[step].append(took)
        return out

    with tempfile.TemporaryDirectory(prefix="qisai-desk-") as tmp:
        work = Path(tmp)
        for _ in range(5):
            times["start-up: python -c pass"].append(
                run(root, ["-c", "pass"], work, "start-up: python -c pass")[0])
            times["start-up: qisai tournament --help"].append(
                run(root, ["-m", "qisai", "tournament", "--help"], work,
                    "start-up: qisai tournament --help")[0])
        with open(work / "entries.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["姓名", "单位", "等级分"])
            for i in range(players):
                w.writerow([f"棋手{i + 1:03d}", f"队{i % 40 + 1}", rng.randint(1200, 2600)])
        qisai(["create", "event.json", "--entries", "entries.csv", "--name", "全国象棋个人赛",
               "--system", "swiss", "--rounds", str(rounds), "--seed", str(seed)], "create")
        for r in range(1, rounds + 1):
            qisai(["pair", "event.json"], "pair")
            event = json.loads((work / "event.json").read_text(encoding="utf-8"))
            # pairings are [board, red, black]; a bye has no black
            boards = [b for b, _red, black in event["rounds"][r - 1]["pairings"] if black]
            items = []
            for board in boards:
                x = rng.random()
                res = "+-" if x < 0.01 else "1-0" if x < 0.40 else "=" if x < 0.65 else "0-1"
                items.append(f"{board} {res}")
            (work / f"round{r}.txt").write_text("\n".join(items) + "\n", encoding="utf-8")
            qisai(["result", "event.json", "--round", str(r), "--file", f"round{r}.txt"],
                  "result (whole round)")
            qisai(["standings", "event.json"], "standings")
            qisai(["crosstable", "event.json"], "crosstable")
        qisai(["result", "event.json", str(rounds), "1", "=", "--overwrite"],
              "result (one correction)")
        qisai(["withdraw", "event.json", str(players)], "withdraw")
        qisai(["ratings", "event.json"], "ratings")
        if papers:
            # the papers' font faces are cut once (qisai.papers.fonts), into a
            # folder of this run: timed apart (a checkout without the command
            # has nothing to cut)
            try:
                times["papers font cut (once)"].append(
                    run(root, ["-m", "qisai", "event", "fonts"], work,
                        "papers font cut (once)")[0])
            except SystemExit:
                del times["papers font cut (once)"]
                CPU.pop("papers font cut (once)", None)
            for kind in PAPERS:
                qisai(["papers", "event.json", "--kind", kind, "-o", f"{kind}.pdf"],
                      f"papers {kind}")
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(work / "event.json", keep / "event.json")
    return times


def report(root: Path, times: dict[str, list[float]]) -> None:
    """Print the figures of one checkout: wall time (median, max) and CPU
    time (median), each also beyond the start-up's median."""
    base = statistics.median(times["start-up: qisai tournament --help"])
    base_cpu = statistics.median(CPU["start-up: qisai tournament --help"])
    print(f"checkout {root}")
    print(f"  {'':34s} {'':5s}  {'wall: median':>12s} {'max':>7s} {'beyond':>7s}   "
          f"{'CPU: median':>11s} {'beyond':>7s}")
    for step, ts in times.items():
        med = statistics.median(ts)
        cpu = statistics.median(CPU[step])
        start = step.startswith("start-up")
        beyond = "" if start else f"{med - base:7.2f}"
        beyond_cpu = "" if start else f"{cpu - base_cpu:7.2f}"
        print(f"  {step:34s} {len(ts):3d} x  {med:12.2f} {max(ts):7.2f} {beyond:>7s}   "
              f"{cpu:11.2f} {beyond_cpu:>7s}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-papers", action="store_true")
    ap.add_argument("--root", type=Path, action="append",
                    help="checkout of qisai to time (repeat for several; default: this one)")
    ap.add_argument("--keep", type=Path, help="copy the final event file here")
    a = ap.parse_args()
    roots = [r.resolve() for r in a.root] if a.root else [ROOT]
    load = os.getloadavg()
    print(f"{a.players} players, {a.rounds} rounds, one process a step; "
          f"{os.cpu_count()} CPUs, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for root in roots:
        CPU.clear()
        t0 = time.perf_counter()
        times = desk(root, a.players, a.rounds, a.seed, not a.no_papers, a.keep)
        report(root, times)
        print(f"  total {time.perf_counter() - t0:.1f} s, load average now "
              f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
