"""Game records for download: the referee's own record writer
(:func:`~qisai.referee.records.xiangqi_to_pgn`,
:func:`~qisai.referee.records.go_to_sgf`: the moves with the mover's clock
after each, ``[%clk h:mm:ss]`` / ``BL``/``WL``, the result, reason and
clause, the fouls and every event of the log, so that a download reads back
into the same game), with the arena's headers added here: the players' names
(an engine by its name, version and level; a group by its members), the
date, the site, and what an exhibition adds (a simul's name and board, the
blindfold seats).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from qisai.referee.records import go_to_sgf, xiangqi_to_pgn
from qisai.referee.verdict import Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.web.play.game_settings import seat_of
from qisai.web.seats.opponent_names import opponent_name

if TYPE_CHECKING:
    from qisai.web.play.live import LiveGame

__all__ = ["export"]


def _names(live: LiveGame) -> tuple[str, str]:
    settings = live.settings
    driven = settings.driven  # an engine playing through its account

    def name(side: Side, uid: int | None) -> str:
        group = settings.group(side)
        if group is not None and group.get("names"):
            # A side played by a group (会商) is named by all its members.
            return "、".join(str(n) for n in group["names"])
        if uid is None:
            # the engine's seat: its own name and version, and its level
            return opponent_name(live.engine, settings.stored)
        if driven is not None and driven.account == uid and driven.name:
            return driven.name  # its name, version and level (simul engine host)
        # the name people see (issue 32.8): an engine entrant's or a group's
        # account has its display name, never its internal user name
        known = live.players.get(uid, {})
        return str(known.get("display_name") or known.get("name") or f"#{uid}")
    return name(Side.FIRST, live.first_user_id), name(Side.SECOND, live.second_user_id)


def _is_program(live: LiveGame, uid: int | None) -> bool:
    """Whether the seat held by ``uid`` (``None``: the open seat) is an
    engine's: the hub's own engine, or an engine playing through its
    account (the second engine of two, 人机大战)."""
    if uid is None:
        return live.engine is not None
    driven = live.settings.driven
    return driven is not None and driven.account == uid


def _exhibition_tags(live: LiveGame) -> dict[str, str]:
    """PGN tags of an exhibition game (issue 21): a simul's board has its
    name as Event and the board number as Round and Board; a blindfold seat
    is ``[RedBlindfold "true"]`` (盲棋)."""
    tags: dict[str, str] = {}
    simul = live.settings.simul
    if simul is not None:
        tags["Event"] = f"{simul.get('name', '')} (车轮战 simul)"
        tags["Round"] = tags["Board"] = str(simul.get("board", "?"))
    for side, colour in ((Side.FIRST, "Red"), (Side.SECOND, "Black")):
        if seat_of(side) in live.settings.blindfold:
            tags[f"{colour}Blindfold"] = "true"
    return tags


def _exhibition_sgf(live: LiveGame) -> dict[str, str]:
    """SGF properties of an exhibition game: EV (the simul), RO (the board),
    and a GC comment naming the blindfold seats."""
    props: dict[str, str] = {}
    simul = live.settings.simul
    if simul is not None:
        props["EV"] = f"{simul.get('name', '')} (车轮战 simul)"
        props["RO"] = str(simul.get("board", "?"))
    blind = [{"first": "Black", "second": "White"}[s] for s in live.settings.blindfold]
    if blind:
        props["GC"] = "; ".join(f"{c} played blindfold (盲棋)" for c in blind)
    return props


def _event_tags(live: LiveGame) -> dict[str, str]:
    """PGN tags of an event's game (issue 33 item 10): the event's name as
    Event, its Round and Board (and Section, RedTeam, BlackTeam where the
    event has them), as the event kept them when it made the game."""
    place = live.settings.in_event
    if place is None or not place.get("name"):
        return {}
    tags = {"Event": str(place["name"])}
    for tag in ("Round", "Board", "Section", "RedTeam", "BlackTeam"):
        if place.get(tag):
            tags[tag] = str(place[tag])
    return tags


def _event_sgf(live: LiveGame) -> dict[str, str]:
    """SGF properties of an event's game: EV (the event's name) and RO
    (the round, with the board: SGF has no board property)."""
    tags = _event_tags(live)
    if not tags:
        return {}
    props = {"EV": tags["Event"]}
    if "Round" in tags:
        props["RO"] = tags["Round"] + (f" (board {tags['Board']})" if "Board" in tags else "")
    return props


def export(live: LiveGame) -> tuple[str, str, str]:
    """Return ``(text, media type, file extension)`` of the game's record.

    Raises :class:`~qisai.referee.errors.RecordError` if the record cannot
    be written (a move the record module rejects).
    """
    game = live.game
    first, second = _names(live)
    date = dt.datetime.fromtimestamp(game.start_time or 0, dt.UTC).strftime("%Y.%m.%d")
    if isinstance(game, XiangqiGame):
        headers = {"Event": f"qisai {live.ruleset}", "Site": "qisai", "Date": date,
                   "Red": first, "Black": second,
                   # PGN's player type: an engine's seat is a program
                   "RedType": "program" if _is_program(live, live.first_user_id) else "human",
                   "BlackType": "program" if _is_program(live, live.second_user_id) else "human",
                   **_exhibition_tags(live)}
        headers.update(_event_tags(live))
        return (xiangqi_to_pgn(game, headers), "application/x-chess-pgn; charset=utf-8", "pgn")
    sgf = go_to_sgf(game, {"PB": first, "PW": second, "DT": date.replace(".", "-"),
                           **_event_sgf(live), **_exhibition_sgf(live)})
    return sgf, "application/x-go-sgf; charset=utf-8", "sgf"

