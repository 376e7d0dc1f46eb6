"""The analysis board's page (issue 17 item 4): ``?game=ID`` (a finished
game; its moves are the main line), ``?fen=...`` (a Xiangqi position),
``?kind=go&size=N``; an SGF or a FEN can be pasted on the page.  The board
works through the API of :mod:`qisai.web.analysis.routes`."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from qisai.web.accounts.deps import ViewerDep
from qisai.web.analysis.engine import engine_labels
from qisai.web.analysis.routes import finished_game_line
from qisai.web.pages.render import embed_json, render
from qisai.web.play.deps import HubDep
from qisai.web.play.live import ActionError

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.get("/analysis", response_class=HTMLResponse)
async def page(request: Request, v: ViewerDep, hub: HubDep, game: str | None = None,
               kind: Literal["xiangqi", "go"] = "xiangqi", fen: str | None = None,
               size: int = 19) -> HTMLResponse:
    """The analysis board; a game still in play, or none, is said so on
    the page (and the board starts from the start position)."""
    start: dict[str, Any] = {"kind": kind, "fen": fen if fen and len(fen) <= 120 else None,
                             "size": size if 2 <= size <= 25 else 19, "moves": []}
    error = None
    if game:
        try:
            data = await finished_game_line(hub, game[:40])
        except ActionError:
            data, error = None, "analysis_game"
        if data is None and error is None:
            error = "analysis_in_play"
        if data is not None:
            start = {**start, **data}
    return render(request, v, "analysis/board.html", start_json=embed_json(start),
                  start=start, error=error,
                  engines=engine_labels(hub, start["kind"]))
