"""A (mis)behaving xboard/CECP Xiangqi engine for the tests:
``python xboard_fake.py MODE [TOKEN]`` (TOKEN only marks the process).

It keeps a board (qisai's) in force mode (moves count from the game's
start, so a process plays every game alike) and, at ``go``, plays the first
legal move, a capture if there is one, written ``move MOVE`` (ranks 0-9),
unless MODE says otherwise:

* ``good`` - protocol 2 (``ping``, ``setboard``, ``usermove``, ``myname``),
  plays; takes a draw offer (``draw``) by answering ``offer draw``;
* ``nosetboard`` - as ``good`` but ``setboard=0`` (like MaxQi);
* ``v1`` - protocol 1: no ``feature`` answer, no ``ping``; moves written
  the old way (``1. ... MOVE``);
* ``slowdone`` - ``done=0`` first, ``done=1`` a moment later;
* ``nodone`` - ``done=0`` and never ``done=1`` (fails to start);
* ``novariant`` - ``variants="normal"`` (no Xiangqi: fails to start);
* ``exit`` - exits at once (fails to start);
* ``illegal`` - a well-formed illegal move (``a0a9``/``a9a0``);
* ``garbage`` - ``move xyzzy``;
* ``crash`` - exits at its second move (mid-game);
* ``hang`` - never answers ``go`` from its second move on, nor ``?``;
* ``closepipe`` - closes its output at its second move and lives on;
* ``resign`` - ``resign`` instead of its third move;
* ``offer`` - ``offer draw`` with each move;
* ``claim`` - claims ``1/2-1/2 {Draw by repetition}`` instead of its
  second move, and whenever asked again;
* ``claimloss`` - claims its own loss instead of its second move;
* ``refuse`` - answers ``Illegal move: MOVE`` to the second move it is fed.
"""

import os
import sys
import time

if __name__ == "__main__" and sys.argv[1:2] == ["exit"]:
    sys.exit(3)  # before the imports: it dies at once

from qisai.xiangqi.board import Board
from qisai.xiangqi.squares import Move

FEATURES = 'feature ping=1 setboard=1 usermove=1 myname="Fake CECP {mode}" variants="xiangqi"'


def out(*lines: str) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def choose(board: Board) -> Move:
    moves = sorted(board.legal_moves(), key=lambda m: m.iccs())
    captures = [m for m in moves if board.is_capture(m)]
    return (captures or moves)[0]


def main() -> None:
    mode = sys.argv[1]
    board = Board()
    fed = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            if mode == "v1":
                continue
            features = FEATURES.format(mode=mode)
            if mode == "nosetboard":
                features = features.replace("setboard=1", "setboard=0")
            if mode == "novariant":
                features = features.replace('"xiangqi"', '"normal"')
            if mode in ("slowdone", "nodone"):
                out("feature done=0")
                if mode == "nodone":
                    continue
                time.sleep(0.5)
            out(features, 'feature option="Depth -spin 3 1 9"', "feature done=1")
        elif cmd == "ping" and mode != "v1":
            out("pong " + " ".join(words[1:]))
        elif cmd == "new":
            board = Board()
        elif cmd == "setboard":
            if mode == "nosetboard":
                out("Error (unknown command): setboard")
            else:
                fen = " ".join(words[1:])
                board = Board(fen.replace("h", "n").replace("H", "N").replace("e", "b")
                              .replace("E", "B") if "h" in fen.split()[0].lower() else fen)
        elif cmd == "usermove" or (len(cmd) == 4 and cmd[1].isdigit() and cmd[3].isdigit()):
            text = words[-1]
            fed += 1
            if mode == "refuse" and fed == 2:
                out(f"Illegal move: {text}")
                continue
            try:
                board.push(Move.from_iccs(text))
            except Exception:  # noqa: BLE001 - a fake answers what it cannot take
                out(f"Illegal move: {text}")
        elif cmd == "draw" and mode == "good":
            out("offer draw")
        elif cmd == "go":
            gos = len(board.move_stack) // 2 + 1  # its move number in this game
            if mode == "crash" and gos == 2:
                sys.exit(1)
            if mode == "hang" and gos >= 2:
                continue
            if mode == "closepipe" and gos == 2:
                sys.stdout.close()
                os.close(1)
                time.sleep(3600)
            if mode == "resign" and gos == 3:
                out("resign")
                continue
            if mode == "claim" and gos >= 2:
                out("1/2-1/2 {Draw by repetition}")
                continue
            if mode == "claimloss" and gos == 2:
                out("0-1 {Red resigns}" if board.turn.name == "RED" else "1-0 {Black resigns}")
                continue
            if mode == "illegal":
                out("move a0a9" if board.turn.name == "RED" else "move a9a0")
                continue
            if mode == "garbage":
                out("move xyzzy")
                continue
            move = choose(board)
            board.push(move)
            out("1 12 0 5 " + move.iccs())
            if mode == "offer":
                out("offer draw")
            out(f"{len(board.move_stack) // 2 + 1}. ... {move.iccs()}" if mode == "v1"
                else f"move {move.iccs()}")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
