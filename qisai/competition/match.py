"""Engine matches: many refereed games at once, openings with both colours,
score adjudication, PGN/SGF out, Elo with error bars, LOS and SPRT.

The model is cutechess-cli's: a list of engines, a pairing scheme
(``match`` of two, ``round-robin``, ``gauntlet`` of the first against the
rest), a number of games per pairing, a time control, an opening book and a
concurrency.  Every game is played by :mod:`qisai.engines.play` and refereed
by :mod:`qisai.referee` under the chosen rule profile, so repetitions
(棋例), the natural limit, time and illegal moves are ruled as in an
over-the-board event.

Example::

    config = MatchConfig(game="xiangqi", engines=[
        EngineSpec.parse("name=fsf cmd=/usr/games/fairy-stockfish proto=uci"),
        EngineSpec.parse("name=qisai cmd=builtin")],
        time=parse_time_control("movetime=0.1"), games=10, concurrency=2)
    report = asyncio.run(run_match(config))
    print(report.summary())
"""

from __future__ import annotations

import asyncio
import math
import re
import shlex
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from qisai.bilingual import BilingualError, en_of, zh_of
from qisai.competition.elo import elo_interval, expected, los
from qisai.engines.builtin import builtin_command
from qisai.engines.clients import XiangqiClient, protocol_name, start_xiangqi_engine
from qisai.engines.errors import EngineError
from qisai.engines.gtp import GtpEngine
from qisai.engines.play import Adjudication, GameReport, play_go, play_xiangqi
from qisai.go.sgf import read_sgf
from qisai.referee import records
from qisai.referee.clock import Byoyomi, ByoyomiKind, SideTimeControl, Stage, TimeControl
from qisai.referee.errors import RefereeError
from qisai.referee.go_game import GoGame
from qisai.referee.rulesets import GoRules, XiangqiRules, ruleset
from qisai.referee.verdict import Outcome, Side
from qisai.referee.xiangqi_game import XiangqiGame
from qisai.xiangqi import pgn
from qisai.xiangqi.board import Board
from qisai.xiangqi.errors import XiangqiError
from qisai.xiangqi.fen import STARTING_FEN
from qisai.xiangqi.squares import Move

__all__ = [
    "ENGINE_SPEC_KEYS",
    "EngineSpec",
    "GameRecord",
    "MatchConfig",
    "MatchError",
    "MatchReport",
    "MatchTime",
    "Opening",
    "PairStats",
    "Sprt",
    "load_openings",
    "parse_time_control",
    "game_record",
    "play_match",
    "run_match",
]


class MatchError(BilingualError):
    """A match setting that cannot be used (bad engine spec, time control,
    opening file); the message says which and why."""


#: The keys of an engine spec besides ``option.X`` (an engine option); the
#: command line also uses them to read ``--engine name=a cmd=b`` unquoted.
ENGINE_SPEC_KEYS = ("name", "cmd", "proto", "arg")


# -------------------------------------------------------------- settings
@dataclass(frozen=True)
class EngineSpec:
    """An engine entry: ``name``, the command line, the protocol and options."""

    name: str
    command: tuple[str, ...]
    protocol: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str, game: str = "xiangqi") -> EngineSpec:
        """Parse ``name=N cmd=C proto=uci|ucci|xboard|gtp option.X=V ...``
        (``cecp`` and ``winboard`` are ``xboard``).

        ``cmd=builtin`` starts qisai's own engine for ``game``.  Quote a
        command with spaces (``cmd="gnugo --mode gtp"``).  Returns the spec.
        Raises :class:`MatchError` for a missing command or unknown key.
        """
        try:
            words = shlex.split(text)
        except ValueError as exc:
            raise MatchError(f"引擎设定 {text!r}：{exc}",
                             f"engine spec {text!r}: {exc}") from None
        fields: dict[str, str] = {}
        options: list[tuple[str, str]] = []
        for word in words:
            key, sep, value = word.partition("=")
            if not sep:
                raise MatchError(f"引擎设定 {text!r}：{word!r} 不是 key=value 形式",
                                 f"engine spec {text!r}: {word!r} is not key=value")
            if key.startswith("option."):
                options.append((key[len("option."):], value))
            elif key in ENGINE_SPEC_KEYS:
                fields[key] = (fields[key] + " " + value) if key == "arg" and key in fields else value
            else:
                raise MatchError(f"引擎设定 {text!r}：未知的键 {key!r}（name、cmd、proto、arg、option.X）",
                                 f"engine spec {text!r}: unknown key {key!r} "
                                 "(name, cmd, proto, arg, option.X)")
        if "cmd" not in fields:
            raise MatchError(f"引擎设定 {text!r}：缺少 cmd=",
                             f"engine spec {text!r}: cmd= is missing")
        default_proto = "gtp" if game == "go" else "uci"
        proto = protocol_name(fields.get("proto", default_proto))
        if proto not in ("uci", "ucci", "xboard", "gtp"):
            raise MatchError(f"引擎设定 {text!r}：proto 须为 uci、ucci、xboard（cecp、winboard）或 gtp",
                             f"engine spec {text!r}: proto must be uci, ucci, xboard "
                             "(cecp, winboard) or gtp")
        if (proto == "gtp") != (game == "go"):
            raise MatchError(f"引擎设定 {text!r}：{proto} 引擎不能下 {game}",
                             f"engine spec {text!r}: {proto} engines cannot play {game}")
        if fields["cmd"] == "builtin":
            command = tuple(builtin_command(game))
        else:
            command = tuple(shlex.split(fields["cmd"]))
        if "arg" in fields:
            command += tuple(shlex.split(fields["arg"]))
        name = fields.get("name") or Path(command[0]).name
        return cls(name, command, proto, tuple(options))


@dataclass(frozen=True)
class MatchTime:
    """The time control: the referee's clocks and, optionally, a fixed time a
    move given to the engines (``movetime``).  With ``movetime`` the clock is
    a per-move limit (the local rule "每方走一着棋的时间不得超过…秒")."""

    control: TimeControl | None
    movetime: float | None = None
    text: str = ""


_TC_STAGES = re.compile(r"^(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


def parse_time_control(text: str) -> MatchTime:
    """Parse a time control.

    Forms (seconds): ``60+1`` (sudden death + increment), ``40/5400+0``
    (40 moves in 5400 s, repeating), ``40/5400:10/900`` (stages; the last
    repeats), ``300 byoyomi 5x60`` (Japanese), ``300 chinese 5`` (Chinese
    读秒, minutes), ``600 canadian 25/300`` (Canadian), ``movetime=0.1``
    (fixed time a move; a move over ``movetime + max(1, movetime)`` s
    forfeits), ``none``.

    Returns a :class:`MatchTime`.  Raises :class:`MatchError` otherwise.
    """
    s = text.strip().lower()
    if s in ("none", "", "inf"):
        return MatchTime(None, None, text)
    m = re.fullmatch(r"(?:movetime|st)=(\d+(?:\.\d+)?)", s)
    if m:
        mt = float(m.group(1))
        if mt <= 0:
            raise MatchError(f"用时 {text!r}：每步用时须为正数",
                             f"time control {text!r}: move time must be positive")
        side = SideTimeControl((Stage(None, 86400.0),), move_limit=mt + max(1.0, mt))
        return MatchTime(TimeControl.both(side), mt, text)
    parts = s.split()
    try:
        main = parts[0]
        byoyomi = None
        if len(parts) == 3 and parts[1] == "byoyomi":
            n, _, period = parts[2].partition("x")
            byoyomi = Byoyomi(ByoyomiKind.JAPANESE, periods=int(n), period_seconds=float(period))
        elif len(parts) == 3 and parts[1] == "chinese":
            byoyomi = Byoyomi(ByoyomiKind.CHINESE, periods=int(parts[2]), period_seconds=60.0)
        elif len(parts) == 3 and parts[1] == "canadian":
            moves, _, period = parts[2].partition("/")
            byoyomi = Byoyomi(ByoyomiKind.CANADIAN, periods=1, period_seconds=float(period),
                              moves=int(moves))
        elif len(parts) != 1:
            raise MatchError("未知的加时形式",
                             "unknown overtime form")
        stages: list[Stage] = []
        increment = 0.0
        for chunk in main.split(":"):
            mm = _TC_STAGES.fullmatch(chunk)
            if mm is None:
                raise MatchError(f"时段 {chunk!r} 有误",
                                 f"bad stage {chunk!r}")
            moves_s, seconds_s, inc_s = mm.groups()
            stages.append(Stage(int(moves_s) if moves_s else None, float(seconds_s)))
            if inc_s:
                increment = float(inc_s)
        repeat = stages[-1].moves is not None and byoyomi is None
        side = SideTimeControl(tuple(stages), repeat_last=repeat, increment=increment,
                               byoyomi=byoyomi)
    except (ValueError, IndexError) as exc:
        raise MatchError(f"看不懂用时 {text!r}（{zh_of(exc)}）；例：60+1、40/5400+0、'300 byoyomi 5x60'、movetime=0.1",
                         f"time control {text!r} is not understood ({en_of(exc)}); examples: "
                         "60+1, 40/5400+0, '300 byoyomi 5x60', movetime=0.1") from None
    return MatchTime(TimeControl.both(side), None, text)


@dataclass(frozen=True)
class Opening:
    """A start: a Xiangqi FEN plus moves (ICCS), or the moves of a Go SGF
    written ``"B row,col"`` (row 0 at the bottom).  Xiangqi openings become
    the game's start position; Go openings are played as the first moves of
    the refereed game (so its record holds them)."""

    fen: str | None = None
    moves: tuple[str, ...] = ()
    name: str = ""


def load_openings(path: str | Path, game: str) -> list[Opening]:
    """Read openings: FEN/EPD lines (optionally ``moves ...``) or PGN games for
    Xiangqi; SGF games (one per file, or several concatenated) for Go.

    Returns the list (in file order).  Raises :class:`MatchError` if the file
    cannot be read or holds no opening.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MatchError(f"开局库 {path}：{exc}",
                         f"openings {path}: {exc}") from None
    out: list[Opening] = []
    if game == "go":
        for i, chunk in enumerate(re.findall(r"\(\s*;.*?\)\s*(?=\(|$)", text, re.S)):
            try:
                sgf = read_sgf(chunk)
            except ValueError as exc:
                raise MatchError(f"开局库 {path}，第 {i + 1} 局：{exc}",
                                 f"openings {path}, game {i + 1}: {exc}") from None
            go_moves = []
            for color, point in sgf.moves():
                if point is None:
                    raise MatchError(f"开局库 {path}，第 {i + 1} 局：开局不能停一手",
                                     f"openings {path}, game {i + 1}: an opening cannot pass")
                go_moves.append(f"{color.letter} {point[0]},{point[1]}")
            out.append(Opening(None, tuple(go_moves), f"{p.name}#{i + 1}"))
    elif text.lstrip().startswith("["):
        try:
            games = pgn.parse_pgn(text)
        except XiangqiError as exc:
            raise MatchError(f"开局库 {path}：{exc.zh}",
                             f"openings {path}: {exc.en}") from None
        for i, record in enumerate(games):
            start, moves = record.headers.get("FEN"), tuple(m.iccs() for m in record.mainline_moves())
            out.append(Opening(Board(start, strict=False).fen() if start else None, moves,
                               record.headers.get("Opening", f"{p.name}#{i + 1}")))
    else:
        for n, line in enumerate(text.splitlines(), 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fen, _, rest = line.partition(" moves ")
            fen = fen.split(";", 1)[0].strip()
            fields = fen.split()
            if len(fields) == 4:  # EPD: placement, side, two empty fields
                fields += ["0", "1"]
            fen = " ".join(fields)
            line_moves = tuple(rest.split())
            try:
                fen = (board := Board(fen, strict=False)).fen()  # another program's EPD: lenient
                for mv in line_moves:
                    board.push(Move.from_iccs(mv))
            except XiangqiError as exc:
                raise MatchError(f"开局库 {path}，第 {n} 行：{exc.zh}",
                                 f"openings {path}, line {n}: {exc.en}") from None
            out.append(Opening(fen, line_moves, f"{p.name}:{n}"))
    if not out:
        raise MatchError(f"开局库 {path}：没有找到开局",
                         f"openings {path}: no opening found")
    return out


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: elo = ``elo0`` against
    H1: elo = ``elo1`` (logistic Elo, trinomial games), with error rates
    ``alpha`` and ``beta``."""

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """Parse ``elo0=0 elo1=5 alpha=0.05 beta=0.05`` (any subset).

        Raises :class:`MatchError` for a bad field.
        """
        values: dict[str, float] = {}
        for word in text.split():
            key, _, value = word.partition("=")
            if key not in ("elo0", "elo1", "alpha", "beta"):
                raise MatchError(f"sprt：未知字段 {key!r}（elo0、elo1、alpha、beta）",
                                 f"sprt: unknown field {key!r} (elo0, elo1, alpha, beta)")
            try:
                values[key] = float(value)
            except ValueError:
                raise MatchError(f"sprt：{word!r} 不是数字",
                                 f"sprt: {word!r} is not a number") from None
        sprt = cls(**values)
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1) or sprt.elo1 <= sprt.elo0:
            raise MatchError("sprt：须 0 < alpha、beta < 1 且 elo0 < elo1",
                             "sprt: need 0 < alpha, beta < 1 and elo0 < elo1")
        return sprt

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) log-likelihood-ratio bounds: accept H0 below, H1 above."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, wins: int, draws: int, losses: int) -> float:
        """Return the log-likelihood ratio of H1 against H0 for the games so far.

        Uses the normal approximation of the generalised SPRT: with score
        ``s`` and per-game variance ``v``, ``LLR = n (s1 - s0)(2s - s0 - s1) / 2v``.
        While a kind of result has not occurred yet, half a game of each kind
        is added so that the variance is not zero (a run of wins alone still
        moves the test).  Returns 0 before the first game.
        """
        n = wins + draws + losses
        if n == 0:
            return 0.0
        w, d, lo = float(wins), float(draws), float(losses)
        if 0 in (wins, draws, losses):
            w, d, lo = w + 0.5, d + 0.5, lo + 0.5
        total = w + d + lo
        s = (w + d / 2) / total
        var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + lo * s ** 2) / total
        s0, s1 = expected(self.elo0, 0.0), expected(self.elo1, 0.0)
        return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)

    def state(self, wins: int, draws: int, losses: int) -> str:
        """Return ``"H1 accepted"``, ``"H0 accepted"`` or ``"continue"``."""
        llr = self.llr(wins, draws, losses)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1 accepted"
        if llr <= lower:
            return "H0 accepted"
        return "continue"


# ----------------------------------------------------------------- config
@dataclass
class MatchConfig:
    """Everything a match needs.  ``games`` is per pairing (rounded up to
    even: every opening is played with both colours)."""

    game: str
    engines: list[EngineSpec]
    time: MatchTime = field(default_factory=lambda: parse_time_control("movetime=0.1"))
    rules: str | None = None
    openings: list[Opening] = field(default_factory=list)
    games: int = 2
    concurrency: int = 1
    tournament: str = "match"
    adjudication: Adjudication = field(default_factory=Adjudication)
    sprt: Sprt | None = None
    board_size: int = 9
    komi: float | None = None
    handicap: int = 0
    pgnout: Path | None = None
    sgfout: Path | None = None
    startup_timeout: float = 10.0

    def profile(self) -> XiangqiRules | GoRules:
        """Return the referee's rule profile for this match.

        Raises :class:`MatchError` for an unknown or mismatched profile.
        """
        name = self.rules or ("cxa" if self.game == "xiangqi" else "chinese")
        overrides: dict[str, object] = {"time_control": self.time.control}
        if self.game == "go":
            overrides["board_size"] = self.board_size
            overrides["handicap"] = self.handicap
            if self.komi is not None:
                overrides["komi"] = self.komi
        try:
            profile = ruleset(name, **overrides)
        except ValueError as exc:
            raise MatchError(f"规则配置有误：{exc}",
                             str(exc)) from None
        wanted = XiangqiRules if self.game == "xiangqi" else GoRules
        if not isinstance(profile, wanted):
            raise MatchError(f"规则配置 {name!r} 不是{'象棋' if self.game == 'xiangqi' else '围棋'}的规则配置",
                             f"rule profile {name!r} is not a {self.game} profile")
        return profile

    def pairings(self) -> list[tuple[int, int]]:
        """Return the engine index pairs that meet.

        Raises :class:`MatchError` for fewer than two engines or an unknown
        tournament type.
        """
        n = len(self.engines)
        if n < 2:
            raise MatchError("对抗赛至少要有两个引擎",
                             "a match needs at least two engines")
        if self.tournament in ("match", "round-robin"):
            if self.tournament == "match" and n != 2:
                raise MatchError("match 是两个引擎的对抗；多个引擎请用 round-robin 或 gauntlet",
                                 "a match is between two engines; use round-robin or gauntlet")
            return [(i, j) for i in range(n) for j in range(i + 1, n)]
        if self.tournament == "gauntlet":
            return [(0, j) for j in range(1, n)]
        raise MatchError(f"未知的比赛方式 {self.tournament!r}（match 对抗、round-robin 循环、gauntlet 车轮）",
                         f"unknown tournament type {self.tournament!r} (match, round-robin, gauntlet)")


# ---------------------------------------------------------------- results
@dataclass
class GameRecord:
    """A finished game: who played which side, the opening and the referee's
    report; :attr:`record` is the text of the record (PGN or SGF)."""

    number: int
    pair: tuple[int, int]
    first: int
    """Index of the engine that moved first (Red / Black)."""
    report: GameReport
    event: str = "qisai match"
    _text: str | None = field(default=None, repr=False)

    @property
    def record(self) -> str:
        """The game's PGN (Xiangqi) or SGF (Go), written on first use.

        Raises :class:`MatchError` if the referee cannot write it.
        """
        if self._text is None:
            self._text = game_record(self.report, self.event, self.number)
        return self._text


@dataclass
class PairStats:
    """Wins, draws and losses of engine ``a`` against engine ``b``."""

    a: int
    b: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    other: int = 0
    """Games with no result (void or double forfeit)."""

    @property
    def games(self) -> int:
        """Games with a result."""
        return self.wins + self.draws + self.losses


@dataclass
class MatchReport:
    """The outcome of a match: games, per-pair stats, ending reasons."""

    config: MatchConfig
    games: list[GameRecord] = field(default_factory=list)
    pairs: dict[tuple[int, int], PairStats] = field(default_factory=dict)
    reasons: Counter[str] = field(default_factory=Counter)
    faults: Counter[str] = field(default_factory=Counter)
    stopped_by_sprt: str | None = None
    wall: float = 0.0
    runner_cpu: float = 0.0
    engines_cpu: float = 0.0

    def add(self, record: GameRecord) -> None:
        """Count a finished game."""
        self.games.append(record)
        pair = self.pairs.setdefault(record.pair, PairStats(*record.pair))
        result = record.report.result
        assert result is not None
        self.reasons[result.reason.value] += 1
        for side, (fault, _) in record.report.faults.items():
            name = record.report.names[side.value]
            self.faults[f"{name}: {fault.value}"] += 1
        if result.outcome is Outcome.DRAW:
            pair.draws += 1
        elif result.outcome is Outcome.WIN and result.winner is not None:
            winner_index = record.first if result.winner is Side.FIRST else \
                (record.pair[1] if record.first == record.pair[0] else record.pair[0])
            if winner_index == pair.a:
                pair.wins += 1
            else:
                pair.losses += 1
        else:
            pair.other += 1

    def summary(self) -> str:
        """Return the result table as text: per pair the score, Elo ± 95%,
        LOS, the SPRT state; then how the games ended."""
        names = [e.name for e in self.config.engines]
        lines = []
        for (a, b), st in sorted(self.pairs.items()):
            n = st.games
            score = st.wins + st.draws / 2
            elo, lo, hi = elo_interval(st.wins, st.draws, st.losses)
            err = (hi - lo) / 2 if math.isfinite(lo) and math.isfinite(hi) else math.inf
            lines.append(f"{names[a]} vs {names[b]}: +{st.wins} ={st.draws} -{st.losses}"
                         f"{f' (void {st.other})' if st.other else ''}  score {score:g}/{n}"
                         f" ({100 * score / n if n else 0:.1f}%)")
            lines.append(f"  Elo difference {_fmt_elo(elo)} ± {_fmt_elo(err)} (95%),"
                         f" LOS {100 * los(st.wins, st.losses):.1f}%")
            if self.config.sprt is not None and len(self.pairs) == 1:
                sp = self.config.sprt
                lower, upper = sp.bounds
                lines.append(f"  SPRT elo0={sp.elo0:g} elo1={sp.elo1:g}: LLR "
                             f"{sp.llr(st.wins, st.draws, st.losses):.2f} "
                             f"[{lower:.2f}, {upper:.2f}] {sp.state(st.wins, st.draws, st.losses)}")
        lines.append("Endings: " + ", ".join(f"{k} {v}" for k, v in self.reasons.most_common()))
        if self.faults:
            lines.append("Faults: " + ", ".join(f"{k} x{v}" for k, v in self.faults.most_common()))
        if self.wall > 0:
            lines.append(f"{len(self.games)} games in {self.wall:.1f} s "
                         f"({60 * len(self.games) / self.wall:.1f} games/min)")
        return "\n".join(lines)


def _fmt_elo(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


# ----------------------------------------------------------------- records
def game_record(report: GameReport, event: str, round_no: int) -> str:
    """Return the record of a finished game: Xiangqi PGN (ICCS moves) or Go
    SGF, written by the referee with the result, reason, clause, clocks and
    the event log, so that it re-imports and replays to the same result
    (:func:`qisai.referee.records.xiangqi_from_pgn` / ``go_from_sgf``).

    Raises :class:`MatchError` if the referee cannot write it.
    """
    game = report.game
    try:
        if isinstance(game, XiangqiGame):
            headers = {"Event": event, "Round": str(round_no), "Red": report.names[0],
                       "Black": report.names[1]}
            if report.opening:
                headers["Opening"] = report.opening
            for tag, own in zip(("RedEngine", "BlackEngine"), report.engine_names, strict=True):
                if own:
                    headers[tag] = own  # the engine's own name (id name, myname)
            return records.xiangqi_to_pgn(game, headers, notation="iccs").rstrip("\n") + "\n\n"
        return records.go_to_sgf(game, {"PB": report.names[0], "PW": report.names[1],
                                        "EV": event, "RO": str(round_no)}).strip() + "\n"
    except RefereeError as exc:
        raise MatchError(f"第 {round_no} 局：{exc}",
                         f"game {round_no}: {exc}") from exc


# ----------------------------------------------------------------- running
class _Seat:
    """The engines one worker keeps running between games."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.running: dict[int, XiangqiClient | GtpEngine] = {}

    async def get(self, index: int) -> XiangqiClient | GtpEngine | BaseException:
        engine = self.running.get(index)
        if engine is not None and engine.alive:
            return engine
        self.running.pop(index, None)
        spec = self.config.engines[index]
        try:
            new: XiangqiClient | GtpEngine
            if spec.protocol == "gtp":
                profile = self.config.profile()
                new = await GtpEngine.start(spec.command, name=spec.name,
                                            timeout=self.config.startup_timeout,
                                            rules=profile.core if isinstance(profile, GoRules)
                                            else None)
                for key, value in spec.options:
                    await new.command(key, value)
            else:
                new = await start_xiangqi_engine(spec.command, spec.protocol, name=spec.name,
                                                 options=dict(spec.options),
                                                 timeout=self.config.startup_timeout)
        except EngineError as exc:
            return exc
        self.running[index] = new
        return new

    async def drop(self, index: int) -> None:
        engine = self.running.pop(index, None)
        if engine is not None:
            await engine.quit()

    async def close(self) -> None:
        for index in list(self.running):
            await self.drop(index)


@dataclass(frozen=True)
class _Job:
    number: int
    pair: tuple[int, int]
    first: int
    second: int
    opening: Opening | None


def _jobs(config: MatchConfig) -> list[_Job]:
    jobs = []
    openings: Sequence[Opening | None] = config.openings or [None]
    per_pair = config.games + config.games % 2
    number = 0
    for a, b in config.pairings():
        for g in range(per_pair):
            opening = openings[(g // 2) % len(openings)]
            first, second = (a, b) if g % 2 == 0 else (b, a)
            number += 1
            jobs.append(_Job(number, (a, b), first, second, opening))
    # Interleave the pairings so a round robin progresses evenly.
    return sorted(jobs, key=lambda j: (j.number - 1) % per_pair)


def _new_game(config: MatchConfig, profile: XiangqiRules | GoRules,
              opening: Opening | None) -> XiangqiGame | GoGame:
    if isinstance(profile, XiangqiRules):
        fen = opening.fen if opening is not None and opening.fen else STARTING_FEN
        if opening is not None and opening.moves:
            board = Board(fen)
            for mv in opening.moves:
                board.push(Move.from_iccs(mv))
            fen = board.fen()
        return XiangqiGame(profile, fen=fen, now=time.monotonic)
    return GoGame(profile, now=time.monotonic)


def _go_opening(opening: Opening | None) -> list[tuple[int, int]]:
    points = []
    for mv in opening.moves if opening is not None else ():
        _, coords = mv.split()
        row, col = (int(x) for x in coords.split(","))
        points.append((row, col))
    return points


async def run_match(config: MatchConfig,
                    on_game: Callable[[GameRecord, MatchReport], None] | None = None) -> MatchReport:
    """Play the match and return its report.

    Games run ``concurrency`` at a time, each worker keeping its engines
    between games and restarting any that died.  ``on_game`` is called
    after every game (for progress bars).  PGN/SGF records are appended to
    ``pgnout``/``sgfout`` as games finish.  With ``sprt`` and a single
    pairing the match stops as soon as a hypothesis is accepted.

    Raises :class:`MatchError` for bad settings; engine faults never raise.
    """
    import resource

    profile = config.profile()
    jobs = _jobs(config)
    report = MatchReport(config)
    queue: asyncio.Queue[_Job] = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    for path in (config.pgnout, config.sgfout):
        if path is not None:
            Path(path).write_text("", encoding="utf-8")
    stop = asyncio.Event()
    started = time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)

    async def worker() -> None:
        seat = _Seat(config)
        try:
            while not stop.is_set():
                try:
                    job = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                record = await _play_job(config, profile, seat, job)
                if take_record(config, report, record, on_game):
                    stop.set()
        finally:
            await seat.close()

    # A task group cancels the other workers if one fails, and waits for
    # them, so every engine is shut down before the loop closes.
    async with asyncio.TaskGroup() as group:
        for _ in range(max(1, config.concurrency)):
            group.create_task(worker())
    report.wall = time.monotonic() - started
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    report.runner_cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    report.engines_cpu = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    report.games.sort(key=lambda r: r.number)
    return report


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def play_match(config: MatchConfig,
               on_game: Callable[[GameRecord, MatchReport], None] | None = None) -> MatchReport:
    """Play the match in an event loop of its own and return its report
    (:func:`run_match` for callers without a loop).

    The loop is uvloop's when it is installed (it comes with uvicorn's
    standard extras), asyncio's otherwise: a match mostly waits for engine
    output, and each burst of it wakes the loop, which uvloop does in C for
    about a fifth less of the runner's CPU (measured with Fairy-Stockfish at
    10 ms a move).  Raises what :func:`run_match` raises.
    """
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        return runner.run(run_match(config, on_game))


def take_record(config: MatchConfig, report: MatchReport, record: GameRecord,
                on_game: Callable[[GameRecord, MatchReport], None] | None) -> bool:
    """Count a finished game: add it to ``report``, append its PGN or SGF to
    the configured file, tell ``on_game``, and ask the SPRT (one pairing
    only).  Returns True when the SPRT has decided and the match stops
    (:attr:`MatchReport.stopped_by_sprt` says how).  Raises :class:`OSError`
    if the record file cannot be written."""
    report.add(record)
    if config.pgnout is not None and config.game == "xiangqi":
        with open(config.pgnout, "a", encoding="utf-8") as fh:
            fh.write(record.record)
    if config.sgfout is not None and config.game == "go":
        with open(config.sgfout, "a", encoding="utf-8") as fh:
            fh.write(record.record.strip() + "\n")
    if on_game is not None:
        on_game(record, report)
    if config.sprt is not None and len(report.pairs) == 1:
        st = next(iter(report.pairs.values()))
        state = config.sprt.state(st.wins, st.draws, st.losses)
        if state != "continue":
            report.stopped_by_sprt = state
            return True
    return False


async def _play_job(config: MatchConfig, profile: XiangqiRules | GoRules, seat: _Seat,
                    job: _Job) -> GameRecord:
    game = _new_game(config, profile, job.opening)
    names = (config.engines[job.first].name, config.engines[job.second].name)
    first = await seat.get(job.first)
    second = await seat.get(job.second)
    if isinstance(game, XiangqiGame):
        assert not isinstance(first, GtpEngine) and not isinstance(second, GtpEngine)
        prelude = None
        if job.opening is not None and job.opening.moves:
            prelude = Board(job.opening.fen or STARTING_FEN)
            for mv in job.opening.moves:
                prelude.push(Move.from_iccs(mv))
        report = await play_xiangqi((first, second), game, names=names,
                                    movetime=config.time.movetime,
                                    adjudication=config.adjudication, prelude=prelude)
    else:
        assert isinstance(first, GtpEngine | BaseException)
        assert isinstance(second, GtpEngine | BaseException)
        report = await play_go((first, second), game, names=names, movetime=config.time.movetime,
                               adjudication=config.adjudication,
                               opening=_go_opening(job.opening))
    if job.opening is not None:
        report.opening = job.opening.name
    # An engine that failed in this game is restarted for the next one.
    for side in report.faults:
        await seat.drop(job.first if side is Side.FIRST else job.second)
    return GameRecord(job.number, job.pair, job.first, report)
