"""How an engine answers a draw offer (23.1): it accepts only when its own
evaluation says the game is drawn, as the lichess bots do (issue 32.7).

* Xiangqi (qisai's own engine or an external UCI/UCCI/xboard one, each in a
  pooled process, never in the server: issue 14.2):

  - no side has an attacking piece left (车, 马, 炮 or a 兵/卒 over the
    river, the "子力" that can give mate: 棋例 (4) counts 士/相 too, but they
    never leave their own half): drawn whatever the score;
  - else drawn when the engine's own short search scores the position
    within ``margin_cp`` centipawns of level (``Hub.draw_margin_cp``) with
    no mate seen, *and* the material is down to an ending: at most
    ``pieces`` attacking pieces on the board in all (``DRAWN_PIECES``).
    A level opening (score +20 after 炮二平五) is not a drawn game, and a
    lost one is not either: the engine declines both.

* Go (a profile with draw offers): drawn when the count with the engine's
  own dead stones is equal (komi included: only an integer komi allows it)
  and the game is settled: at most one line's worth of points (the board's
  size) belongs to nobody.  On an empty board every count may be equal, but
  every point is still nobody's: nothing is decided.

The answer is a decision only; the hub applies it as the engine's
``accept_draw`` or ``decline_draw`` and the referee rules as for a person.
"""

from __future__ import annotations

from typing import Any

from qisai.referee.verdict import Side

__all__ = ["DEFAULT_MARGIN_CP", "DRAWN_PIECES", "accepts_draw", "attacking_pieces",
           "drawn_by_evaluation"]

DEFAULT_MARGIN_CP = 30
"""Level within a third of a soldier: a score this close to 0 is drawn."""
DRAWN_PIECES = 4
"""An ending: at most this many attacking pieces (车马炮过河兵) on the board."""


def attacking_pieces(board: Any) -> int:
    """Return how many attacking pieces (车, 马, 炮 and the 兵/卒 that have
    crossed the river) both sides of the Xiangqi ``board`` have in all."""
    from qisai.xiangqi.pieces import CANNON, HORSE, PAWN, ROOK, Color

    count = 0
    for color in (Color.RED, Color.BLACK):
        for sq in board.pieces(color):
            kind = abs(board.piece_value_at(sq))
            if kind in (ROOK, HORSE, CANNON):
                count += 1
            elif kind == PAWN:
                rank = sq // 9  # ranks 0-4 are Red's half, 5-9 Black's (1.1)
                count += (rank >= 5) if color is Color.RED else (rank <= 4)
    return count


def drawn_by_evaluation(attackers: int, cp: int | None, mate: int | None,
                        margin_cp: int = DEFAULT_MARGIN_CP, pieces: int = DRAWN_PIECES) -> bool:
    """Return whether a Xiangqi position with ``attackers`` attacking pieces,
    scored ``cp`` centipawns (or mate in ``mate``) by the engine for itself,
    is drawn by that evaluation (see the module's rule)."""
    if attackers == 0:
        return True
    if mate is not None or cp is None:
        return False
    return attackers <= pieces and abs(cp) <= margin_cp


def _go_drawn(request: Any, dead: frozenset[Any]) -> bool:
    """Whether the count with the engine's own dead stones is equal and the
    game settled (at most ``size`` points are nobody's)."""
    from qisai.go.scoring import score

    board = request.board
    count = score(board, sorted(dead), request.rules.core, komi=request.rules.komi)
    return count.margin == 0 and len(count.shared) <= board.size


async def accepts_draw(seat: Any, request: Any, side: Side, kind: str,
                       margin_cp: int = DEFAULT_MARGIN_CP, pieces: int = DRAWN_PIECES) -> bool:
    """Return whether the engine in ``seat`` playing ``side`` accepts the
    opponent's draw offer in the position of ``request``: only when its own
    evaluation says the game is drawn (the module's rule).  Engine failures
    propagate (the hub rules on them)."""
    from qisai.web.seats.opponents import UciXiangqiSeat

    think = min(0.5, max(0.05, request.think / 2))
    if kind == "go":
        dead = await seat.dead_stones(request)  # the engine's own view, in its process
        return _go_drawn(request, dead)
    attackers = attacking_pieces(request.board)
    if attackers == 0:
        return True  # nobody can mate: no search needed
    if attackers > pieces:
        return False  # not an ending: no search needed either
    if isinstance(seat, UciXiangqiSeat):  # qisai's own engine too: a pooled process
        cp, mate = await seat.evaluate(request, think)
        return drawn_by_evaluation(attackers, cp, mate, margin_cp, pieces)
    return False
