"""Simultaneous displays on the arena (``/api/simuls``).

An organiser (or an administrator) creates a display and is its host, or
asks another account to host: that account hosts once it accepts (until
then the organiser does, and the invited account is named nowhere); entrants join while it is open (a guest only
when it is not rated); the host starts it, and each board becomes an
ordinary server game (host against entrant, the host's colour and Go
handicap per board, no clock by default as over the board), numbered in
the order of joining.  The games carry the display's name and their board
number (``settings["simul"]``), so the records say so (PGN Event/Round,
SGF EV/RO), and their results reach the players' profiles as any game's.

The display's result per board is read from its game (:func:`store.sync_results`);
the running score is the host's, as the seed writes it: "69胜30和9负".

Every refusal is a 4xx whose ``detail`` is in Chinese and English.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from qisai.competition.simul import MAX_BOARDS, Simul, SimulEntrant, SimulError, SimulSettings
from qisai.referee.errors import RefereeError
from qisai.store import ConflictError, NotFoundError, repo
from qisai.store.models import Role, User
from qisai.web.accounts.deps import UserDep, ViewerDep
from qisai.web.bounds import DbId, too_often
from qisai.web.exhibitions import store
from qisai.web.exhibitions.board_games import (
    ENGINE,
    check_engine,
    engine_host_account,
    engine_label,
    make_board_game,
)
from qisai.web.play import referee_games
from qisai.web.play.deps import HubDep
from qisai.web.play.engine_driver import driver_of
from qisai.web.play.hub import Hub
from qisai.web.state import AppState, StateDep

__all__ = ["router", "view", "user_key", "start_games", "load_synced", "waiting_boards",
           "change"]

router = APIRouter(prefix="/api/simuls", tags=["simuls"])


def user_key(user_id: int) -> str:
    """The entrant key of an account (``user:7``)."""
    return f"user:{user_id}"


class NewSimul(BaseModel):
    """What the organiser chooses."""

    name: str = Field(min_length=1, max_length=80)
    game: Literal["xiangqi", "go"] = "xiangqi"
    rules: str | None = Field(default=None, max_length=32)
    host_colour: Literal["red", "black", "white", "alternate"] | None = None
    handicap: int = Field(default=0, ge=0, le=9)
    max_boards: int = Field(default=120, ge=1, le=MAX_BOARDS)
    rated: bool = False
    size: int | None = Field(default=None, ge=5, le=25)
    time: dict[str, Any] | None = None
    """The boards' clocks (as a game's); none by default (over the board)."""
    host: str | None = Field(default=None, max_length=40)
    """Another account as host (its user name); default the organiser."""
    host_blindfold: bool = False
    host_extra_minutes: float = Field(default=0, ge=0, le=180)
    """Minutes added to the host's clock on every board."""
    host_extra_per_board: float = Field(default=0, ge=0, le=600)
    """Seconds added to the host's clock on every board for each board of
    the display (as lichess: the host has the entrants' clock plus extra
    time per board, as he plays all of them at once)."""
    host_engine: str | None = Field(default=None, min_length=1, max_length=64)
    """An engine the arena offers as the host (人机大战): it plays every
    board from the engine pool; the organiser starts the display."""


class Join(BaseModel):
    """An entrant's choices: blindfold or not.  Handicaps and colours are
    the host's or the organiser's (:func:`set_handicap`); ``handicap`` is
    here only to be refused with a clear answer."""

    blindfold: bool = False
    handicap: int | None = Field(default=None, ge=0, le=9)


class Handicap(BaseModel):
    """The host's or organiser's handicap for one entrant's board."""

    entrant: str = Field(min_length=1, max_length=40)
    handicap: int | None = Field(default=None, ge=0, le=9)


def _bad(exc: Exception, status: int = 409) -> HTTPException:
    return HTTPException(status, str(exc))


def view(st: store.StoredSimul, viewer: User | None, waiting: list[int] | None = None
         ) -> dict[str, Any]:
    """Return the display as the API shows it to ``viewer``: settings,
    entrants, boards (number, entrant, host colour, game, result), the
    running score in both languages, the viewer's part (``you``: ``host``,
    ``entrant`` or None, and ``my_board``) and, when known, the boards
    waiting for the host in the order the host walks them (``order``)."""
    simul = st.simul
    data = simul.to_dict()
    you: str | None = None
    my_board = None
    my_entrant: str | None = None
    if viewer is not None:
        mine = user_key(viewer.id)
        if viewer.id == st.host_id:
            you = "host"
        elif viewer.id == st.host_invited:
            you = "invited_host"
        elif any(e.key == mine or mine in e.members for e in simul.entrants):
            you = "entrant"
            my_entrant = next(e.key for e in simul.entrants if e.key == mine or mine in e.members)
            b = simul.board_of(mine)
            my_board = None if b is None else b.number
        elif viewer.id == st.organiser:
            you = "organiser"

    def who(key: str) -> dict[str, Any]:
        found = st.engines.get(key)
        if found is None:
            return {}
        return {"engine": {"id": found["engine"], "name": engine_label(found),
                           "info": found.get("opponent")}}
    score = simul.score()
    # Everyone (spectators too) sees who hosts: the engine's label, else the account's name.
    host_name = (who(simul.host).get("engine") or {}).get("name") or st.host_name
    out: dict[str, Any] = {
        "id": st.id, "name": st.name, "host_id": st.host_id, "status": simul.status.value,
        "host_invited": st.host_invited is not None,
        "organiser_id": st.organiser, "host": {"key": simul.host, **who(simul.host)},
        "settings": data["settings"], "games": st.games,
        "host_extra": st.games.get("host_extra"),
        "host_name": host_name,
        "entrants": [{"key": e.key, "name": e.name, "blindfold": e.blindfold,
                      "handicap": e.handicap, "members": list(e.members), **who(e.key)}
                     for e in simul.entrants],
        "boards": [{**b, "name": simul.boards[i].entrant.name,
                    "blindfold": simul.boards[i].entrant.blindfold,
                    "members": list(simul.boards[i].entrant.members),
                    **who(simul.boards[i].entrant.key)}
                   for i, b in enumerate(data["boards"])],
        "score": {"wins": score.wins, "draws": score.draws, "losses": score.losses,
                  "playing": score.playing, "zh": score.text("zh"), "en": score.text("en")},
        "you": you, "my_board": my_board, "my_entrant": my_entrant,
    }
    if waiting is not None:
        out["waiting"] = sorted(waiting)
        out["order"] = simul.host_order(waiting)
    return out


async def waiting_boards(hub: Hub, st: store.StoredSimul) -> list[int]:
    """Return the boards whose game waits for the host's move (or pass)."""
    out = []
    for b in st.simul.boards:
        if b.game_id is None or b.result is not None:
            continue
        live = await hub.get(b.game_id)
        game = live.game
        if game.is_over or live.status != "active":
            continue
        host_seat = live.first_user_id if game.to_move.name == "FIRST" else live.second_user_id
        if host_seat == st.host_id:
            out.append(b.number)
    return out


def load_synced(app: AppState, simul_id: int, sync: bool = True) -> store.StoredSimul:
    """Load display ``simul_id`` (blocking), with its boards' results
    copied from their games when ``sync``.  Raises 404 if there is none."""
    with app.db.session() as s:
        try:
            st = store.load(s, simul_id)
        except NotFoundError as exc:
            raise HTTPException(404, f"没有这场车轮战 / {exc}") from None
        if sync:
            try:
                store.sync_results(s, st)
            except ConflictError:  # another request synced first: read its copy
                st = store.load(s, simul_id)
        return st


@router.post("", status_code=201)
async def create(body: NewSimul, app: StateDep, hub: HubDep, user: UserDep) -> dict[str, Any]:
    """Create a display (an organiser or administrator).  403 for anyone
    else; 422 for a setting out of range (colour, handicap, rules, limit)
    or an engine host the arena does not offer for the game."""
    if not user.role_enum.allows(Role.ORGANISER):
        raise HTTPException(403, "只有组织者可以举办车轮战 / only an organiser may hold a simul")
    game = body.game
    host_engine = None
    if body.host_engine is not None:
        if body.host is not None or body.host_blindfold:
            raise HTTPException(422, "引擎主将不能另指定主将或蒙目 / an engine host takes "
                                     "neither another host nor a blindfold")
        host_engine = check_engine(hub, body.host_engine, game)
    rules = body.rules or ("cxa" if game == "xiangqi" else "chinese")
    colour = body.host_colour or ("red" if game == "xiangqi" else "black")
    if body.handicap and body.host_colour is None:
        colour = "white"
    games: dict[str, Any] = {"time": body.time}
    if body.host_extra_minutes or body.host_extra_per_board:
        if body.time is None:
            raise HTTPException(422, "主将加时需要计时 / the host's extra time needs a clock "
                                     "(time)")
        games["host_extra"] = {"minutes": body.host_extra_minutes,
                               "per_board": body.host_extra_per_board}
    if body.size is not None:
        if game != "go":
            raise HTTPException(422, "棋盘大小只用于围棋 / size is for Go only")
        games["size"] = body.size
    try:
        referee_games.new_referee_game(game, rules, {k: v for k, v in games.items()
                                                     if k != "host_extra"}, None)
        settings = SimulSettings(game=game, rules=rules, host_colour=colour,
                                 handicap=body.handicap, max_boards=body.max_boards,
                                 rated=body.rated, host_blindfold=body.host_blindfold)
    except (RefereeError, SimulError, ValueError) as exc:
        raise _bad(exc, 422) from None

    def make() -> dict[str, Any]:
        with app.db.session() as s:
            if host_engine is not None:
                account = engine_host_account(s, host_engine)
                key = ENGINE + engine_label(host_engine)
                st = store.create(s, body.name, account, Simul(key, settings), games,
                                  organiser_id=user.id, engines={key: host_engine})
                return view(st, user)
            invited = None
            if body.host is not None:
                found = repo.find_user(s, body.host)
                if found is None or found.role == Role.GUEST.value:
                    raise HTTPException(422, f"没有用户 {body.host!r} / no account {body.host!r}")
                # naming a host is asking him: the organiser hosts until he accepts
                invited = None if found.id == user.id else found.id
            st = store.create(s, body.name, user.id, Simul(user_key(user.id), settings), games,
                              organiser_id=user.id)
            if invited is not None:
                st.host_invited = invited
                store.save(s, st)
            return view(st, user)

    return await run_in_threadpool(make)


@router.get("")
def list_all(app: StateDep) -> list[dict[str, Any]]:
    """List displays, newest first."""
    with app.db.session() as s:
        return [{"id": r.id, "name": r.name, "kind": r.kind, "status": r.status,
                 "host_id": r.host_id, "boards": len(r.data.get("entrants", []))}
                for r in store.list_simuls(s)]


@router.get("/{simul_id}")
async def get(simul_id: DbId, app: StateDep, hub: HubDep, v: ViewerDep) -> dict[str, Any]:
    """Return a display with its running score; once started, the boards
    waiting for the host (``waiting``) and the host's order (``order``)."""
    st = await run_in_threadpool(load_synced, app, simul_id)
    waiting = await waiting_boards(hub, st) if st.simul.boards else None
    return view(st, v.user, waiting)


async def change(app: AppState, simul_id: int, user: User,
                 act: Callable[[store.StoredSimul], None]) -> dict[str, Any]:
    """Apply ``act`` to display ``simul_id`` and save it, reading it again
    when another request saved first.  Returns the display's view for
    ``user``.  Raises :class:`HTTPException`: 404 for no display, 409 for
    the :class:`SimulError` that ``act`` raises or when it stays busy, and
    whatever ``act`` raises itself."""
    def run() -> dict[str, Any]:
        for attempt in range(12):
            if attempt:  # another entry was saved first: read it again, a little later
                time.sleep(0.005 * attempt)
            st = load_synced(app, simul_id, sync=False)
            try:
                act(st)
            except SimulError as exc:
                raise _bad(exc) from None
            with app.db.session() as s:
                try:
                    store.save(s, st)
                except ConflictError:
                    continue
            return view(st, user)
        raise HTTPException(409, "车轮战正忙，请重试 / the simul is busy; try again")

    return await run_in_threadpool(run)


def no_guests_if_rated(st: store.StoredSimul, user: User) -> None:
    """Raise 403 when ``user`` is a guest and the display is rated."""
    if st.simul.settings.rated and user.role == Role.GUEST.value:
        raise HTTPException(403, "本场计等级分，访客不能参加 / this simul is rated; guests "
                                 "play casual games only")


async def _limited_user(request: Request, app: StateDep, user: UserDep) -> User:
    # Joining and leaving rewrite the display's row, which every entrant
    # shares: twenty a minute an account (the calendar's own limit), the
    # guests of one address together (a new guest session is one click, as
    # the games' quota counts them), and a refused request costs no worker
    # thread.
    key = f"simul:{user.id}"
    if user.role == Role.GUEST.value:
        key = "simul-guests:" + (request.client.host if request.client else "?")
    wait = app.entry_limiter.hit(key)
    if wait:
        raise too_often(wait, "too many joins and leaves")
    return user


EntrantDep = Annotated[User, Depends(_limited_user)]
"""The caller, within his joins and leaves a minute (429 past them)."""


@router.post("/{simul_id}/join")
async def join(simul_id: DbId, body: Join, app: StateDep, user: EntrantDep) -> dict[str, Any]:
    """Join an open display (optionally blindfold).  409 when it has
    started, is full, or you are in it or its host; 403 for an entrant who
    names his own handicap (the host or the organiser sets it); 429 past
    twenty joins and leaves a minute."""
    if body.handicap is not None:
        raise HTTPException(403, "让子由主将或组织者设定，对手不能自选 / handicaps are set by "
                                 "the host or the organiser, not by an entrant")

    def act(st: store.StoredSimul) -> None:
        no_guests_if_rated(st, user)
        st.simul.join(SimulEntrant(user_key(user.id), user.username, body.blindfold))
    return await change(app, simul_id, user, act)


@router.put("/{simul_id}/handicap")
async def set_handicap(simul_id: DbId, body: Handicap, app: StateDep, user: UserDep
                       ) -> dict[str, Any]:
    """Set one entrant's handicap (Go stones on his board; ``null``: the
    display's own) before the start: the host or the organiser only (403
    for anyone else, the entrant himself included); 409 once started or for
    no such entrant or a handicap that does not fit the game."""
    def act(st: store.StoredSimul) -> None:
        if user.id not in (st.host_id, st.organiser):
            raise HTTPException(403, "只有主将或组织者可以设定让子 / only the host or the "
                                     "organiser sets handicaps")
        st.simul.set_handicap(body.entrant, body.handicap)
    return await change(app, simul_id, user, act)


@router.post("/{simul_id}/host/accept")
async def accept_host(simul_id: DbId, app: StateDep, user: UserDep) -> dict[str, Any]:
    """Accept the organiser's invitation to host the display (the invited
    account only: 403 for anyone else); from then on he is its host.  409
    once it has started or if he has joined it as an entrant."""
    def act(st: store.StoredSimul) -> None:
        if st.host_invited != user.id:
            raise HTTPException(403, "你没有被邀请担任主将 / you are not invited to host "
                                     "this simul")
        if st.simul.status.value != "open":
            raise HTTPException(409, "车轮战已开始 / the simul has started")
        if any(e.key == user_key(user.id) or user_key(user.id) in e.members
               for e in st.simul.entrants):
            raise HTTPException(409, "你已报名为对手，请先退出 / you joined as an entrant; "
                                     "leave first")
        st.simul.host = user_key(user.id)
        st.host_id, st.host_invited, st.host_name = user.id, None, user.display_name
    return await change(app, simul_id, user, act)


@router.post("/{simul_id}/host/decline")
async def decline_host(simul_id: DbId, app: StateDep, user: UserDep) -> dict[str, Any]:
    """Decline the invitation to host the display, or give up hosting one
    that someone else organises before it starts (what he did not choose
    himself): the organiser hosts.  403 for anyone else; 409 once started."""
    def act(st: store.StoredSimul) -> None:
        mine = st.host_invited == user.id or (st.host_id == user.id != st.organiser)
        if not mine:
            raise HTTPException(403, "你不是本场被邀请的主将 / you are not this simul's invited "
                                     "host")
        if st.simul.status.value != "open":
            raise HTTPException(409, "车轮战已开始，不能再退出（可认输） / the simul has "
                                     "started; resign the games instead")
        if any(e.key == user_key(st.organiser) or user_key(st.organiser) in e.members
               for e in st.simul.entrants):
            raise HTTPException(409, "组织者已报名为对手 / the organiser joined as an entrant")
        st.simul.host = user_key(st.organiser)
        st.host_id, st.host_invited = st.organiser, None
    return await change(app, simul_id, user, act)


@router.post("/{simul_id}/leave")
async def leave(simul_id: DbId, app: StateDep, user: EntrantDep) -> dict[str, Any]:
    """Withdraw before the start.  409 once started or if you never joined."""
    return await change(app, simul_id, user, lambda st: st.simul.leave(user_key(user.id)))


def host_extra_seconds(extra: Any, boards: int) -> float:
    """Return the seconds added to the host's clock on each of ``boards``
    boards for the stored ``extra`` (``{"minutes", "per_board"}``; ``None``: 0)."""
    if not isinstance(extra, dict):
        return 0.0
    return float(extra.get("minutes", 0)) * 60 + float(extra.get("per_board", 0)) * boards


async def start_games(app: AppState, hub: Hub, simul_id: int, user: User) -> dict[str, Any]:
    """Start display ``simul_id`` for its host ``user``: close entries, make
    and start one server game per board.  Returns the display's view.

    Raises :class:`HTTPException`: 403 for anyone but the host (the
    organiser when the host is an engine), 409 when already started, nobody
    joined or a group has fewer than two members.
    """
    def close() -> store.StoredSimul:
        st = load_synced(app, simul_id, sync=False)
        engine_host = st.simul.host in st.engines
        if st.host_id != user.id and not (engine_host and st.organiser == user.id):
            raise HTTPException(403, "只有主将可以开始 / only the host starts the simul")
        try:
            st.simul.start()
        except SimulError as exc:
            raise _bad(exc) from None
        with app.db.session() as s:
            try:  # whoever saves first starts it; the other gets 409
                store.save(s, st)
            except ConflictError as exc:
                raise _bad(exc) from None
        return st

    st = await run_in_threadpool(close)

    def make_games() -> None:
        simul = st.simul
        first_colour = "red" if simul.settings.game == "xiangqi" else "black"
        games = {k: v for k, v in st.games.items() if k != "host_extra"}
        extra = host_extra_seconds(st.games.get("host_extra"), len(simul.boards))
        with app.db.session() as s:
            for b in simul.boards:
                host_first = b.host_colour == first_colour
                time_control = games.get("time")
                if extra and isinstance(time_control, dict):
                    time_control = {**time_control,
                                    "extra": {"first" if host_first else "second": extra}}
                blind = []
                if simul.settings.host_blindfold:
                    blind.append("first" if host_first else "second")
                if b.entrant.blindfold:
                    blind.append("second" if host_first else "first")
                settings: dict[str, Any] = {
                    **games, "time": time_control,
                    "simul": {"id": st.id, "name": st.name, "board": b.number},
                    "blindfold": sorted(blind)}
                if b.handicap:
                    settings["rules"] = {"handicap": b.handicap}
                b.game_id = make_board_game(s, st, b, settings, host_first)
            store.save(s, st)

    await run_in_threadpool(make_games)
    for b in st.simul.boards:
        assert b.game_id is not None
        await hub.start_if_ready(b.game_id)
    if st.simul.host in st.engines:
        driver_of(hub).start()  # the engine host plays through its account
    return view(st, user, await waiting_boards(hub, st))


@router.post("/{simul_id}/start")
async def start(simul_id: DbId, app: StateDep, hub: HubDep, user: UserDep) -> dict[str, Any]:
    """Start the display (its host only): one server game per board."""
    return await start_games(app, hub, simul_id, user)
