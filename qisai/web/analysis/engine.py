"""An engine's evaluation and best line for the analysis board, always from
a process of the hub's bounded engine pool (:mod:`qisai.engines.pool`),
never in the web process.

* Xiangqi: a UCI/UCCI engine (Fairy-Stockfish, qisai's own) searches for a
  fixed time; its last ``info`` line with a principal variation gives the
  score (centipawns or mate, turned to Red's view) and the line, written
  in Chinese notation by the rules core.
* Go: where the engine offers ``kata-analyze`` or ``lz-analyze`` (KataGo,
  Leela Zero) it analyses for a fixed time and its best ``info`` gives the
  winrate and line; else a fixed-time suggestion: GNU Go's ``reg_genmove``
  (and ``estimate_score``), or ``genmove`` then ``undo``.

:class:`Analyst` bounds what one person may ask: one analysis at a time, a
number a minute, a few seconds each (:data:`MAX_SECONDS`).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from typing import Any

from qisai.web.play.hub import Hub
from qisai.web.seats.lineup import make_seat
from qisai.web.seats.opponents import (
    BUILTIN,
    GoRequest,
    GtpGoSeat,
    UciXiangqiSeat,
    XiangqiRequest,
    engine_kinds,
)
from qisai.web.security import RateLimiter

__all__ = ["MAX_SECONDS", "AnalysisError", "Analyst", "analyst", "engine_labels", "engines_for",
           "parse_analyze_line", "parse_estimate"]

MAX_SECONDS = 5.0
"""The longest search one request may ask for."""
DEFAULT_SECONDS = 1.0


@dataclass
class AnalysisError(Exception):
    """An analysis refused or failed: ``status`` (400, 404, 429, 503) and the
    reason in both languages."""

    status: int
    code: str
    zh: str
    en: str

    def body(self) -> dict[str, Any]:
        """The refusal as the API sends it."""
        return {"detail": self.en, "code": self.code, "zh": self.zh, "en": self.en, "clause": ""}


def _strongest_found(hub: Hub, kind: str) -> list[str]:
    """The strongest level of each engine found installed (issue 32.5):
    Fairy-Stockfish at its highest ``Skill Level`` (no Elo limit), GNU Go at
    its highest ``--level``, Pachi and KataGo at the most playouts/visits
    (:mod:`qisai.engines.discovery` lists each program's levels weakest
    first).  ``--engine`` ones are left out (they are listed by name)."""
    best: dict[tuple[str, ...], str] = {}
    for name, offered in hub.levels.items():
        if offered.kind != kind or name in hub.engines or name == BUILTIN:
            continue
        if any(key == "UCI_LimitStrength" for key, _ in offered.options):
            continue  # an Elo-limited level is never the strongest
        program = (offered.spec.protocol, offered.engine)
        best[program] = name  # the later level of a program is the stronger
    return list(best.values())


def parse_estimate(text: str) -> float | None:
    """Return Black's lead in points from GNU Go's ``estimate_score``
    answer (``B+3.5 (upper bound: ...)``, ``W+24.5 ...``, ``0``), or
    ``None`` when it is not one; never raises."""
    word = text.split()[0] if text.split() else ""
    if word in ("0", "Draw", "0.0"):
        return 0.0
    if len(word) < 3 or word[0] not in "BW" or word[1] != "+":
        return None
    try:
        lead = float(word[2:])
    except ValueError:
        return None
    return lead if word[0] == "B" else -lead


def engines_for(hub: Hub, kind: str) -> list[str]:
    """Return the engines that can analyse ``kind``: the server's configured
    ones first, then the strongest level of each engine found installed
    (Fairy-Stockfish, GNU Go, KataGo, Pikafish...), then qisai's own."""
    named = [n for n in hub.engines if kind in engine_kinds(n, hub.engines)]
    return [*named, *_strongest_found(hub, kind), BUILTIN]


def engine_labels(hub: Hub, kind: str) -> list[dict[str, str]]:
    """Return :func:`engines_for` with the names people see: an engine's
    own name and version and its level, qisai's own as such; each
    ``{"name", "zh", "en"}``."""
    out = []
    for name in engines_for(hub, kind):
        offered = hub.levels.get(name)
        if name == BUILTIN:
            zh, en = "qisai 内置引擎", "qisai built-in engine"
        elif offered is not None:
            zh, en = f"{offered.engine} · {offered.level_zh}", f"{offered.engine} · {offered.level_en}"
        else:
            zh = en = name
        out.append({"name": name, "zh": zh, "en": en})
    return out


def parse_analyze_line(text: str, leela: bool = False) -> list[dict[str, Any]]:
    """Return the candidate moves of one ``kata-analyze``/``lz-analyze``
    output line (``info move D4 visits 120 winrate 0.53 ... pv D4 Q16 ...``,
    several ``info`` blocks per line) as dicts with ``move``, ``visits``,
    ``winrate`` (0-1 for the side to move; ``leela``: Leela Zero's 0-10000
    integers, scaled), ``score_lead`` (KataGo) and ``pv``.  Fields that are
    not numbers are left out; never raises."""
    out: list[dict[str, Any]] = []
    for block in text.split("info ")[1:]:
        words = block.split()
        item: dict[str, Any] = {"pv": []}
        i = 0
        while i < len(words):
            key = words[i]
            if key == "pv":
                j = i + 1
                while j < len(words) and words[j] not in ("info", "ownership", "pvVisits"):
                    j += 1
                item["pv"] = words[i + 1:j][:40]
                i = j
                continue
            value = words[i + 1] if i + 1 < len(words) else ""
            try:
                if key == "move":
                    item["move"] = value
                elif key == "visits":
                    item["visits"] = int(value)
                elif key == "winrate":
                    rate = float(value)
                    item["winrate"] = rate / 10000 if leela else rate
                elif key == "scoreLead":
                    item["score_lead"] = float(value)
            except ValueError:
                pass
            i += 2
        if "move" in item:
            out.append(item)
    return out


class Analyst:
    """Runs analyses for the people of one server: at most one at a time
    each (by account), ``per_minute`` each, ``max_running`` at once in all
    (the pool bounds the processes; this bounds the queue)."""

    def __init__(self, hub: Hub, *, per_minute: int = 20, max_running: int = 8) -> None:
        self.hub = hub
        self.limiter = RateLimiter(per_minute, 60.0, burst=max(1, per_minute // 2))
        self.running: set[str] = set()
        self.max_running = max_running

    def _admit(self, who: str) -> None:
        if who in self.running:
            raise AnalysisError(429, "analysis_busy", "上一个分析还在进行，请稍候",
                                "Your previous analysis is still running; wait for it")
        if len(self.running) >= self.max_running:
            raise AnalysisError(503, "analysis_full", "分析的人太多，请稍后再试",
                                "Too many analyses at once; try again shortly")
        wait = self.limiter.hit(who)
        if wait > 0:
            raise AnalysisError(429, "analysis_rate",
                                f"分析太频繁，请 {wait:.0f} 秒后再试",
                                f"Too many analyses; try again in {wait:.0f} s")

    def _engine(self, kind: str, name: str | None) -> str:
        able = engines_for(self.hub, kind)
        chosen = name or able[0]
        if chosen not in able:
            raise AnalysisError(404, "analysis_engine", f"没有这个引擎：{chosen[:40]}",
                                f"No engine {chosen[:40]!r} for {kind} on this server; "
                                f"known: {', '.join(able)}")
        return chosen

    async def run(self, who: str, kind: str, name: str | None, board: Any, rules: Any,
                  seconds: float) -> dict[str, Any]:
        """Analyse ``board`` (a :class:`qisai.xiangqi.Board` or
        :class:`qisai.go.Board`, ``rules`` the Go rules) with engine
        ``name`` (``None``: the first of :func:`engines_for`) for
        ``seconds``, for the person ``who``.  Returns the engine's line.
        Raises :class:`AnalysisError`."""
        engine = self._engine(kind, name)
        seconds = min(MAX_SECONDS, max(0.1, float(seconds)))
        self._admit(who)
        self.running.add(who)
        owner = f"analysis-{who}"
        try:
            # the same seats as the engine opponents: a pooled process at its level
            seat: Any = make_seat(engine, kind, self.hub.engines, self.hub.levels,
                                  self.hub.pool, owner)
            if kind == "xiangqi":
                request: Any = XiangqiRequest(board, seconds, seconds + 30)
                out = await _xiangqi(seat, request, seconds)
            else:
                side = _go_side(board)
                request = GoRequest(board, rules, side, seconds, seconds + 30)
                out = await _go(seat, request, seconds)
        except AnalysisError:
            raise
        except Exception as exc:  # any engine failure is a message, never a crash
            raise AnalysisError(503, "analysis_failed", "引擎分析失败",
                                f"The engine failed: {type(exc).__name__}") from None
        finally:
            self.running.discard(who)
        out["engine"] = engine
        out["seconds"] = seconds
        return out


_ANALYSTS: weakref.WeakKeyDictionary[Hub, Analyst] = weakref.WeakKeyDictionary()


def analyst(hub: Hub) -> Analyst:
    """Return the :class:`Analyst` of ``hub`` (made on first use)."""
    found = _ANALYSTS.get(hub)
    if found is None:
        found = _ANALYSTS[hub] = Analyst(hub)
    return found


def _go_side(board: Any) -> Any:
    from qisai.referee.verdict import Side

    return Side.FIRST if board.to_move.name == "BLACK" else Side.SECOND


# ------------------------------------------------------------------ Xiangqi
async def _xiangqi(seat: UciXiangqiSeat, request: XiangqiRequest, seconds: float
                   ) -> dict[str, Any]:
    from qisai.engines.results import Limit

    async def search(lease: Any, left: float) -> Any:
        return await lease.client.play(request.board, Limit(movetime=seconds), timeout=left)

    result = await seat.leased(request, search)  # a pooled process, as a move is
    board = request.board
    red = board.turn.name == "RED"
    best_info = None
    for info in reversed(list(result.info)):
        if info.pv_text and info.score is not None and (info.multipv or 1) == 1:
            best_info = info
            break
    # Parsed by the engine's own coordinates (Fairy-Stockfish counts ranks 1-10).
    pv = [m.iccs() for m in best_info.pv] if best_info is not None else []
    if not pv and result.move is not None:
        pv = [result.move.iccs()]
    cp = mate = None
    if best_info is not None and best_info.score is not None:
        # The engine speaks for the side to move; the page shows Red's view.
        sign = 1 if red else -1
        cp = None if best_info.score.cp is None else sign * best_info.score.cp
        mate = None if best_info.score.mate is None else sign * best_info.score.mate
    line, texts = _xiangqi_line(board, pv)
    return {"kind": "xiangqi", "source": "uci info" if best_info is not None else "bestmove",
            "cp": cp, "mate": mate, "view": "first",
            "depth": None if best_info is None else best_info.depth,
            "best": line[0] if line else None, "pv": line, "pv_text": texts}


def _xiangqi_line(board: Any, pv: list[str]) -> tuple[list[str], list[str]]:
    """The legal prefix of ``pv`` (ICCS) and its Chinese notation."""
    from qisai.xiangqi import Move
    from qisai.xiangqi.notation import format as fmt

    b = board.copy()
    line: list[str] = []
    texts: list[str] = []
    for text in pv[:30]:
        try:
            mv = Move.from_iccs(text)
        except ValueError:
            break
        if not b.is_legal(mv):
            break
        texts.append(fmt(b, mv, "chinese"))
        line.append(mv.iccs())
        b.push(mv)
    return line, texts


# ----------------------------------------------------------------------- Go
async def _go(seat: GtpGoSeat, request: GoRequest, seconds: float) -> dict[str, Any]:
    board = request.board

    async def work(lease: Any, left: float) -> dict[str, Any]:
        engine = await seat.sync_board(lease, board)  # the engine's board = this position
        color = board.to_move
        for command in ("kata-analyze", "lz-analyze"):
            if command in engine.commands:
                return await _stream(engine, command, color.letter, seconds)
        out: dict[str, Any] = {"kind": "go", "winrate": None, "score_lead": None, "pv": []}
        if seat.builtin and "qisai-seconds" in engine.commands:
            await engine.command("qisai-seconds", f"{seconds:g}", timeout=10)
        # The best line: the engine's moves for both sides in turn, within
        # the time asked (its first move at least, at most six), then taken
        # back so its board is the position again (the pool reuses it).
        start = time.monotonic()
        played, turn = 0, color
        try:
            while played < 6:
                move = await engine.genmove(turn, timeout=left)
                if move.resign:
                    out["resigns"] = True  # it sees the side to move lost
                    break
                played += 1
                out["pv"].append("pass" if move.is_pass else move.text.upper())
                if move.is_pass or time.monotonic() - start > seconds:
                    break
                turn = turn.opponent
        finally:
            for _ in range(played):
                await engine.undo()
        out.update(source="genmove", best=out["pv"][0] if out["pv"]
                   else "RESIGN" if out.get("resigns") else None)
        if "estimate_score" in engine.commands:
            # GNU Go's estimate ("W+24.5 (upper bound: ...)"): the lead of
            # the side to move, as KataGo's scoreLead is.
            text = await engine.command("estimate_score", timeout=left)
            out["estimate"] = text.split()[0] if text else None
            black = parse_estimate(text)
            if black is not None:
                out["score_lead"] = black if color.letter == "B" else -black
        return out

    return await seat.leased(request, work)


async def _stream(engine: Any, command: str, colour: str, seconds: float) -> dict[str, Any]:
    """Run ``kata-analyze``/``lz-analyze`` for ``seconds``, stop it, and
    return its best candidate (most visits) of the last report."""
    process = engine.process  # the analysis streams: read it line by line
    process.pending()
    process.send(f"{command} {colour} 20")
    await process.drain()
    deadline = time.monotonic() + seconds
    last: list[dict[str, Any]] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            line = await process.readline(left)
        except Exception:  # the time is up (or the engine went quiet)
            break
        if line.startswith("info "):
            found = parse_analyze_line(line, leela=command == "lz-analyze")
            if found:
                last = found
    # Any command stops the analysis; its answer ends the stream.
    process.send("protocol_version")
    await process.drain()
    end = time.monotonic() + 10
    seen_answer = False
    while time.monotonic() < end:
        line = await process.readline(max(0.05, end - time.monotonic()))
        if line.startswith("= 2") or line.strip() == "= 2":
            seen_answer = True
        elif seen_answer and not line.strip():
            break
    await asyncio.sleep(0)
    if not last:
        return {"kind": "go", "source": command, "winrate": None, "score_lead": None,
                "best": None, "pv": []}
    best = max(last, key=lambda c: c.get("visits", 0))
    return {"kind": "go", "source": command, "winrate": best.get("winrate"),
            "score_lead": best.get("score_lead"), "best": best["move"].upper(),
            "pv": [p.upper() for p in best["pv"]], "visits": best.get("visits")}
