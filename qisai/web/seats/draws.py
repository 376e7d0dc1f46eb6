"""How an engine answers a draw offer (23.1): from its own evaluation.

* a Xiangqi engine (qisai's own or an external UCI/UCCI/xboard one, each in
  a pooled process, never in the server: issue 14.2): accept if the score
  of its own short search (``info score cp``) is at most ``margin_cp``
  centipawns (``Hub.draw_margin_cp``: a level or worse position), or it is
  being mated; no score: decline;
* Go (a profile with draw offers): accept if the count with the engine's
  own dead stones (komi included) has the engine losing.

The answer is a decision only; the hub applies it as the engine's
``accept_draw`` or ``decline_draw`` and the referee rules as for a person.
"""

from __future__ import annotations

from typing import Any

from qisai.referee.verdict import Side

__all__ = ["DEFAULT_MARGIN_CP", "accepts_draw"]

DEFAULT_MARGIN_CP = 50
"""Half a soldier: an engine that sees itself no better than this accepts."""


def _go_lead(request: Any, side: Side, dead: frozenset[Any]) -> float:
    """The count's lead of ``side`` with the engine's own dead stones."""
    from qisai.go.scoring import score

    board = request.board
    margin = score(board, sorted(dead), request.rules.core, komi=request.rules.komi).margin
    lead = float(margin)  # Black's lead
    return lead if side is Side.FIRST else -lead


async def accepts_draw(seat: Any, request: Any, side: Side, kind: str,
                       margin_cp: int = DEFAULT_MARGIN_CP) -> bool:
    """Return whether the engine in ``seat`` playing ``side`` accepts the
    opponent's draw offer in the position of ``request``."""
    from qisai.web.seats.opponents import UciXiangqiSeat

    think = min(0.5, max(0.05, request.think / 2))
    if kind == "go":
        dead = await seat.dead_stones(request)  # the engine's own view, in its process
        return _go_lead(request, side, dead) < 0
    if isinstance(seat, UciXiangqiSeat):  # qisai's own engine too: a pooled process
        cp, mate = await seat.evaluate(request, think)
        if mate is not None:
            return mate < 0
        return cp is not None and cp <= margin_cp
    return False
