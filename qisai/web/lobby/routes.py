"""The lobby API: quick-pairing pools (``/api/pools``), leaderboards
(``/api/leaderboards``) and player search (``/api/players``).

Pools need a session (a guest session too: guests play casual games);
a cookie session also needs the CSRF token to join or cancel.  A player
only ever sees and changes their own entry (``/api/pools/me``).
Leaderboards and the search are public and read-only.  Every input is
bounded: pool ids are the catalogue's, queries 1-40 characters, pages
1-200 of at most 50 rows.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from starlette.requests import HTTPConnection

from qisai.referee.time_families import FAMILIES
from qisai.store.models import Role
from qisai.web.accounts.deps import UserDep, ViewerDep
from qisai.web.lobby import players
from qisai.web.lobby.controls import CONTROLS
from qisai.web.lobby.pools import PoolError, Pools
from qisai.web.lobby.service import Lobby
from qisai.web.state import SessionDep

__all__ = ["LobbyDep", "lobby_of", "router"]

router = APIRouter(prefix="/api", tags=["lobby"])

MAX_PAGE = 200
"""The last page a list is read to (pages beyond it are refused)."""


def lobby_of(conn: HTTPConnection) -> Lobby:
    """Return the app's :class:`Lobby` (set by the app factory)."""
    lobby = getattr(conn.app.state, "lobby", None)
    assert isinstance(lobby, Lobby), "the app has no lobby"
    return lobby


LobbyDep = Annotated[Lobby, Depends(lobby_of)]
"""The app's lobby, as a parameter type."""

PoolId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[a-z0-9.+-]+$")]
Page = Annotated[int, Query(ge=1, le=MAX_PAGE)]
PerPage = Annotated[int, Query(ge=1, le=50)]


def _refused(exc: PoolError) -> HTTPException:
    return HTTPException(exc.status, exc.message)


@router.get("/pools")
async def pools(lobby: LobbyDep) -> dict[str, Any]:
    """Return the quick-pairing pools (id, game, rule profile, board size,
    names in Chinese and English, the rule book's clause, family, how many
    wait) and how a rating range widens while one waits."""
    counts = await lobby.counts()
    return {"pools": [{**c.public(), "waiting": counts[c.id]} for c in CONTROLS.values()],
            "range": {"base": Pools.BASE_RANGE, "step": Pools.STEP,
                      "step_seconds": Pools.STEP_SECONDS, "max": Pools.MAX_RANGE}}


@router.get("/pools/me")
async def my_pool(lobby: LobbyDep, v: ViewerDep) -> dict[str, Any]:
    """Return the caller's status: ``idle``, ``waiting`` (pool, seconds,
    rating range, others waiting) or ``matched`` (the game; told once).
    Asking keeps a waiting entry alive; one not asked about for 30 s is
    dropped.  Anonymous callers are ``idle``."""
    if v.user is None:
        return {"status": "idle"}
    try:
        return await lobby.status(v.user.id)
    except PoolError as exc:  # 503: the shared pools' Redis is away
        raise _refused(exc) from None


@router.delete("/pools/me")
async def cancel(lobby: LobbyDep, user: UserDep) -> dict[str, Any]:
    """Leave the pool the caller waits in (nothing if none); 503 while the
    shared pools' Redis cannot be reached."""
    try:
        return await lobby.cancel(user.id)
    except PoolError as exc:
        raise _refused(exc) from None


@router.post("/pools/{pool_id}")
async def join(pool_id: PoolId, request: Request, lobby: LobbyDep,
               user: UserDep) -> dict[str, Any]:
    """Wait in pool ``pool_id`` (one pool at a time: another pool moves the
    entry); return the status, ``matched`` at once if an opponent in range
    waits.  Registered players get rated games, guests casual ones.  404
    unknown pool; 429 too many requests (or guests of one address); 503
    pool full."""
    address = None
    if user.role == Role.GUEST.value:
        address = request.client.host if request.client else "?"
    try:
        return await lobby.join(user, pool_id, address)
    except PoolError as exc:
        raise _refused(exc) from None


@router.get("/leaderboards")
def leaderboard_index() -> dict[str, Any]:
    """Return the leaderboards there are: the games and the families (with
    their names in Chinese and English)."""
    return {"kinds": ["xiangqi", "go"],
            "families": [{"id": f, "zh": zh, "en": en} for f, (zh, en) in FAMILIES.items()
                         if f != "untimed"]}


@router.get("/leaderboards/{kind}/{family}")
def leaderboard(kind: Literal["xiangqi", "go"],
                family: Literal["bullet", "blitz", "rapid", "classical"],
                s: SessionDep, page: Page = 1, per_page: PerPage = 20) -> dict[str, Any]:
    """Return one page of the leaderboard of ``kind`` and ``family``: rank,
    player, rating from that family's rated games (1500 plus their
    changes), games; and the number of players."""
    rows, total = players.leaderboard(s, kind, family, offset=(page - 1) * per_page,
                                      limit=per_page)
    return {"kind": kind, "family": family, "page": page, "per_page": per_page,
            "total": total, "players": rows}


@router.get("/players")
def search(s: SessionDep, q: Annotated[str, Query(min_length=1, max_length=40)],
           page: Page = 1, per_page: PerPage = 20) -> dict[str, Any]:
    """Search players by user name or display name (case-insensitive,
    names that start with ``q`` first); one page, and the number found."""
    if not q.strip():
        raise HTTPException(422, "q: give at least one letter of the name")
    rows, total = players.search_players(s, q, offset=(page - 1) * per_page, limit=per_page)
    return {"q": q, "page": page, "per_page": per_page, "total": total, "players": rows}
