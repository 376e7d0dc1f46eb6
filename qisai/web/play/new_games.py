"""A new server game asked for over HTTP, as the games API (``POST
/api/games``) and the consultations API (``POST /api/consultations``) make
one: its settings checked by the referee, its engine opponent checked and
named, and its creation counted against the creator's quota (:mod:`.quota`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.orm import Session

from qisai.referee.errors import RefereeError
from qisai.store.models import Role, User
from qisai.web.play import referee_games
from qisai.web.play.hub import Hub
from qisai.web.play.quota import QuotaError
from qisai.web.play.referee_games import safe_family
from qisai.web.seats.lineup import kinds_of, listing, opponent_info
from qisai.web.state import AppState

__all__ = ["check_settings", "engine_opponent", "create_counted"]


def check_settings(kind: str, ruleset: str, settings: dict[str, Any]) -> None:
    """Check ``settings`` (time control, rules, board size, FEN) by making
    the referee's game of ``kind`` under profile ``ruleset`` with them, then
    add their time-control family (``settings["family"]``, for the
    leaderboards).  Raises HTTPException 422 with the referee's reason."""
    try:
        referee_games.new_referee_game(kind, ruleset, settings, None)
    except RefereeError as exc:
        raise HTTPException(422, f"game settings: {exc}") from None
    settings["family"] = safe_family(kind, ruleset, settings)


def engine_opponent(hub: Hub, kind: str, engine: str, settings: dict[str, Any]) -> None:
    """Check that engine ``engine`` is offered on this server and plays
    ``kind``, then name it in ``settings["opponent"]`` (its name, version
    and level, for the page and the record) when the server knows them.
    Raises HTTPException 422 naming the engines offered, or those that play
    ``kind``."""
    offered = [e["name"] for e in listing(None, hub.engines, hub.levels)]
    if engine not in offered:
        raise HTTPException(422, f"engine: {engine!r} is not configured on this server; "
                                 f"known: {', '.join(offered)}")
    if kind not in kinds_of(engine, hub.engines, hub.levels):
        able = [e["name"] for e in listing(kind, hub.engines, hub.levels)]
        raise HTTPException(422, f"engine: {engine!r} does not play {kind}; "
                                 f"engines for {kind}: {', '.join(able)}")
    info = opponent_info(engine, hub.levels)
    if info is not None:
        settings["opponent"] = info


async def create_counted(hub: Hub, st: AppState, user: User, request: Request, *,
                         engine: bool, make: Callable[[Session], str]) -> str:
    """Create a game by ``make`` (given a database session, run in a
    thread) once ``user``'s quota allows it: counted as his open seek or,
    ``engine``, his engine game, a guest's also by address (a new guest
    session is one click).  Checks and creations of one player and one
    address are serialised, so two requests at once cannot both take the
    last place.  Returns the new game's id.  Raises HTTPException 429 past
    the quota (its message says which limit), and whatever ``make`` raises.
    """
    address = None
    if user.role == Role.GUEST.value:
        address = request.client.host if request.client else "?"

    def counted() -> str:
        with st.db.session() as s:
            try:
                hub.quota.check(s, user.id, address, engine=engine)
            except QuotaError as exc:
                raise HTTPException(429, exc.message) from None
            return make(s)

    keys = [f"u{user.id}"] + ([] if address is None else [f"a{address}"])
    async with hub.quota.serialised(keys):
        game_id = await run_in_threadpool(counted)
        hub.quota.remember(game_id, address)
    return game_id
