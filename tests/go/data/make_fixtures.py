"""Generate GNU Go self-play fixtures (run by hand; not part of the suite).

Usage::

    python3 tests/go/data/make_fixtures.py 9 40 > tests/go/data/gnugo_9x9.json
    python3 tests/go/data/make_fixtures.py 13 40 2001 --finished > tests/go/data/gnugo_13x13_finished.json
    python3 tests/go/data/make_fixtures.py 9 80 5001 --random-moves=20-40 > tests/go/data/gnugo_9x9_random_openings.json

Each game: GNU Go (``--level 1``) plays itself from a few random opening
moves (so the games differ), optionally after ``fixed_handicap``.  When both
sides pass, GNU Go is asked for ``final_score`` and ``final_status_list``
(dead, seki) under Chinese rules, and the same moves are replayed into a
second GNU Go under Japanese rules for its territory score.  The output is a
JSON list; qisai's tests replay and count each game and must agree.

``--random-moves=A-B`` plays A to B random legal moves first (default 2-8):
the games then hold many dead stones and strings short of liberties, as
games of weak players do, and GNU Go plays them out to the end.

With ``--finished`` GNU Go may resign, and a game it resigns is skipped: the
games kept are those played to the end (both sides passed in a position
neither side gave up), as a collection of finished games has them.  Without
it (``--never-resign``) a hopeless side passes instead, and some games end
after a few moves with a whole side dead.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"


class Gtp:
    """A minimal GTP pipe to GNU Go."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [GNUGO, "--mode", "gtp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, command: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise RuntimeError(f"gnugo died on {command!r}")
            if line.strip() == "" and lines:
                break
            if line.strip() == "":
                continue
            lines.append(line.rstrip("\n"))
        text = "\n".join(lines)
        if not text.startswith("="):
            raise RuntimeError(f"{command!r}: {text}")
        return text[1:].strip()

    def close(self) -> None:
        self("quit")
        self.proc.wait()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.stdout.close()


def letters(size: int) -> str:
    return "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:size]


def one_game(size: int, seed: int, handicap: int, komi: float,
             finished: bool = False, opening: tuple[int, int] = (2, 8)) -> dict[str, object] | None:
    rng = random.Random(seed)
    args = ["--level", "1", "--seed", str(seed)] + ([] if finished else ["--never-resign"])
    gtp = Gtp(*args, "--chinese-rules")
    gtp(f"boardsize {size}")
    gtp("clear_board")
    gtp(f"komi {komi}")
    setup: list[str] = []
    if handicap:
        setup = gtp(f"fixed_handicap {handicap}").split()
    color = "w" if handicap else "b"
    moves: list[list[str]] = []
    cols = letters(size)
    for _ in range(rng.randint(*opening)):
        for _try in range(20):
            vertex = f"{rng.choice(cols)}{rng.randint(1, size)}"
            if gtp(f"is_legal {color} {vertex}") == "1":
                gtp(f"play {color} {vertex}")
                moves.append([color.upper(), vertex])
                color = "b" if color == "w" else "w"
                break
    passes = 0
    while passes < 2 and len(moves) < size * size * 3:
        vertex = gtp(f"genmove {color}").upper()
        if vertex == "RESIGN":
            gtp.close()
            return None
        moves.append([color.upper(), "pass" if vertex == "PASS" else vertex])
        passes = passes + 1 if vertex == "PASS" else 0
        color = "b" if color == "w" else "w"
    if passes < 2:
        gtp.close()
        return None
    game: dict[str, object] = {
        "size": size,
        "komi": komi,
        "handicap": handicap,
        "setup_black": setup,
        "moves": moves,
        "seed": seed,
        "chinese_score": gtp("final_score"),
        "dead": gtp("final_status_list dead").split(),
        "seki": gtp("final_status_list seki").split(),
        "sgf": gtp("printsgf"),
    }
    gtp.close()
    jap = Gtp("--level", "1", "--japanese-rules")
    jap(f"boardsize {size}")
    jap("clear_board")
    jap(f"komi {komi}")
    if setup:
        jap(f"set_free_handicap {' '.join(setup)}")
    for c, v in moves:
        jap(f"play {c} {v}")
    game["japanese_score"] = jap("final_score")
    game["japanese_dead"] = jap("final_status_list dead").split()
    game["japanese_seki"] = jap("final_status_list seki").split()
    jap.close()
    return game


def main() -> None:
    finished = "--finished" in sys.argv
    opening = (2, 8)
    argv = [a for a in sys.argv if a != "--finished"]
    for a in list(argv):
        if a.startswith("--random-moves="):
            low, _, high = a.split("=", 1)[1].partition("-")
            opening = (int(low), int(high or low))
            argv.remove(a)
    size = int(argv[1])
    count = int(argv[2])
    first_seed = int(argv[3]) if len(argv) > 3 else 1
    games = []
    seed = first_seed
    while len(games) < count:
        handicap = 0
        if seed % 4 == 3:
            handicap = 2 + (seed // 4) % 8 if size >= 13 else 2 + (seed // 4) % 4
        komi = 0.5 if handicap else 7.5
        game = one_game(size, seed, handicap, komi, finished, opening)
        if game is not None:
            games.append(game)
            print(f"game {seed}: {len(game['moves'])} moves {game['chinese_score']}",  # type: ignore[arg-type]
                  file=sys.stderr)
        seed += 1
    sys.stdout.write("[\n" + ",\n".join(json.dumps(g) for g in games) + "\n]\n")


if __name__ == "__main__":
    main()
