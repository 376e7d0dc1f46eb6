"""The Xiangqi board: placement, moves, check, mate, stalemate, FEN, Zobrist key.

Rule text: the national rules (seeds 000/001), chapter 1, clauses 1-4.

Squares are numbered ``rank * 9 + file``: files 0..8 are ICCS ``a``..``i``
from Red's left, ranks 0..9 count from Red's back rank (ICCS ranks).  A square
is an ``int`` so that move generation stays cheap in pure Python.

Pieces are stored as small signed ints: the absolute value is a
:class:`PieceType`, the sign the :class:`Color` (Red ``+1``, Black ``-1``), so
``piece * color > 0`` means "belongs to ``color``".

The subjects around the board live in modules of their own, imported from
there (this module re-exports none of them): :mod:`qisai.xiangqi.pieces`
(colours, piece types and codes), :mod:`qisai.xiangqi.squares` (squares,
:class:`~qisai.xiangqi.squares.Move`), :mod:`qisai.xiangqi.tables`
(precomputed geometry, Zobrist keys) and :mod:`qisai.xiangqi.fen` (FEN
parsing, validation and writing).
"""

from __future__ import annotations

from collections.abc import Iterator

from qisai.xiangqi.errors import FenError, IllegalMoveError
from qisai.xiangqi.fen import _CELL, STARTING_FEN, _compress, parse_fen
from qisai.xiangqi.pieces import (
    _FEN_LETTER,
    ADVISOR,
    CANNON,
    ELEPHANT,
    HORSE,
    KING,
    PAWN,
    ROOK,
    Color,
    Piece,
    PieceType,
)
from qisai.xiangqi.squares import FILES, Move, square_name
from qisai.xiangqi.tables import (
    _DANGER_FROM,
    _LINE,
    ADVISOR_STEPS,
    ELEPHANT_STEPS,
    HORSE_ATTACKERS,
    HORSE_STEPS,
    KING_STEPS,
    PAWN_ATTACKERS,
    PAWN_STEPS,
    RAYS,
    ZOBRIST,
    ZOBRIST_BLACK,
)

__all__ = ["Board"]


class Board:
    """A Xiangqi position with its move history.

    ``Board()`` is the starting position; ``Board(fen)`` parses a FEN and
    raises :class:`FenError` if it is malformed or impossible.  ``push`` and
    ``pop`` make and take back moves; ``legal_moves()`` lists the legal ones.
    """

    __slots__ = ("_b", "_kings", "_pieces", "turn", "halfmove_clock", "fullmove_number",
                 "key", "_stack", "move_stack")

    def __init__(self, fen: str | None = STARTING_FEN, *, setup: bool = False,
                 strict: bool = True) -> None:
        self._b: list[int] = [0] * 90
        self._kings: dict[int, int] = {1: -1, -1: -1}
        self._pieces: dict[int, set[int]] = {1: set(), -1: set()}
        self.turn: Color = Color.RED
        self.halfmove_clock = 0
        self.fullmove_number = 1
        self.key = 0
        # Undo records: (move int, captured piece, halfmove clock, key).
        self._stack: list[tuple[int, int, int, int]] = []
        self.move_stack: list[Move] = []
        if fen is not None:
            self.set_fen(fen, setup=setup, strict=strict)

    # ------------------------------------------------------------------ FEN
    def set_fen(self, fen: str, *, setup: bool = False, strict: bool = True) -> None:
        """Set the position from FEN and clear the move history.

        Validates piece counts, palace/elephant/advisor/soldier points, the
        side to move, the counters, facing generals and that the side not to
        move is not in check.  ``setup=True`` is the lenient check for set-up
        positions such as rule-book diagrams: the points of advisors,
        elephants and soldiers are not checked (a soldier may stand behind
        its start rank), everything else is (piece counts, one general each,
        in his palace, 1.2).  ``strict`` (the default) refuses chess-style
        fields (castling ``KQkq``, en passant ``e3``, move number 0);
        ``strict=False`` ignores them, for files from programs that write
        them (:func:`~qisai.xiangqi.fen.parse_fen`).  Raises
        :class:`FenError` naming the problem.
        """
        parsed = parse_fen(fen, setup=setup, strict=strict)
        board, turn = parsed.board, parsed.turn
        self._b = board
        self._pieces = {1: {s for s in range(90) if board[s] > 0}, -1: {s for s in range(90) if board[s] < 0}}
        self._kings = {1: board.index(KING), -1: board.index(-KING)}
        self.turn = turn
        self.halfmove_clock = parsed.halfmove_clock
        self.fullmove_number = parsed.fullmove_number
        self._stack = []
        self.move_stack = []
        self.key = self._compute_key()
        if self._generals_face():
            raise FenError("FEN 第 1 段（棋子位置）：帅将对面，中间无子（4.1.2）",
                           "FEN field 1 (placement): the generals face each other on an open "
                           "file (4.1.2)")
        if self.general_attacked(-turn):
            raise FenError(f"FEN 第 1-2 段（棋子位置、轮走方）：非轮走方"
                           f"（{Color(-turn).chinese}方）正被将军",
                           f"FEN fields 1-2 (placement, side to move): the side not to move "
                           f"({Color(-turn).name.lower()}) is in check")

    def fen(self) -> str:
        """FEN of the position, e.g. the start: ``rnbakabnr/9/... w - - 0 1``."""
        side = "w" if self.turn is Color.RED else "b"
        return f"{self.board_fen()} {side} - - {self.halfmove_clock} {self.fullmove_number}"

    def board_fen(self) -> str:
        """The placement field of the FEN."""
        cell = _CELL
        return _compress([cell[v + 7] for v in self._b])

    def _compute_key(self) -> int:
        k = 0
        for s, v in enumerate(self._b):
            if v:
                k ^= ZOBRIST[v + 7][s]
        if self.turn is Color.BLACK:
            k ^= ZOBRIST_BLACK
        return k

    # --------------------------------------------------------------- access
    def piece_at(self, sq: int) -> Piece | None:
        """The piece on ``sq`` or ``None``."""
        v = self._b[sq]
        if not v:
            return None
        return Piece(PieceType(abs(v)), Color.RED if v > 0 else Color.BLACK)

    def piece_value_at(self, sq: int) -> int:
        """The signed int on ``sq`` (0 empty, +type Red, -type Black)."""
        return self._b[sq]

    def pieces(self, color: Color) -> list[int]:
        """Squares of ``color``'s pieces, in ascending order."""
        return sorted(self._pieces[color])

    def king_square(self, color: Color) -> int:
        """Square of ``color``'s general."""
        return self._kings[color]

    def copy(self, *, stack: bool = True) -> Board:
        """A copy of the board (with its move history unless ``stack=False``)."""
        b = Board(None)
        b._b = self._b[:]
        b._kings = dict(self._kings)
        b._pieces = {1: set(self._pieces[1]), -1: set(self._pieces[-1])}
        b.turn = self.turn
        b.halfmove_clock = self.halfmove_clock
        b.fullmove_number = self.fullmove_number
        b.key = self.key
        if stack:
            b._stack = self._stack[:]
            b.move_stack = self.move_stack[:]
        return b

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._b == other._b and self.turn == other.turn

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __str__(self) -> str:
        lines = []
        for rank in range(9, -1, -1):
            cells = []
            for f in range(9):
                v = self._b[rank * 9 + f]
                cells.append("." if not v else (_FEN_LETTER[abs(v)].upper() if v > 0 else _FEN_LETTER[abs(v)]))
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)

    def unicode(self) -> str:
        """A text diagram with Chinese piece names (Red upper case in ASCII form)."""
        lines = []
        for rank in range(9, -1, -1):
            cells = []
            for f in range(9):
                p = self.piece_at(rank * 9 + f)
                cells.append("＋" if p is None else p.chinese())
            lines.append(f"{rank} " + "".join(cells))
            if rank == 5:
                lines.append("  " + "～" * 9 + " 楚河 汉界")
        lines.append("  " + "".join(chr(0xFF41 + i) for i in range(9)))
        return "\n".join(lines)

    # --------------------------------------------------------------- attacks
    def general_attacked(self, c: int) -> bool:
        """Whether the general of colour ``c`` (``1`` Red, ``-1`` Black) is attacked,
        counting facing generals (4.1.2) as an attack."""
        b = self._b
        k = self._kings[c]
        er, ec, ek = -c * ROOK, -c * CANNON, -c * KING
        for ray in RAYS[k]:
            screened = False
            for s in ray:
                p = b[s]
                if p:
                    if screened:
                        if p == ec:
                            return True
                        break
                    # 4.1.2: generals may not face each other on an open file.
                    if p == er or p == ek:
                        return True
                    screened = True
        eh = -c * HORSE
        for h, leg in HORSE_ATTACKERS[k]:
            if b[h] == eh and not b[leg]:
                return True
        ep = -c * PAWN
        for s in PAWN_ATTACKERS[-c][k]:
            if b[s] == ep:
                return True
        return False

    def generals_face(self) -> bool:
        """Whether the two generals stand on one file with nothing between (将帅对面).

        Never true after a legal move (4.1.2); a move that would make it true
        is illegal, so :meth:`is_legal` already refuses it.
        """
        return self._generals_face()

    def exposes_general(self, move: Move) -> bool:
        """Whether a pseudo-legal ``move`` leaves the mover's general attacked
        or facing the other general (4.1.2: such a move is illegal)."""
        return not self._capture_is_safe(int(self.turn), move.from_square, move.to_square)

    def _generals_face(self) -> bool:
        r, k = self._kings[1], self._kings[-1]
        if r % 9 != k % 9:
            return False
        return all(not self._b[s] for s in range(r + 9, k, 9))

    def is_check(self) -> bool:
        """Whether the side to move is in check (照将, clause 3.1)."""
        return self.general_attacked(self.turn)

    def attackers(self, color: Color, sq: int) -> list[int]:
        """Squares of ``color``'s pieces that attack ``sq`` (could capture there).

        Pseudo-legal: a pinned attacker still counts; the general counts only
        for its one-step moves in the palace (not for facing generals).  Use
        :meth:`legal_attackers` for attacks that are legal captures.
        """
        c = int(color)
        b = self._b
        out: list[int] = []
        for ray in RAYS[sq]:
            screened = False
            for s in ray:
                p = b[s]
                if p:
                    if screened:
                        if p == c * CANNON:
                            out.append(s)
                        break
                    if p == c * ROOK:
                        out.append(s)
                    screened = True
        for h, leg in HORSE_ATTACKERS[sq]:
            if b[h] == c * HORSE and not b[leg]:
                out.append(h)
        for s in PAWN_ATTACKERS[c][sq]:
            if b[s] == c * PAWN:
                out.append(s)
        for s in ADVISOR_STEPS[sq]:
            if b[s] == c * ADVISOR:
                out.append(s)
        for eye, s in ELEPHANT_STEPS[sq]:
            if b[s] == c * ELEPHANT and not b[eye]:
                out.append(s)
        for s in KING_STEPS[sq]:
            if b[s] == c * KING:
                out.append(s)
        return sorted(out)

    def is_attacked_by(self, color: Color, sq: int) -> bool:
        """Whether any piece of ``color`` attacks ``sq`` (pseudo-legally)."""
        return bool(self.attackers(color, sq))

    def legal_attackers(self, color: Color, sq: int) -> list[int]:
        """Squares of ``color``'s pieces that could legally capture on ``sq``.

        ``sq`` is treated as holding an enemy piece: if it holds a piece of
        ``color`` itself (asking who *protects* it), the capture is tested as
        a recapture after an enemy piece took it.  Legality ignores whose turn
        it is: a capture is legal if it leaves ``color``'s general safe.
        """
        c = int(color)
        b = self._b
        out = []
        original = b[sq]
        # For a protection query put a neutral enemy stand-in on the square.
        stand_in = -c * PAWN if original * c > 0 or original == 0 else original
        b[sq] = stand_in
        try:
            for a in self.attackers(color, sq):
                if self._capture_is_safe(c, a, sq):
                    out.append(a)
        finally:
            b[sq] = original
        return out

    def protectors(self, sq: int) -> list[int]:
        """Squares of pieces that legally protect the piece on ``sq`` (its 根).

        A protector could legally recapture if an enemy piece captured on
        ``sq``.  Returns an empty list for an empty square.
        """
        v = self._b[sq]
        if not v:
            return []
        return self.legal_attackers(Color(1 if v > 0 else -1), sq)

    def _capture_is_safe(self, c: int, a: int, sq: int) -> bool:
        b = self._b
        moved, captured = b[a], b[sq]
        b[sq], b[a] = moved, 0
        king_moved = moved == c * KING
        if king_moved:
            self._kings[c] = sq
        try:
            return not self.general_attacked(c)
        finally:
            b[a], b[sq] = moved, captured
            if king_moved:
                self._kings[c] = a

    # ------------------------------------------------------------ generation
    def pseudo_codes(self, c: int) -> list[int]:
        """Pseudo-legal moves of colour ``c`` as move codes (``from << 7 | to``).

        The integer fast path for searches: with :meth:`push_code`,
        :meth:`pop_code` and :meth:`general_attacked` it avoids building
        :class:`Move` values.  A code that leaves the mover's general attacked
        is illegal (test it after :meth:`push_code`).
        """
        b = self._b
        out: list[int] = []
        append = out.append
        for f in self._pieces[c]:
            p = b[f] * c
            base = f << 7
            if p == ROOK:
                for ray in RAYS[f]:
                    for s in ray:
                        q = b[s]
                        if not q:
                            append(base | s)
                        else:
                            if q * c < 0:
                                append(base | s)
                            break
            elif p == HORSE:
                for leg, s in HORSE_STEPS[f]:
                    if not b[leg] and b[s] * c <= 0:
                        append(base | s)
            elif p == CANNON:
                for ray in RAYS[f]:
                    screened = False
                    for s in ray:
                        q = b[s]
                        if not screened:
                            if not q:
                                append(base | s)
                            else:
                                screened = True
                        elif q:
                            # 2.6: the cannon captures by jumping exactly one screen.
                            if q * c < 0:
                                append(base | s)
                            break
            elif p == PAWN:
                for s in PAWN_STEPS[c][f]:
                    if b[s] * c <= 0:
                        append(base | s)
            elif p == ELEPHANT:
                for eye, s in ELEPHANT_STEPS[f]:
                    if not b[eye] and b[s] * c <= 0:
                        append(base | s)
            elif p == ADVISOR:
                for s in ADVISOR_STEPS[f]:
                    if b[s] * c <= 0:
                        append(base | s)
            else:
                for s in KING_STEPS[f]:
                    if b[s] * c <= 0:
                        append(base | s)
        return out

    def legal_codes(self, first_only: bool = False) -> list[int]:
        """Legal moves of the side to move as move codes (``from << 7 | to``);
        with ``first_only`` at most one (enough to tell mate from play)."""
        c = int(self.turn)
        pseudo = self.pseudo_codes(c)
        b = self._b
        k = self._kings[c]
        attacked = self.general_attacked
        kings = self._kings
        out: list[int] = []
        # When not in check most moves cannot expose the general; only those
        # touching its lines or horse-leg points (or in check, all) are tried.
        in_check = attacked(c)
        danger_from = _DANGER_FROM[k]
        line = _LINE[k]
        for m in pseudo:
            f, t = m >> 7, m & 127
            if not in_check and f != k and not danger_from[f] and not line[t]:
                out.append(m)
                if first_only:
                    return out
                continue
            moved, captured = b[f], b[t]
            b[t] = moved
            b[f] = 0
            if f == k:
                kings[c] = t
            safe = not attacked(c)
            b[f] = moved
            b[t] = captured
            kings[c] = k
            if safe:
                out.append(m)
                if first_only:
                    return out
        return out

    def legal_moves(self) -> list[Move]:
        """All legal moves of the side to move (clauses 2, 4.1.2)."""
        return [Move(m >> 7, m & 127) for m in self.legal_codes()]

    def pseudo_legal_moves(self) -> list[Move]:
        """Moves that obey the piece rules but may leave the general attacked."""
        return [Move(m >> 7, m & 127) for m in self.pseudo_codes(int(self.turn))]

    def has_legal_moves(self) -> bool:
        """Whether the side to move has any legal move (stops at the first)."""
        return bool(self.legal_codes(first_only=True))

    def is_pseudo_legal(self, move: Move) -> bool:
        """Whether ``move`` obeys the piece rules for the side to move."""
        f, t = move
        if not (0 <= f < 90 and 0 <= t < 90) or self._b[f] * self.turn <= 0:
            return False
        return (f << 7 | t) in self._pseudo_from(f)

    def _pseudo_from(self, f: int) -> set[int]:
        c = int(self.turn)
        saved = self._pieces[c]
        self._pieces[c] = {f}
        try:
            return set(self.pseudo_codes(c))
        finally:
            self._pieces[c] = saved

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal for the side to move."""
        if not self.is_pseudo_legal(move):
            return False
        return self._capture_is_safe(int(self.turn), move.from_square, move.to_square)

    def legal_moves_from(self, sq: int) -> list[Move]:
        """Legal moves of the piece on ``sq`` (empty if not the mover's piece)."""
        if not (0 <= sq < 90) or self._b[sq] * self.turn <= 0:
            return []
        c = int(self.turn)
        return [Move(sq, m & 127) for m in sorted(self._pseudo_from(sq))
                if self._capture_is_safe(c, sq, m & 127)]

    def is_checkmate(self) -> bool:
        """In check with no legal move: 将死, a loss (3.2, 4.1.1)."""
        return self.is_check() and not self.has_legal_moves()

    def is_stalemate(self) -> bool:
        """Not in check but no legal move: 困毙, a loss for the side to move (3.2, 4.1.3)."""
        return not self.is_check() and not self.has_legal_moves()

    def is_game_over(self) -> bool:
        """Whether the side to move has no legal move (mate or stalemate, both lose)."""
        return not self.has_legal_moves()

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` captures a piece."""
        return self._b[move.to_square] != 0

    def gives_check(self, move: Move) -> bool:
        """Whether ``move`` (assumed legal) checks the opponent."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # ----------------------------------------------------------- make/unmake
    def push_code(self, m: int) -> None:
        """Make the move with code ``m`` without any check and without adding
        to :attr:`move_stack` (searches undo it with :meth:`pop_code`)."""
        f, t = m >> 7, m & 127
        b = self._b
        moved = b[f]
        captured = b[t]
        c = 1 if moved > 0 else -1
        self._stack.append((m, captured, self.halfmove_clock, self.key))
        key = self.key ^ ZOBRIST[moved + 7][f] ^ ZOBRIST[moved + 7][t] ^ ZOBRIST_BLACK
        if captured:
            key ^= ZOBRIST[captured + 7][t]
            self._pieces[-c].discard(t)
            self.halfmove_clock = 0
        else:
            self.halfmove_clock += 1
        own = self._pieces[c]
        own.discard(f)
        own.add(t)
        b[t] = moved
        b[f] = 0
        if moved == c * KING:
            self._kings[c] = t
        self.key = key
        if c == -1:
            self.fullmove_number += 1
        self.turn = Color.BLACK if c == 1 else Color.RED

    def pop_code(self) -> int:
        """Undo the last :meth:`push_code` and return its code."""
        m, captured, clock, key = self._stack.pop()
        f, t = m >> 7, m & 127
        b = self._b
        moved = b[t]
        c = 1 if moved > 0 else -1
        b[f] = moved
        b[t] = captured
        own = self._pieces[c]
        own.discard(t)
        own.add(f)
        if captured:
            self._pieces[-c].add(t)
        if moved == c * KING:
            self._kings[c] = f
        if c == -1:
            self.fullmove_number -= 1
        self.halfmove_clock = clock
        self.key = key
        self.turn = Color.RED if c == 1 else Color.BLACK
        return m

    def push(self, move: Move) -> None:
        """Make a legal move.  Raises :class:`IllegalMoveError` if it is not legal."""
        if not self.is_legal(move):
            raise IllegalMoveError(*self.illegal_reasons(move))
        self.push_code(move.from_square << 7 | move.to_square)
        self.move_stack.append(Move(move.from_square, move.to_square))

    def push_unchecked(self, move: Move) -> None:
        """Make a move known to be legal, skipping the legality test."""
        self.push_code(move.from_square << 7 | move.to_square)
        self.move_stack.append(Move(move.from_square, move.to_square))

    def push_iccs(self, text: str) -> Move:
        """Parse an ICCS move, make it and return it.

        Raises :class:`InvalidMoveError` or :class:`IllegalMoveError`.
        """
        move = Move.from_iccs(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises :class:`IllegalMoveError` if there is no move to take back.
        """
        if not self._stack:
            raise IllegalMoveError("没有可以悔的着法", "no move to take back")
        self.pop_code()
        return self.move_stack.pop()

    def peek(self) -> Move | None:
        """The last move made, or ``None``."""
        return self.move_stack[-1] if self.move_stack else None

    def last_captured(self) -> Piece | None:
        """The piece captured by the last move, or ``None``."""
        if not self._stack:
            return None
        v = self._stack[-1][1]
        return None if not v else Piece(PieceType(abs(v)), Color(1 if v > 0 else -1))

    def illegal_reason(self, move: Move) -> str:
        """Why ``move`` is illegal for the side to move, as a sentence with the ply.

        Meant for error messages; for a legal move it still returns the last
        reason in the list (leaving the general attacked), so test
        :meth:`is_legal` first.  :meth:`illegal_reasons` gives it in
        Chinese too.
        """
        return self.illegal_reasons(move)[1]

    def illegal_reasons(self, move: Move) -> tuple[str, str]:
        """Return ``(zh, en)``: :meth:`illegal_reason` in Chinese and in
        English."""
        f, t = move
        ply = len(self.move_stack) + 1
        where = f"ply {ply} ({self.turn.name.lower()} to move)"
        where_zh = f"第 {ply} 步（{self.turn.chinese}方走）"
        if not (0 <= f < 90 and 0 <= t < 90):
            return (f"{where_zh}：着法 {move!r} 的点不在棋盘上",
                    f"{where}: square out of the board in move {move!r}")
        name = Move(f, t).iccs()
        v = self._b[f]
        if not v:
            return (f"{where_zh}：{square_name(f)} 上没有棋子，不能走 {name}",
                    f"{where}: no piece on {square_name(f)} for move {name}")
        if v * self.turn < 0:
            return (f"{where_zh}：{name} 走的是对方的棋子",
                    f"{where}: {name} moves an opponent's piece")
        if not self.is_pseudo_legal(move):
            p = self.piece_at(f)
            assert p is not None
            return (f"{where_zh}：{square_name(f)} 的{p.chinese()}不能走到 {square_name(t)}（{name}）",
                    f"{where}: the {p.english()} on {square_name(f)} cannot move to "
                    f"{square_name(t)} ({name})")
        return (f"{where_zh}：{name} 走后本方{'帅' if self.turn > 0 else '将'}被将军或帅将对面（4.1.2）",
                f"{where}: {name} leaves the general in check or facing the other general (4.1.2)")

    # ------------------------------------------------------------ repetition
    def passed(self) -> Board:
        """A copy without history and with the other side to move (a "pass").

        Xiangqi has no pass; the repetition code asks with it what the side
        that just moved threatens.  If the side to move is in check, the copy
        is a position where a general can be captured: callers must not
        count that as play.
        """
        b = self.copy(stack=False)
        b.turn = b.turn.other
        b.key ^= ZOBRIST_BLACK  # the key includes the side to move
        return b

    def history_keys(self, last: int | None = None) -> list[int]:
        """Zobrist keys of every position of the game so far, oldest first;
        with ``last``, only the keys of the last ``last`` moves' positions
        before the current one (``last + 1`` keys at most).

        The key includes the side to move, so equal keys mean the same
        position with the same player to move.
        """
        stack = self._stack
        if last is not None:
            stack = stack[max(0, len(stack) - last):]
        return [k for (_, _, _, k) in stack] + [self.key]

    def root(self) -> Board:
        """A board at the position before the first move of the history."""
        b = self.copy()
        while b._stack:
            b.pop_code()
        b.move_stack = []
        return b

    # ----------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Number of leaf nodes of the legal move tree of ``depth`` plies."""
        if depth <= 0:
            return 1
        moves = self.legal_codes()
        if depth == 1:
            return len(moves)
        n = 0
        push, pop = self.push_code, self.pop_code
        for m in moves:
            push(m)
            n += self.perft(depth - 1)
            pop()
        return n

    def iter_squares(self) -> Iterator[tuple[int, Piece]]:
        """``(square, piece)`` for every occupied square, in square order."""
        for s in range(90):
            p = self.piece_at(s)
            if p is not None:
                yield s, p
