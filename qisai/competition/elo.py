"""Elo ratings (等级分): expected score and updates after rated games, and
the Elo difference a match's score shows (with its 95 % interval and the
likelihood of superiority, as engine matches report them).

The update is the classical one, R' = R + K (S - E), with
E = 1 / (1 + 10 ** ((R_opp - R) / 400)); ``K`` is a parameter of the rating
list (the Chinese lists use a K that depends on the player's standing; pass
it per player).  Unplayed games (forfeits, byes) are not rated.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping

from qisai.competition.errors import CompetitionError
from qisai.competition.model import Colour, Game

_SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def expected(rating: float, opponent: float) -> float:
    """Return the expected score (0..1) of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def update(rating: float, results: Iterable[tuple[float, float]], k: float = 20.0) -> float:
    """Return the new rating after games given as (opponent rating, score
    0/0.5/1), all rated against the pre-event ratings.

    Raises :class:`CompetitionError` for a score outside 0..1 or K <= 0.
    """
    if k <= 0:
        raise CompetitionError(f"K 须为正数，实为 {k}",
                               f"K must be positive, got {k}")
    change = 0.0
    for opp, score in results:
        if not 0.0 <= score <= 1.0:
            raise CompetitionError(f"一局的得分须在 0..1 之间，实为 {score}",
                                   f"a game score must be within 0..1, got {score}")
        change += score - expected(rating, opp)
    return rating + k * change


def rate_games(ratings: Mapping[int, float], games: Iterable[Game],
               k: float | Callable[[int], float] = 20.0) -> dict[int, float]:
    """Return the ratings after ``games`` (played games only), each player's
    games rated against the ratings before the event.

    ``k`` is a number or a function of the player id.
    Raises :class:`CompetitionError` if a played game names an unrated player.
    """
    per: dict[int, list[tuple[float, float]]] = {p: [] for p in ratings}
    for g in games:
        if not g.result.played or g.black is None:
            continue
        for pid, colour in ((g.red, Colour.RED), (g.black, Colour.BLACK)):
            opp = g.black if pid == g.red else g.red
            if pid not in ratings or opp not in ratings:
                raise CompetitionError(
                    f"第 {g.round} 轮：对局 {g.red}-{g.black} 有无等级分的棋手",
                    f"round {g.round}: game {g.red}-{g.black} has an unrated player")
            per[pid].append((ratings[opp], _SCORE[g.result.outcome(colour).value]))
    out = {}
    for pid, res in per.items():
        kk = k(pid) if callable(k) else k
        out[pid] = update(ratings[pid], res, kk) if res else float(ratings[pid])
    return out


def elo_difference(score: float) -> float:
    """Return the Elo difference that expects ``score`` (0..1, clamped
    inside), the inverse of :func:`expected`."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / score - 1)


def elo_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """Return (Elo difference, lower, upper) with a 95% confidence interval.

    The score's standard error comes from the trinomial per-game variance;
    the bounds are the Elo of score ± 1.96 standard errors.  With no games
    returns (0, -inf, inf); a perfect or zero score gives an infinite bound.
    """
    n = wins + draws + losses
    if n == 0:
        return 0.0, -math.inf, math.inf
    s = (wins + draws / 2) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.96 * se, s + 1.96 * se
    elo = elo_difference(s) if 0 < s < 1 else (math.inf if s == 1 else -math.inf)
    return (elo, elo_difference(lo) if lo > 0 else -math.inf,
            elo_difference(hi) if hi < 1 else math.inf)


def los(wins: int, losses: int) -> float:
    """Return the likelihood of superiority (0..1) from wins and losses."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))
