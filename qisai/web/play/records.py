"""Game records for download: PGN (Xiangqi) and SGF (Go), written by the
record modules of the rules cores from the referee's move list.

Each move's comment carries the mover's clock after the move (``[%clk
h:mm:ss]``) when the game has clocks; the result tag and the verdict
(reason, clause) go in the headers.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from qisai.web.play.opponent_names import opponent_name

if TYPE_CHECKING:
    from qisai.web.play.live import LiveGame

__all__ = ["export"]


def _clk(seconds: float) -> str:
    s = int(round(seconds))
    return f"[%clk {s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}]"


def _names(live: LiveGame) -> tuple[str, str]:
    def name(uid: int | None) -> str:
        if uid is None:
            # the engine's seat: its own name and version, and its level
            return opponent_name(live.engine, live.settings)
        driven = live.settings.get("driven")  # an engine playing through its account
        if isinstance(driven, dict) and driven.get("account") == uid and driven.get("name"):
            return str(driven["name"])  # its name, version and level (simul engine host)
        return str(live.players.get(uid, {}).get("name", f"#{uid}"))
    first, second = name(live.first_user_id), name(live.second_user_id)
    # A side played by a group (会商) is named by all its members.
    groups = live.settings.get("groups") or {}
    if isinstance(groups.get("first"), dict):
        first = "、".join(str(n) for n in groups["first"].get("names", [])) or first
    if isinstance(groups.get("second"), dict):
        second = "、".join(str(n) for n in groups["second"].get("names", [])) or second
    return first, second


def _exhibition_tags(live: LiveGame, colours: tuple[str, str]) -> dict[str, str]:
    """PGN tags of an exhibition game (issue 21): a simul's board has its
    name as Event and the board number as Round and Board; a blindfold seat
    is ``[RedBlindfold "true"]`` (盲棋)."""
    tags: dict[str, str] = {}
    simul = live.settings.get("simul")
    if isinstance(simul, dict):
        tags["Event"] = f"{simul.get('name', '')} (车轮战 simul)"
        tags["Round"] = tags["Board"] = str(simul.get("board", "?"))
    for seat, colour in zip(("first", "second"), colours, strict=True):
        if seat in (live.settings.get("blindfold") or []):
            tags[f"{colour}Blindfold"] = "true"
    return tags


def _event_tags(live: LiveGame) -> dict[str, str]:
    """PGN tags of an event's game (issue 33 item 10): the event's name as
    Event, its Round and Board (and Section, RedTeam, BlackTeam where the
    event has them), as :func:`qisai.web.events.boards.place_tags` kept them."""
    place = live.settings.get("in_event")
    if not isinstance(place, dict) or not place.get("name"):
        return {}
    tags = {"Event": str(place["name"])}
    for tag in ("Round", "Board", "Section", "RedTeam", "BlackTeam"):
        if place.get(tag):
            tags[tag] = str(place[tag])
    return tags


def _event_sgf(live: LiveGame) -> dict[str, str]:
    """SGF properties of an event's game: EV (the event's name) and RO
    (``round`` or ``round.sub``; the board in a comment-free ``RO`` as
    ``round (board b)``, SGF having no board property)."""
    tags = _event_tags(live)
    if not tags:
        return {}
    props = {"EV": tags["Event"]}
    if "Round" in tags:
        props["RO"] = tags["Round"] + (f" (board {tags['Board']})" if "Board" in tags else "")
    return props


def _exhibition_sgf(live: LiveGame) -> dict[str, str]:
    """SGF properties of an exhibition game: EV (the simul), RO (the board),
    and a GC comment naming the blindfold seats."""
    props: dict[str, str] = {}
    simul = live.settings.get("simul")
    if isinstance(simul, dict):
        props["EV"] = f"{simul.get('name', '')} (车轮战 simul)"
        props["RO"] = str(simul.get("board", "?"))
    blind = [{"first": "Black", "second": "White"}[s]
             for s in (live.settings.get("blindfold") or []) if s in ("first", "second")]
    if blind:
        props["GC"] = "; ".join(f"{c} played blindfold (盲棋)" for c in blind)
    return props


def export(live: LiveGame) -> tuple[str, str, str]:
    """Return ``(text, media type, file extension)`` of the game's record.

    Raises :class:`ValueError` if the record cannot be written (a move the
    record module rejects).
    """
    game = live.game
    first, second = _names(live)
    result = game.result
    date = dt.datetime.fromtimestamp(game.start_time or 0, dt.UTC).strftime("%Y.%m.%d")
    if live.kind == "xiangqi":
        from qisai.xiangqi import Move
        from qisai.xiangqi.pgn import Game as PgnGame
        from qisai.xiangqi.pgn import GameNode, dumps

        headers = {"Event": f"qisai {live.ruleset}", "Site": "qisai", "Date": date,
                   "Red": first, "Black": second,
                   "Result": result.pgn_result if result else "*"}
        for tag, uid in (("RedType", live.first_user_id), ("BlackType", live.second_user_id)):
            # PGN's player type: an engine's seat is a program
            headers[tag] = "program" if uid is None and live.engine else "human"
            driven = live.settings.get("driven")  # the second engine of two (人机大战)
            if isinstance(driven, dict) and uid is not None and driven.get("account") == uid:
                headers[tag] = "program"
        start = getattr(game, "start_fen", None)
        if start and start.split(" ")[0] != "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR":
            headers["FEN"] = start
        if result is not None:
            headers["Termination"] = f"{result.reason.value} ({result.clause})"
        headers.update(_event_tags(live))
        headers.update(_exhibition_tags(live, ("Red", "Black")))
        record = PgnGame(headers)
        node: GameNode = record
        for rec in game.moves:
            comment = _clk(rec.clock.main) if rec.clock is not None else ""
            node = node.add_main_variation(Move.from_iccs(rec.move), comment)
        if result is not None:
            node.comment = (node.comment + " " + result.explanation_zh).strip()
        return dumps(record, "chinese"), "application/x-chess-pgn; charset=utf-8", "pgn"
    from qisai.go.sgf import game_from_board

    board = getattr(game, "board")  # noqa: B009 - GoGame's board
    rules = game.rules
    sgf = game_from_board(board, komi=getattr(rules, "komi", None),
                          result=result.sgf_result if result else None, rules_name=rules.name,
                          extra={"PB": first, "PW": second, "DT": date.replace(".", "-"),
                                 **_event_sgf(live), **_exhibition_sgf(live)})
    return sgf.to_sgf(), "application/x-go-sgf; charset=utf-8", "sgf"
