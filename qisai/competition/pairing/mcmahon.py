"""McMahon pairing for Go events.

Each entry starts with a McMahon score (MMS) from its rank: ranks at or
above the *bar* all start equal, ranks at or below the *floor* all start at
0, and every rank in between one point apart.  Rounds are then paired like
积分编排制 on MMS = start + points (:func:`pair_mcmahon_round`), so strong
players meet strong players from round 1 and the rest of the Swiss rules
(no rematch, byes, colour balance, explanations) are unchanged.

Ranks are written ``5d``/``5段`` (dan) or ``3k``/``3级`` (kyu); 1d is one
above 1k.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from qisai.competition.errors import PairingError
from qisai.competition.pairing.swiss import SwissPlayer, SwissResult, pair_swiss_round
from qisai.competition.pairing.swiss_options import SwissOptions

_RANK = re.compile(r"^\s*(\d{1,2})\s*([dDkK段级])\s*$")


def rank_value(rank: str) -> int:
    """Return a rank as an integer: 1d = 0, 2d = 1, ..., 1k = -1, 30k = -30.

    Raises :class:`PairingError` for an unreadable rank.
    """
    m = _RANK.match(rank)
    if not m:
        raise PairingError(f"看不懂的围棋段级位 {rank!r}；请写如 3d、5k、2段、10级",
                           f"unreadable Go rank {rank!r}; write e.g. 3d, 5k, 2段, 10级")
    n, kind = int(m.group(1)), m.group(2).lower()
    if n < 1 or (kind in ("d", "段") and n > 9) or (kind in ("k", "级") and n > 30):
        raise PairingError(f"围棋段级位超出范围：{rank!r}",
                           f"Go rank out of range: {rank!r}")
    return n - 1 if kind in ("d", "段") else -n


def initial_scores(ranks: Mapping[int, str], bar: str, floor: str) -> dict[int, int]:
    """Return each entry's starting McMahon score from its rank.

    Raises :class:`PairingError` if the bar is below the floor or a rank is
    unreadable.
    """
    top, bottom = rank_value(bar), rank_value(floor)
    if top < bottom:
        raise PairingError(f"麦克马洪上限 {bar} 低于下限 {floor}",
                           f"McMahon bar {bar} is below the floor {floor}")
    return {pid: min(max(rank_value(r), bottom), top) - bottom for pid, r in ranks.items()}


def pair_mcmahon_round(players: Sequence[SwissPlayer], start: Mapping[int, float],
                       round_no: int, options: SwissOptions,
                       rng: random.Random) -> SwissResult:
    """Pair a round on McMahon scores: each player's ``score`` (points so far)
    plus its starting score.

    Returns the :class:`SwissResult`; raises :class:`PairingError` if a
    player has no starting score or no pairing exists.
    """
    missing = [p.id for p in players if p.id not in start]
    if missing:
        raise PairingError(f"{', '.join(map(str, missing))} 没有麦克马洪起始分",
                           f"no McMahon starting score for {', '.join(map(str, missing))}")
    shifted = [replace(p, score=p.score + start[p.id]) for p in players]
    # round 1 too is paired by MMS groups, not by the halves draw of Appendix 2
    return pair_swiss_round(shifted, round_no, options, rng, draw_first_round=False)
