"""Casual comfort through the hub: takeback by agreement and the rematch
(what they are and how the log keeps them: :mod:`qisai.web.play.takeback`).

The actions come on the game's socket and ``POST /api/games/{id}/actions``
through :meth:`Hub.act` like the referee's (:func:`register` makes them the
hub's): ``{"type": "takeback_offer"}``, ``takeback_accept``,
``takeback_decline``, ``rematch``, from a player of the game only; rated
and event games refuse them all (403, the reason in both languages).
Against an engine a takeback is agreed at once and a rematch starts at once
(as lichess's computer does); between two players the other one answers.

Every record is committed before anything is broadcast (as the hub does
with the referee's events); an agreed takeback then reloads the game from
its log, so memory and database never differ.
"""

from __future__ import annotations

from typing import Any

import anyio

from qisai.referee.verdict import Side
from qisai.store import ConflictError, repo
from qisai.store.models import GameStatus, User
from qisai.web.play import explain
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame
from qisai.web.play.quota import QuotaError
from qisai.web.play.takeback import COMFORT_ACTIONS, casual_refusal, plies_to_take, state_of

__all__ = ["act", "register"]

_TEXTS: dict[str, tuple[str, str]] = {
    "takeback_offer": ("{side}请求悔棋", "{side} asks to take back"),
    "takeback_decline": ("{side}拒绝悔棋", "{side} declines the takeback"),
    "takeback_accept": ("{side}同意悔棋，退回 {n} 步", "{side} agrees: {n} ply taken back"),
    "rematch_offer": ("{side}提议再来一局（交换先后手）",
                      "{side} offers a rematch (colours swapped)"),
    "rematch": ("再来一局已开始（交换先后手）", "The rematch has started (colours swapped)"),
}


def _refused(status: int, code: str, zh: str, en: str) -> ActionError:
    return ActionError(status, en, {"code": code, "zh": zh, "en": en, "clause": ""})


def _note(live: LiveGame, kind: str, side: Side, at: float, **data: Any) -> dict[str, Any]:
    """A notice for the sockets in the hub's form (``type``, ``zh``, ``en`` ...)."""
    names = {s: (s.name_zh(explain.kind_of(live)), s.name_en(explain.kind_of(live)))
             for s in Side}
    zh, en = _TEXTS[kind]
    fill = {"n": data.get("plies", "")}
    return {"type": kind, "at": at, "side": side.name.lower(),
            "zh": zh.format(side=names[side][0], **fill),
            "en": en.format(side=names[side][1], **fill), "clause": None, "data": data}


async def _write(hub: Hub, live: LiveGame, user: User, side: Side,
                 records: list[dict[str, Any]]) -> None:
    """Append ``records`` to the game's log (committed, conditional on the
    count this process has seen: raises :class:`ConflictError` if another
    wrote first, after reloading)."""
    rows = [repo.NewEvent(kind=r["type"], at_ms=int(round(r["at"] * 1000)), side=side.value,
                          actor_id=user.id, data=r) for r in records]
    # An accepted takeback frees the ply numbers of the moves it undoes, in
    # the same transaction (the store keeps a ply unique per game).
    undone = sum(int(r.get("plies", 0)) for r in records if r["type"] == "takeback_accept")
    release = len(live.game.moves) - undone if undone else None

    def write() -> None:
        with hub.db.session() as s:
            repo.append_events(s, live.id, live.event_count, rows, release_plies_above=release)

    try:
        await anyio.to_thread.run_sync(write)
    except ConflictError:
        await hub._reload(live)  # under the lock, as the hub does
        raise
    live.event_count += len(rows)


def register(hub: Hub) -> None:
    """Make the comfort actions (takeback, rematch) actions of ``hub``
    (:meth:`Hub.handle`): called once at the app's start."""
    hub.handle(COMFORT_ACTIONS, act)


async def act(hub: Hub, game_id: str, user: User, action: dict[str, Any]) -> dict[str, Any]:
    """Carry out the comfort ``action`` of ``user`` in ``game_id``; returns
    the acknowledgement (with ``rematch``: the new game's id).  Raises
    :class:`ActionError`: 403 for a spectator or a rated or event game, 409
    when there is nothing to take back or answer, 429 beyond the player's
    engine games (a rematch against the engine)."""
    kind = str(action.get("type"))
    if hub.move_limiter.hit(f"c{user.id}") > 0:
        # As fast as moves at most: an offer, an answer or a rematch each
        # writes to the log.
        raise _refused(429, "too_fast", "操作太快，请稍候", "Too many requests; slow down")
    live = await hub.get(game_id)
    for attempt in range(3):
        async with live.lock:
            try:
                ack, notes, new_game = await _act_locked(hub, live, user, kind)
            except ConflictError:
                if attempt == 2:
                    raise ActionError(409, f"game {game_id}: busy, try again") from None
                continue
            if notes:
                await hub._broadcast_notes(live, notes)
        if new_game is not None:
            await hub.start_if_ready(new_game)
        hub.engine_turn(live)
        ack["id"] = action.get("id")
        return ack
    raise ActionError(409, f"game {game_id}: busy, try again")  # pragma: no cover


async def _act_locked(hub: Hub, live: LiveGame, user: User, kind: str
                      ) -> tuple[dict[str, Any], list[dict[str, Any]], str | None]:
    side = live.side_of(user.id)
    if side is None:
        raise ActionError(403, f"game {live.id}: you are not a player of this game",
                          explain.text("not_a_player"))
    refused = casual_refusal(live.rated, live.pairing_id)
    if refused is not None:
        raise _refused(403, *refused)
    if live.status == GameStatus.WAITING.value:
        raise ActionError(409, f"game {live.id}: the game has not started",
                          explain.text("not_started"))
    if kind == "rematch":
        return await _rematch(hub, live, user, side)
    return await _takeback(hub, live, user, side, kind)


async def _takeback(hub: Hub, live: LiveGame, user: User, side: Side, kind: str
                    ) -> tuple[dict[str, Any], list[dict[str, Any]], str | None]:
    game = live.game
    state = state_of(game)
    if game.is_over or game.phase.value != "playing":
        raise _refused(409, "takeback_not_now", "对局不在进行中，不能悔棋",
                       "No takeback now: the game is not in play")
    now = hub.now()
    ack: dict[str, Any] = {"type": "ack", "duplicate": False}
    if kind == "takeback_offer":
        if state.offer_by is side:
            return {**ack, "duplicate": True}, [], None
        if state.offer_by is side.other:
            raise _refused(409, "takeback_answer", "对方已请求悔棋：请同意或拒绝",
                           "Your opponent asks to take back: accept or decline")
        plies = plies_to_take(game, side)
        if plies == 0:
            raise _refused(409, "takeback_nothing", "你还没有走棋，没有可悔的棋",
                           "You have made no move to take back")
        offer = {"type": "takeback_offer", "at": now, "side": side.name.lower()}
        records = [offer]
        notes = [_note(live, "takeback_offer", side, now)]
        if live.engine_side is side.other:
            # An engine agrees at once (as lichess's computer does).
            records.append({"type": "takeback_accept", "at": now,
                            "side": side.other.name.lower(), "plies": plies})
            await _write(hub, live, user, side, records)
            await _apply_takeback(hub, live)
            notes.append(_note(live, "takeback_accept", side.other, now, plies=plies))
            return {**ack, "plies": plies}, notes, None
        await _write(hub, live, user, side, records)
        state.offer_by, state.offer_moves = side, len(game.moves)
        return ack, notes, None
    if state.offer_by is not side.other:
        raise _refused(409, "takeback_none", "没有待回答的悔棋请求",
                       "There is no takeback request to answer")
    if kind == "takeback_decline":
        await _write(hub, live, user, side, [{"type": "takeback_decline", "at": now,
                                              "side": side.name.lower()}])
        state.offer_by = None
        return ack, [_note(live, "takeback_decline", side, now)], None
    plies = plies_to_take(game, side.other)
    await _write(hub, live, user, side, [{"type": "takeback_accept", "at": now,
                                          "side": side.name.lower(), "plies": plies}])
    await _apply_takeback(hub, live)
    return {**ack, "plies": plies}, [_note(live, "takeback_accept", side, now, plies=plies)], None


async def _apply_takeback(hub: Hub, live: LiveGame) -> None:
    """Rebuild ``live`` from its log (the takeback just written) and drop the
    views cached for the old line (notation, forbidden points)."""
    try:
        await hub._reload(live)  # under the lock, as the hub does
    except Exception:
        # Memory must not run behind the log: drop the game (it reloads on
        # next use) rather than play on from the line taken back.
        hub.forget(live.id)
        raise
    live.forget_views()


async def _rematch(hub: Hub, live: LiveGame, user: User, side: Side
                   ) -> tuple[dict[str, Any], list[dict[str, Any]], str | None]:
    game = live.game
    state = state_of(game)
    if not game.is_over:
        raise _refused(409, "rematch_not_over", "对局结束后才能再来一局",
                       "A rematch is offered once the game is over")
    ack: dict[str, Any] = {"type": "ack", "duplicate": False}
    if state.rematch_game is not None:
        return {**ack, "duplicate": True, "rematch": state.rematch_game}, [], None
    now = hub.now()
    engine = live.engine_side is side.other
    if not engine and state.rematch_by is not side.other:
        if state.rematch_by is side:
            return {**ack, "duplicate": True}, [], None
        await _write(hub, live, user, side, [{"type": "rematch_offer", "at": now,
                                              "side": side.name.lower()}])
        state.rematch_by = side
        return ack, [_note(live, "rematch_offer", side, now)], None
    # Both want it (or the engine always does): colours swapped.
    first, second = live.second_user_id, live.first_user_id
    settings = dict(live.settings.stored)

    def make() -> str:
        with hub.db.session() as s:
            if engine:
                try:
                    hub.quota.check(s, user.id, None, engine=True)
                except QuotaError as exc:
                    raise ActionError(429, exc.message) from None
            g = repo.create_game(s, kind=live.kind, ruleset=live.ruleset, settings=settings,
                                 first_user_id=first, second_user_id=second,
                                 created_by_id=user.id, rated=False, engine=live.engine)
            return g.id

    new_id = await anyio.to_thread.run_sync(make)
    await _write(hub, live, user, side, [{"type": "rematch", "at": now,
                                          "side": side.name.lower(), "game": new_id}])
    state.rematch_game = new_id
    return ({**ack, "rematch": new_id}, [_note(live, "rematch", side, now, game=new_id)],
            new_id)
