"""The consultation API (会商 / 联棋): create a game with a side played by a
group, vote on the group's move, read and post the group's talk.

``POST /api/consultations`` creates the game and invites the other
members (``POST /api/games/{id}/group/answer``: each accepts or declines;
a member is enlisted only by his own acceptance); ``POST
/api/games/{id}/group/votes`` votes (``confirm``: the captain's choice);
``GET /api/games/{id}/group`` and ``POST /api/games/{id}/group/talk`` read
and write the group's talk.  The socket takes the same as ``group_vote``,
``group_confirm`` and ``group_talk`` messages, and so does ``POST
/api/games/{id}/actions``: :func:`register` makes them actions of the hub
(:meth:`Hub.act`, see :func:`socket_action`).  ``POST
/api/games/{id}/group/motions`` (and the socket's ``group_motion``) is a
member's support for resigning, offering, accepting or declining a draw
for his group; a member's ``resign`` and draw actions on
``/api/games/{id}/actions`` or the socket go the same way
(:func:`member_motion`, which :func:`register` puts before the referee's
handling of those actions).  Refusals carry ``zh``/``en`` reasons.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from qisai.referee.consultation import MAX_MEMBERS, MOTIONS, ConsultationError
from qisai.store.models import User
from qisai.web.accounts.deps import UserDep
from qisai.web.exhibitions.consult import boards_of
from qisai.web.exhibitions.group_games import GroupSpec, create_group_game
from qisai.web.play.deps import HubDep
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, member_side
from qisai.web.play.new_games import check_settings, create_counted, engine_opponent
from qisai.web.state import StateDep

__all__ = ["router", "register", "socket_action", "member_motion", "GROUP_MESSAGES"]

router = APIRouter(prefix="/api", tags=["consultation"])

GROUP_MESSAGES = frozenset({"group_vote", "group_confirm", "group_talk", "group_motion"})
"""The socket messages this module answers."""


def register(hub: Hub) -> None:
    """Make the group's messages actions of ``hub`` (:meth:`Hub.handle`),
    and a member's resign and draw actions his support for the group's
    motion (:meth:`Hub.intercept`): called once at the app's start, so that
    play's socket and routes reach them through :meth:`Hub.act` without
    importing consultation."""
    hub.handle(GROUP_MESSAGES, socket_action)
    hub.intercept(MOTIONS, member_motion)


class NewConsultation(BaseModel):
    """A game whose ``color`` side is played by ``members`` (user ids, the
    creator among them)."""

    kind: Literal["xiangqi", "go"] = "xiangqi"
    ruleset: str | None = Field(default=None, max_length=32)
    time: dict[str, Any] | None = None
    color: Literal["first", "second"] = "first"
    members: list[int] = Field(min_length=2, max_length=MAX_MEMBERS)
    captain: int | None = None
    mode: Literal["captain", "majority"] = "majority"
    reserve: float = Field(default=60.0, ge=1, le=3600)
    opponent: Literal["human", "engine"] = "human"
    engine: str = Field(default="builtin", max_length=64)


def _error(exc: ActionError) -> JSONResponse:
    return JSONResponse(exc.body(), status_code=exc.status)


@router.post("/consultations", status_code=201)
async def create(body: NewConsultation, request: Request, st: StateDep, hub: HubDep,
                 user: UserDep) -> dict[str, Any]:
    """Create a game whose ``color`` side is a consultation group; the other
    seat is open (share ``invite``) or the engine's.  422 for a bad group
    (2..50 distinct existing accounts including you; the captain a member),
    rule profile or engine; 429 past the creator's open seeks or engine
    games (:mod:`qisai.web.play.quota`)."""
    if user.id not in body.members:
        raise HTTPException(422, "members: you must be a member of the group you create "
                                 "/ 创建者须是小组成员")
    try:
        group = GroupSpec(body.members, body.captain, body.mode, body.reserve)
    except ConsultationError as exc:
        raise HTTPException(422, f"group: {exc}") from None
    invited = [m for m in body.members if m != user.id]  # asked, not enlisted
    name = body.ruleset or ("casual" if body.kind == "xiangqi" else "go-casual")
    settings: dict[str, Any] = {}
    if "time" in body.model_fields_set:
        settings["time"] = body.time
    check_settings(body.kind, name, settings)
    engine = body.opponent == "engine"
    if engine:
        engine_opponent(hub, body.kind, body.engine, settings)

    def make(s: Session) -> str:
        try:
            return create_group_game(
                s, kind=body.kind, ruleset=name, settings=settings, side=body.color,
                group=group, other_user_id=None, engine=body.engine if engine else None,
                created_by_id=user.id, invited=invited)
        except ConsultationError as exc:
            raise HTTPException(422, f"members: {exc}") from None

    # Counted as the creator's seeks and engine games (a guest's by address
    # too): consultations cannot fill the lobby or the engines either.
    game_id = await create_counted(hub, st, user, request, engine=engine, make=make)
    live = await hub.get(game_id)
    if engine:
        await hub.start_if_ready(game_id)
    async with live.lock:
        state = live.snapshot(user.id)
    state["invite"] = str(request.url_for("game_page", game_id=game_id))
    return state


class Answer(BaseModel):
    """An invited member's answer: join the group (``accept``) or not."""

    accept: bool


@router.post("/games/{game_id}/group/answer", response_model=None)
async def answer(game_id: str, body: Answer, hub: HubDep, user: UserDep
                 ) -> dict[str, Any] | JSONResponse:
    """Accept or decline the invitation to a consultation group (the
    invited only: 403 for anyone else; 409 once the game is over).  Until
    he accepts he is not a member and is named nowhere; the game starts
    when every invited member has answered and the side has two members
    (a captain who declines leaves the group to decide by majority).  A member who did not create the group
    may also leave it this way (``accept: false``) before the game starts."""
    try:
        out = await boards_of(hub).answer(game_id, user, body.accept)
    except ActionError as exc:
        return _error(exc)
    await hub.start_if_ready(game_id)
    return out


class Vote(BaseModel):
    """A member's vote for the group's move of ply ``ply``."""

    ply: int = Field(ge=1, le=10000)
    move: str = Field(min_length=1, max_length=8)
    confirm: bool = False


@router.post("/games/{game_id}/group/votes", response_model=None)
async def vote(game_id: str, body: Vote, hub: HubDep, user: UserDep
               ) -> dict[str, Any] | JSONResponse:
    """Vote for (or, as captain, ``confirm``) the group's move.  403 for a
    non-member; 409 out of turn or for a second vote; 400 for an illegal
    move (the rule book's reason)."""
    try:
        return await boards_of(hub).vote(game_id, user, body.move, body.ply, confirm=body.confirm)
    except ActionError as exc:
        return _error(exc)


class Motion(BaseModel):
    """A member's support for resigning or a draw action for his group."""

    type: Literal["resign", "offer_draw", "accept_draw", "decline_draw"]


@router.post("/games/{game_id}/group/motions", response_model=None)
async def motion(game_id: str, body: Motion, hub: HubDep, user: UserDep
                 ) -> dict[str, Any] | JSONResponse:
    """Support resigning, offering, accepting or declining a draw for your
    group: taken at once for the captain in captain mode, else once more
    than half of the members present support it.  403 for a non-member
    (a spectator, the opponent) or a member other than the captain in
    captain mode; 409 when the game is not in play or you already support
    it."""
    try:
        return await boards_of(hub).motion(game_id, user, body.type)
    except ActionError as exc:
        return _error(exc)


async def member_motion(hub: Hub, game_id: str, user: User, action: dict[str, Any]
                        ) -> dict[str, Any] | None:
    """Take a group member's ``resign`` or draw action (sent as a player's,
    on ``/actions`` or the socket) as his support for the group's motion;
    return the acknowledgement, or ``None`` if ``user`` plays no group side
    of the game or the action is no motion (the hub answers it then).
    Raises :class:`ActionError` as :meth:`GroupBoards.motion`."""
    kind = action.get("type")
    if kind not in MOTIONS:
        return None
    live = await hub.get(game_id)
    if member_side(live, user.id) is None:
        return None
    ack = await boards_of(hub).motion(game_id, user, kind)
    return {**ack, "id": action.get("id")}


class Talk(BaseModel):
    """A message to the group."""

    text: str = Field(min_length=1, max_length=500)


@router.post("/games/{game_id}/group/talk", response_model=None)
async def talk(game_id: str, body: Talk, hub: HubDep, user: UserDep
               ) -> dict[str, Any] | JSONResponse:
    """Post to your group's talk (members only; 403 otherwise)."""
    try:
        return await boards_of(hub).talk(game_id, user, body.text)
    except ActionError as exc:
        return _error(exc)


@router.get("/games/{game_id}/group", response_model=None)
async def group(game_id: str, hub: HubDep, user: UserDep,
                side: Literal["first", "second"] | None = None
                ) -> dict[str, Any] | JSONResponse:
    """Your group (or, for one who may rule on the game, ``side``'s): its
    setting, members, the current tally and the talk.  403 for anyone else."""
    try:
        return await boards_of(hub).view(game_id, user, side)
    except ActionError as exc:
        return _error(exc)


async def socket_action(hub: Hub, game_id: str, user: User, msg: dict[str, Any]
                        ) -> dict[str, Any]:
    """Answer a socket's ``group_vote`` / ``group_confirm`` (``ply``,
    ``move``) or ``group_talk`` (``text``); returns the acknowledgement.
    Raises :class:`ActionError` as the routes refuse."""
    boards = boards_of(hub)
    if msg.get("type") == "group_motion":
        ack = await boards.motion(game_id, user, msg.get("motion"))
        return {**ack, "id": msg.get("id")}
    if msg.get("type") == "group_talk":
        said = await boards.talk(game_id, user, msg.get("text"))
        return {"type": "ack", "id": msg.get("id"), "message": said}
    ack = await boards.vote(game_id, user, msg.get("move"), msg.get("ply"),
                            confirm=msg.get("type") == "group_confirm")
    return {**ack, "id": msg.get("id")}
