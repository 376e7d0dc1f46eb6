"""xboard/CECP client for Xiangqi engines (asyncio, with a sync wrapper).

The Chess Engine Communication Protocol (xboard, WinBoard) as Xiangqi
engines speak it: MaxQi (Debian's ``fairymax`` package), Sjaak II,
Fairy-Stockfish in its xboard mode.  The exchange, as this client runs it:

* ``xboard``, ``protover 2``; the engine's ``feature`` lines are answered
  ``accepted``/``rejected`` one by one until ``done=1`` (``done=0`` asks
  for more time, up to the start time-out).  An engine that sends no
  feature within :attr:`XboardEngine.feature_timeout` seconds speaks
  protocol 1 and is used with the defaults;
* each game: ``new``, ``variant xiangqi``, ``force``, ``post``, ``easy``
  (no pondering), then the start position: ``setboard FEN`` when the engine
  offers it (``setboard=1``), otherwise the moves from the standard start
  replayed one by one (MaxQi says ``setboard=0``).  A FEN the engine refuses
  is tried again with Sjaak's letters (``h`` horse, ``e`` elephant);
* each move the engine keeps ``force`` mode: the moves it has not seen
  (``usermove MOVE`` if it asked for that), the time settings when they
  change (``st``, ``level``, ``sd``), ``ping N``/``pong N`` to be sure it
  took them (an ``Illegal move`` answer to a move the referee accepted is
  a :class:`~qisai.engines.errors.EngineProtocolError`), then ``time``/
  ``otim`` in centiseconds, ``draw`` when the opponent offers one, and
  ``go``; the answer is ``move MOVE`` (or protocol 1's ``1. ... MOVE``),
  and ``force`` is sent at once so that it never plays on by itself;
* ``post`` lines (``depth score time nodes pv``) are read as search
  information (:class:`~qisai.engines.results.Info`; ``100000 + N`` is mate
  in N); ``offer draw``, ``resign`` and a result (``1-0 {...}``,
  ``0-1 {...}``, ``1/2-1/2 {...}``) are reported in the
  :class:`~qisai.engines.results.PlayResult` for the referee to rule on:
  the client never decides a game;
* ``quit`` at the end (the process is killed if it does not exit).

Moves are written as the engines write them: files ``a``-``i`` and ranks
``0``-``9`` from Red's side (``h2e2``, ``h0g2``: ICCS, as WinBoard writes a
board of ten ranks); Red is xboard's "white".  Ranks 1-10 can be chosen
(``coordinates="1-10"``) for an engine that counts so.

Example::

    engine = await XboardEngine.start("/usr/games/maxqi")
    result = await engine.play(Board(), Limit(movetime=1))
    print(result.move.iccs())
    await engine.quit()
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from qisai.engines.errors import (
    EngineError,
    EngineMoveError,
    EngineProtocolError,
    EngineStartError,
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
    loose_name,
    spin_value,
)
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import InvalidMoveError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move

__all__ = [
    "RESULTS",
    "SimpleXboardEngine",
    "XboardEngine",
    "XboardOption",
    "parse_features",
    "parse_post",
    "xboard_option",
]

RESULTS = ("1-0", "0-1", "1/2-1/2")
"""The results an engine may claim (``*`` is no claim)."""

OptionValue = str | int | bool

_FEATURE = re.compile(r'([A-Za-z_]\w*)=(?:"([^"]*)"|(\S+))')
_POST = re.compile(r"^\s*(-?\d+)\s+(-?\d+)\s+(-?\d+)\s+(-?\d+)(.*)$")
_OLD_MOVE = re.compile(r"^\d+\s*\.\s*\.\.\.\s*(\S+)")
_RESULT = re.compile(r"^(1-0|0-1|1/2-1/2|\*)(?:\s+\{(.*?)\}?)?\s*$")
_MOVE_NUMBER = re.compile(r"^\d*\.+$|^\d+\.")
_OPTION = re.compile(
    r"^(.*?)\s+-(check|spin|slider|combo|string|file|path|button|save|reset)\b\s*(.*)$")
_MATE = 100000
_FEATURES = frozenset((
    "ping", "setboard", "playother", "san", "usermove", "time", "draw", "sigint", "sigterm",
    "reuse", "analyze", "myname", "myversion", "variants", "colors", "ics", "name", "pause",
    "nps", "debug", "memory", "smp", "egt", "option", "done", "exclude", "setscore",
    "highlight"))
"""Features this client understands (others are ``rejected``)."""
_NOT_SUPPORTED = {"san": "1", "reuse": "0"}
"""Values of features it cannot honour: SAN moves, a fresh process a game."""


@dataclass(frozen=True)
class XboardOption:
    """An option the engine offers (``feature option="NAME -TYPE ..."``)."""

    name: str
    type: str
    default: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: OptionValue) -> str:
        """Return ``value`` as the engine expects it (``check``: 0/1).

        Raises :class:`EngineProtocolError` if it does not fit the option.
        """
        if self.type == "check":
            text = str(value).lower()
            if isinstance(value, bool) or text in ("true", "false", "0", "1"):
                return "1" if value is True or text in ("true", "1") else "0"
            raise EngineProtocolError(f"option {self.name}: {value!r} is not 0/1")
        if self.type in ("spin", "slider"):
            return spin_value(self.name, value, self.min, self.max)
        if self.type == "combo" and self.choices:
            return combo_value(self.name, value, self.choices)
        return str(value)


def xboard_option(text: str) -> XboardOption | None:
    """Parse the value of an ``option`` feature (``Hash -spin 64 1 1024``,
    ``Level -combo A /// *B``).  Returns ``None`` if it is malformed."""
    m = _OPTION.match(text.strip())
    if m is None or not m.group(1):
        return None
    name, kind, rest = m.group(1).strip(), m.group(2), m.group(3).strip()
    if kind in ("spin", "slider"):
        numbers = rest.split()
        try:
            values = [int(x) for x in numbers[:3]]
        except ValueError:
            return XboardOption(name, kind, rest)
        values += [0] * (3 - len(values))
        return XboardOption(name, kind, str(values[0]), values[1], values[2])
    if kind == "combo":
        choices = [c.strip() for c in rest.split("///")]
        default = next((c[1:] for c in choices if c.startswith("*")), choices[0] if choices else "")
        return XboardOption(name, kind, default, choices=tuple(c.lstrip("*") for c in choices))
    return XboardOption(name, kind, rest)


def parse_features(line: str) -> list[tuple[str, str]]:
    """Return the ``(name, value)`` pairs of a ``feature`` line, in order
    (quotes removed).  Never raises."""
    body = line.split(None, 1)[1] if " " in line.strip() else ""
    return [(m.group(1), m.group(2) if m.group(2) is not None else m.group(3))
            for m in _FEATURE.finditer(body)]


def parse_post(line: str, coordinates: Coordinates = Coordinates.ICCS) -> Info | None:
    """Parse a ``post`` line (``depth score time nodes [more] [\\t] pv``;
    the time in centiseconds, the score in centipawns from the mover's
    view, ``±(100000 + N)`` for mate in N).  Extra numbers before a tab
    (Fairy-Stockfish's selective depth, speed) are skipped, and move
    numbers in the PV (``1.``, ``...``) dropped.  Returns ``None`` for any
    other line; never raises."""
    m = _POST.match(line)
    if m is None:
        return None
    depth, score, centis, nodes = (int(m.group(i)) for i in range(1, 5))
    rest = m.group(5)
    if "\t" in rest:
        rest = rest.split("\t", 1)[1]
    pv = tuple(t for t in rest.split() if not _MOVE_NUMBER.match(t))
    if abs(score) >= _MATE:
        mate = abs(score) - _MATE
        value = Score(mate=mate if score > 0 else -mate)
    else:
        value = Score(cp=score)
    return Info(depth=depth, score=value, nodes=nodes, time=centis / 100, pv_text=pv,
                coordinates=coordinates)


def _centis(seconds: float) -> int:
    return max(1, int(seconds * 100))


def _minutes(seconds: float) -> str:
    """``level``'s base time: minutes, or ``M:SS``."""
    whole = max(1, int(round(seconds)))
    return str(whole // 60) if whole % 60 == 0 else f"{whole // 60}:{whole % 60:02d}"


def _he_letters(fen: str) -> str:
    """The FEN with Sjaak's letters: ``h`` horse, ``e`` elephant."""
    placement, _, rest = fen.partition(" ")
    return placement.translate(str.maketrans("nNbB", "hHeE")) + " " + rest


_FEN_STYLES: tuple[Callable[[str], str], ...] = (lambda fen: fen, _he_letters)


class XboardEngine(ProcessClient):
    """A Xiangqi engine over xboard/CECP.  Create with :meth:`start`.

    Attributes: ``name`` (the ``myname`` feature unless a name was given),
    ``id_name`` (``myname`` as the engine sent it), ``features`` (those
    accepted, by name), ``options`` (by name), ``protocol_version`` (1 if
    the engine sent no feature), ``coordinates``.
    """

    protocol = "xboard"
    """The protocol's name (the match runner and the arena dispatch on it)."""
    stop_grace = 1.0
    """Seconds an engine may take to answer ``?`` (move now) before it is killed."""
    feature_timeout = 2.0
    """Seconds to wait for a first ``feature`` before taking protocol 1."""
    sync_timeout = 10.0
    """Seconds an engine may take to answer ``ping`` between moves."""

    def __init__(self, process: EngineProcess, name: str) -> None:
        super().__init__(process, name)
        self.id_name = ""
        self.features: dict[str, str] = {}
        self.options: dict[str, XboardOption] = {}
        self.protocol_version = 1
        self.coordinates = Coordinates.ICCS
        self._ping = 0
        self._known: tuple[str, list[Move]] | None = None
        """(root FEN, moves) of the engine's board while in force mode; None: unknown."""
        self._settings: tuple[object, ...] | None = None
        self._fen_style = 0
        self._draw_offered = False

    # ----------------------------------------------------------- lifecycle
    @classmethod
    async def start(
        cls,
        command: str | Sequence[str],
        *,
        coordinates: Coordinates | str | None = None,
        options: Mapping[str, OptionValue] | None = None,
        name: str | None = None,
        cwd: str | None = None,
        timeout: float = 10.0,
        feature_timeout: float | None = None,
    ) -> XboardEngine:
        """Start an engine and negotiate its features.

        ``options`` are set after the negotiation (``option NAME=VALUE``).
        ``feature_timeout`` overrides :attr:`feature_timeout`.

        Returns the ready engine.  Raises :class:`EngineStartError` if the
        program cannot run, does not finish the negotiation within
        ``timeout`` seconds (it is then killed) or does not play Xiangqi
        (a ``variants`` list without ``xiangqi``), and
        :class:`EngineProtocolError` for an option it does not offer.
        """
        wait = cls.feature_timeout if feature_timeout is None else feature_timeout

        async def handshake(engine: XboardEngine) -> None:
            await engine._handshake(timeout, wait)
            variants = engine.features.get("variants")
            if variants is not None and "xiangqi" not in [v.strip() for v in variants.split(",")]:
                raise EngineStartError(f"engine {engine.name} does not play xiangqi "
                                       f"(variants: {variants[:200]})")
            if coordinates is not None:
                engine.coordinates = Coordinates(coordinates)
            process = engine._process
            if process.returncode is not None:
                raise EngineTerminatedError(f"engine {engine.name} exited (status "
                                            f"{process.returncode})", process.returncode)
            process.send("easy", "post")
            if options:
                await engine.configure(options)
            await engine.sync(timeout)

        return await cls._launch(command, lambda p: cls(p, name or p.name), handshake,
                                 name=name, cwd=cwd)

    async def _handshake(self, timeout: float, feature_wait: float) -> None:
        process = self._process
        process.send("xboard", "protover 2")
        begun = time.monotonic()
        deadline = begun + min(feature_wait, timeout)
        while True:
            try:
                line = await process.readline(max(0.0, deadline - time.monotonic()))
            except EngineTimeoutError:
                if self.features.get("done") == "0":
                    raise  # it asked for more time and still did not finish
                return  # protocol 1 (or no done=1): the defaults hold
            if not line.startswith("feature"):
                continue
            self.protocol_version = 2
            done = self._answer_features(line)
            if done == "1":
                return
            if done == "0":
                deadline = begun + timeout

    def _answer_features(self, line: str) -> str | None:
        """Accept or reject each feature of ``line``; return its ``done`` value."""
        replies = []
        done = None
        for key, value in parse_features(line):
            if key not in _FEATURES or _NOT_SUPPORTED.get(key) == value:
                replies.append(f"rejected {key}")
                continue
            replies.append(f"accepted {key}")
            if key == "option":
                option = xboard_option(value)
                if option is not None:
                    self.options[option.name] = option
            else:
                self.features[key] = value
            if key == "myname":
                self.id_name = self.name = value
            elif key == "done":
                done = value
        if replies:
            self._process.send(*replies)
        return done

    def _feature(self, key: str, default: str = "0") -> bool:
        return self.features.get(key, default) == "1"

    # ------------------------------------------------------------ commands
    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Set options (``option NAME=VALUE``; names compare loosely, so
        ``Claim_repetitions`` finds ``Claim repetitions``).

        Raises :class:`EngineProtocolError` for an option the engine does not
        offer or a value that does not fit it.
        """
        loose = {loose_name(k): v for k, v in self.options.items()}
        lines = []
        for key, value in options.items():
            option = self.options.get(key) or loose.get(loose_name(key))
            if option is None:
                raise EngineProtocolError(
                    f"engine {self.name} has no option {key!r} (it offers: "
                    f"{', '.join(sorted(self.options)) or 'none'})")
            if option.type in ("button", "save", "reset"):
                lines.append(f"option {option.name}")
            else:
                lines.append(f"option {option.name}={option.check(value)}")
        if lines:
            self._process.send(*lines)

    async def sync(self, timeout: float | None = None) -> list[str]:
        """Send ``ping N`` and wait for ``pong N`` (if the engine offers
        ``ping``; otherwise only the lines already received are taken).

        Returns the lines that came before the ``pong``, late ``feature``
        lines answered.  Raises :class:`EngineTimeoutError` or
        :class:`EngineTerminatedError`.
        """
        process = self._process
        if not self._feature("ping"):
            return process.pending()
        self._ping += 1
        want = f"pong {self._ping}"
        process.send(f"ping {self._ping}")
        deadline = time.monotonic() + (self.sync_timeout if timeout is None else timeout)
        out: list[str] = []
        while True:
            line = (await process.readline(max(0.0, deadline - time.monotonic()))).strip()
            if line == want:
                return out
            if line.startswith("feature"):
                self._answer_features(line)
            elif line:
                out.append(line)

    async def new_game(self) -> None:
        """Start a new game from the standard position (``new``, ``variant
        xiangqi``, ``force``) and wait until the engine is ready.

        Raises :class:`EngineTimeoutError`, :class:`EngineTerminatedError`.
        """
        self._draw_offered = False
        await self._reset(STARTING_FEN, [])

    def opponent_offers_draw(self) -> None:
        """Tell the engine, with its next ``go``, that its opponent offers a
        draw (``draw``; if the engine takes draw offers).  It accepts by
        answering ``offer draw`` (:attr:`PlayResult.draw_offer`)."""
        self._draw_offered = True

    def _move_line(self, move: Move) -> str:
        text = self.coordinates.format(move)
        return f"usermove {text}" if self._feature("usermove") else text

    async def _reset(self, root: str, moves: list[Move], timeout: float | None = None) -> None:
        """Set the engine's board to ``root`` plus ``moves`` (in force mode);
        ``timeout`` bounds each ``ping`` (default :attr:`sync_timeout`).

        Raises :class:`EngineProtocolError` if it cannot be given the
        position (no ``setboard`` and not the standard start; a FEN or a
        move refused).
        """
        self._known = None
        self._settings = None
        head = ["new", "variant xiangqi", "force", "post", "easy"]
        if root != STARTING_FEN and not self._feature("setboard"):
            raise EngineProtocolError(
                f"engine {self.name} cannot be given the position {root!r}: it has no setboard "
                "and the game did not start from the standard position")
        styles = [self._fen_style] if root == STARTING_FEN else \
            list(range(self._fen_style, len(_FEN_STYLES)))
        for style in styles:
            lines = list(head)
            if root != STARTING_FEN:
                lines.append("setboard " + _FEN_STYLES[style](root))
            sent = [self._move_line(m) for m in moves]
            self._process.send(*lines, *sent)
            answers = await self.sync(timeout)
            if root != STARTING_FEN and _position_error(answers):
                continue
            refusal = _refusal(answers, sent)
            if refusal is not None:
                raise EngineProtocolError(
                    f"engine {self.name} refuses a move the referee accepted: {refusal}")
            self._fen_style = style
            self._known = (root, list(moves))
            return
        raise EngineProtocolError(f"engine {self.name} refuses the position {root!r}")

    def _settings_for(self, limit: Limit, turn: Color) -> tuple[tuple[object, ...], list[str]]:
        """The key and commands of the time and depth settings ``limit`` needs."""
        own = limit.red_clock if turn is Color.RED else limit.black_clock
        inc = (limit.red_inc if turn is Color.RED else limit.black_inc) or 0.0
        lines: list[str] = []
        if own is not None:
            key: tuple[object, ...] = ("clock", inc, limit.depth)
            lines.append(f"level {limit.moves_to_go or 0} {_minutes(own)} {inc:g}")
        elif limit.movetime is not None:
            key = ("move", limit.movetime, limit.depth)
            if limit.movetime >= 1 and float(limit.movetime).is_integer():
                lines.append(f"st {int(limit.movetime)}")
            else:
                # No fraction of a second in st: one move a period, the time
                # given with "time" before each move.
                lines.append("level 1 0:01 0")
        else:
            key = ("none", limit.depth)
        if limit.depth is not None:
            lines.append(f"sd {limit.depth}")
        return key, lines

    # -------------------------------------------------------------- search
    async def play(
        self,
        board: Board,
        limit: Limit,
        *,
        banmoves: Sequence[Move] = (),
        timeout: float | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> PlayResult:
        """Search ``board`` under ``limit`` and return the engine's answer.

        The engine's board is brought to ``board`` (the moves it has not
        seen; a new setup if it differs), then ``go``.  ``banmoves`` are not
        passed on: xboard has no such command, and the referee rules on the
        moves.  ``limit.nodes`` is not passed on either.  With ``timeout``
        (seconds), when it passes ``?`` (move now) is sent; if the engine
        still says nothing within :attr:`stop_grace` it is killed.  Either
        way :class:`EngineTimeoutError` is raised: the move came too late.

        Returns the :class:`PlayResult`: a move (not checked for legality:
        that is the referee's job), or ``move=None`` with ``resign`` or a
        ``claim``.  Raises :class:`EngineTimeoutError`,
        :class:`EngineTerminatedError` (a crash, a closed pipe),
        :class:`EngineMoveError` (a move that is not a move) and
        :class:`EngineProtocolError` (a move or position it refuses).
        """
        if self._dead:
            raise EngineTerminatedError(f"engine {self.name} was killed", self._process.returncode)
        started = time.monotonic()
        deadline = None if timeout is None else started + timeout

        def left() -> float | None:
            # The engine's own time bounds the set-up too (a silent engine).
            if deadline is None:
                return None
            return min(self.sync_timeout, max(0.0, deadline - time.monotonic()))

        process = self._process
        for line in process.pending():  # late lines of an earlier exchange
            if line.startswith("feature"):
                self._answer_features(line)
        root = board.root().fen()
        stack = board.move_stack
        known = self._known
        lines: list[str] = []
        sent: list[str] = []
        if known is None or known[0] != root or len(known[1]) > len(stack) or \
                stack[:len(known[1])] != known[1]:
            await self._reset(root, list(stack), left())
        elif len(stack) > len(known[1]):
            sent = [self._move_line(m) for m in stack[len(known[1]):]]
            lines += sent
            self._known = (root, list(stack))
        key, settings = self._settings_for(limit, board.turn)
        if key != self._settings:
            lines += settings
            self._settings = key
        if lines:
            process.send(*lines)
            refusal = _refusal(await self.sync(left()), sent)
            if refusal is not None:
                self._known = None
                raise EngineProtocolError(
                    f"engine {self.name} refuses a move the referee accepted: {refusal}")
        go = []
        if self._feature("time", "1"):
            own, opp = (limit.red_clock, limit.black_clock) if board.turn is Color.RED else \
                (limit.black_clock, limit.red_clock)
            if own is None and limit.movetime is not None and key[0] == "move" and \
                    not settings[0].startswith("st "):
                own = opp = limit.movetime
            if own is not None:
                go.append(f"time {_centis(own)}")
                go.append(f"otim {_centis(opp if opp is not None else own)}")
        if self._draw_offered and self._feature("draw", "1"):
            go.append("draw")
        self._draw_offered = False
        go.append("go")
        process.send(*go)
        begun = time.monotonic()
        try:
            result = await self._read_answer(deadline, on_info, stack)
        except EngineTimeoutError:
            pass
        else:
            result.elapsed = time.monotonic() - begun
            return result
        try:
            process.send("?")
            await self._read_answer(time.monotonic() + self.stop_grace, None, stack)
        except EngineError:
            process.kill()
            self._dead = True
        self._known = None
        raise EngineTimeoutError(f"engine {self.name} gave no move within {timeout:.3g} s")

    async def _read_answer(self, deadline: float | None, on_info: Callable[[Info], None] | None,
                           stack: list[Move]) -> PlayResult:
        """Read the engine's output up to its move, resignation or claim."""
        process = self._process
        info: list[Info] = []
        draw_offer = False
        while True:
            line = (await process.readline(
                None if deadline is None else max(0.0, deadline - time.monotonic()))).strip()
            if not line:
                continue
            text = None
            if line.startswith("move "):
                text = line.split()[1] if len(line.split()) > 1 else ""
            elif (old := _OLD_MOVE.match(line)) is not None:
                text = old.group(1)
            if text is not None:
                return self._moved(text, info, draw_offer, stack)
            if line == "resign" or line.startswith("resign "):
                self._known = None
                return PlayResult(None, "resign", info=info, resign=True, draw_offer=draw_offer)
            if line.startswith("offer draw"):
                draw_offer = True
                continue
            result = _RESULT.match(line)
            if result is not None and result.group(1) != "*":
                self._known = None  # it holds the game over: set it up again to go on
                return PlayResult(None, line, info=info, draw_offer=draw_offer,
                                  claim=result.group(1), claim_comment=result.group(2) or "")
            if line.startswith("Illegal move"):
                self._known = None
                raise EngineProtocolError(
                    f"engine {self.name} refuses a move the referee accepted: {line}")
            if line.startswith("feature"):
                self._answer_features(line)
                continue
            post = parse_post(line, self.coordinates)
            if post is not None:
                info.append(post)
                if on_info is not None:
                    on_info(post)

    def _moved(self, text: str, info: list[Info], draw_offer: bool,
               stack: list[Move]) -> PlayResult:
        """The engine sent ``move text``: put it back in force mode and read
        what it sent with the move (an offer, a claim)."""
        process = self._process
        process.send("force")
        try:
            move = self.coordinates.parse(text)
        except InvalidMoveError:
            self._known = None
            raise EngineMoveError(
                f"engine {self.name} sent a move that is not a move: {text!r}", text) from None
        if self._known is not None:
            self._known = (self._known[0], list(stack) + [move])
        claim = None
        comment = ""
        for line in process.pending():
            line = line.strip()
            result = _RESULT.match(line)
            if line.startswith("offer draw"):
                draw_offer = True
            elif result is not None and result.group(1) != "*":
                claim, comment = result.group(1), result.group(2) or ""
            elif line.startswith("feature"):
                self._answer_features(line)
        return PlayResult(move, text, info=info, draw_offer=draw_offer, claim=claim,
                          claim_comment=comment)


def _refusal(answers: list[str], sent: list[str]) -> str | None:
    """The ``Illegal move`` answer to one of the moves ``sent``, if any
    (an old engine may call an unknown command an illegal move: that is
    not a refusal)."""
    texts = {s.split()[-1] for s in sent}
    for line in answers:
        if line.startswith("Illegal move") and line.split()[-1] in texts:
            return line
    return None


def _position_error(answers: list[str]) -> bool:
    """Whether the engine complained about a ``setboard``."""
    for line in answers:
        low = line.lower()
        if low.startswith(("error", "tellusererror", "illegal position")) or "fen" in low and \
                ("bad" in low or "illegal" in low or "invalid" in low):
            return True
    return False


class SimpleXboardEngine(BlockingClient[XboardEngine]):
    """A blocking wrapper around :class:`XboardEngine` (one loop thread each).

    >>> engine = SimpleXboardEngine.start("/usr/games/maxqi")  # doctest: +SKIP
    >>> engine.play(Board(), Limit(movetime=1)).move  # doctest: +SKIP
    """

    @classmethod
    def start(cls, command: str | Sequence[str], **kwargs: object) -> SimpleXboardEngine:
        """Start an engine (arguments as :meth:`XboardEngine.start`).

        Returns the wrapper.  Raises what :meth:`XboardEngine.start` raises.
        """
        return cls._launch(lambda: XboardEngine.start(command, **kwargs))  # type: ignore[arg-type]

    def new_game(self) -> None:
        """Start a new game; see :meth:`XboardEngine.new_game`."""
        self._loop.run(self.engine.new_game())

    def play(self, board: Board, limit: Limit, *, timeout: float | None = None) -> PlayResult:
        """Return the engine's answer; see :meth:`XboardEngine.play`.

        The board is copied, so the caller may go on using it.
        """
        return self._loop.run(self.engine.play(board.copy(), limit, timeout=timeout))
