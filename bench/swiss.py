"""Benchmark of the 积分编排制 pairer.

Simulates a 200-player 9-round and a 500-player 11-round Swiss (ratings
1200-2600, results by the Elo expectation with 30 % draws, seed 12345) and
prints the total pairing time of each (targets: < 3 s and < 15 s).

    python3 bench/swiss.py [--quick]
"""

from __future__ import annotations

import random
import sys
import time

from qisai.competition.model import Colour
from qisai.competition.pairing.swiss import SwissOptions, SwissPlayer, pair_swiss_round


def simulate(n: int, rounds: int, seed: int = 12345) -> tuple[float, list[float]]:
    """Pair and play a simulated event; return (total pairing time, per round)."""
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1200, 2600) for _ in range(n)), reverse=True)
    score = {i: 0.0 for i in range(1, n + 1)}
    opponents: dict[int, set[int]] = {i: set() for i in score}
    colours: dict[int, list[Colour]] = {i: [] for i in score}
    byes = dict.fromkeys(score, 0)
    per_round = []
    for r in range(1, rounds + 1):
        players = [SwissPlayer(i, score[i], i, frozenset(opponents[i]), tuple(colours[i]),
                               byes[i]) for i in score]
        t0 = time.perf_counter()
        res = pair_swiss_round(players, r, SwissOptions(), random.Random(seed + r))
        per_round.append(time.perf_counter() - t0)
        for p in res.pairings:
            if p.black is None:
                score[p.red] += 1.0
                byes[p.red] += 1
                continue
            a, b = p.red, p.black
            if b in opponents[a]:
                raise SystemExit(f"rematch {a}-{b} in round {r}")
            opponents[a].add(b)
            opponents[b].add(a)
            colours[a].append(Colour.RED)
            colours[b].append(Colour.BLACK)
            e = 1 / (1 + 10 ** ((ratings[b - 1] - ratings[a - 1]) / 400))
            x = rng.random()
            if x < 0.3:
                score[a] += 0.5
                score[b] += 0.5
            elif x < 0.3 + 0.7 * e:
                score[a] += 1.0
            else:
                score[b] += 1.0
    return sum(per_round), per_round


def main() -> None:
    cases = [(200, 9, 3.0), (500, 11, 15.0)]
    if "--quick" in sys.argv:
        cases = [(200, 9, 3.0)]
    for n, rounds, target in cases:
        total, per_round = simulate(n, rounds)
        worst = max(per_round)
        verdict = "ok" if total < target else "SLOW"
        print(f"{n} players x {rounds} rounds: {total:.2f} s total pairing time "
              f"(worst round {worst:.2f} s; target < {target:g} s) {verdict}")


if __name__ == "__main__":
    main()
