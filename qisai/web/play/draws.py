"""How an engine answers a draw offer (23.1): from its own evaluation.

* qisai's Xiangqi search: accept if its score for itself is at most
  ``margin_cp`` centipawns (a level or worse position), or it is being mated;
* an external UCI/UCCI/xboard engine: the same with the score of its own
  search (``info score cp``), the threshold being the server's
  ``margin_cp`` (``Hub.draw_margin_cp``); no score: decline;
* Go (a profile with draw offers): accept if qisai's count estimate
  (:func:`qisai.go.deadstones.estimate_dead`, komi included) has the engine
  losing.

The answer is a decision only; the hub applies it as the engine's
``accept_draw`` or ``decline_draw`` and the referee rules as for a person.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from qisai.referee.verdict import Side

__all__ = ["DEFAULT_MARGIN_CP", "accepts_draw"]

DEFAULT_MARGIN_CP = 50
"""Half a soldier: an engine that sees itself no better than this accepts."""


def _builtin_xiangqi_score(board: Any, seconds: float) -> int | None:
    from qisai.engines.builtin.xiangqi_search import SearchLimits, XiangqiSearcher

    start = time.monotonic()
    limits = SearchLimits(soft_deadline=start + seconds * 0.5, hard_deadline=start + seconds)
    result = XiangqiSearcher(hash_entries=1 << 14).search(board, limits)
    return None if result.info is None else int(result.info.score)


async def _uci_score(seat: Any, request: Any) -> tuple[int | None, int | None]:
    from qisai.engines.clients import start_xiangqi_engine
    from qisai.engines.results import Limit

    if getattr(seat, "_engine", None) is None:
        seat._engine = await start_xiangqi_engine(list(seat.spec.argv), seat.spec.protocol,
                                                  name=seat.name)
        await seat._engine.new_game()
    result = await seat._engine.play(request.board, Limit(movetime=request.think),
                                     timeout=request.timeout)
    info = result.last_info
    if info is None or info.score is None:
        return None, None
    return info.score.cp, info.score.mate


def _go_lead(request: Any, side: Side) -> float:
    from qisai.go.deadstones import estimate_dead
    from qisai.go.scoring import score

    board = request.board
    margin = score(board, estimate_dead(board), request.rules.core, komi=request.rules.komi).margin
    lead = float(margin)  # Black's lead
    return lead if side is Side.FIRST else -lead


async def accepts_draw(seat: Any, request: Any, side: Side, kind: str,
                       margin_cp: int = DEFAULT_MARGIN_CP) -> bool:
    """Return whether the engine in ``seat`` playing ``side`` accepts the
    opponent's draw offer in the position of ``request``."""
    from qisai.web.play.opponents import BuiltinXiangqiSeat, UciXiangqiSeat

    think = min(0.5, max(0.05, request.think / 2))
    if kind == "go":
        lead = await asyncio.wait_for(asyncio.to_thread(_go_lead, request, side), request.timeout)
        return lead < 0
    if isinstance(seat, BuiltinXiangqiSeat):
        cp = await asyncio.wait_for(
            asyncio.to_thread(_builtin_xiangqi_score, request.board, think), request.timeout)
        return cp is not None and cp <= margin_cp
    if isinstance(seat, UciXiangqiSeat):
        cp, mate = await _uci_score(seat, request)
        if mate is not None:
            return mate < 0
        return cp is not None and cp <= margin_cp
    return False
