"""A ladder of the Xiangqi engines people have: a round robin under the CXA
referee at a fixed time control, then an Elo table with error bars.

    nice -n 19 python bench/engine_ladder.py [--tc 10+0.1] [--games 4]
        [--concurrency 2] [--skills 0,5,10] [--pgnout ladder.pgn]

The engines: qisai's built-in engine (UCI, ``cmd=builtin``), Fairy-Stockfish
(UCI, ``UCI_Variant xiangqi``) at the Skill Levels of ``--skills`` (with a
Move Overhead of ``--fsf-overhead`` ms: the clocks are wall time, and on a
loaded machine its default 30 ms lost games on time), MaxQi
(xboard; Debian's ``fairymax`` package) and Sjaak II (xboard).  Those not
installed are left out, with a line saying so.  Every game is refereed by
:mod:`qisai.referee` under ``cxa`` (the 2011 CXA rules: 棋例, natural
limit, time, illegal moves, offers and claims); a game still going at
``--maxplies`` is drawn by the arbiter (4.2.1).  ``--games`` is per pairing
(made even: each opening with both colours, here the standard start).

Ratings: a Bradley-Terry model (the model behind Elo, and behind ordo and
bayeselo) fitted by ``choix`` (PyPI, maintained; ``ilsr_pairwise``, the
iterative Luce spectral ranking, on numpy/scipy, which qisai already needs).
Debian packages neither ordo nor bayeselo (``apt-cache policy ordo
bayeselo`` finds nothing), and choix is a library, not a program to drive.
A draw counts as half a win each way (each game enters twice: a win as two
wins, a draw as one each way).  ``--alpha`` is choix's regularisation,
a small prior of equality that keeps a perfect score finite.  The error
bars are a bootstrap over the games (``--bootstrap`` resamplings, refitted
by choix; the 2.5th-97.5th percentiles), as ordo gets its errors by
simulation.  Elo is the fitted strength times 400/ln 10, the average set
to 0.

Measured on 2026-12-01, ``nice -n 19 python bench/engine_ladder.py``
(the defaults: ``--tc 10+0.1 --games 4 --concurrency 2``), 2 cores shared
with other work (load average 17-22 during the run), 60 games in 9.3 min::

     # engine           games       score    Elo    95% interval     ±
     1 fsf-skill10         20    17 ( 85%)   +187 [  +109,  +273]    82
     2 sjaak-ii            20    12 ( 60%)    +68 [   -35,  +175]   105
     3 maxqi               20  10.5 ( 52%)    +29 [  -110,  +142]   126
     4 fsf-skill5          20    10 ( 50%)    +16 [   -81,  +117]    99
     5 qisai-builtin       20   9.5 ( 48%)     +3 [  -100,   +96]    98
     6 fsf-skill0          20     1 (  5%)   -303 [  -426,  -191]   117

    Endings: checkmate 52, time_forfeit 4, stalemate 2, perpetual_check 1,
    no_win_possible 1 (the 300-ply limit)

The clocks are wall time, so on a loaded machine every engine plays
weaker than it would alone (and the four losses on time are the load's as
much as the engines'); compare runs made at a similar load.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from qisai.competition.match import (
    EngineSpec,
    GameRecord,
    MatchConfig,
    MatchReport,
    parse_time_control,
    play_match,
)
from qisai.engines.play import Adjudication
from qisai.referee.verdict import Outcome, Side

ELO_PER_NAT = 400 / math.log(10)


def find(program: str) -> str | None:
    """Return the path of ``program`` (``PATH`` or ``/usr/games``), or None."""
    found = shutil.which(program)
    if found:
        return found
    candidate = Path("/usr/games") / program
    return str(candidate) if os.access(candidate, os.X_OK) else None


def ladder_engines(skills: Sequence[int], overhead: int) -> list[EngineSpec]:
    """The engines installed here, as match entries (``overhead``:
    Fairy-Stockfish's Move Overhead, milliseconds)."""
    engines = [EngineSpec.parse("name=qisai-builtin cmd=builtin")]
    fairy = find("fairy-stockfish")
    if fairy is None:
        print("fairy-stockfish is not installed: left out (apt-get install fairy-stockfish)")
    else:
        engines += [EngineSpec.parse(f"name=fsf-skill{s} cmd={fairy} proto=uci "
                                     f"option.Skill_Level={s} option.Move_Overhead={overhead}")
                    for s in skills]
    for name, program, package in (("maxqi", "maxqi", "fairymax"),
                                   ("sjaak-ii", "sjaakii", "sjaakii")):
        path = find(program)
        if path is None:
            print(f"{program} is not installed: left out (apt-get install {package})")
        else:
            engines.append(EngineSpec.parse(f"name={name} cmd={path} proto=xboard"))
    return engines


def game_scores(report: MatchReport) -> list[tuple[int, int, float]]:
    """(engine a, engine b, a's score) of every game with a result."""
    out = []
    for record in report.games:
        result = record.report.result
        assert result is not None
        first = record.first
        second = record.pair[1] if first == record.pair[0] else record.pair[0]
        if result.outcome is Outcome.DRAW:
            out.append((first, second, 0.5))
        elif result.outcome is Outcome.WIN and result.winner is not None:
            out.append((first, second, 1.0 if result.winner is Side.FIRST else 0.0))
    return out


def fit_elo(n: int, games: Sequence[tuple[int, int, float]], alpha: float) -> list[float]:
    """Bradley-Terry strengths of the ``n`` engines by choix, as Elo with
    the average 0.  Raises :class:`ImportError` without choix."""
    import choix

    data: list[tuple[int, int]] = []
    for a, b, score in games:
        if score == 1.0:
            data += [(a, b), (a, b)]
        elif score == 0.0:
            data += [(b, a), (b, a)]
        else:
            data += [(a, b), (b, a)]
    params = choix.ilsr_pairwise(n, data, alpha=alpha)
    elo = [float(p) * ELO_PER_NAT for p in params]
    mean = sum(elo) / n
    return [e - mean for e in elo]


def bootstrap(n: int, games: Sequence[tuple[int, int, float]], alpha: float, rounds: int,
              seed: int = 1) -> list[tuple[float, float]]:
    """The 2.5th and 97.5th percentiles of each engine's Elo over
    ``rounds`` resamplings of the games."""
    import numpy as np

    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(rounds):
        picked = [games[i] for i in rng.integers(0, len(games), len(games))]
        samples.append(fit_elo(n, picked, alpha))
    table = np.array(samples)
    return [(float(np.percentile(table[:, i], 2.5)), float(np.percentile(table[:, i], 97.5)))
            for i in range(n)]


def table(names: Sequence[str], games: Sequence[tuple[int, int, float]], alpha: float,
          rounds: int) -> str:
    """The Elo table: rank, engine, games, score, Elo and its 95% interval."""
    n = len(names)
    elo = fit_elo(n, games, alpha)
    bounds = bootstrap(n, games, alpha, rounds)
    played = [0] * n
    points = [0.0] * n
    for a, b, score in games:
        played[a] += 1
        played[b] += 1
        points[a] += score
        points[b] += 1 - score
    lines = [f"{'#':>2} {'engine':<16} {'games':>5} {'score':>11} {'Elo':>6} "
             f"{'95% interval':>15} {'±':>5}"]
    for rank, i in enumerate(sorted(range(n), key=lambda k: -elo[k]), 1):
        lo, hi = bounds[i]
        pct = 100 * points[i] / played[i] if played[i] else 0.0
        lines.append(f"{rank:>2} {names[i]:<16} {played[i]:>5} {points[i]:>5g} ({pct:3.0f}%) "
                     f"{elo[i]:>+6.0f} [{lo:>+6.0f},{hi:>+6.0f}] {(hi - lo) / 2:>5.0f}")
    return "\n".join(lines)


def main() -> None:
    """Play the ladder and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tc", default="10+0.1", help="time control (qisai match --tc)")
    parser.add_argument("--games", type=int, default=4, help="games per pairing")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--skills", default="0,5,10", help="Fairy-Stockfish Skill Levels")
    parser.add_argument("--maxplies", type=int, default=300)
    parser.add_argument("--pgnout", type=Path, default=None)
    parser.add_argument("--fsf-overhead", type=int, default=300,
                        help="Fairy-Stockfish's Move Overhead (ms): the clock is wall time")
    parser.add_argument("--alpha", type=float, default=0.5, help="choix regularisation")
    parser.add_argument("--bootstrap", type=int, default=1000)
    args = parser.parse_args()
    try:
        import choix  # noqa: F401
    except ImportError:
        sys.exit("the ladder's ratings need choix: pip install choix (or pip install .[bench])")
    skills = [int(s) for s in args.skills.split(",") if s.strip()]
    engines = ladder_engines(skills, args.fsf_overhead)
    config = MatchConfig("xiangqi", engines, time=parse_time_control(args.tc), rules="cxa",
                         games=args.games, concurrency=args.concurrency,
                         tournament="round-robin", pgnout=args.pgnout, startup_timeout=30,
                         adjudication=Adjudication(max_plies=args.maxplies))
    total = len(config.pairings()) * (args.games + args.games % 2)
    print(f"{len(engines)} engines, {total} games at {args.tc}, concurrency {args.concurrency}, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    names = [e.name for e in engines]
    started = time.monotonic()

    def on_game(record: GameRecord, report: MatchReport) -> None:
        result = record.report.result
        assert result is not None
        red, black = record.report.names
        print(f"[{len(report.games):>3}/{total} {time.monotonic() - started:6.0f} s] "
              f"{red} - {black}: {result.pgn_result} ({result.reason.value}, "
              f"{len(record.report.game.moves)} plies)", flush=True)

    report = play_match(config, on_game)
    wall = time.monotonic() - started
    print()
    print(table(names, game_scores(report), args.alpha, args.bootstrap))
    print()
    print("\n".join(line for line in report.summary().splitlines()
                    if line.startswith(("Endings", "Faults"))))
    print(f"{len(report.games)} games in {wall / 60:.1f} min (wall); load average now "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
