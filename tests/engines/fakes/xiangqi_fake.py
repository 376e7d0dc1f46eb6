"""A misbehaving UCI/UCCI engine for the tests: ``python xiangqi_fake.py MODE``.

It completes the handshake (except in the start-up modes) and then, at
``go``, misbehaves as MODE says:

* ``exit`` - exits before the handshake (fails to start);
* ``silent`` - never answers the handshake;
* ``garbage`` - answers ``go`` with a best move that is not a move;
* ``illegal`` - answers ``go`` with a well-formed but illegal move (a0a9);
* ``hang`` - never answers ``go``, ignores ``stop``;
* ``crash`` - exits at ``go``;
* ``late`` - answers only after ``stop``;
* ``noise`` - prints garbage lines, then a legal first move (h2e2 / h3e3);
* ``good`` - plays the first legal-looking move it is told (always b0c2 / b1c3
  for Red, b9c7 / b10c8 for Black), for protocol tests.
"""

import sys
import time


def main() -> None:
    mode = sys.argv[1]
    if mode == "exit":
        sys.exit(3)
    ranks_1_10 = False
    black = False
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd in ("uci", "ucci"):
            if mode == "silent":
                continue
            print("id name Fake " + mode)
            if cmd == "uci" and "variant" in sys.argv[2:]:
                print("option name UCI_Variant type combo default chess var chess var xiangqi")
                ranks_1_10 = True
            print("option name Hash type spin default 16 min 1 max 64")
            print(cmd + "ok")
        elif cmd == "isready":
            print("readyok")
        elif cmd == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
            black = (len(moves) % 2 == 1) != (" b " in line)
            print("info string position " + " ".join(words[1:]))
        elif cmd == "go":
            if mode == "garbage":
                print("bestmove xyzzy")
            elif mode == "illegal":
                print("bestmove a1a10" if ranks_1_10 else "bestmove a0a9")
            elif mode == "hang":
                time.sleep(3600)
            elif mode == "crash":
                sys.exit(1)
            elif mode == "late":
                pass
            else:
                if mode == "noise":
                    print("this is not UCI at all")
                    print("info depth banana score cp")
                red = ("b1c3" if ranks_1_10 else "b0c2")
                blk = ("b10c8" if ranks_1_10 else "b9c7")
                print("info depth 1 score cp 12 nodes 5 pv " + (blk if black else red))
                print("bestmove " + (blk if black else red) + " ponder h3e3")
        elif cmd == "stop" and mode == "late":
            print("bestmove b0c2")
        elif cmd == "quit":
            return
        sys.stdout.flush()


if __name__ == "__main__":
    main()
