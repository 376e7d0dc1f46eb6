"""Blindfold seats (盲棋, 蒙目棋): the arbiter's announcements and typed replies.

A seat of any game may be blindfold: the game's ``settings["blindfold"]``
lists the blindfold seats (``first``, ``second``).  A player sets it for his
own seat (``POST /api/games/{id}/blindfold``); a simul sets it at the start
for the boards whose entrant (or host) chose it.  Everyone sees which
seats are blindfold (the state's ``blindfold``) and the record says so
(:mod:`qisai.web.play.downloads`).

The blindfold player hears the opponent's move as the arbiter reads it
(``GET /api/games/{id}/announce``: "第三台，炮二平五" / "board 3, C2.5" /
"第三台，黑 Q16", from :mod:`qisai.referee.announce`) and answers by typing
any notation (``POST /api/games/{id}/typed``: 炮二平五, 炮25, C2.5, h2e2, a Go
point or ``pass``).  A typo or an illegal move is refused with the parser's
message and nothing is sent to the referee; a blindfold seat is told
only that the move cannot be played, in Chinese and English (the parser
names squares and lists the legal moves).  Its own view shows no position
(:func:`qisai.web.play.explain.blind_position`), and a rated game keeps
the blindfold on once started.

Everyone may ask for the announcement (the moves are public); only a
player of the game may type a move, and only for his own side (the hub
decides the side from the account, never from the request).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field

from qisai.referee import announce
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store import repo
from qisai.store.models import User
from qisai.web.accounts.deps import UserDep
from qisai.web.exhibitions import clips
from qisai.web.play import explain
from qisai.web.play.deps import HubDep, live_game
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.state import StateDep

__all__ = ["router", "typed_move", "announcement", "board_number", "SEATS", "call_clip"]

router = APIRouter(prefix="/api")

SEATS = ("first", "second")


def board_number(live: LiveGame) -> int | None:
    """Return the exhibition board number of ``live`` (a simul's board), or None."""
    return live.settings.simul_board()


def announcement(live: LiveGame, lang: str, ply: int | None = None) -> dict[str, Any] | None:
    """Return the arbiter's announcement of move ``ply`` (default the last)
    of ``live`` in ``lang`` (``zh``, ``zh-Hant``, ``en``): ``{"ply", "side",
    "text", "move"}``; ``None`` before the first move.  A game that is not an
    exhibition board is announced without a board number ("炮二平五").
    Call with the game's lock held.  Raises :class:`announce.AnnounceError`
    for a bad language or ply."""
    game = live.game
    moves = game.moves
    n = len(moves) if ply is None else ply
    if n == 0:
        return None
    if not 1 <= n <= len(moves):
        raise announce.AnnounceError(f"ply {n} is not in 1..{len(moves)}")
    rec = moves[n - 1]
    number = board_number(live) or 1
    if isinstance(game, XiangqiGame):
        from qisai.xiangqi import Board, Move

        board = Board(game.start_fen)
        for earlier in moves[: n - 1]:
            board.push_unchecked(Move.from_iccs(earlier.move))
        said = announce.announce_xiangqi(number, board, Move.from_iccs(rec.move), lang)
    else:
        from qisai.go.coords import parse_gtp

        size = game.board.size
        colour = "black" if rec.side.name == "FIRST" else "white"
        point = None if rec.move in ("pass", "") else parse_gtp(rec.move, size)
        said = announce.announce_go(number, colour, point, size, lang)
    text = said.text
    if board_number(live) is None:  # not an exhibition board: no "第一台"
        text = text.removeprefix(announce.board_label(1, lang)).lstrip("，, ")
    return {"ply": n, "side": rec.side.name.lower(), "text": text, "move": said.move}


def _refused(message: str) -> ActionError:
    # The parser's own words, after a short sentence in each language.
    return ActionError(422, message, {"code": "typed_move", "zh": f"无法走这步：{message}",
                                      "en": f"cannot play that: {message}", "clause": ""})


def _refused_blind() -> ActionError:
    # The parser's words name squares and list the legal moves: a blindfold
    # seat hears only that the move cannot be played.
    said = explain.text("blind_illegal")
    return ActionError(422, said["en"], {**said, "code": "typed_move"})


async def typed_move(hub: Hub, game_id: str, user: User, text: Any, ply: Any,
                     msg_id: Any = None) -> dict[str, Any]:
    """Read ``text`` (any notation, a Go point or ``pass``) as ``user``'s
    move at ``ply`` in ``game_id`` and play it through the hub.

    Returns the hub's acknowledgement with the move read (``move``).
    Raises :class:`ActionError`: 422 with the parser's message for a typo
    or an illegal move (nothing is sent), and the hub's refusals (403 not a
    player, 409 out of turn ...).
    """
    if not isinstance(text, str) or len(text) > 32:
        raise _refused("type a move of at most 32 characters")
    live = await hub.get(game_id)
    async with live.lock:
        if live.side_of(user.id) is None:
            raise ActionError(403, "you are not a player of this game")
        game = live.game
        try:
            if isinstance(game, XiangqiGame):
                if game.to_move is not live.side_of(user.id):
                    raise _refused("it is not your turn")
                move = announce.read_xiangqi_reply(game.board, text).iccs()
                kind = "move"
            else:
                from qisai.go.coords import gtp_name

                size = game.board.size
                point = announce.read_go_reply(text, size)
                kind = "move" if point is not None else "pass"
                move = "pass" if point is None else gtp_name(point, size)
        except announce.AnnounceError as exc:
            if explain.blind_seat(live, live.side_of(user.id)):
                raise _refused_blind() from None
            raise _refused(str(exc)) from None
    action: dict[str, Any] = {"type": kind, "ply": ply, "move": move, "id": msg_id}
    ack = await hub.act(game_id, user, action)
    return {**ack, "move": move}


class Typed(BaseModel):
    """A typed move: the text and the ply it is for."""

    text: str = Field(max_length=32)
    ply: int = Field(ge=1, le=100_000)


@router.post("/games/{game_id}/typed", tags=["games"])
async def typed(game_id: str, body: Typed, hub: HubDep, user: UserDep) -> Any:
    """Play a typed move (a blindfold seat's reply, or anyone's): any
    notation the notation module reads, a Go point or ``pass``.  422 with
    the parser's message for a typo or an illegal move (nothing is played);
    otherwise as ``POST /api/games/{id}/actions``."""
    try:
        return await typed_move(hub, game_id, user, body.text, body.ply)
    except ActionError as exc:
        return JSONResponse(exc.body(), status_code=exc.status)


@router.get("/games/{game_id}/announce", tags=["games"])
async def get_announcement(game_id: str, hub: HubDep,
                           lang: Literal["zh", "zh-Hant", "en"] = "zh",
                           ply: int | None = None) -> dict[str, Any]:
    """Return the arbiter's announcement of a move (default the last):
    ``{"ply", "side", "text": "第三台，炮二平五", "move"}``, or
    ``{"ply": 0, "text": ""}`` before the first move; 400 for a ply out of
    range."""
    live = await live_game(hub, game_id)
    async with live.lock:
        try:
            said = announcement(live, lang, ply)
        except announce.AnnounceError as exc:
            raise HTTPException(400, str(exc)) from None
    return said or {"ply": 0, "side": None, "text": "", "move": ""}


@router.get("/calls/clip", tags=["games"], response_class=FileResponse)
async def call_clip(st: StateDep, text: str = Query(min_length=1, max_length=40),
                    lang: Literal["zh", "en"] = "zh") -> FileResponse:
    """A WAV clip of the clock call ``text`` (读秒: "30秒", "1" ... "9",
    "10，超时判负"), for a page whose browser has no voice (made on first
    use with espeak-ng and kept: :mod:`qisai.web.exhibitions.clips`).
    Anyone may ask (the calls are public); 404 for a text that is no clock
    call, or when this server has no speech synthesiser."""
    try:
        path = await clips.make_clip(st.settings.data_dir, lang, text)
    except clips.ClipError as exc:
        raise HTTPException(404, str(exc)) from None
    if path is None:
        raise HTTPException(404, "no speech synthesiser (espeak-ng) on this server: "
                                 "the call is shown as text only")
    return FileResponse(path, media_type="audio/wav",
                        headers={"Cache-Control": "public, max-age=86400"})


class Blindfold(BaseModel):
    """A player's choice for his own seat."""

    on: bool


@router.post("/games/{game_id}/blindfold", tags=["games"])
async def set_blindfold(game_id: str, body: Blindfold, st: StateDep, hub: HubDep,
                        user: UserDep) -> dict[str, Any]:
    """Make the caller's own seat blindfold (or not): ``{"blindfold":
    ["first"]}``.  403 for anyone who does not play in the game; 409 once
    the game is over."""
    live = await live_game(hub, game_id)
    async with live.lock:
        side = live.side_of(user.id)
        if side is None:
            raise HTTPException(403, "only a player of this game chooses blindfold, for his own seat")
        if live.game.is_over:
            raise HTTPException(409, "the game is over")
        seat = side.name.lower()
        if live.rated and not body.on and seat in live.settings.blindfold \
                and live.game.phase.value != "waiting":
            raise HTTPException(409, "计等级分的盲棋对局开始后不能取消蒙目 / a rated blindfold "
                                     "game cannot take the blindfold off once it has started")
        seats = [x for x in live.settings.blindfold if x != seat]
        if body.on:
            seats.append(seat)
        seats.sort()

        def store() -> None:
            with st.db.session() as s:
                row = repo.get_game(s, game_id)
                row.settings = {**row.settings, "blindfold": seats}
                s.commit()

        await run_in_threadpool(store)
        live.settings = live.settings.with_stored(blindfold=seats)
    await hub.broadcast(live, [])
    return {"blindfold": seats}
