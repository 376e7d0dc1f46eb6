"""The home page's live boards and events calendar (issue 22 items 2 and
3): what their blocks need (:func:`home_blocks`), and the TV page
(``/tv``): the featured game, larger, moving as it goes."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from qisai.store.models import User
from qisai.web.accounts.deps import ViewerDep
from qisai.web.lobby.calendar import calendar
from qisai.web.lobby.live_boards import select_boards
from qisai.web.pages.render import render
from qisai.web.state import SessionDep

__all__ = ["home_blocks", "router"]

router = APIRouter(include_in_schema=False)


def home_blocks(s: Session, viewer: User | None) -> dict[str, Any]:
    """Return the home page's lobby context: ``live`` (the live boards,
    :class:`~qisai.web.lobby.live_boards.Selection`) and ``cal`` (the events
    calendar for ``viewer``)."""
    return {"live": select_boards(s), "cal": calendar(s, viewer)}


@router.get("/tv", response_class=HTMLResponse)
def tv(request: Request, v: ViewerDep, s: SessionDep) -> HTMLResponse:
    """The featured game (the top rated running game), larger; the page
    follows it on the page socket and opens the next one when it ends."""
    return render(request, v, "lobby/tv.html", live=select_boards(s))
