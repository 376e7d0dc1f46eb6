"""The play domain's request dependencies: the hub of live games, a live
game by id (404 if unknown)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException
from starlette.requests import HTTPConnection

from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.state import AppState

__all__ = ["HubDep", "hub", "hub_of", "live_game"]


def hub_of(st: AppState) -> Hub:
    """Return the app's :class:`Hub` (kept untyped on the shared state)."""
    h = st.hub
    assert isinstance(h, Hub), "the app has no live-game hub"
    return h


async def hub(conn: HTTPConnection) -> Hub:
    """Return the app's :class:`Hub` (a request or a socket); async, so that
    FastAPI does not hop to a worker thread for it."""
    return hub_of(conn.app.state.qisai)


async def live_game(h: Hub, game_id: str) -> LiveGame:
    """Return live game ``game_id``; 404 if there is none."""
    try:
        return await h.get(game_id)
    except ActionError as exc:
        raise HTTPException(exc.status, exc.message) from None


HubDep = Annotated[Hub, Depends(hub)]
"""The live games, as a parameter type."""
