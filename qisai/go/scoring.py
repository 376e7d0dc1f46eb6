"""Counting a finished game: area (数子) and territory (数目), and results.

Rule text (``docs/rules/003-go-rules.txt``), 胜负判别:

* 中国规则 (area, 数子法): remove the dead stones (第一步，把死子提掉); a
  side's count is its stones plus the points it surrounds; the par
  (归本数) is half the board, 180.5 on 19x19; komi 3¾ stones (贴3又3/4子).
  Points bordered by both colours (seki liberties, unfilled 单官) are split
  half and half, so B + W = N².
* 让先与让子: 让先 has no komi; in a handicap game Black gives back half the
  number of handicap stones (贴还让子数的一半).
* 日韩规则 (territory, 数目法): surrounded points plus prisoners, komi 6.5
  目; points in seki count for nobody, and neither do the points an owner
  must still fill (补棋, :func:`find_fill_points`): a stone there costs a
  point of territory but nothing under area counting, so only the
  territory count changes.
* 一子两目: a margin of m stones is 2m points; qisai keeps margins in points
  as exact :class:`~fractions.Fraction` values and writes them both ways.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from qisai.bilingual import BilingualError
from qisai.go.board import Board, PointLike
from qisai.go.coords import Point, gtp_name
from qisai.go.errors import ScoringError
from qisai.go.rules import Color, Rules, Scoring


class ResultReason(enum.Enum):
    """How a game ended (one enumeration, never free text)."""

    SCORE = "score"
    """Counted at the end (数子/数目)."""
    RESIGNATION = "resignation"
    """One side resigned: the other wins 中盘胜."""
    TIME = "time"
    """Lost on time (超时判负)."""
    FORFEIT = "forfeit"
    """Forfeit or a referee's decision against one side (判负)."""
    DRAW = "draw"
    """和棋: equal count, or a cycle ruled a draw (11(3))."""
    VOID = "void"
    """No result: the game is to be replayed (重下, 11(3))."""


@dataclass(frozen=True)
class Result:
    """The result of a game.

    ``margin`` is in points (目) and positive; ``scoring`` says whether the
    count was by area (written in 子) or territory (written in 目).
    """

    winner: Color | None
    reason: ResultReason
    margin: Fraction | None = None
    scoring: Scoring = Scoring.AREA

    def sgf(self) -> str:
        """Return the SGF ``RE`` value: ``B+1.5``, ``W+R``, ``B+T``, ``W+F``, ``0``, ``Void``."""
        if self.reason is ResultReason.DRAW:
            return "0"
        if self.reason is ResultReason.VOID or self.winner is None:
            return "Void"
        letter = self.winner.letter
        if self.reason is ResultReason.RESIGNATION:
            return f"{letter}+R"
        if self.reason is ResultReason.TIME:
            return f"{letter}+T"
        if self.reason is ResultReason.FORFEIT:
            return f"{letter}+F"
        if self.margin is None:
            return f"{letter}+"
        return f"{letter}+{_decimal(self.margin)}"

    def chinese(self) -> str:
        """Return the result as Chinese players write it.

        ``黑胜3/4子`` and ``白胜2又1/4子`` (area), ``黑6目半胜`` and ``白半目胜``
        (territory), ``黑中盘胜``, ``白超时胜``, ``黑胜（对方判负）``, ``和棋``,
        ``无胜负（重下）``.
        """
        if self.reason is ResultReason.DRAW:
            return "和棋"
        if self.reason is ResultReason.VOID or self.winner is None:
            return "无胜负（重下）"
        who = self.winner.chinese
        if self.reason is ResultReason.RESIGNATION:
            return f"{who}中盘胜"
        if self.reason is ResultReason.TIME:
            return f"{who}超时胜"
        if self.reason is ResultReason.FORFEIT:
            return f"{who}胜（对方判负）"
        if self.margin is None:
            return f"{who}胜"
        if self.scoring is Scoring.TERRITORY:
            whole = int(self.margin)
            half = self.margin - whole
            if half == 0:
                return f"{who}{whole}目胜"
            if half == Fraction(1, 2):
                return f"{who}半目胜" if whole == 0 else f"{who}{whole}目半胜"
            return f"{who}{_mixed(self.margin)}目胜"
        return f"{who}胜{_mixed(self.margin / 2)}子"

    @classmethod
    def from_sgf(cls, text: str, scoring: Scoring = Scoring.AREA) -> Result:
        """Return the result an SGF ``RE`` value describes.

        Accepts ``B+3.5``, ``W+R``/``W+Resign``, ``B+T``/``B+Time``,
        ``W+F``/``W+Forfeit``, ``B+`` (won, margin unknown), ``0``/``Draw``
        and ``Void``/``?``.  Raises :class:`ValueError` for anything else.
        """
        value = text.strip()
        upper = value.upper()
        if upper in ("0", "DRAW", "JIGO"):
            return cls(None, ResultReason.DRAW, scoring=scoring)
        if upper in ("VOID", "?", ""):
            return cls(None, ResultReason.VOID, scoring=scoring)
        if len(value) < 2 or upper[0] not in "BW" or value[1] != "+":
            raise BilingualError(f"{text!r} 不是 B+0.5 或 W+R 这样的 SGF 结果",
                                 f"{text!r} is not an SGF result such as B+0.5 or W+R")
        winner = Color.from_letter(upper[0])
        rest = upper[2:]
        if rest in ("R", "RESIGN"):
            return cls(winner, ResultReason.RESIGNATION, scoring=scoring)
        if rest in ("T", "TIME"):
            return cls(winner, ResultReason.TIME, scoring=scoring)
        if rest in ("F", "FORFEIT"):
            return cls(winner, ResultReason.FORFEIT, scoring=scoring)
        if rest == "":
            return cls(winner, ResultReason.SCORE, scoring=scoring)
        try:
            margin = Fraction(rest)
        except (ValueError, ZeroDivisionError):
            raise BilingualError(f"{text!r} 的胜负差不是数",
                                 f"{text!r} has a margin that is not a number") from None
        if margin <= 0:
            raise BilingualError(f"{text!r}：胜负差应为正数",
                                 f"{text!r}: the margin must be positive")
        return cls(winner, ResultReason.SCORE, margin, scoring)


def _decimal(value: Fraction) -> str:
    """Return ``value`` as a short decimal (7.5, 0.25, 3)."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text


def _mixed(value: Fraction) -> str:
    """Return ``value`` as players write it: ``3``, ``3/4``, ``2又1/4``."""
    whole = int(value)
    part = value - whole
    if part == 0:
        return str(whole)
    if whole == 0:
        return f"{part.numerator}/{part.denominator}"
    return f"{whole}又{part.numerator}/{part.denominator}"


@dataclass(frozen=True)
class Score:
    """A complete count of a position.

    Counts are of points; ``black_count``/``white_count`` are the totals the
    rules compare (area: stones + territory + half the shared points;
    territory: territory + prisoners).  ``margin`` is Black's lead in points
    after komi and handicap give-back (negative: White leads).
    """

    scoring: Scoring
    size: int
    komi: Fraction
    handicap: int
    giveback: Fraction
    black_stones: int
    white_stones: int
    black_territory: frozenset[Point]
    white_territory: frozenset[Point]
    shared: frozenset[Point]
    black_prisoners: int
    white_prisoners: int
    dead: frozenset[Point]
    seki: frozenset[Point]
    black_count: Fraction
    white_count: Fraction
    margin: Fraction
    fill: frozenset[Point] = frozenset()
    """Territory counting only: the points an owner must fill (补棋), which
    are nobody's territory (:func:`find_fill_points`); empty when the rules
    do not deduct them (``Rules.teire_counted`` False)."""
    tie_winner: Color | None = None
    """Who wins an equal count (``Rules.tie_winner``; None: a draw)."""

    @property
    def par(self) -> Fraction:
        """Return the par (归本数): half the points of the board."""
        return Fraction(self.size * self.size, 2)

    @property
    def margin_stones(self) -> Fraction:
        """Return Black's lead in stones (子): half the margin in points."""
        return self.margin / 2

    @property
    def result(self) -> Result:
        """Return the :class:`Result` of this count (和棋 if the margin is 0)."""
        if self.margin == 0:
            if self.tie_winner is not None:
                # Ing rules: 贴8点，同点黑胜 (Black wins an equal count).
                return Result(self.tie_winner, ResultReason.SCORE, Fraction(0), self.scoring)
            return Result(None, ResultReason.DRAW, scoring=self.scoring)
        winner = Color.BLACK if self.margin > 0 else Color.WHITE
        return Result(winner, ResultReason.SCORE, abs(self.margin), self.scoring)

    def as_dict(self) -> dict[str, object]:
        """Return the count as plain JSON-ready data (margins as strings)."""
        from qisai.go.coords import gtp_name

        def names(points: Iterable[Point]) -> list[str]:
            return sorted(gtp_name(p, self.size) for p in points)

        return {
            "scoring": self.scoring.value,
            "size": self.size,
            "komi": str(self.komi),
            "handicap": self.handicap,
            "black_stones": self.black_stones,
            "white_stones": self.white_stones,
            "black_territory": len(self.black_territory),
            "white_territory": len(self.white_territory),
            "shared": len(self.shared),
            "black_prisoners": self.black_prisoners,
            "white_prisoners": self.white_prisoners,
            "black_count": str(self.black_count),
            "white_count": str(self.white_count),
            "margin_points": str(self.margin),
            "margin_stones": str(self.margin_stones),
            "dead": names(self.dead),
            "seki": names(self.seki),
            "fill": names(self.fill),
            "result": self.result.sgf(),
            "result_chinese": self.result.chinese(),
        }


# ---------------------------------------------------------------- helpers


def _grid(board: Board) -> list[list[int]]:
    """Return the position as rows of 0 (empty), 1 (Black), 2 (White)."""
    size = board.size
    grid = [[0] * size for _ in range(size)]
    for color in (Color.BLACK, Color.WHITE):
        for row, col in board.stones(color):
            grid[row][col] = int(color)
    return grid


def _neighbours(p: Point, size: int) -> list[Point]:
    row, col = p
    result = []
    if row > 0:
        result.append((row - 1, col))
    if row < size - 1:
        result.append((row + 1, col))
    if col > 0:
        result.append((row, col - 1))
    if col < size - 1:
        result.append((row, col + 1))
    return result


def _chains(grid: list[list[int]], size: int) -> list[tuple[int, list[Point], set[Point]]]:
    """Return (colour, points, liberties or bordering colours) for every chain.

    Stones chain with stones of their colour; empty points with empty points,
    and then the third item is the set of neighbouring stone points.
    """
    seen = [[False] * size for _ in range(size)]
    chains = []
    for r in range(size):
        for c in range(size):
            if seen[r][c]:
                continue
            color = grid[r][c]
            seen[r][c] = True
            stack = [(r, c)]
            members: list[Point] = []
            border: set[Point] = set()
            while stack:
                p = stack.pop()
                members.append(p)
                for q in _neighbours(p, size):
                    qc = grid[q[0]][q[1]]
                    if qc == color:
                        if not seen[q[0]][q[1]]:
                            seen[q[0]][q[1]] = True
                            stack.append(q)
                    elif color == 0 or qc == 0:
                        border.add(q)
            chains.append((color, members, border))
    return chains


def expand_dead(board: Board, dead: Iterable[PointLike]) -> frozenset[Point]:
    """Return every stone of the groups that ``dead`` names (one point per group is enough).

    Raises :class:`ScoringError` if a named point is empty, and
    :class:`qisai.go.errors.CoordinateError` if it is off the board.
    """
    stones: set[Point] = set()
    for p in dead:
        group = board.group(p)
        if not group:
            name = p if isinstance(p, str) else gtp_name(p, board.size) if p else "pass"
            raise ScoringError(f"{name} 上没有可标为死子的棋子",
                               f"{name} names no stone to mark dead")
        stones |= group
    return frozenset(stones)


def find_seki(board: Board, dead: Iterable[PointLike] = ()) -> frozenset[Point]:
    """Return the stones in seki (双活) once ``dead`` groups are removed.

    Real seki only: groups of both colours that share liberties neither side
    can fill, and that have no other liberty either side could take away.

    * A *seki point* is a shared liberty (an empty point of a region that
      touches both colours) where neither side can play without capturing
      nothing and keeping at most one liberty (self-atari or suicide).
    * A string beside a seki point is in seki when every one of its
      liberties is a seki point or lies in an eye of its own: a region
      bordered only by strings of its colour that are themselves in seki.
      A string with any other liberty (a point of its group's territory, an
      unfilled dame) is not: its owner can connect or its opponent can
      attack there, so the shortage of liberties is no seki (the dead stones
      a wall is short of liberties against, the 补棋 of a string).
    * A seki point stays one only while every string beside it is in seki;
      the two rules are applied until nothing changes.

    Every stone of a string in seki is returned.
    """
    size = board.size
    grid = _grid(board)
    for r, c in expand_dead(board, dead):
        grid[r][c] = 0
    group_of: dict[Point, int] = {}
    chains = _chains(grid, size)
    for index, (_color, members, _border) in enumerate(chains):
        for p in members:
            group_of[p] = index
    points: set[Point] = set()
    for color, members, border in chains:
        if color != 0:
            continue
        colors = {grid[q[0]][q[1]] for q in border}
        if colors != {1, 2}:
            continue
        for p in members:
            if all(_self_atari(grid, size, chains, group_of, p, side) for side in (1, 2)):
                points.add(p)

    def strings_beside(p: Point) -> set[int]:
        return {group_of[q] for q in _neighbours(p, size) if grid[q[0]][q[1]]}

    strings = {s for p in points for s in strings_beside(p)}
    changed = True
    while changed:
        changed = False
        for s in sorted(strings):
            color, _members, libs = chains[s]
            for q in libs:
                if q in points:
                    continue
                region = chains[group_of[q]]
                if not all(grid[b[0]][b[1]] == color and group_of[b] in strings
                           for b in region[2]):
                    strings.discard(s)
                    changed = True
                    break
        for p in sorted(points):
            beside = strings_beside(p)
            if not beside <= strings or {chains[s][0] for s in beside} != {1, 2}:
                points.discard(p)
                changed = True
        kept = {s for p in points for s in strings_beside(p)}
        if kept != strings:
            strings = kept
            changed = True
    return frozenset(q for s in strings for q in chains[s][1])


def find_fill_points(board: Board, dead: Iterable[PointLike] = (),
                     seki: Iterable[PointLike] | None = None) -> frozenset[Point]:
    """Return the points their owner must fill before territory is counted
    (补棋), with the ``dead`` groups removed and the groups in ``seki`` (found
    by :func:`find_seki` when None) left alone.

    When the dame (points bordered by both colours) are filled, a string
    left with one liberty inside its owner's area would be captured there,
    so the owner must fill that point (or an equivalent one): it is nobody's
    territory under territory counting (数目法; GNU Go counts it as dame).
    A string that its owner can join to another string with two liberties
    by filling one of the dame himself is not counted: he fills that dame
    instead.  The search repeats with each fill point taken as the owner's
    stone, since one fill can leave another string short.

    Raises :class:`ScoringError` if a dead or seki point holds no stone.
    """
    size = board.size
    grid = _grid(board)
    for r, c in expand_dead(board, dead):
        grid[r][c] = 0
    if seki is None:
        seki_stones = find_seki(board, dead)
    else:
        seki_stones = expand_dead(board, seki)
    fill: set[Point] = set()
    for _ in range(size * size):
        chains = _chains(grid, size)
        dame: set[Point] = set()
        own: dict[Point, int] = {}
        for color, members, border in chains:
            if color:
                continue
            colors = {grid[q[0]][q[1]] for q in border}
            if len(colors) == 2:
                dame.update(members)
            elif colors:
                owner = colors.pop()
                own.update((m, owner) for m in members)
        group_of = {p: i for i, (color, members, _b) in enumerate(chains) if color for p in members}
        point = _short_string(grid, size, chains, group_of, dame, own, seki_stones)
        if point is None:
            break
        fill.add(point[0])
        grid[point[0][0]][point[0][1]] = point[1]
    return frozenset(fill)


def _short_string(
    grid: list[list[int]],
    size: int,
    chains: list[tuple[int, list[Point], set[Point]]],
    group_of: dict[Point, int],
    dame: set[Point],
    own: dict[Point, int],
    seki_stones: frozenset[Point],
) -> tuple[Point, int] | None:
    """Return (point, colour) of the first fill point found, or None."""
    for index, (color, members, libs) in enumerate(chains):
        if not color or members[0] in seki_stones:
            continue
        inner = libs - dame
        if len(inner) != 1:
            continue  # two liberties left, or none but dame (filled by its owner)
        [point] = inner
        if own.get(point) != color:
            continue
        rescued = False
        for d in libs & dame:
            joined = set(inner)
            for q in _neighbours(d, size):
                qc = grid[q[0]][q[1]]
                if qc == 0 and q not in dame:
                    joined.add(q)
                elif qc == color and group_of[q] != index:
                    joined |= chains[group_of[q]][2] - dame
            if len(joined - {d}) >= 2:
                rescued = True
                break
        if not rescued:
            return point, color
    return None


def _self_atari(
    grid: list[list[int]],
    size: int,
    chains: list[tuple[int, list[Point], set[Point]]],
    group_of: dict[Point, int],
    p: Point,
    side: int,
) -> bool:
    """Return True if ``side`` playing ``p`` captures nothing and keeps ≤ 1 liberty."""
    libs: set[Point] = set()
    for q in _neighbours(p, size):
        qc = grid[q[0]][q[1]]
        if qc == 0:
            libs.add(q)
        elif qc == side:
            libs |= chains[group_of[q]][2]
        else:
            if chains[group_of[q]][2] == {p}:
                return False
    libs.discard(p)
    return len(libs) <= 1


def score(
    board: Board,
    dead: Iterable[PointLike] = (),
    rules: Rules | None = None,
    komi: Fraction | float | int | str | None = None,
    handicap: int | None = None,
    seki: Iterable[PointLike] | None = None,
) -> Score:
    """Return the count of ``board`` with the groups named in ``dead`` removed.

    ``rules`` defaults to the board's; ``handicap`` to ``board.handicap``;
    ``komi`` (points) to the rules' komi for that handicap
    (:meth:`Rules.komi_for`: none in a Chinese handicap game, 胜负判别 2,
    让子要贴还让子数的一半 being the give-back).  An explicit ``komi`` wins.  Under area rules (数子) the handicap
    give-back is ``rules.handicap_giveback`` points per stone; under
    territory rules (数目) points of groups in seki (``seki``, found by
    :func:`find_seki` when None) count for nobody and prisoners count.

    Raises :class:`ScoringError` if a dead point is empty or a seki point is
    not a stone; :class:`qisai.go.errors.CoordinateError` for a point off the
    board.
    """
    rules = board.rules if rules is None else rules
    handicap_count = board.handicap if handicap is None else handicap
    if handicap_count < 0:
        raise ScoringError(f"让子数 {handicap_count} 为负",
                           f"handicap {handicap_count} is negative")
    if komi is None:
        komi_value = rules.komi_for(handicap_count)
    else:
        komi_value = Fraction(str(komi)) if isinstance(komi, float) else Fraction(komi)
    size = board.size
    dead_stones = expand_dead(board, dead)
    grid = _grid(board)
    dead_black = dead_white = 0
    for r, c in dead_stones:
        if grid[r][c] == 1:
            dead_black += 1
        else:
            dead_white += 1
        grid[r][c] = 0
    if seki is None:
        seki_stones = find_seki(board, dead_stones) if rules.scoring is Scoring.TERRITORY else frozenset()
    else:
        seki_stones = frozenset()
        for p in seki:
            group = board.group(p)
            if not group:
                raise ScoringError(f"双活点 {p!r} 上没有棋子",
                                   f"seki point {p!r} holds no stone")
            seki_stones |= group
    black_terr: set[Point] = set()
    white_terr: set[Point] = set()
    shared: set[Point] = set()
    black_stones = white_stones = 0
    for color, members, border in _chains(grid, size):
        if color == 1:
            black_stones += len(members)
            continue
        if color == 2:
            white_stones += len(members)
            continue
        colors = {grid[q[0]][q[1]] for q in border}
        if colors == {1}:
            owner = black_terr
        elif colors == {2}:
            owner = white_terr
        else:
            shared.update(members)
            continue
        if rules.scoring is Scoring.TERRITORY and any(q in seki_stones for q in border):
            # 数目法: no points in seki.
            shared.update(members)
            continue
        owner.update(members)
    fill: frozenset[Point] = frozenset()
    if rules.scoring is Scoring.TERRITORY and rules.teire_counted:
        # 补棋: points their owner must still fill are nobody's territory
        # (Japanese rules, GNU Go; KataGo's territory rules do not deduct).
        fill = find_fill_points(board, dead_stones, seki_stones)
        black_terr -= fill
        white_terr -= fill
    given = max(0, handicap_count - rules.handicap_giveback_free)  # AGA: N-1
    giveback = rules.handicap_giveback * given if rules.scoring is Scoring.AREA else Fraction(0)
    if rules.scoring is Scoring.AREA:
        half = Fraction(len(shared), 2)
        black_count = black_stones + len(black_terr) + half
        white_count = white_stones + len(white_terr) + half
        black_prisoners = white_prisoners = 0
    else:
        black_prisoners = board.captures(Color.BLACK) + dead_white
        white_prisoners = board.captures(Color.WHITE) + dead_black
        if rules.pass_stone:
            # AGA pass stones: each pass hands the opponent one prisoner.
            passes = [m.color for m in board.history if m.is_pass]
            black_prisoners += passes.count(Color.WHITE)
            white_prisoners += passes.count(Color.BLACK)
        black_count = Fraction(len(black_terr) + black_prisoners)
        white_count = Fraction(len(white_terr) + white_prisoners)
    margin = black_count - white_count - komi_value - giveback
    return Score(
        scoring=rules.scoring,
        size=size,
        komi=komi_value,
        handicap=handicap_count,
        giveback=giveback,
        black_stones=black_stones,
        white_stones=white_stones,
        black_territory=frozenset(black_terr),
        white_territory=frozenset(white_terr),
        shared=frozenset(shared),
        black_prisoners=black_prisoners,
        white_prisoners=white_prisoners,
        dead=dead_stones,
        seki=seki_stones,
        black_count=black_count,
        white_count=white_count,
        margin=margin,
        fill=fill,
        tie_winner=rules.tie_winner,
    )


def area_result(black_count: Fraction | int, size: int = 19, komi: Fraction | None = None) -> Result:
    """Return the area result from Black's count alone (数一方).

    As the rule text counts: Black's count minus komi (default 3¾ stones =
    7.5 points) is compared with the par N²/2; 184 on 19x19 loses by ¼ stone
    (White wins), 185 wins by ¾.  Raises :class:`ScoringError` if the count
    is outside 0..N².
    """
    total = size * size
    b = Fraction(black_count)
    if not 0 <= b <= total:
        raise ScoringError(f"子数 {b} 不在 0..{total} 之内",
                           f"count {b} is outside 0..{total}")
    komi_points = Fraction(15, 2) if komi is None else Fraction(komi)
    margin_stones = b - Fraction(total, 2) - komi_points / 2
    if margin_stones == 0:
        return Result(None, ResultReason.DRAW)
    winner = Color.BLACK if margin_stones > 0 else Color.WHITE
    return Result(winner, ResultReason.SCORE, abs(margin_stones) * 2)
