"""Game records: the :class:`Game` tree and Xiangqi PGN read/write.

A :class:`Game` is a tree of :class:`GameNode` objects: the root holds the
headers and the set-up position (``[FEN]``), every other node one move, its
comment, and its continuations (``variations[0]`` is the main line, the
others are alternatives).  The XQF and CBL/CBR readers build the same tree.

Readers check every move against the rules as they read, so a tree built by
a reader only holds legal moves.
"""

from __future__ import annotations

from collections.abc import Iterator

from qisai.xiangqi.board import STARTING_FEN, Board, Move
from qisai.xiangqi.errors import RecordError, XiangqiError

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class GameNode:
    """One position of a game record: the move that led here and what follows.

    ``move`` is ``None`` only for the root (the :class:`Game`).  ``comment``
    is the text after the move (for the root: the text before the first
    move).  ``variations`` are the moves played from here, main line first.
    """

    __slots__ = ("parent", "move", "comment", "variations")

    def __init__(self, parent: GameNode | None = None, move: Move | None = None,
                 comment: str = "") -> None:
        self.parent = parent
        self.move = move
        self.comment = comment
        self.variations: list[GameNode] = []

    # ------------------------------------------------------------- structure
    def game(self) -> Game:
        """The :class:`Game` at the root of this tree.

        Raises :class:`RecordError` if the node is not attached to a game.
        """
        node: GameNode = self
        while node.parent is not None:
            node = node.parent
        if not isinstance(node, Game):
            raise RecordError("node is not part of a Game")
        return node

    def ply(self) -> int:
        """Number of moves from the root to this node (0 for the root)."""
        n = 0
        node = self
        while node.parent is not None:
            n += 1
            node = node.parent
        return n

    def moves(self) -> list[Move]:
        """The moves from the root to this node, oldest first."""
        out: list[Move] = []
        node: GameNode | None = self
        while node is not None and node.move is not None:
            out.append(node.move)
            node = node.parent
        out.reverse()
        return out

    def board(self) -> Board:
        """A new board at this node's position (moves replayed from the set-up).

        Raises :class:`RecordError` if the set-up FEN or a move on the way is
        not valid (only possible for trees built by hand).
        """
        game = self.game()
        try:
            b = Board(game.fen)
        except XiangqiError as exc:
            raise RecordError(f"bad set-up position: {exc}") from None
        for ply, move in enumerate(self.moves(), 1):
            if not b.is_legal(move):
                raise RecordError(f"ply {ply}: illegal move {move.iccs()}")
            b.push_unchecked(move)
        return b

    def add_variation(self, move: Move, comment: str = "") -> GameNode:
        """Append a continuation ``move`` from this node and return its node.

        The move is not checked here (readers check moves as they read).
        """
        node = GameNode(self, move, comment)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move, comment: str = "") -> GameNode:
        """Insert ``move`` as the main continuation and return its node."""
        node = GameNode(self, move, comment)
        self.variations.insert(0, node)
        return node

    def next(self) -> GameNode | None:
        """The main-line continuation, or ``None`` at the end of a line."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_mainline(self) -> bool:
        """Whether every step from the root to here is a main continuation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line after this node."""
        return [n.move for n in self.mainline() if n.move is not None]

    def walk(self) -> Iterator[GameNode]:
        """Every node below this one, depth first, main line first."""
        stack = list(reversed(self.variations))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.variations))

    def count_nodes(self) -> int:
        """Number of moves in the tree below this node (all variations)."""
        return sum(1 for _ in self.walk())

    def __repr__(self) -> str:
        m = self.move.iccs() if self.move is not None else "root"
        return f"<GameNode {m} ply={self.ply()} variations={len(self.variations)}>"


class Game(GameNode):
    """A game record: headers, set-up position and the move tree.

    ``headers`` keeps PGN tag names (``Event``, ``Red``, ``Black``,
    ``Result``, ``FEN``, ...) in insertion order.  ``errors`` lists what a
    lenient reader (``strict=False``) had to drop; it is empty otherwise.
    """

    __slots__ = ("headers", "errors")

    def __init__(self, headers: dict[str, str] | None = None) -> None:
        super().__init__(None, None, "")
        self.headers: dict[str, str] = dict(headers) if headers else {}
        # Problems a lenient reader skipped over (empty for a clean read).
        self.errors: list[str] = []

    @property
    def fen(self) -> str:
        """The set-up FEN (``[FEN]`` header) or the standard start."""
        return self.headers.get("FEN") or STARTING_FEN

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown) from the headers."""
        r = self.headers.get("Result", "*")
        return r if r in RESULTS else "*"

    def __repr__(self) -> str:
        red = self.headers.get("Red", "?")
        black = self.headers.get("Black", "?")
        return f"<Game {red} vs {black} {self.result} plies={len(self.mainline_moves())}>"
