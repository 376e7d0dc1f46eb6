"""Game records with the referee's facts: Xiangqi PGN and Go SGF.

A finished (or unfinished) game exports its record with the result, the
reason and clause, the fouls, and the clock after every move: ``[%clk
h:mm:ss]`` (and ``[%emt]``) in PGN move comments, ``BL``/``WL`` (and
``OB``/``OW`` in byo-yomi) in SGF.  Every event of the game's log travels
with the record, so :func:`xiangqi_from_pgn` and :func:`go_from_sgf` rebuild a
game that replays to the same state:

* a move made by a ``move`` event carries its timestamp (``[%ts ...]`` in
  PGN, ``QT`` in SGF);
* other events are written as ``[%ev key=value;...]`` (PGN) or ``QE`` values
  (SGF) after the move they follow (before the first move: in the game
  comment / root node); an event that itself made the move (the sealed move
  played on resuming) is marked ``[%made ...]`` / ``QM``.

Records from other programs (without these marks) import as their moves,
with times from ``[%emt]`` when present.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

from qisai.bilingual import en_of
from qisai.go import sgf
from qisai.go.coords import gtp_name
from qisai.go.errors import GoError
from qisai.referee.clock import ClockSnapshot, TimeSource
from qisai.referee.errors import EventError, RecordError, RulesetError
from qisai.referee.events import Event, EventType
from qisai.referee.game import Game, MoveRecord
from qisai.referee.go_game import GoGame
from qisai.referee.repetition import RepetitionJudge
from qisai.referee.rulesets import GoRules, XiangqiRules, ruleset
from qisai.referee.verdict import Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.xiangqi import pgn
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color

__all__ = [
    "decode_event",
    "encode_event",
    "go_from_sgf",
    "go_to_sgf",
    "xiangqi_from_pgn",
    "xiangqi_to_pgn",
]

_LISTS = ("points", "absent")


def encode_event(event: Event) -> str:
    """Return ``event`` as ``key=value;...`` text with no brackets or braces."""
    parts = []
    for key, value in event.to_dict().items():
        if isinstance(value, list):
            text = ",".join(quote(str(v), safe="") for v in value)
        else:
            text = quote(repr(value) if isinstance(value, float) else str(value), safe="")
        parts.append(f"{key}={text}")
    return ";".join(parts)


def decode_event(text: str) -> Event:
    """Return the event :func:`encode_event` wrote.  Raises :class:`RecordError`."""
    data: dict[str, Any] = {}
    for part in text.strip().split(";"):
        if "=" not in part:
            raise RecordError(f"event {text!r}: {part!r} is not key=value")
        key, value = part.split("=", 1)
        if key in _LISTS:
            data[key] = [unquote(v) for v in value.split(",") if v]
        else:
            data[key] = unquote(value)
    try:
        return Event.from_dict(data)
    except EventError as exc:
        raise RecordError(f"event {text!r}: {en_of(exc)}") from exc


def _fresh(game: Game) -> Game:
    if isinstance(game, XiangqiGame):
        return XiangqiGame(game.xrules, fen=game.start_fen, judge=game._judge)  # noqa: SLF001
    assert isinstance(game, GoGame)
    return GoGame(game.grules)


def _anchors(game: Game) -> tuple[list[Event], list[tuple[MoveRecord, Event | None, list[Event], list[Event]]]]:
    """Split the log: events before the first move record, and per record
    (record, its move event or None, events that made it, events after it)."""
    probe = _fresh(game)
    before: list[Event] = []
    rows: list[tuple[MoveRecord, Event | None, list[Event], list[Event]]] = []
    for event in game.events:
        count = len(probe.moves)
        probe.apply(event)
        if len(probe.moves) > count:
            record = probe.moves[-1]
            own = event.type is EventType.MOVE and event.side is record.side and not record.void
            rows.append((record, event if own else None, [] if own else [event], []))
        elif rows:
            rows[-1][3].append(event)
        else:
            before.append(event)
    return before, rows


def _hms(seconds: float, millis: bool = False) -> str:
    total = max(0.0, seconds)
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    if millis:
        return f"{int(h)}:{int(m):02d}:{s:06.3f}"
    return f"{int(h)}:{int(m):02d}:{int(s):02d}"


def _parse_hms(text: str) -> float:
    h, m, s = text.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


# --------------------------------------------------------------------- PGN
def xiangqi_to_pgn(game: XiangqiGame, headers: dict[str, str] | None = None,
                   notation: str = "chinese") -> str:
    """Return the game as Xiangqi PGN (move text in ``notation``: chinese,
    wxf or iccs) with the result, reason, clause, fouls, clocks and events.

    Raises :class:`RecordError` if the record cannot be written.
    """
    record = pgn.Game(dict(headers or {}))
    h = record.headers
    h.setdefault("Event", "qisai")
    h["Result"] = game.result.pgn_result if game.result else "*"
    if game.start_fen != STARTING_FEN:
        h["FEN"] = game.start_fen
    h["Rules"] = game.rules.name
    if game.result is not None:
        h["Termination"] = game.result.reason.value
        h["Clause"] = game.result.clause
        h["ResultText"] = game.result.explanation_zh
    h["RedFouls"] = str(game.fouls(Side.FIRST))
    h["BlackFouls"] = str(game.fouls(Side.SECOND))
    before, rows = _anchors(game)
    record.comment = " ".join(f"[%ev {encode_event(e)}]" for e in before)
    board = Board(game.start_fen)
    node: pgn.GameNode = record
    for rec, own, made, after in rows:
        move = board.push_iccs(rec.move)
        words = []
        if rec.clock is not None:
            words.append(f"[%clk {_hms(rec.clock.main)}]")
        words.append(f"[%emt {_hms(rec.elapsed, millis=True)}]")
        if own is not None:
            words.append(f"[%ts {own.at!r}]")
        words += [f"[%made {encode_event(e)}]" for e in made]
        words += [f"[%ev {encode_event(e)}]" for e in after]
        node = node.add_main_variation(move, " ".join(words))
    try:
        return pgn.dumps(record, notation)
    except XiangqiError as exc:
        raise RecordError(f"cannot write the PGN: {en_of(exc)}") from exc


_CMD = re.compile(r"\[%(\w+)\s+([^\]]*)\]")


def _commands(comment: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2).strip()) for m in _CMD.finditer(comment or "")]


def xiangqi_from_pgn(text: str | bytes, rules: XiangqiRules | None = None,
                     now: TimeSource | None = None, judge: RepetitionJudge | None = None) -> XiangqiGame:
    """Return the game of the first PGN record in ``text``, replayed.

    ``rules`` defaults to the preset named by the ``[Rules]`` tag (else
    ``cxa``); pass the same profile the game was played under if it had
    overrides.  Raises :class:`RecordError` for an unreadable record, events
    that do not replay, or a replayed result that differs from the record's.
    """
    try:
        records = pgn.parse_pgn(text)
    except XiangqiError as exc:
        raise RecordError(f"PGN: {en_of(exc)}") from exc
    if not records:
        raise RecordError("PGN: no game in the text")
    rec = records[0]
    profile = rules if rules is not None else _profile(rec.headers.get("Rules", "cxa"), XiangqiRules)
    try:
        # The record may come from another program: its [FEN] is read
        # leniently (chess-style fields ignored) and the game starts from
        # the board's own FEN.
        fen = rec.headers.get("FEN")
        start = Board(fen, strict=False).fen() if fen else None
        game = XiangqiGame(profile, fen=start, now=now, judge=judge)
    except XiangqiError as exc:
        raise RecordError(f"PGN [FEN]: {en_of(exc)}") from exc
    except EventError as exc:
        raise RecordError(f"PGN [FEN]: {en_of(exc)}") from exc
    events = [decode_event(v) for k, v in _commands(rec.comment) if k == "ev"]
    native = any(e.type is EventType.START for e in events)
    if not native:
        events.insert(0, Event(EventType.START, 0.0))
    board = Board(game.start_fen)
    clock = events[0].at
    for node in rec.mainline():
        assert node.move is not None
        side = Side.FIRST if board.turn is Color.RED else Side.SECOND
        board.push(node.move)
        cmds = _commands(node.comment)
        made = [decode_event(v) for k, v in cmds if k == "made"]
        values = dict(cmds)
        if made:
            events += made
        else:
            if "ts" in values:
                at = float(values["ts"])
            else:
                at = clock + (_parse_hms(values["emt"]) if "emt" in values else 0.0)
            clock = at
            events.append(Event(EventType.MOVE, at, side, move=node.move.iccs()))
        events += [decode_event(v) for k, v in cmds if k == "ev"]
        if events:
            clock = max(clock, events[-1].at)
    _replay(game, events, "PGN")
    tag = rec.headers.get("Result", "*")
    if native and (game.result.pgn_result if game.result else "*") != tag:
        raise RecordError(f"PGN: the record says {tag} but the replayed game gives "
                          f"{game.result.pgn_result if game.result else '*'}")
    return game


def _profile(name: str, kind: type) -> Any:
    try:
        profile = ruleset(name)
    except RulesetError as exc:
        raise RecordError(f"record names rules {name!r}: {en_of(exc)}") from exc
    if not isinstance(profile, kind):
        raise RecordError(f"record names rules {name!r}, which are not {kind.__name__}")
    return profile


def _replay(game: Game, events: list[Event], what: str) -> None:
    for number, event in enumerate(events, start=1):
        try:
            game.apply(event)
        except EventError as exc:
            raise RecordError(f"{what} event {number} ({event.type.value} at {event.at} s) "
                              f"does not replay: {en_of(exc)}") from exc


# --------------------------------------------------------------------- SGF
def _clock_props(letter: str, snap: ClockSnapshot) -> dict[str, list[str]]:
    props = {f"{letter}L": [f"{snap.main:g}"]}
    if snap.in_byoyomi:
        props[f"O{letter}"] = [str(snap.periods if snap.moves_to_go is None else snap.moves_to_go)]
    return props


def go_to_sgf(game: GoGame, extra: dict[str, str] | None = None) -> str:
    """Return the game as SGF FF[4] with the result, clocks (``BL``/``WL``,
    ``OB``/``OW``), the rule profile (``QR``) and the events.

    Raises :class:`RecordError` if the record cannot be written.
    """
    rules = game.grules
    root_extra = dict(extra or {})
    root_extra["QR"] = rules.name
    if game.result is not None:
        root_extra["C"] = f"{game.result.explanation_zh}\n{game.result.explanation_en}"
    try:
        record = sgf.game_from_board(
            game.board, komi=rules.komi,
            result=game.result.sgf_result if game.result else None,
            rules_name=rules.sgf_rules,
            extra=root_extra,
        )
    except GoError as exc:
        raise RecordError(f"cannot write the SGF: {en_of(exc)}") from exc
    before, rows = _anchors(game)
    if before:
        record.root.properties["QE"] = [encode_event(e) for e in before]
    nodes = [n for n in record.main_line() if n.move(game.board.size) is not None]
    if len(nodes) != len(rows):
        raise RecordError(f"SGF: {len(nodes)} moves on the board but {len(rows)} in the record")
    for node, (rec, own, made, after) in zip(nodes, rows, strict=True):
        letter = "B" if rec.side is Side.FIRST else "W"
        if rec.clock is not None:
            node.properties.update(_clock_props(letter, rec.clock))
        if own is not None:
            node.properties["QT"] = [repr(own.at)]
        if made:
            node.properties["QM"] = [encode_event(e) for e in made]
        if after:
            node.properties["QE"] = [encode_event(e) for e in after]
    return record.to_sgf()


def _profile_of_ru(ru: str) -> str:
    """The Go profile an SGF ``RU`` names (Chinese when none fits)."""
    for prefix, name in (("jap", "japanese"), ("kor", "korean"), ("aga", "aga"),
                         ("goe", "ing"), ("ing", "ing"), ("tromp", "tromp-taylor")):
        if ru.startswith(prefix):
            return name
    return "chinese"


def go_from_sgf(text: str | bytes, rules: GoRules | None = None,
                now: TimeSource | None = None) -> GoGame:
    """Return the game of the SGF record ``text``, replayed.

    ``rules`` defaults to the preset named by ``QR`` (else by ``RU``:
    Japanese/Korean or Chinese), with the record's board size, handicap and
    komi.  Raises :class:`RecordError` for an unreadable record, events that
    do not replay, or a replayed result that differs from ``RE``.
    """
    try:
        record = sgf.read_sgf(text)
        size = record.size
        komi = record.komi
        handicap = record.handicap
    except GoError as exc:
        raise RecordError(f"SGF: {en_of(exc)}") from exc
    if rules is None:
        name = record.root.get("QR")
        if name is None:
            name = _profile_of_ru((record.rules or "").lower())
        profile: GoRules = _profile(name, GoRules)
        overrides: dict[str, Any] = {"board_size": size, "handicap": handicap}
        if komi is not None:
            overrides["handicap_komi" if handicap else "komi"] = komi
        try:
            profile = profile.with_overrides(**overrides)
        except RulesetError as exc:
            raise RecordError(f"SGF root: {en_of(exc)}") from exc
    else:
        profile = rules
    game = GoGame(profile, now=now)
    events = [decode_event(v) for v in record.root.properties.get("QE", [])]
    native = any(e.type is EventType.START for e in events)
    if not native:
        events.insert(0, Event(EventType.START, 0.0))
    clock = events[0].at
    for number, node in enumerate(record.main_line()):
        try:
            move = node.move(size, number)
        except GoError as exc:
            raise RecordError(f"SGF: {en_of(exc)}") from exc
        if move is None:
            continue
        made = [decode_event(v) for v in node.properties.get("QM", [])]
        if made:
            events += made
        else:
            color, point = move
            side = Side.FIRST if color.letter == "B" else Side.SECOND
            at = float(node.properties["QT"][0]) if "QT" in node.properties else clock
            clock = at
            events.append(Event(EventType.MOVE, at, side, move=gtp_name(point, size)))
        events += [decode_event(v) for v in node.properties.get("QE", [])]
        clock = max(clock, events[-1].at)
    _replay(game, events, "SGF")
    tag = record.result
    if native and tag is not None and (game.result.sgf_result if game.result else None) != tag:
        raise RecordError(f"SGF: RE[{tag}] but the replayed game gives "
                          f"{game.result.sgf_result if game.result else 'no result'}")
    return game
