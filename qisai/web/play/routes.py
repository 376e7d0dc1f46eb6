"""The games API (``/api``): engines, rule profiles, games, actions,
records, and players' profiles (rating, its history, their games).

Every refusal is a 4xx with a ``detail`` that says what was wrong and where;
a refused action also carries its reason as ``code``, ``zh``, ``en`` and
``clause`` (never game ids or timestamps), and ``GET /api/games/{id}/why``
says why a move may not be played before it is sent.
The same actions as on the socket can be posted to
``/api/games/{id}/actions`` (for clients without WebSockets).
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.referee.rulesets import PRESETS
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store import ConflictError, NotFoundError, repo
from qisai.store.models import GameStatus, Role
from qisai.web.accounts.deps import UserDep, ViewerDep
from qisai.web.accounts.routes import user_out
from qisai.web.bounds import DbId
from qisai.web.play import downloads, explain, referee_games
from qisai.web.play.clauses import clause_links
from qisai.web.play.deps import HubDep, live_game
from qisai.web.play.live import ActionError, member_side
from qisai.web.play.new_games import check_settings, create_counted, engine_opponent
from qisai.web.play.storage import game_listing
from qisai.web.seats.lineup import listing
from qisai.web.state import SessionDep, StateDep

__all__ = ["router"]

router = APIRouter(prefix="/api")


class NewGame(BaseModel):
    """What a player chooses when creating a game."""

    kind: Literal["xiangqi", "go"] = "xiangqi"
    ruleset: str | None = Field(default=None, max_length=32)
    time: dict[str, Any] | None = None
    color: Literal["first", "second", "random"] = "random"
    rated: bool = False
    size: int | None = Field(default=None, ge=2, le=25)
    fen: str | None = Field(default=None, max_length=120)
    rules: dict[str, Any] | None = None
    opponent: Literal["human", "engine"] = "human"
    """``engine``: an engine takes the other seat (see ``GET /api/engines``)."""
    engine: str = Field(default="builtin", max_length=64)
    """``builtin`` (qisai's own) or the name of a ``--engine`` of the server."""


@router.get("/users/{user_id}", tags=["accounts"])
def profile(user_id: DbId, s: SessionDep) -> dict[str, Any]:
    """Return a player's profile: rating, rating history and recent games."""
    try:
        u = repo.get_user(s, user_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    history = [{"at": h.at.isoformat(), "before": h.before, "after": h.after, "game": h.game_id}
               for h in repo.rating_history(s, user_id)]
    games = game_listing(s, user_id=user_id, limit=50)
    return {"user": user_out(u).model_dump(), "history": history, "games": games}


@router.get("/engines", tags=["games"])
def engines(hub: HubDep, kind: Literal["xiangqi", "go"] | None = None) -> list[dict[str, Any]]:
    """Return the engines a game can be played against, each with the games
    it plays, its own name and version and its level
    (``{"name": "gnugo-level-5", "kinds": ["go"], "engine": "GNU Go 3.8",
    "level": {"zh": "等级 5", "en": "level 5"}}``; see
    :func:`qisai.web.seats.lineup.listing`); with ``kind``, only those that
    play it."""
    return listing(kind, hub.engines, hub.levels)


@router.get("/rules", tags=["games"])
def rules(kind: Literal["xiangqi", "go"] = "xiangqi") -> dict[str, Any]:
    """Return the rule profiles of a game."""
    return {"kind": kind, "profiles": [
        {"name": n, "zh": PRESETS[n].title_zh, "en": PRESETS[n].title_en}
        for n in referee_games.profiles_for(kind)]}


@router.post("/games", status_code=201, tags=["games"])
async def create_game(body: NewGame, request: Request, st: StateDep, hub: HubDep,
                      user: UserDep) -> dict[str, Any]:
    """Create a game with the caller in one seat; the other seat is open
    (share ``invite``).  422 for a bad rule profile or time control; 429
    beyond a player's engine games at once or open seeks (see
    :mod:`qisai.web.play.quota`)."""
    name = body.ruleset or ("casual" if body.kind == "xiangqi" else "go-casual")
    settings: dict[str, Any] = {}
    if body.time is not None or "time" in body.model_fields_set:
        # ``"time": null`` asks for no clock (the page's "No clock"); left
        # out, the profile's own time control applies.
        settings["time"] = body.time
    if body.rules:
        settings["rules"] = body.rules
    if body.size is not None:
        settings["size"] = body.size
    if body.fen is not None:
        settings["fen"] = body.fen
    check_settings(body.kind, name, settings)
    if body.rated and user.role == Role.GUEST.value:
        raise HTTPException(422, "rated: guests play casual games only; register to play rated")
    if body.opponent == "engine" and body.rated:
        raise HTTPException(422, "rated: games against the engine are not rated")
    engine = body.opponent == "engine"
    if engine:
        engine_opponent(hub, body.kind, body.engine, settings)
    color = body.color if body.color != "random" else secrets.choice(["first", "second"])
    first = user.id if color == "first" else None
    second = user.id if color == "second" else None

    def make(s: Session) -> str:
        return repo.create_game(s, kind=body.kind, ruleset=name, settings=settings,
                                first_user_id=first, second_user_id=second,
                                created_by_id=user.id, rated=body.rated,
                                engine=body.engine if engine else None).id

    game_id = await create_counted(hub, st, user, request, engine=engine, make=make)
    live = await hub.get(game_id)
    state_ = live.snapshot(user.id)
    state_["invite"] = str(request.url_for("game_page", game_id=game_id))
    return state_


@router.get("/games", tags=["games"])
def list_games(s: SessionDep, status: GameStatus | None = None, user_id: int | None = None,
               kind: Literal["xiangqi", "go"] | None = None, limit: int = 50
               ) -> list[dict[str, Any]]:
    """List games, newest first (``status=waiting`` lists open seeks)."""
    limit = max(1, min(limit, 200))
    return game_listing(s, status=status, user_id=user_id, kind=kind, limit=limit)


@router.get("/games/{game_id}", tags=["games"])
async def get_game(game_id: str, hub: HubDep, v: ViewerDep
                   ) -> dict[str, Any]:
    """Return a game's full state (players, position, clocks, moves, result)."""
    live = await live_game(hub, game_id)
    async with live.lock:
        return live.snapshot(v.user.id if v.user else None)


@router.post("/games/{game_id}/join", tags=["games"])
async def join_game(game_id: str, st: StateDep, hub: HubDep,
                    user: UserDep) -> dict[str, Any]:
    """Take the open seat of a waiting game; the game starts.  409 if the
    seat is taken or you already sit in it."""
    live = await live_game(hub, game_id)
    if user.id in (live.first_user_id, live.second_user_id):
        raise HTTPException(409, f"game {game_id}: you already play in it")
    if member_side(live, user.id) is not None:  # 会商: not against his group
        raise HTTPException(409, f"game {game_id}: you are a member of a group playing it")
    side = 1 if live.second_user_id is None else 0
    if live.first_user_id is not None and live.second_user_id is not None:
        raise HTTPException(409, f"game {game_id}: both seats are taken")

    def seat() -> None:
        with st.db.session() as s:
            g = repo.get_game(s, game_id)
            if g.rated and user.role == Role.GUEST.value:
                raise HTTPException(403, f"game {game_id} is rated; guests play casual games only")
            repo.seat_player(s, game_id, side, user.id)

    try:
        await run_in_threadpool(seat)
    except ConflictError as exc:
        raise HTTPException(409, str(exc)) from None
    await hub.start_if_ready(game_id)
    async with live.lock:
        return live.snapshot(user.id)


@router.post("/games/{game_id}/actions", tags=["games"])
async def act(game_id: str, action: dict[str, Any], hub: HubDep,
              user: UserDep) -> Any:
    """Take an action (``move`` with ``ply``, ``resign``, ``offer_draw`` ...),
    exactly as on the socket.  A consultation group's member resigns or
    answers draws as his support for the group's decision
    (``POST /api/games/{id}/group/motions``).  Returns the acknowledgement."""
    try:
        return await hub.act(game_id, user, action)
    except ActionError as exc:
        # ``detail`` in English without ids or timestamps, and the reason in
        # both languages with its clause (``code``, ``zh``, ``en``, ``clause``).
        return JSONResponse(exc.body(), status_code=exc.status)


@router.get("/games/{game_id}/why", tags=["games"])
async def why(game_id: str, hub: HubDep, move: str = Query(max_length=8)) -> dict[str, Any]:
    """Say why ``move`` (ICCS for Xiangqi, a point for Go) may not be played
    by the side to move now: ``{"legal": false, "code", "zh", "en",
    "clause", "links"}`` (``links``: the clauses in the manual), or ``{"legal": true}``.  The board asks before it would
    send a move it cannot show as legal, so nothing illegal is sent."""
    live = await live_game(hub, game_id)
    async with live.lock:
        game = live.game
        reason: dict[str, str] | None = None
        if isinstance(game, XiangqiGame):
            reason = explain.xiangqi_why(game.board, move)
        else:
            from qisai.go import coords

            board = game.board
            try:
                point = coords.parse_gtp(move, board.size)
            except ValueError:
                raise HTTPException(400, f"move: {move!r} is not a point") from None
            found = None if point is None else board.legal_reason(point)
            if found is not None:
                reason = explain.text(f"go_{found.name.lower()}")
    if reason is None:
        return {"legal": True}
    return {"legal": False, **reason, "links": clause_links(reason.get("clause"))}


@router.get("/games/{game_id}/events", tags=["games"])
def game_events(game_id: str, s: SessionDep) -> list[dict[str, Any]]:
    """Return the stored event log of a game."""
    try:
        repo.get_game(s, game_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    return [{"seq": e.seq, "kind": e.kind, "ply": e.ply, "at_ms": e.at_ms, "data": e.data}
            for e in repo.load_events(s, game_id)]


@router.get("/games/{game_id}/record", tags=["games"])
async def record(game_id: str, hub: HubDep) -> Response:
    """Download the game record: PGN for Xiangqi, SGF for Go."""
    live = await live_game(hub, game_id)
    async with live.lock:
        text, media, ext = downloads.export(live)
    return Response(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="qisai-{game_id}.{ext}"'})
