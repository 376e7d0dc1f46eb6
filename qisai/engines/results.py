"""What every Xiangqi engine client shares: how squares are written
(:class:`Coordinates`), what to search for (:class:`Limit`), what a
search answers (:class:`Score`, :class:`Info`, :class:`PlayResult`), and
how a value is checked against an option the engine declares
(:func:`spin_value`, :func:`combo_value`).

The UCI/UCCI client (:mod:`qisai.engines.uci`) and the xboard/CECP client
(:mod:`qisai.engines.xboard`) both speak in these types, so the match
runner (:mod:`qisai.engines.play`) and the arena treat them alike.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from qisai.engines.errors import EngineProtocolError
from qisai.xiangqi.errors import InvalidMoveError
from qisai.xiangqi.pieces import Color
from qisai.xiangqi.squares import Move

__all__ = ["Coordinates", "Info", "Limit", "PlayResult", "Score", "combo_value", "loose_name",
           "spin_value"]

class Coordinates(enum.Enum):
    """How squares are written in moves."""

    ICCS = "iccs"
    """Ranks 0-9 from Red's side (``h2e2``): UCCI, Pikafish."""
    RANKS_1_10 = "1-10"
    """Ranks 1-10 (``h3e3``, ``a10a9``): Fairy-Stockfish in UCI mode."""

    def format(self, move: Move) -> str:
        """Return ``move`` written in this convention."""
        cache = _FORMATTED[self]
        text = cache.get(move)
        if text is None:
            text = move.iccs() if self is Coordinates.ICCS else move.engine()
            if len(cache) < _CACHE_LIMIT:
                cache[move] = text
        return text

    def parse(self, text: str) -> Move:
        """Return the move ``text`` written in this convention.

        Raises :class:`qisai.xiangqi.InvalidMoveError` if it is not a move.
        """
        cache = _PARSED[self]
        move = cache.get(text)
        if move is not None:
            return move
        if self is Coordinates.ICCS:
            if len(text.strip()) != 4:
                raise InvalidMoveError(f"not an ICCS move: {text!r}")
            move = Move.from_iccs(text)
        else:
            move = Move.from_engine(text)
        if len(cache) < _CACHE_LIMIT:
            cache[text] = move
        return move


# A match writes and reads a move every few milliseconds, always among the
# same few thousand: both conversions are remembered (moves are immutable).
# Only texts that parsed are kept, and at most _CACHE_LIMIT of each.
_CACHE_LIMIT = 20000
_FORMATTED: dict[Coordinates, dict[Move, str]] = {c: {} for c in Coordinates}
_PARSED: dict[Coordinates, dict[str, Move]] = {c: {} for c in Coordinates}


@dataclass(frozen=True)
class Limit:
    """What to search for: any combination the engine understands.

    Times are in seconds.  ``red_clock``/``black_clock`` are the time left on
    each side's clock, ``red_inc``/``black_inc`` the increments and
    ``moves_to_go`` the moves left in the current time stage.
    """

    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    red_clock: float | None = None
    black_clock: float | None = None
    red_inc: float | None = None
    black_inc: float | None = None
    moves_to_go: int | None = None
    infinite: bool = False

    def uci_fields(self) -> list[str]:
        """Return the ``go`` arguments in UCI form (times in milliseconds)."""
        out: list[str] = []
        for word, value in (("wtime", self.red_clock), ("btime", self.black_clock),
                            ("winc", self.red_inc), ("binc", self.black_inc)):
            if value is not None:
                out += [word, str(_ms(value))]
        if self.moves_to_go is not None:
            out += ["movestogo", str(self.moves_to_go)]
        if self.movetime is not None:
            out += ["movetime", str(_ms(self.movetime))]
        if self.depth is not None:
            out += ["depth", str(self.depth)]
        if self.nodes is not None:
            out += ["nodes", str(self.nodes)]
        if self.infinite:
            out.append("infinite")
        return out

    def ucci_fields(self, turn: Color, *, millis: bool = True) -> list[str]:
        """Return the ``go`` arguments in UCCI form for the side ``turn``.

        UCCI counts time from the mover's view (``time``/``opptime``); a fixed
        move time is ``time T movestogo 1``.  ``millis=False`` writes seconds
        (UCCI engines without ``usemillisec``).
        """
        def fmt(seconds: float) -> str:
            return str(_ms(seconds)) if millis else str(max(1, int(seconds)))

        mine, theirs = ((self.red_clock, self.black_clock) if turn is Color.RED
                        else (self.black_clock, self.red_clock))
        inc, opp_inc = ((self.red_inc, self.black_inc) if turn is Color.RED
                        else (self.black_inc, self.red_inc))
        out: list[str] = []
        if self.depth is not None:
            out += ["depth", str(self.depth)]
        if self.nodes is not None:
            out += ["nodes", str(self.nodes)]
        if self.movetime is not None and mine is None:
            out += ["time", fmt(self.movetime), "movestogo", "1"]
        elif mine is not None:
            out += ["time", fmt(mine)]
            if self.moves_to_go is not None:
                out += ["movestogo", str(self.moves_to_go)]
            if inc is not None:
                out += ["increment", fmt(inc)]
            if theirs is not None:
                out += ["opptime", fmt(theirs)]
            if opp_inc is not None:
                out += ["oppincrement", fmt(opp_inc)]
        if self.infinite:
            out.append("infinite")
        return out


def loose_name(name: str) -> str:
    """Return an option name for a loose comparison: lower case, ``_`` as a
    space (UCCI engines and command lines write ``Skill_Level``)."""
    return name.lower().replace("_", " ")


def spin_value(option: str, value: object, low: int | None, high: int | None) -> str:
    """Return ``value`` as the number a spin option ``option`` takes.

    Raises :class:`EngineProtocolError` if it is not a whole number or lies
    outside ``low..high`` (a bound of ``None`` is no bound).
    """
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise EngineProtocolError(f"option {option}: {value!r} is not a number") from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise EngineProtocolError(f"option {option}: {number} is outside {low}..{high}")
    return str(number)


def combo_value(option: str, value: object, choices: Sequence[str]) -> str:
    """Return the choice of combo option ``option`` that ``value`` names
    (any case).  Raises :class:`EngineProtocolError` if it names none."""
    text = str(value)
    for choice in choices:
        if choice.lower() == text.lower():
            return choice
    raise EngineProtocolError(f"option {option}: {text!r} is not one of {tuple(choices)}")


def _ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000)))



@dataclass(frozen=True)
class Score:
    """An engine's evaluation from the mover's view: centipawns or mate.

    ``mate`` > 0: the mover mates in that many moves; < 0: is mated.
    ``bound`` is ``"lower"``/``"upper"`` for a fail-high/low line.
    """

    cp: int | None = None
    mate: int | None = None
    bound: str | None = None


@dataclass
class Info:
    """One ``info`` line, parsed.  Fields the engine did not send are ``None``.

    ``pv_text`` is the principal variation as sent; :attr:`pv` parses it on
    first use (a match reads few of the many lines an engine prints).
    """

    depth: int | None = None
    seldepth: int | None = None
    multipv: int | None = None
    score: Score | None = None
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None
    hashfull: int | None = None
    pv_text: tuple[str, ...] = ()
    currmove: Move | None = None
    string: str | None = None
    coordinates: Coordinates = Coordinates.ICCS
    _pv: list[Move] | None = field(default=None, repr=False, compare=False)

    @property
    def pv(self) -> list[Move]:
        """The principal variation; it stops at the first token that is not a move."""
        if self._pv is None:
            moves = []
            for text in self.pv_text:
                try:
                    moves.append(self.coordinates.parse(text))
                except InvalidMoveError:
                    break
            self._pv = moves
        return self._pv


@dataclass
class PlayResult:
    """The answer to a search.

    ``move`` is ``None`` when the engine reports no move (``bestmove
    (none)`` / ``nobestmove``: it sees no legal move).  ``text`` is the move
    as the engine wrote it.  ``draw_offer``/``resign`` are the UCCI
    ``bestmove ... draw|resign`` flags (xboard: ``offer draw`` with or just
    after the move, ``resign``).  ``claim`` is a result an xboard engine
    claimed (``1-0``, ``0-1`` or ``1/2-1/2``; ``claim_comment`` the text in
    braces): with no move it is a claim made in its own turn, with a move
    one sent right after it.  ``elapsed`` is the wall time from ``go`` (or
    ``ponderhit``) to ``bestmove``, in seconds.
    """

    move: Move | None
    text: str
    ponder: Move | None = None
    info: Sequence[Info] = field(default_factory=list)
    elapsed: float = 0.0
    draw_offer: bool = False
    resign: bool = False
    claim: str | None = None
    claim_comment: str = ""

    @property
    def last_info(self) -> Info | None:
        """The last ``info`` line with a score, or ``None``."""
        for info in reversed(self.info):
            if info.score is not None:
                return info
        return None

