"""A 12-team, 11-round league in the format of the 2021 national team league
(seed 001; issue 33), played by bots.

Every board of every match must be decided (001): a slow game, if drawn a
rapid game with colours swapped, if drawn again a deciding game whose
colours the rapid game's Black chooses.  The bots' results are random: a
game is drawn with the probability given for its kind (default: slow 45 %,
rapid 35 %, decider 25 %) and otherwise won by either side at even odds;
the chooser of a decider takes Red or Black at random.  What a drawn
decider gives is not in 001: ``--decider-drawn lot`` (the default reading)
or ``black`` (an armageddon game).

Prints the standings by match points (场分 2/1/0, 14.2; as 001's table
they sum to 132 = 66 matches x 2), the number of slow, rapid and deciding
games and of drawn deciders, and the time the event model took.

    python3 bench/league_2021.py [--seed N] [--boards 4] [--decider-drawn lot|black]
                                 [--draws 0.45,0.35,0.25]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's qisai

from qisai.competition.events.team_event import TeamEvent  # noqa: E402

# the twelve teams of 001's table
TEAMS = ["广东碧桂园", "浙江民泰银行", "河南楚河汉界天伦", "北京威凯金环建设京冀联队",
         "四川成都懿锦控股", "厦门象屿", "深圳弈川象棋俱乐部", "杭州环境集团", "上海金外滩",
         "江苏海特俱乐部", "浙江体彩", "黑龙江长生"]


def play(seed: int, boards: int, decider_drawn: str,
         draws: dict[str, float]) -> tuple[TeamEvent, dict[str, int]]:
    """Play the league; return the event and the games counted by kind."""
    rng = random.Random(seed)
    ev = TeamEvent("2021 league (bots)", system="round_robin", boards=boards, seed=seed,
                   series="league_2021", decider_drawn=decider_drawn)
    for k, name in enumerate(TEAMS):
        ev.add_team(name, [f"{name[:2]}{k + 1}-{b}" for b in range(1, boards + 1)])
    ev.start()
    counts = {"slow": 0, "rapid": 0, "decider": 0, "decider_drawn": 0}
    for _ in range(ev.rounds_planned or 0):
        r = ev.pair_next_round()
        for m in ev.team_tournament().rounds[r - 1]:
            if m.black_team is None:
                continue
            for b in range(1, boards + 1):
                while True:
                    chooser = ev.awaiting_choice(r, m.board, b)
                    if chooser is not None:
                        red, black = ev._board_names(r, m.board, b)
                        ev.choose_colour(r, m.board, b, rng.choice([red, black]))
                        continue
                    nxt = ev.next_board_game(r, m.board, b)
                    if nxt is None:
                        break
                    kind = nxt["kind"]
                    counts[kind] += 1
                    if rng.random() < draws[kind]:
                        result = "="
                        counts["decider_drawn"] += kind == "decider"
                    else:
                        result = rng.choice(["1-0", "0-1"])
                    ev.record_board(r, m.board, b, result)
    return ev, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2021)
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--decider-drawn", choices=("lot", "black"), default="lot")
    ap.add_argument("--draws", default="0.45,0.35,0.25",
                    help="draw rates of the slow, rapid and deciding games")
    a = ap.parse_args()
    rates = [float(x) for x in a.draws.split(",")]
    draws = dict(zip(("slow", "rapid", "decider"), rates, strict=True))
    t0 = time.perf_counter()
    ev, counts = play(a.seed, a.boards, a.decider_drawn, draws)
    took = time.perf_counter() - t0
    st = ev.standings()
    recs = ev.records()
    print(f"12 teams, 11 rounds, {a.boards} boards, seed {a.seed}, drawn decider: "
          f"{a.decider_drawn}")
    print(f"{'名次':<4}{'队名':<16}{'场分':>6}{'局分':>6}")
    for s in st:
        board_points = sum(e.game_points for e in recs[s.entry].encounters)
        place = f"{s.rank}=" if s.shared else str(s.rank)
        print(f"{place:<5}{ev.team_tournament().team(s.entry).name:<16}{s.points:>6g}{board_points:>6g}")
    total = sum(s.points for s in st)
    boards = 66 * a.boards
    print(f"match points in all: {total:g} (66 matches x 2 = 132)")
    print(f"games: slow {counts['slow']} (= boards {boards}), rapid {counts['rapid']}, "
          f"deciding {counts['decider']} ({counts['decider_drawn']} drawn, settled by "
          f"{a.decider_drawn})")
    print(f"event model time: {took:.2f} s")


if __name__ == "__main__":
    main()
