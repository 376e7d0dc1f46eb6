"""A random legal Go player over GTP, for the tests: ``python go_random.py SEED``.

It plays a uniformly random legal move that does not fill one of its own
one-point eyes, and passes when none is left or after the opponent passed
and it has nothing but such moves.
"""

import random
import sys

from qisai.go.board import Board
from qisai.go.coords import gtp_name, parse_gtp
from qisai.go.errors import GoError
from qisai.go.rules import Color


def own_eye(board: Board, point: tuple[int, int], color: Color) -> bool:
    return all(board.get(q) is color for q in board.neighbours(point))


def main() -> None:
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    size = 19
    board = Board(size)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd, args = words[0], words[1:]
        out = ""
        ok = True
        if cmd == "protocol_version":
            out = "2"
        elif cmd == "name":
            out = "random"
        elif cmd == "version":
            out = "1"
        elif cmd == "list_commands":
            out = "protocol_version\nname\nversion\nboardsize\nclear_board\nkomi\nplay\ngenmove\nquit"
        elif cmd == "boardsize":
            size = int(args[0])
            board = Board(size)
        elif cmd == "clear_board":
            board = Board(size)
        elif cmd == "play":
            color = Color.from_letter(args[0])
            try:
                if board.to_move is not color:
                    board.pass_move()
                board.play(parse_gtp(args[1], size))
            except GoError:
                ok, out = False, "illegal move"
        elif cmd == "genmove":
            color = Color.from_letter(args[0])
            if board.to_move is not color:
                board.pass_move()
            moves = [p for p in board.legal_points() if not own_eye(board, p, color)]
            if moves:
                point = rng.choice(moves)
                board.play(point)
                out = gtp_name(point, size)
            else:
                board.pass_move()
                out = "pass"
        elif cmd == "quit":
            print("=\n", flush=True)
            return
        print(("= " if ok else "? ") + out + "\n", flush=True)


if __name__ == "__main__":
    main()
