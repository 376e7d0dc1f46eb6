"""The analysis board's API (issue 17 item 4); its page, ``GET /analysis``,
is in :mod:`qisai.web.pages.analysis`.

* ``POST /api/analysis/position`` — the position after a line of moves from
  a root, every move checked by the rules cores (422 with the rule for an
  illegal one); open to anyone, bounded (600 moves, a 64 KiB SGF) and
  limited per address;
* ``GET /api/analysis/games/{id}`` — a finished game as a root and its
  moves (409 while it is in play: no help during a game);
* ``GET /api/analysis/engines?kind=`` — the engines that can analyse;
* ``POST /api/analysis/engine`` — an engine's evaluation and best line, in
  a process of the engine pool; needs a session (an account or a guest)
  and is limited per person (:class:`~qisai.web.analysis.engine.Analyst`).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from qisai.web.accounts.deps import UserDep
from qisai.web.analysis.engine import AnalysisError, analyst, engines_for
from qisai.web.analysis.positions import (
    MAX_MOVES,
    MAX_SGF,
    PositionError,
    go_board,
    go_position,
    xiangqi_position,
)
from qisai.web.play.deps import HubDep
from qisai.web.play.live import ActionError
from qisai.web.play.referee_games import result_data
from qisai.web.security import RateLimiter

__all__ = ["finished_game_line", "router"]

router = APIRouter()

_POSITIONS = RateLimiter(600, 60.0, burst=120)
"""Positions a minute per address (each is a replay of at most 600 moves)."""


class Line(BaseModel):
    """A root position and a line of moves from it."""

    kind: Literal["xiangqi", "go"] = "xiangqi"
    fen: str | None = Field(default=None, max_length=120)
    """Xiangqi: the root (``None``: the start position)."""
    size: int | None = Field(default=None, ge=2, le=25)
    """Go: an empty board of this size is the root (unless ``sgf``)."""
    sgf: str | None = Field(default=None, max_length=MAX_SGF)
    """Go: the root is this SGF's set-up and main line."""
    komi: float = Field(default=7.5, ge=-150, le=150)
    moves: list[str] = Field(default_factory=list, max_length=MAX_MOVES)
    """ICCS moves (``h2e2``) or GTP points (``D4``, ``pass``)."""


class EngineAsk(Line):
    """A line to analyse, the engine and the time."""

    engine: str | None = Field(default=None, max_length=64)
    seconds: float = Field(default=1.0, ge=0.1, le=5.0)


def _moves_ok(moves: list[str]) -> None:
    for m in moves:
        if not isinstance(m, str) or len(m) > 8:
            raise PositionError(400, {"code": "analysis_input", "zh": "着法格式有误",
                                      "en": "a move is at most 8 characters", "clause": ""})


def _position(line: Line) -> dict[str, Any]:
    _moves_ok(line.moves)
    if line.kind == "xiangqi":
        return xiangqi_position(line.fen, line.moves)
    return go_position(line.size, line.sgf, line.moves, line.komi)


@router.post("/api/analysis/position", tags=["analysis"])
def position(line: Line, request: Request) -> Any:
    """Return the position after ``moves`` from the root (see
    :mod:`qisai.web.analysis.positions`); 422 with the rule broken by an
    illegal move (``ply``: which), 400 for a bad root, 429 when too many."""
    address = request.client.host if request.client else "?"
    if _POSITIONS.hit(f"a{address}") > 0:
        return JSONResponse({"detail": "too many positions; slow down", "code": "analysis_rate",
                             "zh": "请求太频繁", "en": "Too many requests; slow down",
                             "clause": ""}, status_code=429)
    try:
        return _position(line)
    except PositionError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)


@router.get("/api/analysis/engines", tags=["analysis"])
def engines(hub: HubDep, kind: Literal["xiangqi", "go"] = "xiangqi") -> list[str]:
    """Return the engines that can analyse ``kind`` (the first is the default)."""
    return engines_for(hub, kind)


@router.get("/api/analysis/games/{game_id}", tags=["analysis"])
async def game_line(game_id: str, hub: HubDep) -> Any:
    """Return a finished game for the board: its root (``fen`` or ``size``),
    its moves and players.  404 for an unknown game, 409 while it is in play
    (the analysis board gives no help during a game)."""
    try:
        data = await finished_game_line(hub, game_id)
    except ActionError as exc:
        return JSONResponse({"detail": exc.message, "code": "analysis_game",
                             "zh": "没有这个对局", "en": exc.message, "clause": ""},
                            status_code=exc.status)
    if data is None:
        return JSONResponse({"detail": "the game is still in play; analyse it once it is over",
                             "code": "analysis_in_play", "zh": "对局还在进行，结束后才能分析",
                             "en": "The game is still in play; analyse it once it is over",
                             "clause": ""}, status_code=409)
    return data


async def finished_game_line(hub: Any, game_id: str) -> dict[str, Any] | None:
    """Return the finished game ``game_id`` as a root and its moves, or
    ``None`` while it is in play.  Raises :class:`ActionError` (404) for an
    unknown game."""
    live = await hub.get(game_id)
    async with live.lock:
        game = live.game
        if not game.is_over:
            return None
        moves = ["pass" if rec.void else rec.move for rec in game.moves]
        out: dict[str, Any] = {"id": live.id, "kind": live.kind, "moves": moves,
                               "result": (result_data(game) or {}).get("pgn")}
        if live.kind == "xiangqi":
            out["fen"] = getattr(game, "start_fen", None)
        else:
            out["size"] = game.rules.board_size
            out["komi"] = float(game.rules.core.komi)
        return out


@router.post("/api/analysis/engine", tags=["analysis"])
async def engine_line(ask: EngineAsk, hub: HubDep, user: UserDep) -> Any:
    """Return the engine's evaluation and best line for the position after
    ``moves``: Xiangqi ``cp``/``mate`` (Red's view), ``depth``, ``pv`` and
    ``pv_text`` (Chinese notation); Go ``winrate``/``score_lead`` (the side
    to move), ``best`` and ``pv``.  401 without a session; 404 for an unknown
    engine; 429 while one's previous analysis runs or beyond the rate; 503
    when the engine fails."""
    try:
        _moves_ok(ask.moves)
        if ask.kind == "xiangqi":
            from qisai.xiangqi import Board, Move

            xiangqi_position(ask.fen, ask.moves)  # checks every move first
            board = Board(ask.fen) if ask.fen else Board()
            for m in ask.moves:
                board.push(Move.from_iccs(m))
            if not board.legal_moves():
                raise AnalysisError(409, "analysis_over", "对局已结束（将死或困毙），无需分析",
                                    "The game is over here (mate or stalemate)")
            rules = None
        else:
            from qisai.go.coords import parse_gtp
            from qisai.web.play.referee_games import make_rules

            go_position(ask.size, ask.sgf, ask.moves, ask.komi)  # checks every move first
            board = go_board(ask.size, ask.sgf)
            for m in ask.moves:
                board.play(parse_gtp(m, board.size))
            rules = make_rules("go", "go-casual", {"size": board.size})
        return await analyst(hub).run(f"u{user.id}", ask.kind, ask.engine, board, rules,
                                      ask.seconds)
    except PositionError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)
    except AnalysisError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)
