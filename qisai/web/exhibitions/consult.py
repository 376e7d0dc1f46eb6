"""Consultation boards (会商 / 联棋) on the arena: a side played by a group.

A group side is held by a *group account* (a user row without password or
session, named after the members) so that the hub, the clock and the
records treat the side as one player: the clock runs for the side as one.
The group's setting (:class:`qisai.referee.consultation.Consultation`) is in
the game's settings under ``groups`` (``{"first": {"members": [ids],
"names": [...], "captain": id, "mode": "majority", "reserve": 60,
"account": id}}``).  Members vote; when the turn's
:class:`~qisai.referee.consultation.Ballot` decides (checked on each vote and
on this module's tick) the move is played for the group account through
:meth:`Hub.act`, exactly as a player's move.  Nobody else can move for the
group: no one holds the group account's session.

The group also resigns, offers a draw and answers one (:meth:`GroupBoards.motion`,
issue 33 item 7) by its rule (:meth:`Consultation.carries`): the captain's
word, or more than half of the members present; a motion's support counts
for the position it was made in (a move clears it).  Votes may be written
in Chinese notation (炮二平五) as well as ICCS; the tally is kept in ICCS
and sent with each move's Chinese text.  The reserve is capped at the side's
time left and members who missed a ballot are not waited for (see
:mod:`qisai.referee.consultation`).

The group's open decisions (the ballot of its turn, the members counted
absent, the support of its motions) are kept in the database
(:mod:`qisai.web.exhibitions.ballots`): each vote and motion is read from it,
changed and written back on condition that nobody wrote meanwhile, so a
restarted server resumes an open vote and every server of a cluster counts
the same votes (issue 30: the database is the truth); the server whose
write closes a ballot plays its move.  The group's talk lives in memory
(it is not part of the record).  The talk is sent
only to the group's members and to those who may rule on the game (the
event's arbiters, or the site's for a casual game; never a player of it,
17.4).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from qisai.referee.consultation import MOTIONS, Ballot, Consultation, ConsultationError
from qisai.referee.verdict import Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.store import repo
from qisai.store.models import User
from qisai.web.exhibitions import ballots
from qisai.web.exhibitions.ballots import Decisions
from qisai.web.play import explain
from qisai.web.play.hub import Hub
from qisai.web.play.live import ActionError, LiveGame, group_of, member_side
from qisai.web.play.ticker import Ticker

__all__ = ["GroupBoards", "boards_of", "MAX_TALK", "TALK_KEPT"]

log = logging.getLogger("qisai.web")

MAX_TALK = 500
"""Characters of one talk message."""
TALK_KEPT = 200
"""Talk messages a group side keeps (the oldest are dropped)."""

_SIDES = {"first": Side.FIRST, "second": Side.SECOND}

TRIES = 5
"""Times a vote or motion is read and written again when another request
(or server) wrote the group's decisions first."""


def _refused(status: int, zh: str, en: str, clause: str = "") -> ActionError:
    return ActionError(status, en, {"code": "group", "zh": zh, "en": en, "clause": clause})


def _setting(group: Mapping[str, Any]) -> Consultation:
    return Consultation(tuple(str(m) for m in group["members"]),
                        None if group.get("captain") is None else str(group["captain"]),
                        str(group.get("mode", "majority")), float(group.get("reserve", 60)))


def _name(side: Side) -> str:
    return "first" if side is Side.FIRST else "second"


@dataclass
class _Side:
    """A group side: its setting, its open decisions as last read from the
    database (:class:`~qisai.web.exhibitions.ballots.Decisions`), its talk."""

    setting: Consultation
    d: Decisions = field(default_factory=Decisions)
    talk: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=TALK_KEPT))


class GroupBoards:
    """The consultation sides of one hub's games: votes, decisions, talk."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.sides: dict[tuple[str, Side], _Side] = {}
        self._ticker = Ticker(self.tick, "group ballot")

    # ------------------------------------------------------------- lookup
    def _side(self, live: LiveGame, side: Side) -> _Side | None:
        key = (live.id, side)
        found = self.sides.get(key)
        if found is None:
            group = group_of(live, side)
            if group is None:
                return None
            found = self.sides[key] = _Side(_setting(group))
        return found

    def member_side(self, live: LiveGame, user_id: int) -> Side | None:
        """Return the side whose group ``user_id`` is a member of, or ``None``."""
        return member_side(live, user_id)

    def _member_in_play(self, live: LiveGame, user: User) -> tuple[Side, _Side]:
        """Return the side whose group ``user`` is a member of in ``live``,
        and that side's ballot and motions, while the game is in play; the
        caller holds ``live.lock``.  Raises :class:`ActionError` 403 for
        anyone else (a spectator, the opponent), 409 when the game is not
        in play (not started, or over)."""
        side = self.member_side(live, user.id)
        if side is None:
            raise _refused(403, "你不是这一方的会商成员",
                           "you are not a member of a group playing this game")
        state = self._side(live, side)
        assert state is not None  # member_side found the side's group
        if live.status != "active" or live.game.is_over:
            raise _refused(409, "对局未在进行", "the game is not in play")
        return side, state

    async def may_read(self, live: LiveGame, user: User, side: Side) -> bool:
        """Whether ``user`` may read the talk and votes of ``side``'s group:
        its members, and who may rule on the game (never its players, 17.4)."""
        group = group_of(live, side)
        if group is None:
            return False
        if user.id in group["members"]:
            return True
        if self.member_side(live, user.id) is not None:
            return False  # the other group's member plays in this game
        return await self.hub.may_rule(live, user, "group_talk") is None

    async def _read(self, live: LiveGame, side: Side, state: _Side) -> Decisions:
        """Read the side's open decisions from the database into ``state``."""
        def load() -> Decisions:
            with self.hub.db.session() as s:
                return ballots.load(s, live.id, _name(side), state.setting)
        state.d = await asyncio.to_thread(load)
        return state.d

    async def _write(self, live: LiveGame, side: Side, state: _Side) -> bool:
        """Write ``state``'s decisions back; False if another wrote first."""
        def store() -> bool:
            with self.hub.db.session() as s:
                return ballots.save(s, live.id, _name(side), state.d)
        return await asyncio.to_thread(store)

    @staticmethod
    def _not_behind(live: LiveGame, d: Decisions) -> Decisions:
        """Return ``d``, read for ``live``; raise :class:`ActionError` 409
        when it was written for a later position than this server's copy of
        the game holds (another server of the cluster moved, and the relay
        has not brought the move yet): counted on the old position, the
        vote or motion would wipe the group's newer ones."""
        moves = len(live.game.moves)
        # a closed ballot (none open, its ply stored) is a move played
        if d.ply > moves + 1 or (d.ballot is None and d.ply > moves) or d.motion_ply > moves:
            raise _refused(409, "对局刚有新着法，请稍后再试",
                           "the game has just moved on; try again in a moment")
        return d

    def _ballot(self, live: LiveGame, state: _Side) -> Ballot:
        ply = len(live.game.moves) + 1
        d = state.d
        if d.ballot is None or d.ply != ply:
            moves = live.game.moves
            now = self.hub.now()
            opened = moves[-1].at if moves else (live.game.start_time or now)
            clock = getattr(live.game, "clock", None)
            side = live.game.to_move
            # The side's time left when the turn began: the reserve never
            # outlasts the clock (a proposed move is played before the flag).
            left = None if clock is None else clock.remaining(side, now) + max(0.0, now - opened)
            d.ballot = state.setting.ballot(opened, left, d.absent)
            d.ply = ply
        return d.ballot

    @staticmethod
    def _texts(live: LiveGame, moves: list[str]) -> dict[str, str]:
        """Chinese notation of the ICCS ``moves`` in the current position."""
        board: Any = getattr(live.game, "board", None)
        if live.kind != "xiangqi" or board is None:
            return {}
        from qisai.xiangqi import Move
        from qisai.xiangqi.notation import format as fmt

        out = {}
        for mv in moves:
            with contextlib.suppress(ValueError):
                out[mv] = fmt(board, Move.from_iccs(mv), "chinese")
        return out

    @staticmethod
    def _canonical(live: LiveGame, move: str) -> str:
        """Return ``move`` as the game's canonical text: a Xiangqi move in
        Chinese (炮二平五, 马8进7) or WXF notation becomes ICCS.

        Raises :class:`ActionError` 400 with the reason if it cannot be read."""
        board: Any = getattr(live.game, "board", None)
        if live.kind != "xiangqi" or board is None:
            return move
        from qisai.xiangqi import Move
        from qisai.xiangqi.notation import parse

        with contextlib.suppress(ValueError):
            Move.from_iccs(move)
            return move.lower()  # ICCS: its legality is checked as before
        try:
            return str(parse(board, move).iccs())
        except ValueError as exc:
            raise ActionError(400, f"move {move!r}: {exc}", {
                "code": "notation", "zh": f"无法读作本局面的着法：{move}（{exc}）",
                "en": f"cannot read {move!r} as a move here: {exc}", "clause": "7.5"}) from None

    # -------------------------------------------------------- invitations
    async def answer(self, game_id: str, user: User, accept: bool) -> dict[str, Any]:
        """``user``'s answer to his invitation to a group side of game
        ``game_id``: ``accept`` makes him a member (named from then on);
        otherwise he declines, or, a member who did not create the group,
        leaves it before the game starts.  Stored, and the game's copy in
        memory changed with it.  Returns ``{"side", "members", "names",
        "invited"}``.

        Raises :class:`ActionError`: 403 for one neither invited nor (to
        leave) a member other than the creator; 409 once the game is over,
        or to leave a game under way.
        """
        live = await self.hub.get(game_id)
        async with live.lock:
            found = None
            for side in (Side.FIRST, Side.SECOND):
                group = group_of(live, side)
                if group is not None and (user.id in group.get("invited", ())
                                          or user.id in group["members"][1:]):
                    found = side, group
            if found is None:
                raise _refused(403, "你没有被邀请加入这一方的会商小组",
                               "you are not invited to a group of this game")
            side, group = found
            if live.game.is_over or live.status == "finished":
                raise _refused(409, "对局已结束", "the game is over")
            invited = [m for m in group.get("invited", ()) if m != user.id]
            members = [m for m in group["members"] if m != user.id]
            if user.id in group["members"] and live.game.phase.value != "waiting":
                raise _refused(409, "对局已开始，不能退出（可由小组认输）",
                               "the game has started; the group may resign instead")
            if accept:
                members.append(user.id)
            captain = group.get("captain") if group.get("captain") in members else None
            mode = group.get("mode", "majority")
            if mode == "captain" and captain is None:
                mode = "majority"  # the captain left: the members decide by majority
            new = {**group, "members": members, "invited": invited, "captain": captain,
                   "mode": mode}

            def store() -> list[str]:
                with self.hub.db.session() as s:
                    names = [repo.get_user(s, m).display_name for m in members]
                    row = repo.get_game(s, game_id)
                    row.settings = {**row.settings, "groups": {
                        **(row.settings.get("groups") or {}),
                        "first" if side is Side.FIRST else "second": {**new, "names": names}}}
                    repo.get_user(s, int(group["account"])).display_name = "、".join(names)[:80]
                    s.commit()
                    return names
            names = await asyncio.to_thread(store)
            new["names"] = names
            live.settings = live.settings.with_stored(groups={
                **live.settings.groups, "first" if side is Side.FIRST else "second": new})
            account = live.players.get(int(group["account"]))
            if account is not None:
                account["display_name"] = "、".join(names)[:80]
            self.sides.pop((live.id, side), None)  # the ballot counts the new members
        return {"side": "first" if side is Side.FIRST else "second", "members": members,
                "names": names, "invited": invited}

    # ------------------------------------------------------------- voting
    async def vote(self, game_id: str, user: User, move: Any, ply: Any, *,
                   confirm: bool = False) -> dict[str, Any]:
        """Record ``user``'s vote (or, ``confirm``, the captain's choice) of
        ``move`` for ply ``ply``; play the group's move if the ballot then
        decides.  Returns ``{"type": "ack", "ply", "tally", "played"}``.

        Raises :class:`ActionError`: 403 for a non-member, 409 out of turn
        or for a second vote, 400 for a bad or illegal move (with the rule
        book's reason).
        """
        if not isinstance(move, str) or not 1 <= len(move) <= 8:
            raise _refused(400, "着法无效", "move: give a move of 1 to 8 characters")
        if not isinstance(ply, int) or isinstance(ply, bool) or not 1 <= ply <= 10000:
            raise _refused(400, "须给出步数", "ply: give the ply number (1, 2, ...)")
        live = await self.hub.get(game_id)
        async with live.lock:
            side, state = self._member_in_play(live, user)
            game = live.game
            if game.phase.value != "playing":  # a Go count under way takes no moves
                raise _refused(409, "对局未在进行", "the game is not in play")
            if game.to_move is not side or ply != len(game.moves) + 1:
                raise _refused(409, "还没轮到你方走棋", "it is not your side's turn to move",
                               "")
            move = self._canonical(live, move)
            reason = self._illegal(live, move)
            if reason is not None:
                raise ActionError(400, f"move {move}: {reason['en']}", reason)
            for _ in range(TRIES):  # the stored ballot is the truth: read, vote, write
                self._not_behind(live, await self._read(live, side, state))
                ballot = self._ballot(live, state)
                try:
                    if confirm:
                        ballot.confirm(str(user.id), move)
                    else:
                        ballot.vote(str(user.id), move)
                except ConsultationError as exc:
                    zh, _, en = str(exc).partition(" / ")
                    raise _refused(409, zh, en) from None
                if await self._write(live, side, state):
                    break
            else:
                raise _refused(409, "小组的投票刚有变化，请再投一次",
                               "the group's ballot changed meanwhile; vote again")
            tally = ballot.tally()
            texts = self._texts(live, [m for m, _ in tally])
        self.start()  # the reserve may run out: the tick decides then
        played = await self._decide(live, side)
        await self._send_group(live, side, {"type": "group_vote", "ply": ply, "tally": tally,
                                            "texts": texts, "played": played})
        return {"type": "ack", "ply": ply, "move": move, "tally": tally, "texts": texts,
                "played": played}

    async def motion(self, game_id: str, user: User, kind: Any) -> dict[str, Any]:
        """``user`` supports the motion ``kind`` (``resign``, ``offer_draw``,
        ``accept_draw``, ``decline_draw``) for his group; once it carries by
        the group's rule it is taken for the group account through
        :meth:`Hub.act` (the referee rules on it as on a player's).
        Returns ``{"type": "ack", "motion", "support", "present", "carried"}``.

        Raises :class:`ActionError`: 400 for an unknown motion, 403 for a
        non-member (a spectator, the opponent) or, in captain mode, a member
        other than the captain, 409 if the game is not in play or he already
        supports it; the referee's refusal if it carried but may not be
        taken (no draw offered to accept)."""
        if kind not in MOTIONS:
            raise _refused(400, "未知的提议", f"type: one of {', '.join(MOTIONS)}")
        live = await self.hub.get(game_id)
        async with live.lock:
            side, state = self._member_in_play(live, user)
            group = group_of(live, side)
            assert group is not None
            ply = len(live.game.moves)
            for _ in range(TRIES):  # the stored support is the truth: read, add, write
                d = self._not_behind(live, await self._read(live, side, state))
                if d.motion_ply != ply:  # support counts for one position only
                    d.motions, d.motion_ply = {}, ply
                supporters = d.motions.get(kind, set())
                if str(user.id) in supporters:
                    raise _refused(409, "你已经支持过这个提议", "you already support this motion")
                try:
                    carried = state.setting.carries(kind, str(user.id),
                                                    supporters | {str(user.id)}, d.absent)
                except ConsultationError as exc:
                    zh, _, en = str(exc).partition(" / ")
                    raise _refused(403, zh, en) from None
                supporters = d.motions[kind] = supporters | {str(user.id)}
                support, present = len(supporters), state.setting.present(d.absent)
                if carried:  # the write that carries it is the one that takes it
                    d.motions.pop(kind, None)
                if await self._write(live, side, state):
                    break
            else:
                raise _refused(409, "小组的提议刚有变化，请再试一次",
                               "the group's motions changed meanwhile; try again")
        if carried:
            account = await self._account(int(group["account"]))
            await self.hub.act(live.id, account, {"type": kind})
        note = {"type": "group_motion", "motion": kind, "support": support,
                "present": present, "carried": carried}
        await self._send_group(live, side, note)
        return {**note, "type": "ack"}

    def _illegal(self, live: LiveGame, move: str) -> dict[str, str] | None:
        game = live.game
        if isinstance(game, XiangqiGame):
            return explain.xiangqi_why(game.board, move)
        if move.lower() == "pass":
            return None
        from qisai.go import coords

        board = game.board
        try:
            point = coords.parse_gtp(move, board.size)
        except ValueError:
            return {"code": "group", "zh": "不是棋盘上的点", "en": "not a point", "clause": ""}
        found = None if point is None else board.legal_reason(point)
        return None if found is None else explain.text(f"go_{found.name.lower()}")

    async def _decide(self, live: LiveGame, side: Side) -> str | None:
        """Play the group's move if its ballot has decided; return it."""
        async with live.lock:
            state = self._side(live, side)
            group = group_of(live, side)
            if state is None or group is None or live.game.is_over \
                    or live.game.to_move is not side:
                return None
            d = await self._read(live, side, state)
            if d.ballot is None or d.ply != len(live.game.moves) + 1:
                return None
            now = self.hub.now()
            move = d.ballot.decision(now)
            ply = d.ply
            if move is None:
                return None
            # the ballot is closed in the database before its move is played: of two
            # servers deciding it at once, only the one whose write counts plays it
            closed, absent = d.ballot, d.absent
            d.absent, d.ballot = d.ballot.absent_after(now), None
            if not await self._write(live, side, state):
                return None
        account = await self._account(int(group["account"]))
        kind = "pass" if live.kind == "go" and move.lower() == "pass" else "move"
        try:
            await self.hub.act(live.id, account, {"type": kind, "ply": ply, "move": move})
        except ActionError as exc:  # e.g. the clock fell meanwhile, the database was away
            log.info("group move %s refused in game %s: %s", move, live.id, exc.message)
            async with live.lock:  # not played: the ballot opens again (the tick retries)
                d = await self._read(live, side, state)
                if (d.ballot is None and d.ply == ply and not live.game.is_over
                        and len(live.game.moves) == ply - 1):
                    d.ballot, d.absent = closed, absent
                    await self._write(live, side, state)
            return None
        return move

    async def _account(self, user_id: int) -> User:
        def load() -> User:
            with self.hub.db.session() as s:
                u = repo.get_user(s, user_id)
                s.expunge(u)
                return u
        return await asyncio.to_thread(load)

    # --------------------------------------------------------------- talk
    async def talk(self, game_id: str, user: User, text: Any) -> dict[str, Any]:
        """Post ``text`` to ``user``'s group; returns the stored message.

        Raises :class:`ActionError` 403 for a non-member, 400 for an empty
        or too long message."""
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TALK:
            raise _refused(400, f"消息须为 1 到 {MAX_TALK} 个字",
                           f"text: 1 to {MAX_TALK} characters")
        live = await self.hub.get(game_id)
        side = self.member_side(live, user.id)
        if side is None:
            raise _refused(403, "只有本组成员可以在组内发言",
                           "only the group's members talk in the group")
        state = self._side(live, side)
        assert state is not None
        msg = {"from": user.id, "name": user.display_name, "text": text.strip(),
               "at": self.hub.now()}
        state.talk.append(msg)
        await self._send_group(live, side, {"type": "group_talk", "message": msg})
        return msg

    async def view(self, game_id: str, user: User, side_name: str | None = None
                   ) -> dict[str, Any]:
        """Return the group of ``user`` (or, for an arbiter, of ``side_name``):
        setting, members' names, the current tally and the talk.

        Raises :class:`ActionError` 404 if that side is no group, 403 if
        ``user`` may not read it."""
        live = await self.hub.get(game_id)
        side = self.member_side(live, user.id)
        if side is None and side_name in _SIDES:
            side = _SIDES[side_name]
        group = None if side is None else group_of(live, side)
        if side is None or group is None:
            raise _refused(404, "这一方不是会商小组", "that side is not played by a group")
        if not await self.may_read(live, user, side):
            raise _refused(403, "只有本组成员和裁判可以看组内讨论",
                           "only the group's members and the arbiters see the group's talk")
        state = self._side(live, side)
        assert state is not None
        self.start()  # a restarted server resumes deciding the open ballots
        d = await self._read(live, side, state)
        game = live.game
        if (live.status == "active" and not game.is_over and game.to_move is side
                and game.phase.value == "playing"):
            ballot: Ballot | None = self._ballot(live, state)  # its deadline: the countdown
        else:
            ballot = d.ballot if d.ply == len(game.moves) + 1 else None
        tally = ballot.tally() if ballot else []
        motions = ({k: len(v) for k, v in d.motions.items()}
                   if d.motion_ply == len(live.game.moves) else {})
        return {"side": "first" if side is Side.FIRST else "second",
                "mode": group.get("mode"), "captain": group.get("captain"),
                "reserve": group.get("reserve"), "members": group["members"],
                "names": group.get("names", []), "ply": len(live.game.moves) + 1,
                "member": user.id in group["members"],
                "is_captain": user.id == group.get("captain"),
                "tally": tally, "texts": self._texts(live, [m for m, _ in tally]),
                "voted": sorted(ballot.votes) if ballot else [],
                "deadline": ballot.deadline if ballot else None, "now": self.hub.now(),
                "absent": sorted(d.absent), "motions": motions,
                "present": state.setting.present(d.absent),
                "talk": list(state.talk)}

    async def _send_group(self, live: LiveGame, side: Side, msg: dict[str, Any]) -> None:
        """Send ``msg`` to the sockets of those who may read ``side``'s group
        (a socket's key carries its viewer's id, see :meth:`Hub.subscribe`)."""
        group = group_of(live, side)
        if group is None or not live.subscribers:
            return
        text = json.dumps(msg, ensure_ascii=False)
        readers: dict[int, bool] = {}
        for key, send in list(live.subscribers.items()):
            uid = key >> 20
            if uid == 0:
                continue
            if uid not in readers:
                if uid in group["members"]:
                    readers[uid] = True
                else:
                    readers[uid] = await self._may_read_id(live, uid, side)
            if readers[uid]:
                with contextlib.suppress(Exception):
                    await send(text)

    async def _may_read_id(self, live: LiveGame, uid: int, side: Side) -> bool:
        try:
            user = await self._account(uid)
        except Exception:
            return False
        return await self.may_read(live, user, side)

    # --------------------------------------------------------------- tick
    async def tick(self) -> None:
        """Decide the ballots whose reserved seconds have run out, of the
        group games this server holds (their deadlines are in the database:
        a ballot opened before a restart, or on another server, too)."""
        for game_id, side in list(self.sides):
            live = self.hub.games.get(game_id)
            if live is None or live.game.is_over:
                self.sides.pop((game_id, side), None)
        held = [gid for gid, live in list(self.hub.games.items())
                if not live.game.is_over and (group_of(live, Side.FIRST) is not None
                                              or group_of(live, Side.SECOND) is not None)]
        if not held:
            return
        now = self.hub.now()

        def due() -> list[tuple[str, str]]:
            with self.hub.db.session() as s:
                return ballots.due(s, held, now)
        for game_id, name in await asyncio.to_thread(due):
            live = self.hub.games.get(game_id)
            if live is not None and name in _SIDES:
                await self._decide(live, _SIDES[name])

    def start(self, period: float = 0.5) -> None:
        """Start the background tick (once; needs a running loop)."""
        self._ticker.start(period)

    async def stop(self) -> None:
        """Stop the background tick."""
        await self._ticker.stop()


_BOARDS: weakref.WeakKeyDictionary[Hub, GroupBoards] = weakref.WeakKeyDictionary()


def boards_of(hub: Hub) -> GroupBoards:
    """Return the :class:`GroupBoards` of ``hub`` (made on first use; its
    tick starts with the first vote)."""
    boards = _BOARDS.get(hub)
    if boards is None:
        boards = _BOARDS[hub] = GroupBoards(hub)
    return boards
