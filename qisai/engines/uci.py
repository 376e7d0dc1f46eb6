"""UCI and UCCI clients for Xiangqi engines (asyncio, with a sync wrapper).

UCI (as used by Fairy-Stockfish with ``UCI_Variant xiangqi`` and by
Pikafish) and UCCI (the Chinese Chess Communication protocol of ElephantEye,
also spoken by Fairy-Stockfish after ``ucci``) differ in the handshake, the
form of options, the ``go`` time fields and how forbidden moves are passed:

=============  ==============================  ==============================
               UCI                             UCCI
=============  ==============================  ==============================
handshake      ``uci`` / ``uciok``             ``ucci`` / ``ucciok``
new game       ``ucinewgame``                  ``uccinewgame`` (if supported)
clocks         ``wtime btime winc binc``       ``time increment opptime ...``
one move       ``movetime``                    ``time T movestogo 1``
forbidden      ``searchmoves`` (the others)    ``banmoves`` (the forbidden)
=============  ==============================  ==============================

Squares are written with ranks 0-9 (ICCS: UCCI, Pikafish) or 1-10
(Fairy-Stockfish in UCI mode); see :class:`Coordinates`.  A UCI engine that
offers ``UCI_Variant`` is taken to be Fairy-Stockfish: the client selects
``xiangqi`` and ranks 1-10 unless told otherwise.

Example::

    engine = await UciEngine.start("/usr/games/fairy-stockfish")
    result = await engine.play(Board(), Limit(movetime=0.1))
    print(result.move.iccs())
    await engine.quit()
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from qisai.engines.errors import (
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
)
from qisai.engines.process import EngineProcess
from qisai.engines.process_client import BlockingClient, ProcessClient
from qisai.engines.results import (
    Coordinates,
    Info,
    Limit,
    PlayResult,
    Score,
    combo_value,
    spin_value,
)
from qisai.engines.results import loose_name as _loose
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import InvalidMoveError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move

__all__ = ["InfoLines", "Option", "Protocol", "Search", "SimpleUciEngine", "UciEngine"]

OptionValue = str | int | bool


class Protocol(enum.Enum):
    """Which dialect the engine speaks."""

    UCI = "uci"
    UCCI = "ucci"


@dataclass(frozen=True)
class Option:
    """An option the engine offers (``option name X type spin ...``)."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: OptionValue) -> str:
        """Return ``value`` as the engine expects it.

        Raises :class:`EngineProtocolError` if it does not fit the option.
        """
        if self.type == "check":
            if isinstance(value, str):
                low = value.lower()
                if low not in ("true", "false"):
                    raise EngineProtocolError(f"option {self.name}: {value!r} is not true/false")
                return low
            return "true" if value else "false"
        if self.type == "spin":
            return spin_value(self.name, value, self.min, self.max)
        if self.type == "combo" and self.choices:
            return combo_value(self.name, value, self.choices)
        return str(value)



def parse_option(line: str) -> Option | None:
    """Parse an ``option`` line (UCI ``option name X type ...`` or UCCI
    ``option X type ...``).  Returns ``None`` if the line is malformed."""
    tokens = line.split()
    if len(tokens) < 4 or tokens[0] != "option" or "type" not in tokens:
        return None
    t = tokens.index("type")
    start = 2 if tokens[1] == "name" else 1
    name = " ".join(tokens[start:t])
    if not name or t + 1 >= len(tokens):
        return None
    kind = tokens[t + 1]
    keys = {"default", "min", "max", "var"}
    values: dict[str, list[str]] = {}
    choices: list[str] = []
    i = t + 2
    key = None
    while i < len(tokens):
        tok = tokens[i]
        if tok in keys:
            key = tok
            if key == "var":
                choices.append("")
            else:
                values[key] = []
        elif key == "var":
            choices[-1] = (choices[-1] + " " + tok).strip()
        elif key is not None:
            values[key].append(tok)
        i += 1

    def number(k: str) -> int | None:
        try:
            return int(values[k][0]) if values.get(k) else None
        except ValueError:
            return None

    default = " ".join(values["default"]) if "default" in values else None
    return Option(name, kind, default, number("min"), number("max"), tuple(choices))


_INFO_KEYS = frozenset(("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time",
                        "score", "pv", "currmove", "currmovenumber", "string", "tbhits", "wdl"))


def parse_info(line: str, coordinates: Coordinates) -> Info:
    """Parse an ``info`` line.  Unknown fields are skipped; a PV stops at the
    first token that is not a move.  Never raises."""
    tokens = line.split()
    info = Info(coordinates=coordinates)
    i = 1
    n = len(tokens)

    def integer(k: int) -> int | None:
        try:
            return int(tokens[k])
        except (IndexError, ValueError):
            return None

    while i < n:
        tok = tokens[i]
        if tok in ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull"):
            setattr(info, tok, integer(i + 1))
            i += 2
        elif tok == "time":
            ms = integer(i + 1)
            info.time = None if ms is None else ms / 1000
            i += 2
        elif tok == "score":
            cp = mate = None
            bound = None
            i += 1
            if i < n and tokens[i].lstrip("-").isdigit():
                # UCCI: "score 34", a bare number (ElephantEye, qisai).
                cp = integer(i)
                i += 1
            while i < n and tokens[i] in ("cp", "mate", "lowerbound", "upperbound"):
                if tokens[i] == "cp":
                    cp = integer(i + 1)
                    i += 2
                elif tokens[i] == "mate":
                    mate = integer(i + 1)
                    i += 2
                else:
                    bound = "lower" if tokens[i] == "lowerbound" else "upper"
                    i += 1
            info.score = Score(cp, mate, bound)
        elif tok == "pv":
            start = i + 1
            i = start
            while i < n and tokens[i] not in _INFO_KEYS:
                i += 1
            info.pv_text = tuple(tokens[start:i])
        elif tok == "currmove":
            try:
                info.currmove = coordinates.parse(tokens[i + 1])
            except (IndexError, InvalidMoveError):
                pass
            i += 2
        elif tok == "string":
            info.string = " ".join(tokens[i + 1:])
            break
        elif tokens[0] == "info" and tok.isdigit() and i == 1:
            # UCCI "info depth" variants may put the number first; skip it.
            i += 1
        else:
            i += 1
    return info


class InfoLines(Sequence[Info]):
    """The ``info`` lines of a search, kept as text and parsed when first
    read (an engine prints many; a match reads one or two)."""

    def __init__(self, coordinates: Coordinates) -> None:
        self._coordinates = coordinates
        self._parsed: list[Info] = []
        self._raw: list[str] = []

    def add(self, line: str) -> None:
        """Append one ``info`` line (text)."""
        self._raw.append(line)

    def _all(self) -> list[Info]:
        if self._raw:
            self._parsed.extend(parse_info(line, self._coordinates) for line in self._raw)
            self._raw.clear()
        return self._parsed

    @overload
    def __getitem__(self, index: int) -> Info: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Info]: ...

    def __getitem__(self, index: int | slice) -> Info | Sequence[Info]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._parsed) + len(self._raw)

    def __reversed__(self) -> Iterator[Info]:
        # Newest first, parsing only as far as the caller reads.
        for line in reversed(self._raw):
            yield parse_info(line, self._coordinates)
        yield from reversed(self._parsed)


class Search:
    """A search in progress (from :meth:`UciEngine.start_search`).

    Call :meth:`stop` or :meth:`ponderhit` while it runs and :meth:`wait`
    for the :class:`PlayResult`.  ``info`` collects the info lines so far.
    """

    def __init__(self, engine: UciEngine, board: Board, ponder: bool,
                 on_info: Callable[[Info], None] | None = None) -> None:
        self._engine = engine
        self._on_info = on_info
        self._board = board
        self.pondering = ponder
        self.info = InfoLines(engine.coordinates)
        self.started = time.monotonic()
        self._stopped = False
        self.result: PlayResult | None = None

    def stop(self) -> None:
        """Ask the engine to stop and answer now (``stop``).

        Raises :class:`EngineTerminatedError` if the engine has exited.
        """
        if self.result is None and not self._stopped:
            self._stopped = True
            self._engine._process.send("stop")

    def ponderhit(self) -> None:
        """Tell the engine the predicted move was played (``ponderhit``);
        the search goes on under its normal limits and the elapsed time
        counts from now.

        Raises :class:`EngineTerminatedError` if the engine has exited.
        """
        if self.pondering and self.result is None:
            self.pondering = False
            self.started = time.monotonic()
            self._engine._process.send("ponderhit")

    async def wait(self, timeout: float | None = None) -> PlayResult:
        """Return the engine's answer.

        With ``timeout`` (seconds): when it passes the client sends
        ``stop``; if the engine still says nothing within a short grace it is
        killed.  Either way :class:`EngineTimeoutError` is raised: the move
        came too late.  Raises :class:`EngineTerminatedError` if the engine
        exits and :class:`EngineMoveError` for a best move that is not a move.
        """
        if self.result is not None:
            return self.result
        engine = self._engine
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            return await engine._read_bestmove(self, deadline)
        except EngineTimeoutError:
            pass
        try:
            self.stop()
            await engine._read_bestmove(self, time.monotonic() + engine.stop_grace)
        except EngineError:
            engine._process.kill()
            engine._dead = True
        raise EngineTimeoutError(
            f"engine {self._engine.name} gave no move within {timeout:.3g} s")


class UciEngine(ProcessClient):
    """A Xiangqi engine over UCI or UCCI.  Create with :meth:`start`.

    Attributes: ``name`` (from ``id name``), ``author``, ``options`` (what
    the engine offers), ``protocol``, ``coordinates``.
    """

    stop_grace = 1.0
    """Seconds an engine may take to answer ``stop`` before it is killed."""

    def __init__(self, process: EngineProcess, protocol: Protocol) -> None:
        super().__init__(process, process.name)
        self.protocol = protocol
        self.id_name = ""
        """The name the engine gives itself (``id name``), kept when ``name``
        is overridden."""
        self.author = ""
        self.options: dict[str, Option] = {}
        self.coordinates = Coordinates.ICCS
        self._millis = True
        self._option_prefix = True
        self._busy = False
        self._position_cache: tuple[Board, str, list[Move], list[str], Coordinates] | None = None
        self._go_cache: tuple[tuple[Limit, Color, bool], str] | None = None

    # ----------------------------------------------------------- lifecycle
    @classmethod
    async def start(
        cls,
        command: str | Sequence[str],
        *,
        protocol: Protocol | str = Protocol.UCI,
        coordinates: Coordinates | str | None = None,
        options: Mapping[str, OptionValue] | None = None,
        name: str | None = None,
        cwd: str | None = None,
        timeout: float = 10.0,
    ) -> UciEngine:
        """Start an engine and complete the handshake.

        ``coordinates=None`` chooses: ranks 1-10 for a UCI engine that offers
        ``UCI_Variant`` (Fairy-Stockfish; ``xiangqi`` is selected), ranks 0-9
        otherwise.  ``options`` are set after the handshake.

        Returns the ready engine.  Raises :class:`EngineStartError` if the
        program cannot run or does not finish the handshake within
        ``timeout`` seconds (it is then killed), and
        :class:`EngineProtocolError` for an option it does not accept.
        """
        proto = Protocol(protocol)

        async def handshake(engine: UciEngine) -> None:
            await engine._handshake(timeout)
            variant = engine.options.get("UCI_Variant")
            if proto is Protocol.UCI and variant is not None:
                await engine.configure({"UCI_Variant": "xiangqi"})
            if coordinates is not None:
                engine.coordinates = Coordinates(coordinates)
            elif proto is Protocol.UCI and variant is not None:
                engine.coordinates = Coordinates.RANKS_1_10
            if proto is Protocol.UCCI and "usemillisec" in engine.options:
                await engine.configure({"usemillisec": True})
            if options:
                await engine.configure(options)
            await engine.ping(timeout)

        return await cls._launch(command, lambda p: cls(p, proto), handshake,
                                 name=name, cwd=cwd)

    async def _handshake(self, timeout: float) -> None:
        word = self.protocol.value
        self._process.send(word)
        await self._process.drain()
        deadline = time.monotonic() + timeout
        while True:
            line = await self._process.readline(max(0.0, deadline - time.monotonic()))
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == word + "ok":
                return
            if tokens[0] == "id" and len(tokens) >= 3:
                if tokens[1] == "name":
                    self.name = self.id_name = " ".join(tokens[2:])
                elif tokens[1] == "author":
                    self.author = " ".join(tokens[2:])
            elif tokens[0] == "option":
                option = parse_option(line)
                if option is not None:
                    self.options[option.name] = option
                    self._option_prefix = tokens[1] == "name"

    # ------------------------------------------------------------ commands
    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options (``setoption``).

        Raises :class:`EngineProtocolError` for an option the engine does not
        offer or a value that does not fit it.
        """
        loose = {_loose(k): v for k, v in self.options.items()}
        for key, value in options.items():
            option = self.options.get(key) or loose.get(_loose(key))
            if option is None:
                raise EngineProtocolError(
                    f"engine {self.name} has no option {key!r} (it offers: "
                    f"{', '.join(sorted(self.options)) or 'none'})")
            text = option.check(value)
            if self._option_prefix:
                line = f"setoption name {option.name}"
                if option.type != "button":
                    line += f" value {text}"
            else:
                line = f"setoption {option.name}" + ("" if option.type == "button" else f" {text}")
            self._process.send(line)
        await self._process.drain()

    async def ping(self, timeout: float = 10.0) -> None:
        """Send ``isready`` and wait for ``readyok``.

        Raises :class:`EngineTimeoutError` or :class:`EngineTerminatedError`.
        """
        self._process.send("isready")
        await self._process.drain()
        deadline = time.monotonic() + timeout
        while True:
            line = await self._process.readline(max(0.0, deadline - time.monotonic()))
            if line.strip() == "readyok":
                return

    async def new_game(self) -> None:
        """Tell the engine a new game starts (``ucinewgame``; for UCCI
        ``uccinewgame`` if the engine advertised no options that rule it out)
        and wait until it is ready.

        Raises :class:`EngineTimeoutError` or :class:`EngineTerminatedError`.
        """
        self._process.send("ucinewgame" if self.protocol is Protocol.UCI else "uccinewgame")
        await self.ping()

    def position_command(self, board: Board) -> str:
        """Return the ``position`` command for ``board`` (its root position
        and the moves played since).

        Successive positions of one game reuse the previous command's root
        and move text, so a long game costs no more per move than a short one.
        """
        stack = board.move_stack
        cached = self._position_cache
        if cached is not None and cached[0] is board and cached[4] is self.coordinates and \
                len(stack) >= len(cached[2]) and stack[:len(cached[2])] == cached[2]:
            _, head, moves, words, _ = cached
            words = words + [self.coordinates.format(m) for m in stack[len(moves):]]
        else:
            fen = board.root().fen()
            head = "position startpos" if fen == STARTING_FEN else f"position fen {fen}"
            words = [self.coordinates.format(m) for m in stack]
        self._position_cache = (board, head, list(stack), words, self.coordinates)
        return head + (" moves " + " ".join(words) if words else "")

    async def start_search(
        self,
        board: Board,
        limit: Limit,
        *,
        banmoves: Sequence[Move] = (),
        ponder: bool = False,
        on_info: Callable[[Info], None] | None = None,
    ) -> Search:
        """Send the position and ``go``; return the running :class:`Search`.

        ``banmoves`` are moves the engine must not play (棋例 forbidden
        moves): UCCI gets ``banmoves``, UCI gets ``searchmoves`` with every
        other legal move.  ``ponder`` searches on the opponent's time.

        Raises :class:`EngineTerminatedError` if the engine has exited and
        :class:`EngineProtocolError` if a search is already running.
        """
        if self._dead:
            raise EngineTerminatedError(f"engine {self.name} was killed", self._process.returncode)
        if self._busy:
            raise EngineProtocolError(f"engine {self.name} is already searching")
        self._process.pending()  # stale lines of an earlier exchange
        lines = [self.position_command(board)]
        key = (limit, board.turn, ponder)
        if not banmoves and self._go_cache is not None and self._go_cache[0] == key:
            # A match sends the same limit move after move.
            lines.append(self._go_cache[1])
        else:
            go = ["go"] + (["ponder"] if ponder else [])
            if self.protocol is Protocol.UCCI:
                if banmoves:
                    lines.append("banmoves " + " ".join(self.coordinates.format(m)
                                                        for m in banmoves))
                go += limit.ucci_fields(board.turn, millis=self._millis)
            else:
                go += limit.uci_fields()
                if banmoves:
                    banned = set(banmoves)
                    allowed = [m for m in board.legal_moves() if m not in banned]
                    if allowed:
                        go += ["searchmoves"] + [self.coordinates.format(m) for m in allowed]
            lines.append(" ".join(go))
            if not banmoves:
                self._go_cache = (key, lines[-1])
        # Without an info callback nobody needs waking before the best move.
        self._process.wake_on = None if on_info is not None else ("bestmove", "nobestmove")
        self._process.send(*lines)
        await self._process.drain()
        self._busy = True
        return Search(self, board, ponder, on_info)

    async def _read_bestmove(self, search: Search, deadline: float | None) -> PlayResult:
        """Read the search's output up to ``bestmove``; raise
        :class:`EngineTimeoutError` at ``deadline`` (a monotonic time)."""
        on_info = search._on_info
        process = self._process
        popline = process.popline
        add = search.info.add
        while True:
            line = popline()
            if line is None:
                # Woken only for the best move (unless on_info wants every
                # line): the info lines before it are then read in one go.
                await process.wait_line(deadline)
                continue
            if line.startswith("info"):
                add(line)
                if on_info is not None:
                    on_info(search.info[-1])
                continue
            tokens = line.split()
            if tokens and tokens[0] in ("bestmove", "nobestmove"):
                self._busy = False
                process.wake_on = None
                elapsed = time.monotonic() - search.started
                result = self._parse_bestmove(tokens, search.info, elapsed)
                search.result = result
                return result

    def _parse_bestmove(self, tokens: list[str], info: Sequence[Info],
                        elapsed: float) -> PlayResult:
        if tokens[0] == "nobestmove" or len(tokens) < 2 or tokens[1] in ("(none)", "none", "0000"):
            return PlayResult(None, tokens[1] if len(tokens) > 1 else "", info=info, elapsed=elapsed)
        text = tokens[1]
        try:
            move = self.coordinates.parse(text)
        except InvalidMoveError:
            raise EngineMoveError(
                f"engine {self.name} sent a best move that is not a move: {text!r}", text) from None
        ponder = None
        rest = tokens[2:]
        if len(rest) >= 2 and rest[0] == "ponder":
            try:
                ponder = self.coordinates.parse(rest[1])
            except InvalidMoveError:
                ponder = None
        return PlayResult(move, text, ponder, info, elapsed,
                          draw_offer="draw" in rest, resign="resign" in rest)

    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        banmoves: Sequence[Move] = (),
        timeout: float | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> PlayResult:
        """Search ``board`` under ``limit`` and return the engine's move.

        ``timeout`` (seconds) bounds the wait: see :meth:`Search.wait`.
        Raises :class:`EngineTimeoutError`, :class:`EngineTerminatedError`,
        :class:`EngineMoveError` (a best move that is not a move).  The move
        is *not* checked for legality: that is the referee's job.
        """
        search = await self.start_search(board, limit, banmoves=banmoves, on_info=on_info)
        return await search.wait(timeout)


class SimpleUciEngine(BlockingClient[UciEngine]):
    """A blocking wrapper around :class:`UciEngine` (one loop thread each).

    >>> engine = SimpleUciEngine.start("/usr/games/fairy-stockfish")  # doctest: +SKIP
    >>> engine.play(Board(), Limit(depth=3)).move  # doctest: +SKIP
    """

    @classmethod
    def start(cls, command: str | Sequence[str], **kwargs: object) -> SimpleUciEngine:
        """Start an engine (arguments as :meth:`UciEngine.start`).

        Returns the wrapper.  Raises what :meth:`UciEngine.start` raises.
        """
        return cls._launch(lambda: UciEngine.start(command, **kwargs))  # type: ignore[arg-type]

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options; see :meth:`UciEngine.configure`."""
        self._loop.run(self.engine.configure(options))

    def new_game(self) -> None:
        """Start a new game; see :meth:`UciEngine.new_game`."""
        self._loop.run(self.engine.new_game())

    def play(self, board: Board, limit: Limit, *, banmoves: Sequence[Move] = (),
             timeout: float | None = None) -> PlayResult:
        """Return the engine's move; see :meth:`UciEngine.play`.

        The board is copied, so the caller may go on using it.
        """
        return self._loop.run(self.engine.play(board.copy(), limit, banmoves=banmoves,
                                               timeout=timeout))
