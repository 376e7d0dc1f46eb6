"""Simulation helpers: play a whole event with random results."""

from __future__ import annotations

import random

from qisai.competition.model import Result
from qisai.competition.tournament import Player, Tournament

PLAYED = (Result.RED_WIN, Result.DRAW, Result.BLACK_WIN)


def make_event(n: int, system: str = "swiss", rounds: int | None = None, seed: int = 0,
               **kw: object) -> Tournament:
    """A started event of ``n`` players rated 2600 downwards."""
    t = Tournament(f"sim{n}", system, rounds=rounds, seed=seed, **kw)  # type: ignore[arg-type]
    rng = random.Random(seed)
    for i in range(n):
        t.add_player(Player(f"P{i + 1:03d}", rng.randint(1200, 2600),
                            club=f"C{rng.randint(1, 4)}"))
    t.start()
    return t


def play_round(t: Tournament, rng: random.Random, forfeit_rate: float = 0.0) -> None:
    """Pair the next round and enter random results (Elo-weighted)."""
    rec = t.pair_next_round()
    for p in rec.pairings:
        if p.is_bye or p.board in rec.results:
            continue
        assert p.black is not None
        x = rng.random()
        if x < forfeit_rate:
            res = rng.choice([Result.RED_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN,
                              Result.DOUBLE_FORFEIT])
        else:
            ra, rb = t.player(p.red).rating, t.player(p.black).rating
            e = 1 / (1 + 10 ** ((rb - ra) / 400))
            y = rng.random()
            res = Result.DRAW if y < 0.3 else (
                Result.RED_WIN if y < 0.3 + 0.7 * e else Result.BLACK_WIN)
        t.record_result(rec.number, p.board, res, red_fouls=int(rng.random() < 0.05))
