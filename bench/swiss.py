"""Benchmark and measurements of the 积分编排制 pairer.

Default: simulates a 200-player 9-round and a 500-player 11-round Swiss
(ratings 1200-2600, results by the Elo expectation with 30 % draws, 3 %
forfeits of one side or both (21.3, 21.4) and 1 % withdrawals per round
(20.4), seed 12345) and prints the total pairing time of each (targets:
< 3 s and < 15 s).

``--crossings``: 10 simulated 30-player 9-round events; for rounds 2-9 it
counts the boards joining unequal scores and compares them with the fewest
any rematch-free pairing of that round could have (an exact minimum-weight
perfect matching); prints how many rounds crossed score boundaries more than
needed, for the default options and for ``colour_rule="hard"``.

``--dead-ends``: 20 simulated 10-player 9-round events with random results,
paired through :class:`qisai.competition.tournament.Tournament`; prints how
many stopped with "no pairing without rematch".

    python3 bench/swiss.py [--quick] [--crossings] [--dead-ends]
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's qisai

import networkx as nx  # noqa: E402

from qisai.competition.errors import PairingError  # noqa: E402
from qisai.competition.model import Colour  # noqa: E402
from qisai.competition.pairing.swiss import (  # noqa: E402
    SwissPlayer,
    SwissResult,
    pair_swiss_round,
)
from qisai.competition.pairing.swiss_options import SwissOptions  # noqa: E402

RoundHook = Callable[[int, list[SwissPlayer], SwissResult], None]


def simulate(n: int, rounds: int, seed: int = 12345, *, options: SwissOptions | None = None,
             forfeits: float = 0.03, withdrawals: float = 0.01,
             hook: RoundHook | None = None) -> tuple[float, list[float]]:
    """Pair and play a simulated event; return (total pairing time, per round).

    Results: Elo expectation with 30 % draws; ``forfeits`` of the boards are
    forfeits (one side or both, counted as opponents met but no colour);
    after each round each entry withdraws with probability ``withdrawals``
    (20.4: it is paired no more).  ``hook`` sees every paired round.
    """
    rng = random.Random(seed)
    ratings = sorted((rng.randint(1200, 2600) for _ in range(n)), reverse=True)
    score = {i: 0.0 for i in range(1, n + 1)}
    opponents: dict[int, set[int]] = {i: set() for i in score}
    colours: dict[int, list[Colour]] = {i: [] for i in score}
    byes = dict.fromkeys(score, 0)
    unplayed = dict.fromkeys(score, 0)
    active = set(score)
    per_round = []
    opts = options or SwissOptions()
    for r in range(1, rounds + 1):
        players = [SwissPlayer(i, score[i], i, frozenset(opponents[i]), tuple(colours[i]),
                               byes[i], None, unplayed[i]) for i in sorted(active)]
        t0 = time.perf_counter()
        res = pair_swiss_round(players, r, opts, random.Random(seed + r),
                               rounds_left=rounds - r)
        per_round.append(time.perf_counter() - t0)
        if hook is not None:
            hook(r, players, res)
        for p in res.pairings:
            if p.black is None:
                score[p.red] += 1.0
                byes[p.red] += 1
                unplayed[p.red] += 1
                continue
            a, b = p.red, p.black
            if b in opponents[a]:
                raise SystemExit(f"rematch {a}-{b} in round {r}")
            opponents[a].add(b)
            opponents[b].add(a)
            x = rng.random()
            if x < forfeits:
                y = rng.random()
                if y < 0.45:
                    score[a] += 1.0
                elif y < 0.9:
                    score[b] += 1.0
                unplayed[a] += 1
                unplayed[b] += 1
                continue
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
        for i in sorted(active):
            if len(active) > 2 * (rounds - r) + 2 and rng.random() < withdrawals:
                active.discard(i)
    return sum(per_round), per_round


def crossing_vector(pairs: list[tuple[int, int]], score: dict[int, float]) -> list[int]:
    """Boards crossing each score boundary, top boundary first (Appendix 2:
    "由最高分按积分段逐段向下编排": a crossing higher up weighs more than any
    number of crossings below it)."""
    levels = sorted(set(score.values()), reverse=True)
    v = [0] * len(levels)
    for a, b in pairs:
        la, lb = sorted((levels.index(score[a]), levels.index(score[b])))
        for k in range(la, lb):
            v[k] += 1
    return v


def fewest_crossings(players: list[SwissPlayer]) -> list[int]:
    """The best crossing vector (:func:`crossing_vector`, compared top
    boundary first) over every rematch-free pairing of ``players`` (an even
    field): an exact maximum-weight perfect matching with lexicographic
    weights, independent of the pairer's own code."""
    score = {p.id: p.score for p in players}
    levels = sorted(set(score.values()), reverse=True)
    base = len(players) // 2 + 2
    weight = [base ** (len(levels) - 1 - k) for k in range(len(levels))]
    top = sum(weight) + 1
    g = nx.Graph()
    for x, a in enumerate(players):
        for b in players[x + 1:]:
            if b.id not in a.opponents:
                la, lb = sorted((levels.index(a.score), levels.index(b.score)))
                g.add_edge(a.id, b.id, weight=top - sum(weight[la:lb]))
    matching = nx.max_weight_matching(g, maxcardinality=True)
    return crossing_vector(list(matching), score)


def crossings(options: SwissOptions, events: int = 10) -> tuple[int, int, int, int]:
    """Return (rounds crossing more than needed, rounds, boards across scores
    in ours, boards across scores in the best) over ``events`` simulated
    30-player 9-round events.  A round crosses more than needed when its
    crossing vector is worse, top boundary first, than the best possible."""
    worse = total = ours_sum = best_sum = 0

    def hook(r: int, players: list[SwissPlayer], res: SwissResult) -> None:
        nonlocal worse, total, ours_sum, best_sum
        if r == 1 or len(players) % 2:
            return
        score = {p.id: p.score for p in players}
        ours = crossing_vector([(p.red, p.black) for p in res.pairings
                                if p.black is not None], score)
        best = fewest_crossings(players)
        total += 1
        worse += ours > best
        ours_sum += sum(1 for p in res.pairings if p.black is not None
                        and score[p.red] != score[p.black])
        best_sum += sum(best)
        assert ours >= best, (ours, best)

    for seed in range(events):
        simulate(30, 9, seed, options=options, forfeits=0.0, withdrawals=0.0, hook=hook)
    return worse, total, ours_sum, best_sum


def dead_ends(events: int = 20) -> int:
    """Return how many of ``events`` simulated 10x9 Tournament events stop
    with a :class:`PairingError`."""
    from qisai.competition.model import Result
    from qisai.competition.tournament import Player, Tournament

    stopped = 0
    for seed in range(events):
        rng = random.Random(seed)
        t = Tournament(f"t{seed}", "swiss", rounds=9, seed=seed)
        for i in range(10):
            t.add_player(Player(f"P{i + 1}", rng.randint(1200, 2600)))
        t.start()
        try:
            for _ in range(9):
                rec = t.pair_next_round()
                for p in rec.pairings:
                    if not p.is_bye and p.board not in rec.results:
                        t.record_result(rec.number, p.board, rng.choice(
                            [Result.RED_WIN, Result.DRAW, Result.BLACK_WIN]))
        except PairingError:
            stopped += 1
    return stopped


def main() -> None:
    if "--crossings" in sys.argv:
        for label, opts in (("default (score groups first)", SwissOptions()),
                            ("colour_rule='hard'", SwissOptions(colour_rule="hard"))):
            worse, total, ours, best = crossings(opts)
            print(f"30x9, {label}: {worse} of {total} rounds crossed score boundaries more "
                  f"than needed ({ours} boards across scores)")
        return
    if "--dead-ends" in sys.argv:
        print(f"10x9: {dead_ends()} of 20 simulated events stopped at a dead end")
        return
    import scipy.optimize  # noqa: F401  (the pairer loads it lazily: not part of a round)

    cases = [(200, 9, 3.0), (500, 11, 15.0)]
    if "--quick" in sys.argv:
        cases = [(200, 9, 3.0)]
    for n, rounds, target in cases:
        total, per_round = simulate(n, rounds)
        worst = max(per_round)
        verdict = "ok" if total < target else "SLOW"
        print(f"{n} players x {rounds} rounds (draws, forfeits, withdrawals): {total:.2f} s "
              f"total pairing time (worst round {worst:.2f} s; target < {target:g} s) "
              f"{verdict}")


if __name__ == "__main__":
    main()
