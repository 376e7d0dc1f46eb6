"""Finding the strong engines installed beside qisai, and the levels they
can be offered at.

The arena offers, besides qisai's own engines, the programs Debian (or the
user) installed: Fairy-Stockfish and Pikafish for Xiangqi, GNU Go, Pachi and
KataGo for Go.  :func:`discover` looks for each on ``PATH`` and in ``/usr/games``
(where Debian puts games), starts it once to ask who it is (UCI ``id
name``; GTP ``name`` and ``version``) and what it offers (UCI options), and
returns a :class:`Found` per program with its named :class:`Level` s:

* Fairy-Stockfish: ``Skill Level`` values in the range the engine offers,
  and ``UCI_LimitStrength`` with ``UCI_Elo`` values when it offers both;
* GNU Go: ``--level``;
* Pachi: a fixed number of playouts a move (``-t =N``);
* KataGo: visits a move (``-override-config maxVisits=N``); it needs a
  network and a configuration (``QISAI_KATAGO_MODEL`` and
  ``QISAI_KATAGO_CONFIG``, or the files of Debian's ``katago`` package).
* Pikafish (issue 32.5): a UCI Xiangqi engine that needs no
  ``UCI_Variant`` (it speaks Xiangqi FEN and ICCS squares, ranks 0-9):
  ``QISAI_PIKAFISH`` names the program, else ``pikafish`` on ``PATH``; an
  NNUE build (one that offers ``EvalFile``) needs its network,
  ``QISAI_PIKAFISH_NNUE`` or ``pikafish.nnue`` beside the program, set as
  ``EvalFile`` at every level; a build without a network option (the
  hand-written evaluation, Pikafish-HCE) needs none.  Levels as
  Fairy-Stockfish's, from its own options.  It is offered only once it has
  answered a short search with a move.

A program that is missing, fails to start or does not answer is left out
(its reason kept in :attr:`Discovery.skipped`); discovery never raises.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field

from qisai.engines.errors import EngineError

__all__ = [
    "SEARCH_DIRS",
    "Discovery",
    "Found",
    "Level",
    "discover",
    "fairy_levels",
    "find_program",
    "pikafish_network",
    "probe_gtp",
    "probe_uci",
]

SEARCH_DIRS: tuple[str, ...] = ("/usr/games", "/usr/local/games")
"""Folders searched after ``PATH`` (Debian installs games in /usr/games,
which is not on every user's ``PATH``)."""

OptionValue = str | int | bool


@dataclass(frozen=True)
class Level:
    """One strength an engine is offered at."""

    key: str
    """Short and unique within the engine: ``skill-5``, ``elo-1800``,
    ``level-10``, ``playouts-5000``, ``visits-200``."""
    zh: str
    en: str
    args: tuple[str, ...] = ()
    """Added to the command line (GNU Go, Pachi, KataGo)."""
    options: tuple[tuple[str, OptionValue], ...] = ()
    """UCI options set when a process starts (Fairy-Stockfish)."""


@dataclass(frozen=True)
class Found:
    """An installed engine, as it named itself, and its levels."""

    program: str
    """The program's short name: ``fairy-stockfish``, ``pikafish``, ``gnugo``, ``pachi``,
    ``katago``."""
    kind: str
    """``xiangqi`` or ``go``."""
    protocol: str
    """``uci`` or ``gtp``."""
    argv: tuple[str, ...]
    """The command line without a level's arguments."""
    engine: str
    """Its name and version as the engine gives them (``Fairy-Stockfish
    11.1 LB 64``, ``GNU Go 3.8``)."""
    levels: tuple[Level, ...]


@dataclass
class Discovery:
    """What :func:`discover` found, and why the rest was left out."""

    found: list[Found] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """Program -> the reason it is not offered (one line)."""


def find_program(names: Sequence[str], path: str | None = None,
                 dirs: Sequence[str] = SEARCH_DIRS) -> str | None:
    """Return the full path of the first of ``names`` found on ``path``
    (default ``$PATH``) or in ``dirs``, or ``None``.  Never raises."""
    search = os.pathsep.join([p for p in [path if path is not None
                                           else os.environ.get("PATH", "")] if p] + list(dirs))
    for name in names:
        hit = shutil.which(name, path=search)
        if hit:
            return hit
    return None


async def probe_uci(argv: Sequence[str], timeout: float = 10.0
                    ) -> tuple[str, dict[str, object]]:
    """Start a UCI engine, complete the handshake and stop it.  Returns its
    ``id name`` and its options (:class:`~qisai.engines.uci.Option` by
    name).  Raises :class:`~qisai.engines.errors.EngineError` if it does
    not start or answer within ``timeout`` seconds."""
    from qisai.engines.uci import UciEngine

    engine = await UciEngine.start(list(argv), timeout=timeout)
    try:
        return engine.id_name, dict(engine.options)
    finally:
        await engine.quit()


async def probe_gtp(argv: Sequence[str], timeout: float = 10.0) -> tuple[str, str]:
    """Start a GTP engine, ask its ``name`` and ``version`` and stop it.
    Raises :class:`~qisai.engines.errors.EngineError` as
    :meth:`~qisai.engines.gtp.GtpEngine.start` does."""
    from qisai.engines.gtp import GtpEngine

    engine = await GtpEngine.start(list(argv), timeout=timeout)
    try:
        return engine.name, engine.version
    finally:
        await engine.quit()


def _spread(low: int, high: int, wanted: Sequence[int]) -> list[int]:
    """The ``wanted`` values inside ``low..high``, with both ends, sorted."""
    out = {v for v in wanted if low <= v <= high} | {low, high}
    return sorted(out)


def fairy_levels(options: dict[str, object]) -> tuple[Level, ...]:
    """Return the levels a Fairy-Stockfish (or any UCI engine) with these
    ``options`` can be offered at: ``Skill Level`` 0, 5, 10, 15 and 20 (the
    ends of the range it offers, when they differ), then ``UCI_Elo`` at its
    least, middle and most when it offers ``UCI_LimitStrength``; one level,
    ``full strength``, when it offers neither."""
    levels: list[Level] = []
    skill = options.get("Skill Level")
    lo, hi = getattr(skill, "min", None), getattr(skill, "max", None)
    if skill is not None and lo is not None and hi is not None:
        for v in _spread(max(lo, 0), hi, (0, 5, 10, 15, 20)):
            levels.append(Level(f"skill-{v}", f"技能等级 {v}", f"Skill Level {v}",
                                options=(("Skill Level", v),)))
    elo = options.get("UCI_Elo")
    elo_lo, elo_hi = getattr(elo, "min", None), getattr(elo, "max", None)
    if "UCI_LimitStrength" in options and elo_lo is not None and elo_hi is not None:
        mid = (elo_lo + elo_hi) // 100 * 50
        for v in _spread(elo_lo, elo_hi, (mid,)):
            levels.append(Level(f"elo-{v}", f"等级分 {v}", f"Elo {v}",
                                options=(("UCI_LimitStrength", True), ("UCI_Elo", v))))
    if not levels:
        levels.append(Level("full", "全力", "full strength"))
    return tuple(levels)


PIKAFISH_NETWORK = "pikafish.nnue"
"""The network file Pikafish loads by default, looked for beside the program."""

GNUGO_LEVELS = (1, 5, 10)
PACHI_PLAYOUTS = (1000, 5000, 20000)
KATAGO_VISITS = (10, 100, 1000)


def _katago_files() -> tuple[str, str] | None:
    """KataGo's network and configuration: the environment's, else the
    first of Debian's package (``/usr/share/katago``)."""
    model = os.environ.get("QISAI_KATAGO_MODEL", "")
    config = os.environ.get("QISAI_KATAGO_CONFIG", "")
    if not model:
        models = sorted(glob.glob("/usr/share/katago/*.bin.gz") + glob.glob("/usr/share/katago/*.txt.gz"))
        model = models[0] if models else ""
    if not config:
        configs = sorted(glob.glob("/usr/share/katago/*gtp*.cfg")
                         + glob.glob("/usr/share/doc/katago/examples/*gtp*.cfg"))
        config = configs[0] if configs else ""
    if model and config and os.path.isfile(model) and os.path.isfile(config):
        return model, config
    return None


async def _fairy(path: str, timeout: float) -> Found:
    name, options = await probe_uci([path], timeout)
    variant = options.get("UCI_Variant")
    if variant is None or "xiangqi" not in getattr(variant, "choices", ()):
        raise EngineError(f"{path} offers no UCI_Variant xiangqi")
    return Found("fairy-stockfish", "xiangqi", "uci", (path,), name or "Fairy-Stockfish",
                 fairy_levels(options))


def pikafish_network(program: str) -> str | None:
    """Return Pikafish's NNUE network: ``QISAI_PIKAFISH_NNUE`` when it names
    a file, else :data:`PIKAFISH_NETWORK` beside ``program`` (the resolved
    path, links followed), else ``None``."""
    named = os.environ.get("QISAI_PIKAFISH_NNUE", "")
    if named:
        return named if os.path.isfile(named) else None
    beside = os.path.join(os.path.dirname(os.path.realpath(program)), PIKAFISH_NETWORK)
    return beside if os.path.isfile(beside) else None


async def _pikafish(path: str, timeout: float) -> Found:
    from qisai.engines.results import Limit
    from qisai.engines.uci import UciEngine
    from qisai.xiangqi import Board

    name, options = await probe_uci([path], timeout)
    if "pikafish" not in name.lower():
        raise EngineError(f"{path} names itself {name!r}, not Pikafish")
    base: tuple[tuple[str, OptionValue], ...] = ()
    if "EvalFile" in options:  # an NNUE build: without its network it stops at the first search
        network = pikafish_network(path)
        if network is None:
            raise EngineError(f"no NNUE network (put {PIKAFISH_NETWORK} beside {path} or set "
                              "QISAI_PIKAFISH_NNUE)")
        base = (("EvalFile", network),)
    # One short search from the start: a program that cannot search (a bad
    # network, a wrong build) is left out here, not found in a game.
    engine = await UciEngine.start([path], options=dict(base), timeout=timeout)
    try:
        board = Board()
        played = await engine.play(board, Limit(depth=4), timeout=timeout)
        if played.move not in board.legal_moves():
            raise EngineError(f"{path} answered the start position with {played.text!r}")
    finally:
        await engine.quit()
    levels = tuple(Level(lv.key, lv.zh, lv.en, lv.args, base + lv.options)
                   for lv in fairy_levels(options))
    return Found("pikafish", "xiangqi", "uci", (path,), name, levels)


def _gtp_title(name: str, version: str) -> str:
    return f"{name} {version}".strip() if version and version not in name else name


async def _gnugo(path: str, timeout: float) -> Found:
    argv = (path, "--mode", "gtp")
    name, version = await probe_gtp(argv, timeout)
    levels = tuple(Level(f"level-{n}", f"等级 {n}", f"level {n}", args=("--level", str(n)))
                   for n in GNUGO_LEVELS)
    return Found("gnugo", "go", "gtp", argv, _gtp_title(name, version), levels)


async def _pachi(path: str, timeout: float) -> Found:
    name, version = await probe_gtp((path,), timeout)
    levels = tuple(Level(f"playouts-{n}", f"每步 {n} 次模拟", f"{n} playouts",
                         args=("-t", f"={n}")) for n in PACHI_PLAYOUTS)
    return Found("pachi", "go", "gtp", (path,), _gtp_title(name, version), levels)


async def _katago(path: str, timeout: float) -> Found:
    files = _katago_files()
    if files is None:
        raise EngineError("no network and configuration (set QISAI_KATAGO_MODEL and "
                          "QISAI_KATAGO_CONFIG)")
    argv = (path, "gtp", "-model", files[0], "-config", files[1])
    name, version = await probe_gtp(argv, max(timeout, 60.0))  # loading a network is slow
    levels = tuple(Level(f"visits-{n}", f"每步 {n} 次访问", f"{n} visits",
                         args=("-override-config", f"maxVisits={n}")) for n in KATAGO_VISITS)
    return Found("katago", "go", "gtp", argv, _gtp_title(name, version), levels)


_PROGRAMS = (
    ("fairy-stockfish", ("fairy-stockfish", "fairy-stockfish-largeboard"), _fairy),
    ("pikafish", ("pikafish",), _pikafish),
    ("gnugo", ("gnugo",), _gnugo),
    ("pachi", ("pachi",), _pachi),
    ("katago", ("katago",), _katago),
)


def _named(program: str) -> str | None:
    """The program an environment variable names (``QISAI_PIKAFISH``), or
    ``None``: then it is looked for by name."""
    if program != "pikafish":
        return None
    named = os.environ.get("QISAI_PIKAFISH", "")
    return shutil.which(named) if named else None


async def discover(path: str | None = None, dirs: Sequence[str] = SEARCH_DIRS,
                   timeout: float = 10.0, only: Sequence[str] | None = None) -> Discovery:
    """Look for the known engines (``only`` those programs, if given) on
    ``path`` (default ``$PATH``) and in ``dirs``, ask each who it is and
    return what was found, in the order Fairy-Stockfish, Pikafish, GNU Go,
    Pachi, KataGo (Pikafish: ``QISAI_PIKAFISH`` first, when it names a
    program).  The programs are probed at once, each within ``timeout``
    seconds (KataGo at least 60).  Never raises."""
    wanted = [p for p in _PROGRAMS if only is None or p[0] in only]
    out = Discovery()
    jobs = []
    for program, names, probe in wanted:
        where = _named(program) or find_program(names, path, dirs)
        if where is None:
            out.skipped[program] = f"not installed (looked for {', '.join(names)} on PATH " \
                                   f"and in {', '.join(dirs)})"
            continue
        jobs.append((program, asyncio.ensure_future(probe(where, timeout))))
    for program, job in jobs:
        try:
            out.found.append(await job)
        except (EngineError, OSError, ValueError) as exc:
            out.skipped[program] = f"{type(exc).__name__}: {exc}"[:300]
    return out
