"""Each paper of a big event, drawn in-process and timed (issue 29: every
paper of the 500-player event < 1.5 s, and the 2,000 x 50 crosstable too).

Builds two individual events deterministically (``--seed``) with
qisai.competition, every round played (results drawn at random, draws
and a few forfeits among them):

* a 500-entry, 11-round 积分编排制, paired by qisai's own pairer;
* the largest event the import bounds allow: 2,000 entries x 50 rounds,
  boards drawn at random (a paper does not care how they were paired).

The event files are written once into a folder (``--data DIR`` keeps
them for the next run).  Then for each checkout (``--root DIR``,
repeatable: e.g. an export of main, then this one) a child process with
that checkout first on ``sys.path`` loads each file and draws each paper
``--runs`` times after one cold draw (:func:`qisai.papers.write_paper`, the
common-character font faces cut once before, timed apart, into a font
cache of the run), printing per paper the pages, the cold draw, the
median and max wall time and the median CPU time (user + system of the
process, which a busy machine inflates far less than the wall clock),
and that CPU time a page (the 记录纸: a page a game).
The load average is printed before and after each checkout.

    python3 bench/papers.py [--runs N] [--seed S] [--no-big] [--kinds K,K]
                            [--data DIR] [--root DIR ...]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("pairings", "standings", "crosstable", "slips", "ratings")


def build(n: int, rounds: int, seed: int, swiss: bool) -> dict[str, Any]:
    """An individual event file of ``n`` entries (ratings 1200-2600, so the
    rating changes have every entry) and ``rounds`` rounds, every result
    in: paired by the Swiss pairer (``swiss``) or at random."""
    from qisai.competition.events.file import EventFile, Header
    from qisai.competition.model import Pairing
    from qisai.competition.tournament import Player, Tournament

    rng = random.Random(seed)
    t = Tournament(f"全国象棋个人赛 {n}x{rounds}", "swiss", rounds=rounds, seed=seed)
    for i in range(n):
        t.add_player(Player(f"棋手{i + 1:04d}", rng.randint(1200, 2600), club=f"队{i % 60}"))
    t.start()
    for r in range(1, rounds + 1):
        if swiss:
            rec = t.pair_next_round()
        else:
            ids = list(range(1, n + 1))
            rng.shuffle(ids)
            rec = t.install_round(r, [Pairing(ids[2 * k], ids[2 * k + 1], k + 1)
                                      for k in range(n // 2)])
        for p in rec.pairings:
            if p.is_bye or p.board in rec.results:
                continue
            x = rng.random()
            t.record_result(r, p.board, "+-" if x < 0.01 else "1-0" if x < 0.40
                            else "=" if x < 0.65 else "0-1")
    header = Header(t.name, date="2026-12-04", venue="北京", chief_arbiter="裁判长甲",
                    organiser="中国象棋协会")
    return EventFile("individual", t, header).to_dict()


def child(files: list[Path], kinds: list[str], runs: int) -> None:
    """Draw each paper of each file (the child, the checkout first on the
    path); print one JSON line per paper."""
    from qisai.competition.events.file import EventFile
    from qisai.papers import fonts, write_paper
    from qisai.papers.pdf import find_font

    t0, c0 = time.perf_counter(), time.process_time()
    fonts.prepare(find_font())
    print(json.dumps({"step": "font cut (once)", "wall": time.perf_counter() - t0,
                      "cpu": time.process_time() - c0}), flush=True)
    with tempfile.TemporaryDirectory(prefix="qisai-papers-bench-") as tmp:
        for f in files:
            t0, c0 = time.perf_counter(), time.process_time()
            ef = EventFile.load(f)
            print(json.dumps({"step": f"{f.stem}: load", "wall": time.perf_counter() - t0,
                              "cpu": time.process_time() - c0}), flush=True)
            for kind in kinds:
                walls, cpus, pages = [], [], 0
                for _ in range(runs + 1):
                    ef = EventFile.load(f)  # a paper of a fresh file, as the desk draws it
                    t0, c0 = time.perf_counter(), time.process_time()
                    pages = write_paper(ef, kind, Path(tmp) / f"{kind}.pdf")
                    walls.append(time.perf_counter() - t0)
                    cpus.append(time.process_time() - c0)
                print(json.dumps({"step": f"{f.stem}: {kind}", "pages": pages,
                                  "size": (Path(tmp) / f"{kind}.pdf").stat().st_size,
                                  "cold": walls[0], "walls": walls[1:], "cpus": cpus[1:]}),
                      flush=True)


def load() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f} {b:.2f} {c:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--no-big", action="store_true", help="leave out the 2,000 x 50 event")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--big-kinds", default="crosstable,ratings,standings,pairings",
                    help="papers of the 2,000 x 50 event")
    ap.add_argument("--data", type=Path, help="folder of the event files (kept; reused)")
    ap.add_argument("--root", type=Path, action="append",
                    help="checkout of qisai to time (repeat for several; default: this one)")
    ap.add_argument("--child", nargs="+", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    kinds = [k for k in a.kinds.split(",") if k]
    if a.child:
        child(a.child, kinds, a.runs)
        return
    if not 1 <= a.runs <= 50:
        raise SystemExit("--runs 1..50")
    with tempfile.TemporaryDirectory(prefix="qisai-papers-") as tmp:
        data = a.data or Path(tmp) / "data"
        data.mkdir(parents=True, exist_ok=True)
        events = [("swiss500x11", 500, 11, True, kinds)]
        if not a.no_big:
            events.append(("random2000x50", 2000, 50, False,
                           [k for k in a.big_kinds.split(",") if k]))
        for name, n, rounds, swiss, _ in events:
            path = data / f"{name}.json"
            if not path.is_file():
                t0 = time.perf_counter()
                sys.path.insert(0, str(ROOT))
                path.write_text(json.dumps(build(n, rounds, a.seed, swiss), ensure_ascii=False),
                                encoding="utf-8")
                print(f"built {path.name} in {time.perf_counter() - t0:.1f} s "
                      f"({path.stat().st_size // 1024} KiB)")
        roots = [r.resolve() for r in a.root] if a.root else [ROOT]
        print(f"{os.cpu_count()} CPUs; {a.runs} warm runs a paper after one cold")
        for root in roots:
            print(f"checkout {root}  (load average {load()})")
            print(f"  {'paper':30s} {'pages':>5s} {'KiB':>6s} {'cold':>6s} "
                  f"{'median':>7s} {'max':>6s} {'CPU med':>8s} {'CPU/page':>9s}")
            env = dict(os.environ, PYTHONPATH=str(root),
                       QISAI_FONT_CACHE=str(Path(tmp) / f"fonts-{abs(hash(root))}"))
            for name, _n, _r, _s, ks in events:
                proc = subprocess.Popen(
                    [sys.executable, str(Path(__file__).resolve()), "--runs", str(a.runs),
                     "--kinds", ",".join(ks), "--child", str(data / f"{name}.json")],
                    env=env, stdout=subprocess.PIPE, text=True)
                assert proc.stdout is not None
                for line in proc.stdout:
                    m = json.loads(line)
                    if "walls" not in m:
                        print(f"  {m['step']:30s} {'':5s} {'':6s} {m['wall']:6.2f} "
                              f"{'':7s} {'':6s} {m['cpu']:8.2f}")
                        continue
                    cpu = statistics.median(m["cpus"])
                    print(f"  {m['step']:30s} {m['pages']:5d} {m['size'] / 1024:6.0f} "
                          f"{m['cold']:6.2f} {statistics.median(m['walls']):7.2f} "
                          f"{max(m['walls']):6.2f} {cpu:8.2f} "
                          f"{1000 * cpu / max(m['pages'], 1):6.2f} ms", flush=True)
                if proc.wait() != 0:
                    raise SystemExit(f"checkout {root}: the child failed ({proc.returncode})")
            print(f"  (load average now {load()})")


if __name__ == "__main__":
    main()
