"""The REST API (``/api``): accounts, games, actions, records.

Every refusal is a 4xx with a ``detail`` that says what was wrong and where.
The same actions as on the socket can be posted to
``/api/games/{id}/actions`` (for clients without WebSockets).
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.referee.errors import RefereeError
from qisai.store import ConflictError, NotFoundError, repo
from qisai.store.models import GameStatus, Role, User
from qisai.web import views
from qisai.web.deps import (
    COOKIE,
    AppState,
    OrganiserDep,
    SessionDep,
    StateDep,
    UserDep,
    ViewerDep,
)
from qisai.web.live import ActionError, LiveGame
from qisai.web.opponents import BUILTIN, engine_kinds

__all__ = ["router"]

router = APIRouter(prefix="/api")

USERNAME = re.compile(r"^[A-Za-z0-9_.\-\u4e00-\u9fff]{2,40}$")


# ------------------------------------------------------------------ schemas
class Credentials(BaseModel):
    """Log-in or registration data."""

    username: str = Field(min_length=2, max_length=40)
    password: str = Field(min_length=8, max_length=256)
    display_name: str | None = Field(default=None, max_length=80)


class UserOut(BaseModel):
    """A user as the API shows it."""

    id: int
    username: str
    display_name: str
    role: str
    rating: float
    guest: bool


class SessionOut(BaseModel):
    """A new session: the bearer token and the CSRF token for cookie use."""

    user: UserOut
    token: str
    csrf: str


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


class RoleChange(BaseModel):
    """A new role for a user."""

    role: Role


def user_out(u: User) -> UserOut:
    """Return the API view of a user."""
    return UserOut(id=u.id, username=u.username, display_name=u.display_name, role=u.role,
                   rating=round(u.rating, 1), guest=u.role == Role.GUEST.value)


def _set_cookie(response: Response, st: AppState, token: str) -> None:
    response.set_cookie(COOKIE, token, max_age=st.settings.session_days * 86400, httponly=True,
                        samesite="lax", secure=st.settings.cookie_secure, path="/")


def _open_session(s: Session, st: AppState, response: Response, user: User) -> SessionOut:
    token, csrf = repo.create_session(s, user.id, dt.timedelta(days=st.settings.session_days),
                                      st.settings.pepper)
    _set_cookie(response, st, token)
    return SessionOut(user=user_out(user), token=token, csrf=csrf)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


# ----------------------------------------------------------------- accounts
@router.post("/auth/register", status_code=201, response_model=SessionOut, tags=["accounts"])
def register(body: Credentials, request: Request, response: Response,
             st: StateDep, s: SessionDep) -> SessionOut:
    """Create an account (role ``player``) and log in.  409 if the name is taken."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise HTTPException(429, f"too many sign-ups from this address; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    if not USERNAME.match(body.username):
        raise HTTPException(422, "username: 2-40 letters, digits, '_', '.', '-' or Chinese "
                                 "characters")
    if body.username.lower().startswith("guest-"):
        raise HTTPException(422, "username: names starting with 'guest-' are for guests")
    from qisai.web.security import hash_password

    try:
        user = repo.create_user(s, body.username, password_hash=hash_password(body.password),
                                display_name=body.display_name or body.username)
    except ConflictError as exc:
        raise HTTPException(409, f"username: {exc}") from None
    return _open_session(s, st, response, user)


@router.post("/auth/login", response_model=SessionOut, tags=["accounts"])
def login(body: Credentials, request: Request, response: Response,
          st: StateDep, s: SessionDep) -> SessionOut:
    """Log in.  401 on a wrong name or password, 429 after too many tries."""
    from qisai.web.security import verify_password

    key = f"{_client(request)}|{body.username.lower()}"
    wait = st.login_limiter.hit(key)
    if wait:
        raise HTTPException(429, f"too many log-in attempts; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    user = repo.find_user(s, body.username)
    if user is None or not verify_password(user.password_hash, body.password):
        raise HTTPException(401, "wrong user name or password")
    return _open_session(s, st, response, user)


@router.post("/auth/guest", status_code=201, response_model=SessionOut, tags=["accounts"])
def guest(request: Request, response: Response, st: StateDep,
          s: SessionDep) -> SessionOut:
    """Start a guest session: casual games without an account."""
    wait = st.signup_limiter.hit(_client(request))
    if wait:
        raise HTTPException(429, f"too many new sessions from this address; retry in {wait:.0f} s",
                            headers={"Retry-After": str(int(wait) + 1)})
    return _open_session(s, st, response, repo.create_guest(s))


@router.post("/auth/logout", status_code=204, tags=["accounts"])
def logout(response: Response, v: ViewerDep, s: SessionDep, st: StateDep,
           _: UserDep) -> Response:
    """End the session."""
    if v.token:
        repo.delete_session(s, v.token, st.settings.pepper)
    response.delete_cookie(COOKIE, path="/")
    response.status_code = 204
    return response


@router.get("/me", response_model=UserOut, tags=["accounts"])
def me(v: ViewerDep) -> UserOut:
    """Return the logged-in user.  401 without a session."""
    if v.user is None:
        raise HTTPException(401, "not logged in")
    return user_out(v.user)


@router.get("/users/{user_id}", tags=["accounts"])
def profile(user_id: int, s: SessionDep) -> dict[str, Any]:
    """Return a player's profile: rating, rating history and recent games."""
    try:
        u = repo.get_user(s, user_id)
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None
    history = [{"at": h.at.isoformat(), "before": h.before, "after": h.after, "game": h.game_id}
               for h in repo.rating_history(s, user_id)]
    games = [_game_summary(g) for g in repo.list_games(s, user_id=user_id, limit=50)]
    return {"user": user_out(u).model_dump(), "history": history, "games": games}


@router.put("/users/{user_id}/role", response_model=UserOut, tags=["accounts"])
def change_role(user_id: int, body: RoleChange, s: SessionDep,
                _: OrganiserDep) -> UserOut:
    """Give a user a role (organisers only)."""
    try:
        return user_out(repo.set_role(s, user_id, body.role))
    except NotFoundError as exc:
        raise HTTPException(404, str(exc)) from None


# -------------------------------------------------------------------- games
def _game_summary(g: Any) -> dict[str, Any]:
    return {
        "id": g.id, "kind": g.kind, "ruleset": g.ruleset, "status": g.status, "rated": g.rated,
        "first": None if g.first_user is None else {"id": g.first_user.id,
                                                     "name": g.first_user.display_name},
        "second": None if g.second_user is None else {"id": g.second_user.id,
                                                       "name": g.second_user.display_name},
        "moves": g.move_count, "result": g.result_code,
        "reason": (g.result or {}).get("reason"), "created_at": g.created_at.isoformat(),
    }


@router.get("/engines", tags=["games"])
def engines(st: StateDep, kind: Literal["xiangqi", "go"] | None = None) -> list[dict[str, Any]]:
    """Return the engines a game can be played against, each with the games
    it plays (``{"name": "builtin", "kinds": ["xiangqi", "go"]}``); with
    ``kind``, only those that play it."""
    out = []
    for name in [BUILTIN, *st.hub.engines]:
        kinds = list(engine_kinds(name, st.hub.engines))
        if kinds and (kind is None or kind in kinds):
            out.append({"name": name, "kinds": kinds})
    return out


@router.get("/rules", tags=["games"])
def rules(kind: Literal["xiangqi", "go"] = "xiangqi") -> dict[str, Any]:
    """Return the rule profiles of a game."""
    from qisai.referee.rulesets import PRESETS

    return {"kind": kind, "profiles": [
        {"name": n, "zh": PRESETS[n].title_zh, "en": PRESETS[n].title_en}
        for n in views.profiles_for(kind)]}


@router.post("/games", status_code=201, tags=["games"])
async def create_game(body: NewGame, request: Request, st: StateDep,
                      user: UserDep) -> dict[str, Any]:
    """Create a game with the caller in one seat; the other seat is open
    (share ``invite``).  422 for a bad rule profile or time control."""
    name = body.ruleset or ("casual" if body.kind == "xiangqi" else "go-casual")
    settings: dict[str, Any] = {}
    if body.time is not None:
        settings["time"] = body.time
    elif name in ("casual", "go-casual"):
        pass
    if body.rules:
        settings["rules"] = body.rules
    if body.size is not None:
        settings["size"] = body.size
    if body.fen is not None:
        settings["fen"] = body.fen
    try:
        views.new_referee_game(body.kind, name, settings, None)
    except RefereeError as exc:
        raise HTTPException(422, f"game settings: {exc}") from None
    if body.rated and user.role == Role.GUEST.value:
        raise HTTPException(422, "rated: guests play casual games only; register to play rated")
    if body.opponent == "engine" and body.rated:
        raise HTTPException(422, "rated: games against the engine are not rated")
    if body.opponent == "engine":
        if body.engine != BUILTIN and body.engine not in st.hub.engines:
            raise HTTPException(422, f"engine: {body.engine!r} is not configured on this server; "
                                     f"known: builtin{''.join(', ' + n for n in st.hub.engines)}")
        if body.kind not in engine_kinds(body.engine, st.hub.engines):
            able = [n for n in [BUILTIN, *st.hub.engines]
                    if body.kind in engine_kinds(n, st.hub.engines)]
            raise HTTPException(422, f"engine: {body.engine!r} does not play {body.kind}; "
                                     f"engines for {body.kind}: {', '.join(able)}")
    color = body.color if body.color != "random" else secrets.choice(["first", "second"])
    first = user.id if color == "first" else None
    second = user.id if color == "second" else None

    def make() -> str:
        with st.db.session() as s:
            g = repo.create_game(s, kind=body.kind, ruleset=name, settings=settings,
                                 first_user_id=first, second_user_id=second,
                                 created_by_id=user.id, rated=body.rated,
                                 engine=body.engine if body.opponent == "engine" else None)
            return g.id

    game_id = await run_in_threadpool(make)
    live = await st.hub.get(game_id)
    state_ = live.snapshot(user.id)
    state_["invite"] = str(request.url_for("game_page", game_id=game_id))
    return state_


@router.get("/games", tags=["games"])
def list_games(s: SessionDep, status: GameStatus | None = None, user_id: int | None = None,
               kind: Literal["xiangqi", "go"] | None = None, limit: int = 50
               ) -> list[dict[str, Any]]:
    """List games, newest first (``status=waiting`` lists open seeks)."""
    limit = max(1, min(limit, 200))
    return [_game_summary(g) for g in repo.list_games(s, status=status, user_id=user_id,
                                                      kind=kind, limit=limit)]


async def _live(st: AppState, game_id: str) -> LiveGame:
    try:
        return await st.hub.get(game_id)
    except ActionError as exc:
        raise HTTPException(exc.status, exc.message) from None


@router.get("/games/{game_id}", tags=["games"])
async def get_game(game_id: str, st: StateDep, v: ViewerDep
                   ) -> dict[str, Any]:
    """Return a game's full state (players, position, clocks, moves, result)."""
    live = await _live(st, game_id)
    async with live.lock:
        return live.snapshot(v.user.id if v.user else None)


@router.post("/games/{game_id}/join", tags=["games"])
async def join_game(game_id: str, st: StateDep,
                    user: UserDep) -> dict[str, Any]:
    """Take the open seat of a waiting game; the game starts.  409 if the
    seat is taken or you already sit in it."""
    live = await _live(st, game_id)
    if user.id in (live.first_user_id, live.second_user_id):
        raise HTTPException(409, f"game {game_id}: you already play in it")
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
    await st.hub.start_if_ready(game_id)
    async with live.lock:
        return live.snapshot(user.id)


@router.post("/games/{game_id}/actions", tags=["games"])
async def act(game_id: str, action: dict[str, Any], st: StateDep,
              user: UserDep) -> dict[str, Any]:
    """Take an action (``move`` with ``ply``, ``resign``, ``offer_draw`` ...),
    exactly as on the socket.  Returns the acknowledgement."""
    try:
        return await st.hub.act(game_id, user, action)
    except ActionError as exc:
        raise HTTPException(exc.status, exc.message) from None


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
async def record(game_id: str, st: StateDep) -> Response:
    """Download the game record: PGN for Xiangqi, SGF for Go."""
    from qisai.web import records

    live = await _live(st, game_id)
    async with live.lock:
        text, media, ext = records.export(live)
    return Response(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="qisai-{game_id}.{ext}"'})
