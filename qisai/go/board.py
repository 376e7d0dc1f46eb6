"""The Go board: play, captures, forbidden points, ko and superko, undo.

Rules implemented (clauses of the rule text, ``docs/rules/003-go-rules.txt``):

* 基本下法 1-4: Black first, one stone per move on an intersection, stones
  never move, either player may pass (虚着).
* 棋子的气 / 提子: a stone or solidly connected group whose liberties are all
  taken is removed.  After a move the opponent's groups without liberties are
  removed first (提子 2: 双方棋子都呈无气状态，应立即提取对方无气之子); if
  none is removed and the new stone has no liberty the point is a forbidden
  point (禁着点) and the move is illegal (rule 10), unless the rules allow
  suicide.
* 打劫 / 禁止全局同形再现 (rule 11): simple ko, positional or situational
  superko, as ``Rules.ko`` says.

The board keeps groups and their liberties incrementally and a Zobrist key of
the position, so playing, undoing and listing legal points are cheap.  It is
pure: no I/O, no clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

from qisai.go.coords import Point, check_point, check_size, gtp_name, handicap_points, parse_gtp
from qisai.go.errors import (
    CoordinateError,
    IllegalMoveError,
    IllegalReason,
    SetupError,
    UndoError,
)
from qisai.go.move import Move, as_move
from qisai.go.rules import CHINESE, Color, KoRule, Rules

EMPTY = 0
BLACK = 1
WHITE = 2
EDGE = 3

_MAX_STRIDE = 26
_TABLE_LEN = 27 * _MAX_STRIDE + 1
_rng = random.Random(0x51_5A1)
# Zobrist keys: _ZOBRIST[color][index]; fixed seed, so keys are stable.
_ZOBRIST: list[list[int]] = [
    [0] * _TABLE_LEN,
    [_rng.getrandbits(64) for _ in range(_TABLE_LEN)],
    [_rng.getrandbits(64) for _ in range(_TABLE_LEN)],
]
_WHITE_TO_MOVE = _rng.getrandbits(64)
_COLORS = (Color.BLACK, Color.BLACK, Color.WHITE)

PointLike = Point | str | None
"""A point as ``(row, col)``, a GTP name such as ``"D4"`` (or ``"pass"``), or
``None`` for a pass."""


class _Group:
    """A solidly connected group (块) of one colour with its liberties (气)."""

    __slots__ = ("color", "stones", "libs", "key")

    def __init__(self, color: int, stones: list[int], libs: set[int], key: int) -> None:
        self.color = color
        self.stones = stones
        self.libs = libs
        self.key = key


# Undo records are plain tuples for speed:
# ("m", index, color, enemies, captured, merged_into, n_before, old_key,
#  new_libs, absorbed, suicide, prev_ko, prev_hash, prev_passes, seen_key, move)
# ("p", prev_ko, prev_passes, seen_key, move)
# ("s", colors_before, to_move_before, prev_ko, prev_hash, prev_passes,
#  seen_before, key_after, move)


class Board:
    """A Go board of any size from 2x2 to 25x25 under the given ``rules``.

    >>> b = Board(9)
    >>> b.play("E5").captured
    ()
    >>> b.to_move
    <Color.WHITE: 2>

    Points are ``(row, col)`` pairs with row 0 at the bottom, or GTP names.
    Raises :class:`qisai.go.errors.BoardSizeError` for a bad size.
    """

    def __init__(self, size: int = 19, rules: Rules = CHINESE) -> None:
        self.size = check_size(size)
        self.rules = rules
        stride = size + 1
        self._stride = stride
        n = (size + 2) * stride
        self._color: list[int] = [EDGE] * n
        self._group: list[_Group | None] = [None] * n
        self._pt: list[Point | None] = [None] * n
        self._points: list[int] = []
        for row in range(size):
            for col in range(size):
                i = (row + 1) * stride + col
                self._color[i] = EMPTY
                self._pt[i] = (row, col)
                self._points.append(i)
        self._to_move = BLACK
        self._ko = 0
        self._hash = 0
        self._passes = 0
        self._captures = [0, 0, 0]
        self._history: list[tuple[Any, ...]] = []
        self._moves = 0
        self.handicap = 0
        """Number of handicap stones (让子) the count gives back; set by
        :meth:`place_handicap` and by SGF ``HA``."""
        self._situational = rules.ko is not KoRule.POSITIONAL
        self._superko = rules.ko is not KoRule.SIMPLE
        self._suicide = rules.suicide_allowed
        self._seen: dict[int, int] = {self._seen_key(0, BLACK): 1}

    # ------------------------------------------------------------ basics

    def _seen_key(self, h: int, to_move: int) -> int:
        if self._situational and to_move == WHITE:
            return h ^ _WHITE_TO_MOVE
        return h

    def _index(self, point: PointLike) -> int:
        """Return the internal index of ``point`` (0 for a pass)."""
        if point is None:
            return 0
        if type(point) is tuple and len(point) == 2:
            row, col = point
            if type(row) is int and type(col) is int and 0 <= row < self.size and 0 <= col < self.size:
                return (row + 1) * self._stride + col
        if isinstance(point, str):
            p = parse_gtp(point, self.size)
            if p is None:
                return 0
            row, col = p
        else:
            row, col = check_point(point, self.size)
        return (row + 1) * self._stride + col

    @property
    def to_move(self) -> Color:
        """Return the colour to move."""
        return Color(self._to_move)

    @property
    def move_number(self) -> int:
        """Return the number of moves and passes played so far (set-ups excluded)."""
        return self._moves

    @property
    def zobrist(self) -> int:
        """Return the 64-bit Zobrist key of the stones on the board.

        Two boards of the same size with the same stones have the same key,
        whoever is to move.
        """
        return self._hash

    @property
    def ko_point(self) -> Point | None:
        """Return the point where simple ko forbids the next move, or None."""
        return self._pt[self._ko] if self._ko else None

    @property
    def consecutive_passes(self) -> int:
        """Return how many passes ended the record (0 after a move)."""
        return self._passes

    def captures(self, color: Color) -> int:
        """Return how many stones ``color`` has captured (提子数) so far."""
        return self._captures[color]

    def get(self, point: PointLike) -> Color | None:
        """Return the colour of the stone on ``point``, or None if it is empty.

        Raises :class:`qisai.go.errors.CoordinateError` if ``point`` is off
        the board or a pass.
        """
        i = self._index(point)
        if i == 0:
            raise CoordinateError("停一手不是点", "a pass is not a point")
        c = self._color[i]
        return Color(c) if c else None

    def stones(self, color: Color) -> list[Point]:
        """Return the points holding ``color`` stones, bottom row first."""
        pt = self._pt
        return [p for i in self._points if self._color[i] == color for p in (pt[i],) if p]

    def empty_points(self) -> list[Point]:
        """Return the empty points, bottom row first."""
        pt = self._pt
        return [p for i in self._points if self._color[i] == EMPTY for p in (pt[i],) if p]

    def points(self) -> Iterator[Point]:
        """Iterate over every point of the board, bottom row first."""
        for row in range(self.size):
            for col in range(self.size):
                yield (row, col)

    def group(self, point: PointLike) -> frozenset[Point]:
        """Return the stones of the group (块) on ``point`` (empty set if empty).

        Raises :class:`qisai.go.errors.CoordinateError` for a bad point.
        """
        g = self._group[self._index(point)]
        if g is None:
            return frozenset()
        return frozenset(self._pt[i] for i in g.stones)  # type: ignore[misc]

    def liberties(self, point: PointLike) -> frozenset[Point]:
        """Return the liberties (气) of the group on ``point`` (empty if empty).

        Raises :class:`qisai.go.errors.CoordinateError` for a bad point.
        """
        g = self._group[self._index(point)]
        if g is None:
            return frozenset()
        return frozenset(self._pt[i] for i in g.libs)  # type: ignore[misc]

    def neighbours(self, point: Point) -> list[Point]:
        """Return the on-board points next to ``point`` (up, down, left, right).

        Raises :class:`qisai.go.errors.CoordinateError` for a bad point.
        """
        i = self._index(point)
        s = self._stride
        return [p for n in (i + s, i - s, i - 1, i + 1) for p in (self._pt[n],) if p is not None]

    @property
    def history(self) -> list[Move]:
        """Return the record so far: moves, passes and set-ups in order."""
        return [as_move(r[-1]) for r in self._history]

    def last_move(self) -> Move | None:
        """Return the last move, pass or set-up, or None at the start."""
        return as_move(self._history[-1][-1]) if self._history else None

    def is_game_over(self) -> bool:
        """Return True when both players have passed in succession: the
        players then confirm the end (4(4)); a move after it is still legal
        (play resumes when they do not agree, see :meth:`play`)."""
        return self._passes >= 2

    def repetitions(self) -> int:
        """Return how many times the current position occurred before now.

        Under positional superko the position is the stones alone; otherwise
        it includes the player to move.  Under simple ko a cycle (三劫循环,
        长生, ...) shows as a count above zero; the referee decides whether
        it is unbreakable and rules a draw or a replay (11(3)).
        """
        return self._seen.get(self._seen_key(self._hash, self._to_move), 1) - 1

    def cycle_length(self) -> int | None:
        """Return how many moves ago the current situation last occurred, or None.

        The situation is the stones and the player to move (under positional
        superko: the stones alone).  Under simple ko a value means the game
        is going round a cycle (三劫循环, 四劫循环, 长生 ...); the referee
        decides whether it is unbreakable (11(3)).  The search stops at a set-up.
        """
        current = self._seen_key(self._hash, self._to_move)
        history = self._history
        for back in range(len(history) - 2, -2, -1):
            if back == -1:
                key = self._seen_key(0, BLACK)
            else:
                rec = history[back]
                key = rec[-2] if rec[0] == "s" else rec[3] if rec[0] == "p" else rec[14]
            if key == current:
                return len(history) - 1 - back
            if back >= 0 and history[back][0] == "s":
                return None
        return None

    def copy(self) -> Board:
        """Return an independent copy (same position, history and rules)."""
        other = Board(self.size, self.rules)
        other.handicap = self.handicap
        for move in self.history:
            if move.setup:
                other._apply_setup_move(move)
            else:
                other.play(move.point, move.color)
        return other

    # ------------------------------------------------------------ legality

    def _examine(self, i: int, c: int) -> tuple[IllegalReason | None, list[_Group], int]:
        """Return (reason or None, captured groups, key after) for ``c`` at ``i``."""
        color = self._color
        if color[i] != EMPTY:
            return IllegalReason.OCCUPIED, [], 0
        group = self._group
        s = self._stride
        opp = 3 - c
        captured: list[_Group] = []
        has_lib = False
        h = self._hash ^ _ZOBRIST[c][i]
        for n in (i + s, i - s, i - 1, i + 1):
            cn = color[n]
            if cn == EMPTY:
                has_lib = True
            elif cn == c:
                if not has_lib and len(group[n].libs) > 1:  # type: ignore[union-attr]
                    has_lib = True
            elif cn == opp:
                g = group[n]
                if len(g.libs) == 1 and g not in captured:  # type: ignore[union-attr]
                    captured.append(g)  # type: ignore[arg-type]
                    h ^= g.key  # type: ignore[union-attr]
        if not captured and not has_lib:
            if not self._suicide:
                # Rule 10: 禁着点 — no liberty and nothing captured.
                return IllegalReason.SUICIDE, captured, 0
            h = self._suicide_key(i, c)
        if i == self._ko:
            # Rule 11(1): 劫争马上回提 is invalid.
            return IllegalReason.KO, captured, h
        if self._superko and self._seen_key(h, opp) in self._seen:
            # 禁止全局同形再现: the position after the move occurred before.
            return IllegalReason.SUPERKO, captured, h
        return None, captured, h

    def _suicide_key(self, i: int, c: int) -> int:
        """Return the key after ``c`` at ``i`` kills its own group (suicide)."""
        h = self._hash
        seen: list[_Group] = []
        s = self._stride
        for n in (i + s, i - s, i - 1, i + 1):
            if self._color[n] == c:
                g = self._group[n]
                if g is not None and g not in seen:
                    seen.append(g)
                    h ^= g.key
        return h

    def legal_reason(self, point: PointLike, color: Color | None = None) -> IllegalReason | None:
        """Return why ``color`` (default: the side to move) may not play ``point``.

        Returns None if the move is legal; a pass is always legal.  Raises :class:`qisai.go.errors.CoordinateError` for a
        point off the board.
        """
        c = self._to_move if color is None else int(color)
        if color is not None and c != self._to_move:
            return IllegalReason.OUT_OF_TURN
        i = self._index(point)
        if i == 0:
            return None
        return self._examine(i, c)[0]

    def is_legal(self, point: PointLike, color: Color | None = None) -> bool:
        """Return True if ``color`` (default: the side to move) may play ``point``.

        Raises :class:`qisai.go.errors.CoordinateError` for a point off the board.
        """
        return self.legal_reason(point, color) is None

    def legal_points(self) -> list[Point]:
        """Return every point where the side to move may play (pass not included).

        Checks occupancy, forbidden points, ko and superko.
        """
        color = self._color
        group = self._group
        s = self._stride
        c = self._to_move
        opp = 3 - c
        pt = self._pt
        result: list[Point] = []
        append = result.append
        superko = self._superko
        seen = self._seen
        ko = self._ko
        hash0 = self._hash
        zc = _ZOBRIST[c]
        turn = _WHITE_TO_MOVE if (self._situational and opp == WHITE) else 0
        for i in self._points:
            if color[i]:
                continue
            has_lib = False
            h = hash0 ^ zc[i]
            caps: list[_Group] | None = None
            for n in (i + s, i - s, i - 1, i + 1):
                cn = color[n]
                if cn == EMPTY:
                    has_lib = True
                elif cn == c:
                    if not has_lib and len(group[n].libs) > 1:  # type: ignore[union-attr]
                        has_lib = True
                elif cn == opp:
                    g = group[n]
                    if len(g.libs) == 1:  # type: ignore[union-attr]
                        if caps is None:
                            caps = [g]  # type: ignore[list-item]
                            h ^= g.key  # type: ignore[union-attr]
                        elif g not in caps:
                            caps.append(g)  # type: ignore[arg-type]
                            h ^= g.key  # type: ignore[union-attr]
            if caps is None and not has_lib:
                if not self._suicide:
                    continue
                h = self._suicide_key(i, c)
            if i == ko:
                continue
            if superko and (h ^ turn) in seen:
                continue
            append(pt[i])  # type: ignore[arg-type]
        return result

    # ------------------------------------------------------------ playing

    def play(self, point: PointLike, color: Color | None = None) -> Move:
        """Play ``point`` for the side to move (or pass with ``None``/``"pass"``).

        ``color``, if given, must be the side to move.  Returns the
        :class:`Move` with the stones it captured.  Raises
        :class:`qisai.go.errors.IllegalMoveError` (with the reason and move
        number) for an occupied point, a forbidden point, a ko or superko
        violation or a move out of turn; raises
        :class:`qisai.go.errors.CoordinateError` for a point off the board.
        The board is unchanged when an error is raised.  Two passes do not
        stop play: the rule text ends the game when both confirm it (4(1),
        4(4)), and play resumes if they do not agree on the dead stones.
        """
        c = self._to_move
        i = self._index(point)
        if color is not None and int(color) != c:
            raise IllegalMoveError(
                IllegalReason.OUT_OF_TURN,
                gtp_name(self._pt[i], self.size),
                Color(color).letter,
                self.move_number + 1,
            )
        if i == 0:
            return self._pass()
        reason, captured, h = self._examine(i, c)
        if reason is not None:
            raise IllegalMoveError(
                reason, gtp_name(self._pt[i], self.size), Color(c).letter, self.move_number + 1
            )
        return self._do_play(i, c, captured, h)

    def pass_move(self) -> Move:
        """Pass (虚着) for the side to move and return the :class:`Move`."""
        return self._pass()

    def _pass(self) -> Move:
        move = Move(Color(self._to_move), None)
        prev = (self._ko, self._passes)
        self._ko = 0
        self._passes += 1
        self._to_move = 3 - self._to_move
        key = self._seen_key(self._hash, self._to_move)
        self._seen[key] = self._seen.get(key, 0) + 1
        self._history.append(("p", prev[0], prev[1], key, move))
        self._moves += 1
        return move

    def _do_play(self, i: int, c: int, captured: list[_Group], h: int) -> Move:
        color = self._color
        group = self._group
        s = self._stride
        opp = 3 - c
        color[i] = c
        enemies: list[_Group] = []
        friends: list[_Group] = []
        empties: list[int] = []
        for n in (i + s, i - s, i - 1, i + 1):
            cn = color[n]
            if cn == EMPTY:
                empties.append(n)
            elif cn == opp:
                g = group[n]
                if g not in enemies:
                    enemies.append(g)  # type: ignore[arg-type]
                    g.libs.discard(i)  # type: ignore[union-attr]
            elif cn == c:
                g = group[n]
                if g not in friends:
                    friends.append(g)  # type: ignore[arg-type]
        zi = _ZOBRIST[c][i]
        merged_into: _Group
        n_before = 0
        old_key = 0
        new_libs: set[int] | None = None
        absorbed: list[_Group] | None = None
        if not friends:
            merged_into = _Group(c, [i], set(empties), zi)
            group[i] = merged_into
        elif len(friends) == 1:
            # The common case: one stone added to one group.
            big = merged_into = friends[0]
            n_before = len(big.stones)
            old_key = big.key
            big.stones.append(i)
            group[i] = big
            big.key = old_key ^ zi
            libs = big.libs
            new_libs = {e for e in empties if e not in libs}
            libs.discard(i)
            libs |= new_libs
        else:
            big = friends[0]
            for g in friends:
                if len(g.stones) > len(big.stones):
                    big = g
            merged_into = big
            n_before = len(big.stones)
            old_key = big.key
            big.stones.append(i)
            group[i] = big
            key = old_key ^ zi
            new_libs = set(empties)
            absorbed = []
            for g in friends:
                if g is big:
                    continue
                absorbed.append(g)
                big.stones.extend(g.stones)
                for st in g.stones:
                    group[st] = big
                new_libs |= g.libs
                key ^= g.key
            big.key = key
            new_libs -= big.libs
            new_libs.discard(i)
            big.libs |= new_libs
            big.libs.discard(i)
        pt = self._pt
        captured_points: list[Point] = []
        ncap = 0
        if captured:
            for g in captured:
                for st in g.stones:
                    color[st] = EMPTY
                    group[st] = None
                    captured_points.append(pt[st])  # type: ignore[arg-type]
                ncap += len(g.stones)
                for st in g.stones:
                    for n in (st + s, st - s, st - 1, st + 1):
                        if color[n] == c:
                            group[n].libs.add(st)  # type: ignore[union-attr]
        suicide = False
        if not captured and not merged_into.libs:
            # Only reached when the rules allow suicide: the group is removed.
            suicide = True
            for st in merged_into.stones:
                color[st] = EMPTY
                group[st] = None
            for st in merged_into.stones:
                for n in (st + s, st - s, st - 1, st + 1):
                    if color[n] == opp:
                        group[n].libs.add(st)  # type: ignore[union-attr]
            self._captures[opp] += len(merged_into.stones)
        self._captures[c] += ncap
        prev_ko = self._ko
        # Simple ko (打劫): one stone captured by a lone stone left in atari.
        if (
            ncap == 1
            and len(merged_into.stones) == 1
            and len(merged_into.libs) == 1
            and not suicide
        ):
            self._ko = captured[0].stones[0]
        else:
            self._ko = 0
        prev_hash = self._hash
        self._hash = h
        prev_passes = self._passes
        self._passes = 0
        self._to_move = opp
        key = h ^ _WHITE_TO_MOVE if (self._situational and opp == WHITE) else h
        self._seen[key] = self._seen.get(key, 0) + 1
        move = Move(_COLORS[c], pt[i], tuple(captured_points))
        self._history.append(
            (
                "m", i, c, enemies, captured, merged_into, n_before, old_key, new_libs,
                absorbed, suicide, prev_ko, prev_hash, prev_passes, key, move,
            )
        )
        self._moves += 1
        return move

    def undo(self) -> Move:
        """Take back the last move, pass or set-up and return it.

        Restores the stones, groups, liberties, Zobrist key, ko point and
        repetition history exactly.  Raises :class:`qisai.go.errors.UndoError`
        if there is nothing to undo.
        """
        if not self._history:
            raise UndoError("没有可以悔的棋", "nothing to undo")
        rec = self._history.pop()
        kind = rec[0]
        if kind != "s":
            self._moves -= 1
        if kind == "p":
            _, prev_ko, prev_passes, key, move = rec
            self._unsee(key)
            self._ko = prev_ko
            self._passes = prev_passes
            self._to_move = 3 - self._to_move
            return as_move(move)
        if kind == "s":
            _, colors, to_move, prev_ko, prev_hash, prev_passes, seen, _key, move = rec
            self._load(colors)
            self._to_move = to_move
            self._ko = prev_ko
            self._hash = prev_hash
            self._passes = prev_passes
            self._seen = seen
            return as_move(move)
        (
            _, i, c, enemies, captured, merged, n_before, old_key, new_libs,
            absorbed, suicide, prev_ko, prev_hash, prev_passes, key, move,
        ) = rec
        color = self._color
        group = self._group
        s = self._stride
        opp = 3 - c
        self._unsee(key)
        if suicide:
            for st in merged.stones:
                for n in (st + s, st - s, st - 1, st + 1):
                    if color[n] == opp:
                        group[n].libs.discard(st)
            for st in merged.stones:
                color[st] = c
                group[st] = merged
            self._captures[opp] -= len(merged.stones)
        ncap = 0
        for g in reversed(captured):
            for st in g.stones:
                for n in (st + s, st - s, st - 1, st + 1):
                    if color[n] == c:
                        group[n].libs.discard(st)
            for st in g.stones:
                color[st] = opp
                group[st] = g
            ncap += len(g.stones)
        self._captures[c] -= ncap
        if n_before:
            del merged.stones[n_before:]
            merged.libs -= new_libs
            merged.libs.add(i)
            merged.key = old_key
            if absorbed:
                for g in absorbed:
                    for st in g.stones:
                        group[st] = g
        for g in enemies:
            g.libs.add(i)
        color[i] = EMPTY
        group[i] = None
        self._ko = prev_ko
        self._hash = prev_hash
        self._passes = prev_passes
        self._to_move = c
        return as_move(move)

    def _unsee(self, key: int) -> None:
        count = self._seen[key] - 1
        if count:
            self._seen[key] = count
        else:
            del self._seen[key]

    # ------------------------------------------------------------ set-up

    def _load(self, colors: list[int]) -> None:
        """Put ``colors`` (one per on-board point) on the board and rebuild groups."""
        color = self._color
        group = self._group
        for i, c in zip(self._points, colors, strict=True):
            color[i] = c
            group[i] = None
        s = self._stride
        h = 0
        for i in self._points:
            c = color[i]
            if c == EMPTY or group[i] is not None:
                continue
            g = _Group(c, [], set(), 0)
            stack = [i]
            group[i] = g
            while stack:
                j = stack.pop()
                g.stones.append(j)
                g.key ^= _ZOBRIST[c][j]
                for n in (j + s, j - s, j - 1, j + 1):
                    cn = color[n]
                    if cn == EMPTY:
                        g.libs.add(n)
                    elif cn == c and group[n] is None:
                        group[n] = g
                        stack.append(n)
            h ^= g.key
        self._hash = h

    def setup(
        self,
        black: Iterable[PointLike] = (),
        white: Iterable[PointLike] = (),
        empty: Iterable[PointLike] = (),
        to_move: Color | None = None,
    ) -> None:
        """Place set-up stones (SGF AB/AW/AE) and optionally set the player to move.

        The set-up is one entry of the history (``undo`` removes it).  Raises
        :class:`qisai.go.errors.SetupError` if a point is named twice, or if a
        group is left without liberties; :class:`qisai.go.errors.CoordinateError`
        for a point off the board.  The board is unchanged when an error is
        raised.
        """
        colors = [self._color[i] for i in self._points]
        named: set[int] = set()
        size = self.size
        for value, points in ((BLACK, black), (WHITE, white), (EMPTY, empty)):
            for p in points:
                i = self._index(p)
                if i == 0:
                    raise SetupError("停一手不能作摆子的点", "a pass is not a set-up point")
                if i in named:
                    raise SetupError(f"{gtp_name(self._pt[i], size)} 摆了两次",
                                     f"{gtp_name(self._pt[i], size)} is set up twice")
                named.add(i)
                row, col = self._pt[i]  # type: ignore[misc]
                colors[row * size + col] = value
        who = Color(self._to_move if to_move is None else to_move)
        self._apply_setup_move(Move(who, None, (), True, tuple(colors)))

    def _apply_setup_move(self, move: Move) -> None:
        assert move.setup and len(move.position) == self.size * self.size
        before = [self._color[i] for i in self._points]
        record = ("s", before, self._to_move, self._ko, self._hash, self._passes, dict(self._seen))
        self._load(list(move.position))
        for i in self._points:
            g = self._group[i]
            if g is not None and not g.libs:
                name = gtp_name(self._pt[i], self.size)
                self._load(before)
                raise SetupError(f"摆子后 {name} 的棋块没有气",
                                 f"set-up leaves the group at {name} without liberties")
        self._to_move = int(move.color)
        self._ko = 0
        self._passes = 0
        key = self._seen_key(self._hash, self._to_move)
        self._seen[key] = self._seen.get(key, 0) + 1
        self._history.append((*record, key, move))

    def place_handicap(self, stones: int, free: Iterable[PointLike] | None = None) -> list[Point]:
        """Place ``stones`` handicap stones (让子) for Black; White then moves.

        Without ``free`` the fixed placement (:func:`qisai.go.coords.handicap_points`)
        is used; with ``free`` those points are used and must number
        ``stones``.  Returns the points.  Raises
        :class:`qisai.go.errors.SetupError` if the board is not empty, the
        count is wrong, or there is no fixed placement.
        """
        if any(self._color[i] != EMPTY for i in self._points) or self._history:
            raise SetupError("让子须在第一手之前摆在空棋盘上",
                             "handicap stones go on an empty board before the first move")
        if free is None:
            points = handicap_points(self.size, stones)
        else:
            points = [p for p in (self._pt[self._index(f)] for f in free) if p is not None]
            if len(points) != stones or len(set(points)) != stones or stones < 1:
                raise SetupError(f"自由让子需 {stones} 个不同的点，现有 {len(points)} 个",
                                 f"free handicap needs {stones} distinct points, got {len(points)}")
        self.setup(black=points, to_move=Color.WHITE)
        self.handicap = stones
        return points

    # ------------------------------------------------------------ display

    def __str__(self) -> str:
        """Return the board as text: ``X`` Black, ``O`` White, ``.`` empty."""
        rows = []
        for row in range(self.size - 1, -1, -1):
            line = []
            for col in range(self.size):
                c = self._color[(row + 1) * self._stride + col]
                line.append(".XO"[c])
            rows.append(f"{row + 1:2d} " + " ".join(line))
        rows.append("   " + " ".join("ABCDEFGHJKLMNOPQRSTUVWXYZ"[: self.size]))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<Board {self.size}x{self.size} {self.to_move.name} to move, move {self.move_number}>"

