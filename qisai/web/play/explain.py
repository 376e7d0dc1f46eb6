"""Why an action is not allowed, as a sentence in Chinese and English with
the clause it rests on: for the page (before it sends anything) and for the
refusals of the referee (never with game ids or timestamps).

* :func:`xiangqi_why`: why a Xiangqi move is illegal (a blocked horse, an
  elephant's eye, a move into check ...);
* :func:`go_forbidden`: the forbidden points of a Go position with their
  reason (suicide, ko, superko);
* :func:`allowed_now`: which player actions each side may take now, and
  why not (a draw offer before one's own move, 23.1);
* :func:`refusal`: a referee's refusal as ``{code, zh, en, clause}``.

Nothing here decides anything: the boards and the referee do; this module
only puts their answers into words.
"""

from __future__ import annotations

import re
from typing import Any

from qisai.referee.verdict import GameKind, Side
from qisai.referee.xiangqi_game import XiangqiGame

LiveGame = Any
"""A :class:`qisai.web.play.live.LiveGame` (not imported: live imports this
module)."""

__all__ = ["all_texts", "allowed_now", "clean", "go_forbidden", "refusal", "text", "xiangqi_why"]

Text = dict[str, str]

_TEXTS: dict[str, tuple[str, str, str]] = {
    # code: (zh, en, clause)
    "not_your_piece": ("这不是你的棋子", "That is not your piece", "2.1"),
    "no_piece": ("那里没有棋子", "There is no piece there", "2.1"),
    "own_piece": ("不能吃自己的棋子", "A piece cannot capture one of its own side", "2.2"),
    "horse_leg": ("蹩马腿：马走的方向有棋子挡住，不许走过去",
                  "The horse's leg is blocked (蹩马腿): a piece stands next to it in that "
                  "direction", "2.2"),
    "horse_shape": ("马走日字", "The horse moves one point straight and one diagonally (马走日)",
                    "2.2"),
    "elephant_eye": ("塞象眼：田字中心有棋子，相（象）不许走过去",
                     "The elephant's eye is blocked (塞象眼): a piece stands in the middle of "
                     "its move", "2.2"),
    "elephant_river": ("相（象）不能越过河界", "The elephant may not cross the river", "2.2"),
    "elephant_shape": ("相（象）走田字", "The elephant moves exactly two points diagonally",
                       "2.2"),
    "advisor": ("士只许沿九宫斜线走一步", "The advisor moves one point diagonally inside the "
                "palace", "2.2"),
    "king": ("帅（将）每着只走一步，不能走出九宫",
             "The general moves one point straight and may not leave the palace", "2.2"),
    "rook": ("车直进、直退、横走，中间不能有棋子",
             "The chariot moves straight, and nothing may stand in between", "2.2"),
    "cannon": ("炮不吃子时走法同车；吃子时必须隔一个棋子（炮架）",
               "The cannon moves like the chariot, and captures by jumping exactly one piece "
               "(the screen)", "2.2"),
    "pawn": ("兵（卒）未过河只能向前走一步；过河后可横走，不能后退",
             "A soldier moves one point forward; after crossing the river also sideways, "
             "never back", "2.2"),
    "into_check": ("不能送将：这步棋后己方帅（将）被对方攻击",
                   "This move leaves your general in check", "4.1.6"),
    "facing": ("将帅不准在同一直线上直接对面", "The two generals may not face each other on an "
               "open file", "4.1.2, 2.2"),
    "go_occupied": ("这里已有棋子", "That point is already occupied", "基本下法 2"),
    "go_suicide": ("禁着点：落子后无气又不能提子", "Forbidden point (suicide): the stone would "
                   "have no liberty and captures nothing", "竞赛规定 10"),
    "go_ko": ("打劫：不能马上回提，须先在别处走一着", "Ko: the stone cannot be retaken at once; "
              "play elsewhere first", "竞赛规定 11(1)"),
    "go_superko": ("禁止全局同形再现", "The move would repeat an earlier whole-board position "
                   "(superko)", "竞赛规定 11"),
    "offer_after_own_move": ("提和须在自己走棋后、对方走棋前提出",
                             "A draw may be offered only right after your own move", "23.1"),
    "offer_twice": ("提和须轮流进行：对方拒绝后不能连续再提",
                    "Draw offers alternate: after a refusal you may not offer again before "
                    "your opponent has", "23.1, 9.1.3"),
    "offer_pending": ("已有和棋提议等待答复", "A draw offer is waiting for an answer", "23.1"),
    "no_offers": ("本规则没有提和", "These rules have no draw offers", ""),
    "no_offer_to_answer": ("对方没有提和", "Your opponent has not offered a draw", "23.1"),
    "claim_own_turn": ("申请须在自己走棋时提出", "Claims are made in your own turn", "8.5"),
    "no_natural_limit": ("本规则没有自然限着", "These rules have no natural move limit", "4.2.4"),
    "claim_false": ("尚未达到自然限着", "The move limit has not been reached", "4.2.4, 23.3"),
    "not_your_turn": ("现在不是你走棋", "It is not your turn", ""),
    "game_over": ("对局已经结束", "The game is over", ""),
    "not_started": ("对局尚未开始（等待对手）", "The game has not started (waiting for an "
                    "opponent)", ""),
    "not_a_player": ("你不是这盘棋的棋手", "You are not a player of this game", ""),
    "viewing": ("正在查看历史局面；请回到当前局面再走棋",
                "You are viewing an earlier position; go back to live to move", ""),
    "refused": ("该操作被拒绝", "The action was refused", ""),
    "blind_illegal": ("这步棋不能走（看不懂或不合规则）；盲棋不提示棋子在哪里",
                      "That move cannot be played (it cannot be read, or is not legal); a "
                      "blindfold seat is not told where pieces stand", ""),
}


def blind_seat(live: Any, side: Any) -> bool:
    """Whether ``side`` of ``live`` plays blindfold (``settings["blindfold"]``):
    then nothing said to it tells where a piece stands beyond the announced
    moves (no squares named, no legal moves listed)."""
    return side is not None and side.name.lower() in live.settings.blindfold


def blind_position(state: dict[str, Any]) -> None:
    """Strip from a game ``state`` what shows where pieces or stones stand
    (the position, its legal moves, the last move's squares, each move's
    position after it), for a blindfold seat's own view; the moves as
    announced stay (they are public in every blindfold display)."""
    pos = state.get("position")
    if isinstance(pos, dict):
        state["position"] = {k: pos[k] for k in ("start", "size") if k in pos}
    for mv in [*(state.get("moves") or ()), state.get("last_move")]:
        if isinstance(mv, dict):
            mv.pop("fen", None)


def text(code: str, detail_en: str = "") -> dict[str, str]:
    """Return the sentence of ``code`` as ``{code, zh, en, clause}``; the
    generic ``refused`` carries the referee's English ``detail_en``."""
    zh, en, clause = _TEXTS.get(code, _TEXTS["refused"])
    if detail_en:
        en = f"{en}: {detail_en}"
    return {"code": code, "zh": zh, "en": en, "clause": clause}


_ID_PREFIX = re.compile(r"^game [\w-]+: ")
_AT = re.compile(r" at -?[0-9.e+-]+ s\b")


def clean(message: str) -> str:
    """Return a refusal's message without the game id and the timestamps."""
    return _AT.sub("", _ID_PREFIX.sub("", message))


# ------------------------------------------------------------- Xiangqi
def xiangqi_why(board: Any, iccs: str) -> dict[str, str] | None:
    """Return why the ICCS move ``iccs`` is illegal on ``board`` (for the
    side to move), or ``None`` if it is legal."""
    from qisai.xiangqi import Move
    from qisai.xiangqi.pieces import Color, PieceType

    try:
        mv = Move.from_iccs(iccs)
    except ValueError:
        return text("refused", f"{iccs} is not a move")
    if board.is_legal(mv):
        return None
    f, t = mv.from_square, mv.to_square
    piece = board.piece_at(f)
    if piece is None:
        return text("no_piece")
    if piece.color is not board.turn:
        return text("not_your_piece")
    target = board.piece_at(t)
    if board.is_pseudo_legal(mv):
        return text("facing" if _facing_after(board, mv) else "into_check")
    if target is not None and target.color is piece.color:
        return text("own_piece")
    ff, fr, tf, tr = f % 9, f // 9, t % 9, t // 9
    df, dr = tf - ff, tr - fr
    kind = piece.type
    if kind is PieceType.HORSE:
        if sorted((abs(df), abs(dr))) == [1, 2]:
            leg = (fr + (dr // 2 if abs(dr) == 2 else 0)) * 9 + ff + (df // 2 if abs(df) == 2 else 0)
            if board.piece_at(leg) is not None:
                return text("horse_leg")
        return text("horse_shape")
    if kind is PieceType.ELEPHANT:
        own_half = range(0, 5) if piece.color is Color.RED else range(5, 10)
        if tr not in own_half:
            return text("elephant_river")
        if abs(df) == 2 and abs(dr) == 2:
            if board.piece_at((fr + dr // 2) * 9 + ff + df // 2) is not None:
                return text("elephant_eye")
        return text("elephant_shape")
    names = {PieceType.ADVISOR: "advisor", PieceType.KING: "king", PieceType.ROOK: "rook",
             PieceType.CANNON: "cannon", PieceType.PAWN: "pawn"}
    return text(names[kind])


def _facing_after(board: Any, mv: Any) -> bool:
    from qisai.xiangqi.pieces import Color

    board.push_unchecked(mv)
    try:
        red, black = board.king_square(Color.RED), board.king_square(Color.BLACK)
        if red % 9 != black % 9:
            return False
        lo, hi = sorted((red // 9, black // 9))
        return all(board.piece_at(r * 9 + red % 9) is None for r in range(lo + 1, hi))
    finally:
        board.pop()


# ------------------------------------------------------------------ Go
_GO_CODES = {"SUICIDE": "go_suicide", "KO": "go_ko", "SUPERKO": "go_superko",
             "OCCUPIED": "go_occupied"}


def go_forbidden(board: Any) -> dict[str, str]:
    """Return the empty points the side to move may not play on ``board``
    (GTP name -> ``suicide``/``ko``/``superko``); occupied points are left
    out (the page sees the stones)."""
    from qisai.go import coords

    legal = set(board.legal_points())
    out: dict[str, str] = {}
    for point in board.empty_points():
        if point in legal:
            continue
        reason = board.legal_reason(point)
        if reason is not None:
            out[coords.gtp_name(point, board.size)] = reason.name.lower()
    return out


def all_texts() -> dict[str, dict[str, str]]:
    """Every sentence by code, for the page (it explains a click on a
    forbidden point, or a move it cannot show as legal, without asking)."""
    return {code: text(code) for code in _TEXTS}


# -------------------------------------------------------------- actions
def allowed_now(live: LiveGame) -> dict[str, dict[str, Any]]:
    """Return, for each side, the player actions of the rule profile it may
    not take now with the reason (``{"offer_draw": {code, zh, en,
    clause}}``); an action missing from a side's map is allowed."""
    game = live.game
    out: dict[str, dict[str, Any]] = {}
    playing = live.status == "active" and game.phase.value == "playing" and not game.is_over
    for side in Side:
        why: dict[str, Any] = {}
        if "offer_draw" in live.player_actions():
            if not playing:
                why["offer_draw"] = text("game_over" if game.is_over else "not_started")
            elif game.pending_offer is not None:
                why["offer_draw"] = text("offer_pending")
            elif getattr(game, "_last_mover", None) is not side or game.to_move is side:
                why["offer_draw"] = text("offer_after_own_move")
            elif (getattr(game, "_previous_offer_by", None) is side
                  and getattr(game.rules, "repeat_offer_is_foul", False)):
                why["offer_draw"] = text("offer_twice")
        if "claim" in live.player_actions():
            if not playing:
                why["claim"] = text("game_over" if game.is_over else "not_started")
            elif game.to_move is not side:
                why["claim"] = text("claim_own_turn")
            elif not _natural_limit_reached(game, side):
                why["claim"] = text("claim_false")
        out[side.name.lower()] = why
    return out


def _natural_limit_reached(game: Any, side: Side) -> bool:
    limit = getattr(game.rules, "natural_limit", None)
    rounds = getattr(game, "natural_limit_rounds", None)
    if not limit or rounds is None:
        return True  # the referee answers (these rules may have no limit)
    try:
        return bool(rounds(side) >= limit)
    except Exception:  # noqa: BLE001 - a claim the page cannot check is left to the referee
        return True


# ------------------------------------------------------------- refusals
def refusal(live: LiveGame, side: Side | None, kind: str, action: dict[str, Any],
            message: str) -> dict[str, str]:
    """Return the referee's refusal ``message`` of ``kind`` by ``side`` as
    ``{code, zh, en, clause}``: the reason the game's state gives, else the
    message without ids and timestamps."""
    game = live.game
    msg = clean(message)
    if game.is_over:
        return text("game_over")
    if kind == "move" and side is not None and game.to_move is side:
        move = str(action.get("move", ""))
        if isinstance(game, XiangqiGame):
            why = xiangqi_why(game.board, move)
            if why is not None:
                return why
        else:
            from qisai.go import coords

            try:
                point = coords.parse_gtp(move, game.board.size)
                reason = None if point is None else game.board.legal_reason(point)
            except ValueError:
                reason = None
            if reason is not None and reason.name in _GO_CODES:
                return text(_GO_CODES[reason.name])
    if kind in ("move", "pass", "claim", "confirm_dead") and "turn" in msg:
        return text("claim_own_turn" if kind == "claim" else "not_your_turn")
    if side is not None and kind == "offer_draw":
        why = allowed_now(live).get(side.name.lower(), {}).get("offer_draw")
        if why is not None:
            return dict(why)
        if "not part of these rules" in msg:
            return text("no_offers")
    if kind in ("accept_draw", "decline_draw") and "no offer" in msg:
        return text("no_offer_to_answer")
    if kind == "claim" and side is not None:
        why = allowed_now(live).get(side.name.lower(), {}).get("claim")
        if why is not None:
            return dict(why)
    return text("refused", msg)


def kind_of(live: LiveGame) -> GameKind:
    """Return the referee's kind of ``live``."""
    return GameKind.XIANGQI if live.kind == "xiangqi" else GameKind.GO
