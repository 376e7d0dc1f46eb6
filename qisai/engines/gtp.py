"""GTP (Go Text Protocol, version 2) client for Go engines (asyncio, with a
sync wrapper).

Commands go one at a time; each answer is ``= text`` or ``? message`` ended
by an empty line.  A failure answer raises :class:`GtpCommandError`; the
client never guesses.  Points are ``(row, col)`` pairs as in
:mod:`qisai.go.coords` (row 0 at the bottom), ``None`` is a pass.

Example::

    engine = await GtpEngine.start("/usr/games/gnugo --mode gtp --level 0")
    await engine.boardsize(9)
    await engine.komi(7.5)
    await engine.play(Color.BLACK, (4, 4))
    reply = await engine.genmove(Color.WHITE)
    await engine.quit()
"""

from __future__ import annotations

import enum
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from qisai.engines.errors import (
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
    EngineTerminatedError,
    EngineTimeoutError,
    GtpCommandError,
)
from qisai.engines.process import EngineProcess, split_command
from qisai.engines.process_client import BlockingClient, ProcessClient
from qisai.go.coords import Point, gtp_name, parse_gtp
from qisai.go.errors import CoordinateError
from qisai.go.rules import Color, KoRule, Rules, Scoring

__all__ = ["GenMove", "GtpEngine", "KgsTimeSystem", "SimpleGtpEngine", "gnugo_rule_flags",
           "kgs_rules_name", "parse_vertex", "with_rule_flags"]

_GNUGO_RULE_FLAGS = frozenset({
    "--chinese-rules", "--japanese-rules", "--simple-ko", "--no-ko", "--positional-superko",
    "--situational-superko", "--forbid-suicide", "--allow-suicide", "--allow-all-suicide"})
_GNUGO_KO = {KoRule.SIMPLE: "--simple-ko", KoRule.POSITIONAL: "--positional-superko",
             KoRule.SITUATIONAL: "--situational-superko"}


def gnugo_rule_flags(rules: Rules) -> list[str]:
    """Return GNU Go's command-line options for ``rules``: the counting
    (``--chinese-rules`` for area 数子, ``--japanese-rules`` for territory
    数目), the ko rule (11: ``--simple-ko`` / ``--positional-superko`` /
    ``--situational-superko``) and suicide (10: ``--forbid-suicide`` or
    ``--allow-all-suicide``).  GNU Go takes its rules only at start."""
    counting = "--chinese-rules" if rules.scoring is Scoring.AREA else "--japanese-rules"
    suicide = "--allow-all-suicide" if rules.suicide_allowed else "--forbid-suicide"
    return [counting, _GNUGO_KO[rules.ko], suicide]


def kgs_rules_name(rules: Rules) -> str:
    """Return the ``kgs-rules`` name for ``rules``: ``chinese`` (area,
    suicide forbidden), ``new_zealand`` (area with suicide: Tromp-Taylor's
    kind), ``aga`` (pass stones) or ``japanese`` (territory)."""
    if rules.scoring is Scoring.TERRITORY:
        return "japanese"
    if rules.pass_stone:
        return "aga"
    return "new_zealand" if rules.suicide_allowed else "chinese"


def _is_gnugo(args: Sequence[str]) -> bool:
    program = args[0].replace("\\", "/").rsplit("/", 1)[-1].lower()
    return program.startswith("gnugo") or program.startswith("gnu-go")


def with_rule_flags(command: str | Sequence[str], rules: Rules) -> list[str]:
    """Return ``command`` as an argument list, with GNU Go's rule options
    (:func:`gnugo_rule_flags`) added when the program is GNU Go and the
    command names none of them itself (an explicit option wins).  Other
    programs' commands are returned unchanged.  Raises
    :class:`EngineStartError` for an empty command."""
    args = split_command(command)
    if not _is_gnugo(args) or any(a in _GNUGO_RULE_FLAGS for a in args):
        return args
    return [*args, *gnugo_rule_flags(rules)]


class KgsTimeSystem(enum.Enum):
    """The time systems of ``kgs-time_settings``."""

    NONE = "none"
    ABSOLUTE = "absolute"
    BYOYOMI = "byoyomi"
    CANADIAN = "canadian"


@dataclass(frozen=True)
class GenMove:
    """The answer to ``genmove``: a point, a pass (``point=None``) or a
    resignation (``resign=True``), with the wall time it took."""

    point: Point | None
    resign: bool
    text: str
    elapsed: float

    @property
    def is_pass(self) -> bool:
        """Whether the engine passed."""
        return self.point is None and not self.resign


def parse_vertex(text: str, size: int) -> Point | None:
    """Return the point of a GTP vertex (``None`` for ``pass``).

    Raises :class:`EngineMoveError` if ``text`` is not a vertex on a
    ``size`` board.
    """
    try:
        return parse_gtp(text, size)
    except CoordinateError as exc:
        raise EngineMoveError(f"not a vertex on a {size}x{size} board: {text!r} ({exc})",
                              text) from None


class GtpEngine(ProcessClient):
    """A Go engine over GTP.  Create with :meth:`start`.

    ``name`` and ``version`` come from the engine; ``commands`` is the set of
    commands it lists.  ``size`` is the board size last set.
    """

    def __init__(self, process: EngineProcess) -> None:
        super().__init__(process, process.name)
        self.version = ""
        self.commands: set[str] = set()
        self.size = 19
        self.rules_told: list[str] = []
        """How the engine was told the rules: GNU Go options given at start
        and/or a ``kgs-rules`` command; empty if it has no way to be told."""

    @classmethod
    async def start(cls, command: str | Sequence[str], *, name: str | None = None,
                    cwd: str | None = None, timeout: float = 10.0,
                    rules: Rules | None = None) -> GtpEngine:
        """Start a GTP engine and ask its protocol version, name and commands.

        With ``rules`` the engine is told them as it understands: GNU Go by
        its start options (:func:`with_rule_flags`), an engine that lists
        ``kgs-rules`` by that command (:meth:`set_rules`); see
        :attr:`rules_told`.

        Returns the engine.  Raises :class:`EngineStartError` if the program
        cannot run, does not answer within ``timeout`` seconds, does not
        speak GTP version 2 or refuses the rules.
        """
        flags: list[str] = []
        if rules is not None:
            args = with_rule_flags(command, rules)
            flags = args[len(split_command(command)):]
            command = args

        async def handshake(engine: GtpEngine) -> None:
            program = engine.name
            version = await engine.command("protocol_version", timeout=timeout)
            if version.strip() != "2":
                raise EngineStartError(f"engine {program} speaks GTP version {version!r}, not 2")
            engine.name = name or (await engine.command("name", timeout=timeout)).strip() or program
            engine.version = (await engine.command("version", timeout=timeout)).strip()
            listed = await engine.command("list_commands", timeout=timeout)
            engine.commands = {c.strip() for c in listed.splitlines() if c.strip()}
            if rules is not None:
                engine.rules_told = flags
                await engine.set_rules(rules)

        # Any failure of a GTP engine at start (a garbled or refused answer
        # too) is a failed start.
        return await cls._launch(command, cls, handshake, name=name, cwd=cwd,
                                 failures=(EngineError,))

    async def command(self, *words: str | int | float, timeout: float | None = 30.0) -> str:
        """Send one command and return the text of its success answer.

        Raises :class:`GtpCommandError` for a failure answer,
        :class:`EngineTimeoutError` if no answer comes within ``timeout``
        (the engine is then killed: its state is unknown),
        :class:`EngineTerminatedError` if it exits and
        :class:`EngineProtocolError` for output that is not a GTP answer.
        """
        if self._dead:
            raise EngineTerminatedError(f"engine {self.name} was killed", self._process.returncode)
        line = " ".join(str(w) for w in words)
        self._process.pending()
        self._process.send(line)
        await self._process.drain()
        deadline = None if timeout is None else time.monotonic() + timeout
        body: list[str] = []
        status = ""
        try:
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                raw = await self._process.readline(left)
                text = raw.replace("\t", " ").rstrip()
                if not status:
                    if not text:
                        continue
                    if text[0] not in "=?":
                        raise EngineProtocolError(
                            f"engine {self.name} answered {line!r} with garbage: {raw[:80]!r}")
                    status = text[0]
                    # "=id text" or "= text": drop the optional numeric id.
                    body.append(text[1:].lstrip("0123456789").strip())
                    continue
                if not text:
                    break
                body.append(text)
        except EngineTimeoutError:
            self._process.kill()
            self._dead = True
            raise EngineTimeoutError(
                f"engine {self.name} gave no answer to {line!r} within {timeout:.3g} s") from None
        reply = "\n".join(body).strip()
        if status == "?":
            raise GtpCommandError(line, reply)
        return reply

    async def quit(self) -> None:
        """Send ``quit`` and wait for the engine to exit (kill it if it does
        not within a second).  Never raises."""
        if not self._dead and self._process.returncode is None:
            try:
                await self.command("quit", timeout=1.0)
            except EngineError:
                pass
        await self._process.close(grace=1.0)

    # ------------------------------------------------------------- setup
    async def boardsize(self, size: int) -> None:
        """Set the board size (and clear the board).

        Raises :class:`GtpCommandError` if the engine cannot play that size.
        """
        await self.command("boardsize", size)
        self.size = size

    async def clear_board(self) -> None:
        """Clear the board.  Raises :class:`GtpCommandError` on refusal."""
        await self.command("clear_board")

    async def set_rules(self, rules: Rules) -> bool:
        """Tell the engine ``rules`` with ``kgs-rules`` if it lists that
        command (:func:`kgs_rules_name`).  Returns whether it was told so;
        plain GTP has no rules command (GNU Go takes them at start:
        :func:`with_rule_flags`).  Raises :class:`GtpCommandError` on refusal.
        """
        if "kgs-rules" not in self.commands:
            return False
        words = f"kgs-rules {kgs_rules_name(rules)}"
        await self.command(*words.split())
        if words not in self.rules_told:
            self.rules_told.append(words)
        return True

    async def komi(self, komi: float) -> None:
        """Set komi in points (Chinese 3¾ 子 = 7.5).  Raises
        :class:`GtpCommandError` on refusal."""
        await self.command("komi", f"{komi:g}")

    async def fixed_handicap(self, stones: int) -> list[Point]:
        """Place a fixed handicap; return the points the engine chose.

        Raises :class:`GtpCommandError` if the engine refuses the number, and
        :class:`EngineProtocolError` if it answers with something that is not
        a list of points.
        """
        return self._points(await self.command("fixed_handicap", stones))

    async def place_free_handicap(self, stones: int) -> list[Point]:
        """Let the engine (as Black) choose ``stones`` handicap points; return them.

        Raises :class:`GtpCommandError` or :class:`EngineProtocolError`.
        """
        return self._points(await self.command("place_free_handicap", stones))

    async def set_free_handicap(self, points: Iterable[Point]) -> None:
        """Tell the engine where free handicap stones were placed.

        Raises :class:`GtpCommandError` on refusal.
        """
        await self.command("set_free_handicap", *(gtp_name(p, self.size) for p in points))

    def _points(self, reply: str) -> list[Point]:
        out = []
        for word in reply.split():
            point = parse_vertex(word, self.size)
            if point is None:
                raise EngineProtocolError(f"engine {self.name} listed a pass as a point: {reply!r}")
            out.append(point)
        return out

    # ----------------------------------------------------------- playing
    async def play(self, color: Color, point: Point | None) -> None:
        """Tell the engine ``color`` played ``point`` (``None``: pass).

        Raises :class:`GtpCommandError` if the engine thinks it illegal.
        """
        await self.command("play", color.letter, gtp_name(point, self.size))

    async def genmove(self, color: Color, *, timeout: float | None = None) -> GenMove:
        """Ask the engine for ``color``'s move (the engine plays it on its board).

        Returns a :class:`GenMove`.  Raises :class:`EngineTimeoutError` if it
        does not answer within ``timeout`` seconds (the engine is killed),
        :class:`EngineMoveError` if the answer is not a vertex, ``pass`` or
        ``resign``, and :class:`GtpCommandError` on a failure answer.
        """
        started = time.monotonic()
        reply = await self.command("genmove", color.letter, timeout=timeout)
        elapsed = time.monotonic() - started
        text = reply.strip()
        if text.lower() == "resign":
            return GenMove(None, True, text, elapsed)
        return GenMove(parse_vertex(text, self.size), False, text, elapsed)

    async def undo(self) -> None:
        """Take back the last move.  Raises :class:`GtpCommandError` if the
        engine cannot."""
        await self.command("undo")

    # -------------------------------------------------------------- time
    async def time_settings(self, main: float, byoyomi: float, stones: int) -> None:
        """Set main time and Canadian byo-yomi (``byoyomi`` seconds for
        ``stones`` stones; ``stones=0`` means no byo-yomi).

        Raises :class:`GtpCommandError` on refusal.
        """
        await self.command("time_settings", int(main), int(byoyomi), stones)

    async def kgs_time_settings(self, system: KgsTimeSystem, main: float = 0,
                                period: float = 0, count: int = 0) -> None:
        """Set the time system with ``kgs-time_settings``: ``count`` periods
        of ``period`` s (byo-yomi) or ``count`` stones in ``period`` s
        (Canadian).  Falls back to ``time_settings`` for engines without the
        command when the system can be expressed there.

        Raises :class:`GtpCommandError` on refusal, and
        :class:`EngineProtocolError` if the engine supports neither form.
        """
        if "kgs-time_settings" in self.commands:
            words: list[str | int] = ["kgs-time_settings", system.value]
            if system is KgsTimeSystem.ABSOLUTE:
                words += [int(main)]
            elif system is not KgsTimeSystem.NONE:
                words += [int(main), int(period), count]
            await self.command(*words)
            return
        if system is KgsTimeSystem.NONE:
            await self.time_settings(0, 1, 0)
        elif system is KgsTimeSystem.ABSOLUTE:
            await self.time_settings(main, 0, 0)
        elif system is KgsTimeSystem.CANADIAN:
            await self.time_settings(main, period, count)
        else:
            # Japanese byo-yomi as one Canadian period of one stone: the
            # closest form plain GTP has.
            await self.time_settings(main, period, 1)

    async def time_left(self, color: Color, seconds: float, stones: int = 0) -> None:
        """Tell the engine ``color`` has ``seconds`` left (``stones`` to play
        in the current byo-yomi period; 0 in main time).

        Raises :class:`GtpCommandError` on refusal.
        """
        await self.command("time_left", color.letter, max(0, int(seconds)), stones)

    # ------------------------------------------------------------ scoring
    async def final_score(self) -> str:
        """Return the engine's count (``B+3.5``, ``W+0.5``, ``0``).

        Raises :class:`GtpCommandError` if it cannot count.
        """
        return (await self.command("final_score", timeout=60.0)).strip()

    async def final_status_list(self, status: str = "dead") -> list[Point]:
        """Return the points of stones of ``status`` (``dead``, ``alive``,
        ``seki``) in the engine's opinion.

        Raises :class:`GtpCommandError` or :class:`EngineProtocolError`.
        """
        reply = await self.command("final_status_list", status, timeout=60.0)
        return self._points(reply.replace("\n", " "))

    async def showboard(self) -> str:
        """Return the engine's picture of its board (for logs)."""
        return await self.command("showboard")


class SimpleGtpEngine(BlockingClient[GtpEngine]):
    """A blocking wrapper around :class:`GtpEngine` (one loop thread each)."""

    @classmethod
    def start(cls, command: str | Sequence[str], **kwargs: object) -> SimpleGtpEngine:
        """Start an engine (arguments as :meth:`GtpEngine.start`).

        Raises what :meth:`GtpEngine.start` raises.
        """
        return cls._launch(lambda: GtpEngine.start(command, **kwargs))  # type: ignore[arg-type]

    def command(self, *words: str | int | float, timeout: float | None = 30.0) -> str:
        """Send a raw command; see :meth:`GtpEngine.command`."""
        return self._loop.run(self.engine.command(*words, timeout=timeout))

    def boardsize(self, size: int) -> None:
        """See :meth:`GtpEngine.boardsize`."""
        self._loop.run(self.engine.boardsize(size))

    def clear_board(self) -> None:
        """See :meth:`GtpEngine.clear_board`."""
        self._loop.run(self.engine.clear_board())

    def komi(self, komi: float) -> None:
        """See :meth:`GtpEngine.komi`."""
        self._loop.run(self.engine.komi(komi))

    def play(self, color: Color, point: Point | None) -> None:
        """See :meth:`GtpEngine.play`."""
        self._loop.run(self.engine.play(color, point))

    def genmove(self, color: Color, *, timeout: float | None = None) -> GenMove:
        """See :meth:`GtpEngine.genmove`."""
        return self._loop.run(self.engine.genmove(color, timeout=timeout))

    def undo(self) -> None:
        """See :meth:`GtpEngine.undo`."""
        self._loop.run(self.engine.undo())

    def final_score(self) -> str:
        """See :meth:`GtpEngine.final_score`."""
        return self._loop.run(self.engine.final_score())

    def final_status_list(self, status: str = "dead") -> list[Point]:
        """See :meth:`GtpEngine.final_status_list`."""
        return self._loop.run(self.engine.final_status_list(status))

