"""A live game: the referee's game with its stored row's facts, and its
JSON views for the API, the sockets and the pages.

Nothing here decides anything: positions, legal moves and notation come from
the rules cores, results and clocks from the referee.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from qisai.referee.verdict import GameKind, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.web.bounds import short_detail
from qisai.web.play import explain, referee_games, takeback
from qisai.web.play.clauses import clause_links
from qisai.web.play.game_settings import GameSettings
from qisai.web.play.referee_games import ServerGame
from qisai.web.seats.opponent_names import engine_player, opponent_name
from qisai.xiangqi.board import Board as XiangqiBoard
from qisai.xiangqi.squares import Move as XiangqiMove

__all__ = ["ARBITER_ACTIONS", "PLAYER_ACTIONS", "ActionError", "LiveGame", "Send",
           "game_state", "game_summary", "group_of", "member_side"]

PLAYER_ACTIONS = frozenset({
    "move", "pass", "offer_draw", "accept_draw", "decline_draw", "resign", "claim", "flag",
    "mark_dead", "confirm_dead", "dispute_dead",
})
"""Actions a player takes for his own side."""
ARBITER_ACTIONS = frozenset({"foul", "warning", "time_penalty", "adjudicate", "pause", "resume"})
"""Actions that need the arbiter role; they name the side they concern."""

Send = Callable[[str], Awaitable[None]]
"""Sends one text frame (JSON) to a socket."""

@dataclass
class Views:
    """What the live game keeps of its views between updates: the notation
    and the position after each Xiangqi move (grown move by move), Go's
    forbidden points for one position.  A takeback starts them afresh
    (:meth:`LiveGame.forget_views`)."""

    board: XiangqiBoard | None = None
    """The position after the last move noted."""
    texts: list[str] = field(default_factory=list)
    fens: list[str] = field(default_factory=list)
    forbidden_key: tuple[int, int] | None = None
    forbidden: dict[str, str] = field(default_factory=dict)
    count_key: tuple[Any, ...] | None = None
    """The position and marking :attr:`count` was made for (Go's count)."""
    count: dict[str, Any] | None = None
    legal_fen: str | None = None
    """The Xiangqi position (its FEN, side to move included) :attr:`legal`
    was listed for."""
    legal: dict[str, list[str]] = field(default_factory=dict)
    """The legal moves of that position, by the square they start from:
    listed once per position, not once per socket (issue 29.4: a round's
    start connects every player and spectator, each given the full state)."""


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
    settings: GameSettings
    status: str
    first_user_id: int | None
    second_user_id: int | None
    players: dict[int, dict[str, Any]]
    game: ServerGame
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
    views: Views = field(default_factory=Views, repr=False)

    def forget_views(self) -> None:
        """Drop the views kept for the line played (after a takeback)."""
        self.views = Views()

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
        member of a group playing a side (会商, see :mod:`qisai.web.exhibitions.consult`)."""
        if user_id in (self.first_user_id, self.second_user_id):
            return True
        return any(user_id in g.get("members", ()) for g in self.settings.groups.values())

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
        # 会商: the side whose group the viewer is a member of (his page says
        # he plays, not that he watches; issue 33 item 7)
        state["group"] = next((seat for seat, g in self.settings.groups.items()
                               if viewer is not None and viewer in g.get("members", ())), None)
        state["blindfold"] = list(self.settings.blindfold)
        state["simul"] = None if self.settings.simul is None else dict(self.settings.simul)
        # the sides a consultation group plays (会商): the page asks for its
        # group panel only then (issue 32 item 9: no 404 on every game page)
        state["group_sides"] = sorted(self.settings.groups)
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


_SQUARE_NAMES = [f"{'abcdefghi'[sq % 9]}{sq // 9}" for sq in range(90)]
"""ICCS names of the 90 Xiangqi squares (``rank * 9 + file``)."""


def _xiangqi_views(live: LiveGame, game: XiangqiGame) -> Views:
    """The Chinese notation of every move and the position after it, noted
    on from the last move noted (afresh if the line is shorter: a reload)."""
    from qisai.xiangqi.notation import format as fmt

    views = live.views
    if views.board is None or len(views.texts) > len(game.moves):
        views = live.views = Views(board=XiangqiBoard(game.start_fen))
    board = views.board
    assert board is not None
    for rec in game.moves[len(views.texts):]:
        mv = XiangqiMove.from_iccs(rec.move)
        try:
            views.texts.append(fmt(board, mv, "chinese"))
        except ValueError:  # pragma: no cover - the referee only records legal moves
            views.texts.append(rec.move)
        board.push_unchecked(mv)
        views.fens.append(board.fen())
    return views


def _position(live: LiveGame) -> dict[str, Any]:
    game = live.game
    if isinstance(game, XiangqiGame):
        board = game.board
        fen = board.fen()
        legal: dict[str, list[str]] = {}
        if not game.is_over:
            # A Xiangqi position's legal moves follow from its FEN alone
            # (no castling or en passant; repetition is the referee's).
            views = live.views
            if views.legal_fen != fen:
                found: dict[str, list[str]] = {}
                names = _SQUARE_NAMES
                for mv in board.legal_moves():
                    found.setdefault(names[mv.from_square], []).append(names[mv.to_square])
                views.legal_fen, views.legal = fen, found
            legal = {frm: list(tos) for frm, tos in views.legal.items()}  # callers' own
        last = board.peek()
        return {"fen": fen, "legal": legal, "check": board.is_check(),
                "last": None if last is None else last.iccs(), "start": game.start_fen}
    from qisai.go import coords

    go_board = game.board
    size = go_board.size
    grid = []  # top row first; points are (row, col) with row 0 at the bottom
    for r in range(size - 1, -1, -1):
        line = ""
        for c in range(size):
            colour = go_board.get((r, c))
            line += "." if colour is None else ("b" if colour.name == "BLACK" else "w")
        grid.append(line)
    go_last = go_board.last_move()
    last_name = None
    if go_last is not None:
        last_name = "pass" if go_last.is_pass else coords.gtp_name(go_last.point, size)
    forbidden: dict[str, str] = {}
    if not game.is_over and game.phase.value == "playing":
        key = (len(game.moves), go_board.zobrist)
        if live.views.forbidden_key != key:
            live.views.forbidden_key, live.views.forbidden = key, explain.go_forbidden(go_board)
        forbidden = live.views.forbidden
    out: dict[str, Any] = {"size": size, "grid": grid, "last": last_name,
                           "dead": sorted(coords.gtp_name(p, size) for p in game.dead),
                           "forbidden": forbidden}
    out.update(_go_count(live))
    return out


def _go_count(live: LiveGame) -> dict[str, Any]:
    """The count on the board (issue 32.4): while the dead stones are
    agreed, the count with the stones marked so far, and who confirms next
    (4(4): the side to move first); after a game ended by the count, the
    final one.  Each point's owner and the arithmetic (qisai.go.count_text);
    computed once per position and marking."""
    from qisai.go.count_text import arithmetic, owners
    from qisai.go.errors import GoError
    from qisai.go.scoring import score

    game: Any = live.game
    final = getattr(game, "final_score", None)
    scoring = game.phase.value == "scoring"
    if not scoring and final is None:
        return {}
    views = live.views
    key = (len(game.moves), scoring, tuple(sorted(game.dead)), final is not None)
    if views.count_key != key:
        count = final
        if scoring:
            try:
                count = score(game.board, game.dead, game.grules.core, komi=game.grules.komi)
            except GoError:  # a marking the count cannot take: no count shown
                count = None
        views.count_key = key
        views.count = None if count is None else {
            **owners(count), "lines": arithmetic(count), "scoring": count.scoring.value,
            "final": not scoring}
    out: dict[str, Any] = {"count": views.count}
    if scoring:
        following = game.confirms_next
        out["confirm"] = {"done": [side.name.lower() for side in game.confirmed],
                          "next": None if following is None else following.name.lower()}
    return out


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
    if isinstance(live.game, XiangqiGame):
        fens = _xiangqi_views(live, live.game).fens
        if i < len(fens):
            data["fen"] = fens[i]  # the position after the move, for replay
    return data


def game_state(live: LiveGame, you: Side | None, *, with_moves: bool = True) -> dict[str, Any]:
    """Return the full state of a live game as seen by a player of side
    ``you`` (``None``: a spectator).  ``with_moves=False`` sends only the
    last move instead of the whole record (socket updates)."""
    game = live.game
    kind = GameKind.XIANGQI if live.kind == "xiangqi" else GameKind.GO
    texts = _xiangqi_views(live, game).texts if isinstance(game, XiangqiGame) else None

    def player(uid: int | None) -> dict[str, Any] | None:
        if uid is None:
            return None if live.engine is None else engine_player(live.engine,
                                                                  live.settings.stored)
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
        "result": referee_games.result_data(game),
    }
    if with_moves:
        state["moves"] = [_move_data(live, i, texts) for i in range(n)]
    else:
        state["last_move"] = _move_data(live, n - 1, texts) if n else None
    return state


def game_summary(g: Any) -> dict[str, Any]:
    """Return a stored game (a :class:`~qisai.store.models.Game` row) as the
    lists of games show it: each side ``{"id", "name", "display_name"}``, an
    engine's seat ``{"id": None, "name": its own name and level, "engine":
    True}`` (issue 32.6: never "?"), ``None`` for a seat nobody holds yet."""
    def side(user: Any) -> dict[str, Any] | None:
        if user is not None:
            return {"id": user.id, "name": user.username, "display_name": user.display_name}
        if g.engine is None:
            return None
        name = opponent_name(g.engine, g.settings or {})
        return {"id": None, "name": name, "display_name": name, "engine": True}

    return {
        "id": g.id, "kind": g.kind, "ruleset": g.ruleset, "status": g.status, "rated": g.rated,
        "first": side(g.first_user), "second": side(g.second_user),
        "moves": g.move_count, "result": g.result_code,
        "reason": (g.result or {}).get("reason"), "created_at": g.created_at.isoformat(),
    }


def group_of(live: LiveGame, side: Side) -> Mapping[str, Any] | None:
    """Return the group setting of ``side`` of ``live``, or ``None``."""
    return live.settings.group(side)


def member_side(live: LiveGame, user_id: int) -> Side | None:
    """Return the side of ``live`` whose group ``user_id`` is a member of,
    or ``None``."""
    for side in (Side.FIRST, Side.SECOND):
        group = group_of(live, side)
        if group is not None and user_id in group["members"]:
            return side
    return None
