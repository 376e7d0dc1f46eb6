"""JSON views of games for the API, the sockets and the pages, and the one
place the web layer builds referee games from stored settings.

Nothing here decides anything: positions, legal moves and notation come from
the rules cores, results and clocks from the referee.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from qisai.referee.clock import (
    Byoyomi,
    ByoyomiKind,
    SideTimeControl,
    Stage,
    TimeControl,
    scheme_6_1,
    scheme_6_2,
    scheme_6_3,
    scheme_6_4,
)
from qisai.referee.errors import RulesetError, TimeControlError
from qisai.referee.events import Notice
from qisai.referee.game import Game as RefereeGame
from qisai.referee.rulesets import PRESETS, GoRules, XiangqiRules, ruleset
from qisai.referee.verdict import GameKind, Side

if TYPE_CHECKING:
    from qisai.web.live import LiveGame

__all__ = [
    "game_state",
    "jsonable",
    "new_referee_game",
    "notice_data",
    "parse_time_control",
    "profiles_for",
    "result_data",
    "same_move",
]

_SQUARE_NAMES = [f"{'abcdefghi'[sq % 9]}{sq // 9}" for sq in range(90)]
"""ICCS names of the 90 Xiangqi squares (``rank * 9 + file``)."""

_SCHEMES: dict[str, Callable[[], SideTimeControl]] = {
    "6.1": scheme_6_1, "6.2": scheme_6_2, "6.3": scheme_6_3, "6.4": scheme_6_4,
}


def jsonable(value: Any) -> Any:
    """Return ``value`` with enums, fractions and tuples made JSON-ready."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value.name.lower() if isinstance(value, Side) else value.value
    if isinstance(value, Fraction):
        return float(value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def profiles_for(kind: str) -> list[str]:
    """Return the names of the rule profiles of game ``kind``."""
    want = XiangqiRules if kind == "xiangqi" else GoRules
    return [name for name, p in PRESETS.items() if isinstance(p, want)]


def parse_time_control(spec: dict[str, Any] | None) -> TimeControl | None:
    """Return the time control a game's ``settings["time"]`` describes.

    Forms: ``None`` (no clock); ``{"scheme": "6.1"}`` (6.1-6.4);
    ``{"minutes": 10, "increment": 5}`` (sudden death 6.5, Fischer);
    with ``"byoyomi": {"kind": "chinese"|"japanese"|"canadian", "periods": 5,
    "seconds": 60, "moves": 1}``.  Raises :class:`TimeControlError` naming
    the bad field.
    """
    if spec is None:
        return None
    if not isinstance(spec, dict):
        raise TimeControlError(f"time: expected an object, not {spec!r}")
    if "scheme" in spec:
        maker = _SCHEMES.get(str(spec["scheme"]))
        if maker is None:
            raise TimeControlError(f"time.scheme: {spec['scheme']!r} is not one of "
                                   f"{', '.join(_SCHEMES)}")
        return TimeControl.both(maker())
    try:
        minutes = float(spec.get("minutes", 0))
        increment = float(spec.get("increment", 0))
    except (TypeError, ValueError):
        raise TimeControlError(f"time: minutes and increment must be numbers: {spec!r}") from None
    if not 0 <= minutes <= 24 * 60:
        raise TimeControlError(f"time.minutes: {minutes} is not in 0..1440")
    by = spec.get("byoyomi")
    byoyomi = None
    if by is not None:
        if not isinstance(by, dict):
            raise TimeControlError(f"time.byoyomi: expected an object, not {by!r}")
        try:
            byoyomi = Byoyomi(ByoyomiKind(str(by.get("kind", "japanese"))),
                              periods=int(by.get("periods", 1)),
                              period_seconds=float(by.get("seconds", 60)),
                              moves=int(by.get("moves", 1)))
        except (TypeError, ValueError) as exc:
            raise TimeControlError(f"time.byoyomi: {exc}") from None
    elif minutes <= 0:
        raise TimeControlError("time.minutes: must be positive without byo-yomi")
    return TimeControl.both(SideTimeControl((Stage(None, minutes * 60),), increment=increment,
                                            byoyomi=byoyomi))


def make_rules(kind: str, name: str, settings: dict[str, Any]) -> XiangqiRules | GoRules:
    """Return the rule profile ``name`` with the game's overrides (time
    control, ``settings["rules"]`` fields).

    Raises :class:`RulesetError` or :class:`TimeControlError` naming the
    bad field or value.
    """
    if name not in profiles_for(kind):
        raise RulesetError(f"{name!r} is not a {kind} rule profile; known: "
                           f"{', '.join(profiles_for(kind))}")
    overrides = dict(settings.get("rules") or {})
    if not isinstance(overrides, dict):
        raise RulesetError("rules: expected an object of field overrides")
    if "time" in settings:
        overrides["time_control"] = parse_time_control(settings["time"])
    if kind == "go" and "size" in settings:
        overrides["board_size"] = settings["size"]
    return ruleset(name, **overrides)


def new_referee_game(kind: str, name: str, settings: dict[str, Any],
                     now: Callable[[], float] | None) -> RefereeGame:
    """Return a new referee game of ``kind`` under profile ``name`` with the
    stored ``settings``.

    Raises :class:`~qisai.referee.errors.RefereeError` for a bad setting.
    """
    rules = make_rules(kind, name, settings)
    if kind == "xiangqi":
        from qisai.referee.xiangqi_game import XiangqiGame

        assert isinstance(rules, XiangqiRules)
        return XiangqiGame(rules, fen=settings.get("fen"), now=now)
    from qisai.referee.go_game import GoGame  # type: ignore[import-not-found,unused-ignore]

    assert isinstance(rules, GoRules)
    game: RefereeGame = GoGame(rules, now=now)
    return game


def same_move(recorded: str, given: str, kind: str) -> bool:
    """Return whether ``given`` names the move ``recorded`` in the record."""
    def norm(s: str) -> str:
        return s.strip().lower().replace("-", "")
    return norm(recorded) == norm(given)


def result_data(game: RefereeGame) -> dict[str, Any] | None:
    """Return the referee's result as JSON-ready data, or ``None``."""
    r = game.result
    if r is None:
        return None
    return {
        "outcome": r.outcome.value,
        "winner": None if r.winner is None else r.winner.name.lower(),
        "reason": r.reason.value,
        "clause": r.clause,
        "zh": r.explanation_zh,
        "en": r.explanation_en,
        "pgn": r.pgn_result,
        "sgf": r.sgf_result,
        "tag": r.pgn_result,
        "margin": None if r.margin is None else str(r.margin),
        "unit": r.unit,
    }


def notice_data(n: Notice) -> dict[str, Any]:
    """Return a referee notice as JSON-ready data."""
    return {"type": n.type.value, "at": n.at, "side": None if n.side is None else n.side.name.lower(),
            "zh": n.text_zh, "en": n.text_en, "clause": n.clause, "data": jsonable(n.data)}


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
        return {"fen": board.fen(), "legal": legal, "check": board.is_check(),
                "last": None if last is None else last.iccs()}
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
        return {"size": size, "grid": grid, "last": last_name,
                "dead": sorted(coords.gtp_name(p, size) for p in (dead or ()))}
    return {}


def _move_data(live: LiveGame, i: int, texts: list[str] | None) -> dict[str, Any]:
    rec = live.game.moves[i]
    clock = None
    if rec.clock is not None:
        clock = rec.clock.main
    data = {"ply": rec.ply, "side": rec.side.name.lower(), "move": rec.move,
            "text": texts[i] if texts is not None and i < len(texts) else rec.move,
            "at": rec.at, "elapsed": round(rec.elapsed, 3), "clock": clock}
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
            return None if live.engine is None else {"id": None, "name": f"qisai {live.engine}",
                                                     "engine": True}
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
        "result": result_data(game),
    }
    if with_moves:
        state["moves"] = [_move_data(live, i, texts) for i in range(n)]
    else:
        state["last_move"] = _move_data(live, n - 1, texts) if n else None
    return state
