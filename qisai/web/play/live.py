"""A live game: the referee's game with its stored row's facts, and its
JSON views for the API, the sockets and the pages.

Nothing here decides anything: positions, legal moves and notation come from
the rules cores, results and clocks from the referee.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from qisai.referee.game import Game as RefereeGame
from qisai.referee.verdict import GameKind, Side
from qisai.web.bounds import short_detail
from qisai.web.play import explain, rules, takeback
from qisai.web.play.clauses import clause_links
from qisai.web.play.opponent_names import engine_player

__all__ = ["ARBITER_ACTIONS", "PLAYER_ACTIONS", "ActionError", "LiveGame", "Send",
           "game_state", "game_summary"]

PLAYER_ACTIONS = frozenset({
    "move", "pass", "offer_draw", "accept_draw", "decline_draw", "resign", "claim", "flag",
    "mark_dead", "confirm_dead", "dispute_dead",
})
"""Actions a player takes for his own side."""
ARBITER_ACTIONS = frozenset({"foul", "warning", "time_penalty", "adjudicate", "pause", "resume"})
"""Actions that need the arbiter role; they name the side they concern."""

Send = Callable[[str], Awaitable[None]]
"""Sends one text frame (JSON) to a socket."""


class ActionError(Exception):
    """An action refused; ``status`` is the HTTP-like code (400 bad input,
    403 not allowed, 404 unknown game, 409 out of turn or stale, 429 too
    fast), ``message`` says what and where; ``text`` is the reason as
    ``{code, zh, en, clause}`` for the page (see :mod:`~qisai.web.play.explain`)."""

    def __init__(self, status: int, message: str, text: dict[str, str] | None = None) -> None:
        message = short_detail(message)  # never the whole of a hostile input
        super().__init__(message)
        self.status = status
        self.message = message
        self.text = None if text is None else {k: short_detail(v) for k, v in text.items()}

    def body(self) -> dict[str, Any]:
        """The error as the API and the socket send it: ``detail`` (English,
        without game ids or timestamps), ``code``, ``zh``, ``en``, ``clause``."""
        from qisai.web.play.explain import clean, text

        detail = clean(self.message)
        return {"detail": detail, **(self.text or text("refused", detail))}


@dataclass
class LiveGame:
    """A game in memory: its stored row's facts and its referee game."""

    id: str
    kind: str
    ruleset: str
    settings: dict[str, Any]
    status: str
    first_user_id: int | None
    second_user_id: int | None
    players: dict[int, dict[str, Any]]
    game: RefereeGame
    event_count: int
    engine: str | None = None
    """The engine holding the open seat (``builtin``), if any."""
    engine_status: str | None = None
    """``waiting``: the engine waits for a free engine process."""
    pairing_id: int | None = None
    """The event board the game is played for, if any."""
    rated: bool = False
    """A rated game (no takeback or rematch; see :mod:`~qisai.web.play.takeback`)."""
    stale: bool = False
    """The referee game may hold a change the database refused (an append
    that failed, the database away): rebuilt from the log before its next
    use (issue 30.2)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: dict[int, Send] = field(default_factory=dict)

    def side_of(self, user_id: int) -> Side | None:
        """Return the side ``user_id`` plays (the side to move if he holds
        both seats), or ``None`` for a spectator."""
        first = self.first_user_id == user_id
        second = self.second_user_id == user_id
        if first and second:
            return self.game.to_move
        if first:
            return Side.FIRST
        if second:
            return Side.SECOND
        return None

    def plays_in(self, user_id: int) -> bool:
        """Whether ``user_id`` plays in this game: holds a seat or is a
        member of a group playing a side (会商, see :mod:`.consult`)."""
        if user_id in (self.first_user_id, self.second_user_id):
            return True
        groups = self.settings.get("groups") or {}
        return any(isinstance(g, dict) and user_id in g.get("members", ())
                   for g in groups.values())

    @property
    def engine_side(self) -> Side | None:
        """Return the side the engine plays, or ``None``."""
        if self.engine is None:
            return None
        if self.first_user_id is None:
            return Side.FIRST
        if self.second_user_id is None:
            return Side.SECOND
        return None

    def snapshot(self, viewer: int | None = None, *, moves: bool = True) -> dict[str, Any]:
        """Return the game state as JSON-ready data for ``viewer``, with the
        actions the rule profile gives a player (``actions``) and the
        arbiter's rulings so far (``rulings``: warnings and fouls with their
        clauses)."""
        side = self.side_of(viewer) if viewer is not None else None
        state = game_state(self, side, with_moves=moves)
        state["actions"] = self.player_actions()
        state["allowed"] = explain.allowed_now(self)
        state["engine_status"] = self.engine_status
        state["comfort"] = takeback.view(self.game, self.rated, self.pairing_id)
        # exhibitions (issue 21): which seats play blindfold, and the simul
        # board this game is (everyone sees both)
        state["blindfold"] = list(self.settings.get("blindfold") or [])
        state["simul"] = self.settings.get("simul")
        state["rulings"] = [
            {"kind": i.kind, "side": i.side.name.lower(), "clause": i.clause, "note": i.note,
             "at": i.at, "links": clause_links(i.clause)}
            for i in self.game.infractions]
        if state["result"] is not None:  # each clause of the verdict links to the manual
            state["result"]["links"] = clause_links(state["result"]["clause"])
        if explain.blind_seat(self, side) and not self.game.is_over:
            explain.blind_position(state)  # the blindfold seat's own view shows no pieces
        return state

    def player_actions(self) -> list[str]:
        """Return the actions a player of this game may take under its rule
        profile, in the order the page shows them: no draw offers where the
        profile has none (the Go rules: 竞赛规定 has no draw by agreement);
        an engine answers offers from its own evaluation."""
        actions = ["move", "resign"]
        if self.kind == "go":
            actions += ["pass", "mark_dead", "confirm_dead", "dispute_dead"]
        else:
            actions.append("claim")
        if self.game.rules.draw_offers:
            actions += ["offer_draw", "accept_draw", "decline_draw"]
        return actions


_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
"""The standard start position (the replay's first position)."""

_SQUARE_NAMES = [f"{'abcdefghi'[sq % 9]}{sq // 9}" for sq in range(90)]
"""ICCS names of the 90 Xiangqi squares (``rank * 9 + file``)."""


def _xiangqi_texts(live: LiveGame) -> list[str]:
    """Chinese notation of every move, cached on the live game."""
    from qisai.xiangqi import Board, Move
    from qisai.xiangqi.notation import format as fmt

    game = live.game
    cache: dict[str, Any] = live.__dict__.setdefault("_notation", {})
    texts: list[str] = cache.setdefault("texts", [])
    board = cache.get("board")
    if board is None or len(texts) > len(game.moves):
        board = Board(getattr(game, "start_fen", None))
        texts.clear()
        cache["fens"] = []
        cache["board"] = board
    fens: list[str] = cache.setdefault("fens", [])
    del fens[len(texts):]
    for rec in game.moves[len(texts):]:
        mv = Move.from_iccs(rec.move)
        try:
            texts.append(fmt(board, mv, "chinese"))
        except ValueError:  # pragma: no cover - the referee only records legal moves
            texts.append(rec.move)
        board.push_unchecked(mv)
        fens.append(board.fen())
    return texts


def _xiangqi_fens(live: LiveGame) -> list[str]:
    """The position after every move (for replay), cached with the notation."""
    _xiangqi_texts(live)
    fens: list[str] = live.__dict__["_notation"]["fens"]
    return fens


def _position(live: LiveGame) -> dict[str, Any]:
    game = live.game
    board: Any = getattr(game, "board", None)
    if live.kind == "xiangqi" and board is not None:
        legal: dict[str, list[str]] = {}
        if not game.is_over:
            names = _SQUARE_NAMES
            for mv in board.legal_moves():
                legal.setdefault(names[mv.from_square], []).append(names[mv.to_square])
        last = board.peek()
        start = getattr(game, "start_fen", None) or _START_FEN
        return {"fen": board.fen(), "legal": legal, "check": board.is_check(),
                "last": None if last is None else last.iccs(), "start": start}
    if live.kind == "go" and board is not None:
        from qisai.go import coords

        size = board.size
        grid = []  # top row first; points are (row, col) with row 0 at the bottom
        for r in range(size - 1, -1, -1):
            line = ""
            for c in range(size):
                colour = board.get((r, c))
                line += "." if colour is None else ("b" if colour.name == "BLACK" else "w")
            grid.append(line)
        last = board.last_move()
        last_name = None
        if last is not None:
            last_name = "pass" if last.is_pass else coords.gtp_name(last.point, size)
        dead = getattr(game, "dead", None)
        forbidden: dict[str, str] = {}
        if not game.is_over and game.phase.value == "playing":
            cache: dict[str, Any] = live.__dict__.setdefault("_forbidden", {})
            key = (len(game.moves), board.zobrist)
            if cache.get("key") != key:
                cache["key"], cache["points"] = key, explain.go_forbidden(board)
            forbidden = cache["points"]
        return {"size": size, "grid": grid, "last": last_name,
                "dead": sorted(coords.gtp_name(p, size) for p in (dead or ())),
                "forbidden": forbidden}
    return {}


def _move_data(live: LiveGame, i: int, texts: list[str] | None) -> dict[str, Any]:
    rec = live.game.moves[i]
    clock = None
    if rec.clock is not None:
        clock = rec.clock.main
    data = {"ply": rec.ply, "side": rec.side.name.lower(), "move": rec.move,
            "text": texts[i] if texts is not None and i < len(texts) else rec.move,
            "at": rec.at, "elapsed": round(rec.elapsed, 3), "clock": clock}
    if rec.void:
        data["void"] = True  # Go: a void move counted as a pass (the replay skips it)
    if live.kind == "xiangqi":
        fens = _xiangqi_fens(live)
        if i < len(fens):
            data["fen"] = fens[i]  # the position after the move, for replay
    return data


def game_state(live: LiveGame, you: Side | None, *, with_moves: bool = True) -> dict[str, Any]:
    """Return the full state of a live game as seen by a player of side
    ``you`` (``None``: a spectator).  ``with_moves=False`` sends only the
    last move instead of the whole record (socket updates)."""
    game = live.game
    kind = GameKind.XIANGQI if live.kind == "xiangqi" else GameKind.GO
    texts = _xiangqi_texts(live) if live.kind == "xiangqi" else None

    def player(uid: int | None) -> dict[str, Any] | None:
        if uid is None:
            return None if live.engine is None else engine_player(live.engine, live.settings)
        return live.players.get(uid, {"id": uid, "name": f"#{uid}"})

    clocks = None
    if game.clock is not None:
        clocks = {"first": game.clock_reading(Side.FIRST), "second": game.clock_reading(Side.SECOND),
                  "running": None if game.clock.running is None else game.clock.running.name.lower()}
    n = len(game.moves)
    state: dict[str, Any] = {
        "id": live.id, "kind": live.kind, "ruleset": live.ruleset, "status": live.status,
        "phase": game.phase.value,
        "players": {"first": player(live.first_user_id), "second": player(live.second_user_id)},
        "names": {s.name.lower(): {"zh": s.name_zh(kind), "en": s.name_en(kind)} for s in Side},
        "you": None if you is None else you.name.lower(),
        "to_move": game.to_move.name.lower(),
        "ply": n, "event_count": live.event_count,
        "position": _position(live),
        "clocks": clocks,
        "offer": None if game.pending_offer is None else game.pending_offer.name.lower(),
        "fouls": {s.name.lower(): game.fouls(s) for s in Side},
        "warnings": {s.name.lower(): game.warnings(s) for s in Side},
        "result": rules.result_data(game),
    }
    if with_moves:
        state["moves"] = [_move_data(live, i, texts) for i in range(n)]
    else:
        state["last_move"] = _move_data(live, n - 1, texts) if n else None
    return state


def game_summary(g: Any) -> dict[str, Any]:
    """Return a stored game (a :class:`~qisai.store.models.Game` row) as the
    lists of games show it."""
    return {
        "id": g.id, "kind": g.kind, "ruleset": g.ruleset, "status": g.status, "rated": g.rated,
        "first": None if g.first_user is None else {"id": g.first_user.id,
                                                     "name": g.first_user.username,
                                                     "display_name": g.first_user.display_name},
        "second": None if g.second_user is None else {"id": g.second_user.id,
                                                       "name": g.second_user.username,
                                                       "display_name": g.second_user.display_name},
        "moves": g.move_count, "result": g.result_code,
        "reason": (g.result or {}).get("reason"), "created_at": g.created_at.isoformat(),
    }
