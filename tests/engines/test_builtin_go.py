"""qisai's own Go engine: its playout board against the rules core, its
search, its GTP server, and games against a random player and GNU Go."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qisai.competition.match import EngineSpec, MatchConfig, parse_time_control, run_match
from qisai.engines.builtin import builtin_command
from qisai.engines.builtin.go_patterns import PATTERNS, code_at, matches
from qisai.engines.builtin.go_playout import BLACK, EMPTY, PASS, WHITE, Playout, _playout_move
from qisai.engines.builtin.go_priors import ladder_captures
from qisai.engines.builtin.go_search import MctsSearcher
from qisai.engines.builtin.go_server import GoServer
from qisai.engines.gtp import GtpEngine
from qisai.engines.play import Adjudication
from qisai.go.board import Board
from qisai.go.rules import JAPANESE, Color
from qisai.referee.records import go_from_sgf
from qisai.referee.rulesets import GoRules
from qisai.referee.verdict import Outcome, Reason, Side

RANDOM = Path(__file__).parent / "fakes" / "go_random.py"


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([5, 7, 9]))
def test_playout_board_agrees_with_the_rules_core(seed: int, size: int) -> None:
    # Simple ko (Japanese rules) is what the playout board knows.
    rng = random.Random(seed)
    board = Board(size, JAPANESE)
    pos = Playout(size)
    for _ in range(size * size * 2):
        legal = set(board.legal_points())
        mine = {pos.point(p) for p in pos.points
                if pos.cells[p] == EMPTY and pos.copy().play(p) is not None}
        assert mine == legal
        if not legal or rng.random() < 0.03:
            board.pass_move()
            pos.play(PASS)
            if board.is_game_over():
                break
            continue
        point = rng.choice(sorted(legal))
        board.play(point)
        assert pos.play(pos.index(*point)) is not None
        for p in pos.points:
            colour = board.get(pos.point(p))  # type: ignore[arg-type]
            assert pos.cells[p] == (EMPTY if colour is None else int(colour))


def test_playout_score_and_eyes() -> None:
    pos = Playout(5)
    # Black on column b, White on column e: empty points count for the
    # colour whose stones alone touch them (columns a, c for Black; d for White).
    for row in range(5):
        pos.cells[pos.index(row, 1)] = BLACK
        pos.cells[pos.index(row, 4)] = WHITE
    assert pos.score(0.5) == 15 - 10 - 0.5
    corner = Playout(5)
    corner.cells[corner.index(0, 3)] = WHITE
    corner.cells[corner.index(1, 4)] = WHITE
    assert corner.is_eye(corner.index(0, 4), WHITE)
    assert not corner.is_eye(corner.index(0, 4), BLACK)
    corner.cells[corner.index(1, 3)] = BLACK  # an enemy diagonal on the edge: false eye
    assert not corner.is_eye(corner.index(0, 4), WHITE)


def test_search_plays_the_capture_and_passes_with_nothing_left() -> None:
    pos = Playout(5)
    # A white stone in atari at the centre: Black captures at once.
    pos.cells[pos.index(2, 2)] = WHITE
    for point in ((1, 2), (3, 2), (2, 1)):
        pos.cells[pos.index(*point)] = BLACK
    outcome = MctsSearcher(seed=1).search(pos, 0.5, max_playouts=300)
    assert pos.point(outcome.move) == (2, 3)
    assert MctsSearcher(seed=1).search(pos, 0.5, allowed=[], max_playouts=10).move == PASS


def _gtp(server: GoServer, *lines: str) -> list[str]:
    out = io.StringIO()
    server._in = io.StringIO("\n".join(lines) + "\n")
    server._out = out
    server.run()
    return [block.strip() for block in out.getvalue().split("\n\n") if block.strip()]


def test_gtp_server_commands() -> None:
    server = GoServer(io.StringIO(), io.StringIO(), playouts=100, seed=3)
    replies = _gtp(server, "1 protocol_version", "boardsize 9", "komi 7.5", "play b E5",
                   "play b E5", "genmove w", "undo", "undo", "fixed_handicap 4", "genmove w",
                   "final_score", "final_status_list dead", "boardsize 99", "frobnicate",
                   "known_command genmove", "time_settings 60 10 5", "time_left w 30 0",
                   "kgs-time_settings byoyomi 60 10 3")
    assert replies[0] == "=1 2"
    assert replies[4].startswith("? illegal move")
    assert replies[5].startswith("= ") and replies[5] != "= pass"
    assert replies[8] == "= C3 G7 C7 G3" or sorted(replies[8][2:].split()) == ["C3", "C7", "G3", "G7"]
    assert replies[9].startswith("= ") and replies[9][2:] not in ("C3", "G7", "C7", "G3")
    assert re.fullmatch(r"= [BW]\+\d+(\.\d+)?|= 0", replies[10]) and replies[11] == "="
    assert replies[12].startswith("?") and replies[13] == "? unknown command"
    assert replies[14] == "= true"
    assert replies[-3:] == ["=", "=", "="]


def test_passes_back_when_ahead_and_agrees_on_dead_stones() -> None:
    server = GoServer(io.StringIO(), io.StringIO(), playouts=50, seed=1)
    # Black owns the left three columns of a 5x5 board, White the right two,
    # and a lone white stone sits dead in Black's area.
    moves = []
    for row in range(5):
        moves += [f"play b C{row + 1}", f"play w D{row + 1}"]
    moves += ["play b pass", "play w A3", "play b pass", "play w pass"]
    replies = _gtp(server, "boardsize 5", "komi 0.5", *moves, "genmove b",
                   "final_status_list dead", "final_score")
    assert replies[-3] == "= pass"
    assert replies[-2] == "= A3"
    assert replies[-1] == "= B+4.5"


def test_builtin_beats_a_random_player_and_its_records_reimport() -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("qisai", tuple(builtin_command("go")) + ("--playouts", "40", "--seed", "1"), "gtp"),
         EngineSpec("random", (sys.executable, str(RANDOM), "7"), "gtp")],
        time=parse_time_control("none"), games=2, concurrency=2, board_size=9,
        adjudication=Adjudication(max_plies=300), startup_timeout=30)
    report = asyncio.run(run_match(config))
    stats = report.pairs[(0, 1)]
    assert stats.wins == 2, report.summary()
    profile = config.profile()
    assert isinstance(profile, GoRules)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.reason is Reason.SCORE
        assert go_from_sgf(record.record, rules=profile).result == result


@pytest.mark.engine
def test_gnugo_against_builtin_on_9x9(gnugo: str) -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("gnugo", (gnugo, "--mode", "gtp", "--level", "0"), "gtp"),
         EngineSpec("qisai", tuple(builtin_command("go")) + ("--seconds", "0.05"), "gtp")],
        time=parse_time_control("movetime=0.5"), games=2, concurrency=2, board_size=9,
        adjudication=Adjudication(max_plies=300), startup_timeout=30)
    report = asyncio.run(run_match(config))
    assert len(report.games) == 2 and not report.faults, report.summary()
    profile = config.profile()
    assert isinstance(profile, GoRules)
    for record in report.games:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.WIN
        assert result.reason in (Reason.SCORE, Reason.RESIGNATION)
        assert go_from_sgf(record.record, rules=profile).result == result
        assert record.report.game.moves[-1].move == "pass" or result.reason is Reason.RESIGNATION
    assert sum(1 for r in report.games if r.report.result and r.report.result.winner in
               (Side.FIRST, Side.SECOND)) == 2


def test_gtp_client_drives_the_server() -> None:
    async def go() -> None:
        engine = await GtpEngine.start(builtin_command("go") + ["--playouts", "30"], timeout=30)
        try:
            assert engine.name == "qisai-go" and "final_status_list" in engine.commands
            await engine.boardsize(9)
            await engine.komi(7.5)
            await engine.play(Color.BLACK, (4, 4))
            reply = await engine.genmove(Color.WHITE, timeout=30)
            assert reply.point is not None and reply.point != (4, 4)
        finally:
            await engine.quit()
    asyncio.run(go())


@pytest.mark.engine
def test_handicap_and_time_reach_gnugo(gnugo: str) -> None:
    config = MatchConfig(
        "go",
        [EngineSpec("passer", (sys.executable, str(Path(__file__).parent / "fakes" / "gtp_fake.py"),
                               "passer"), "gtp"),
         EngineSpec("gnugo", (gnugo, "--mode", "gtp", "--level", "0"), "gtp")],
        time=parse_time_control("60 byoyomi 3x10"), games=1, board_size=7, handicap=2, concurrency=2,
        adjudication=Adjudication(max_plies=200))
    report = asyncio.run(run_match(config))
    profile = config.profile()
    assert isinstance(profile, GoRules)
    assert len(report.games) == 2  # one game with each colour
    for record in report.games:
        assert not record.report.faults and not record.report.notes, record.report.notes
        assert "HA[2]" in record.record and record.record.count("AB[") == 1
        result = record.report.result
        assert result is not None and result.reason is Reason.SCORE
        # GNU Go wins with either colour against a player who only passes.
        assert record.report.names[result.winner.value] == "gnugo"  # type: ignore[union-attr]
        assert go_from_sgf(record.record, rules=profile).result == result


# ------------------------------------------------------------ the heuristics
def _diagram(*rows: str, to_move: int = BLACK) -> Playout:
    """A position from rows top to bottom: X black, O white, . empty."""
    size = len(rows)
    pos = Playout(size)
    for r, text in enumerate(rows):
        for c, ch in enumerate(text.replace(" ", "")):
            if ch in "XO":
                pos.cells[pos.index(size - 1 - r, c)] = BLACK if ch == "X" else WHITE
    pos.resync()
    pos.to_move = to_move
    return pos


def _at(pos: Playout, name: str) -> int:
    col = "ABCDEFGHJKLMNOPQRST".index(name[0])
    return pos.index(int(name[1:]) - 1, col)


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from([5, 9]))
def test_incremental_groups_and_codes_match_a_recount(seed: int, size: int) -> None:
    # After random play (with captures), every group's stones and liberties,
    # the empty list and the pattern codes equal a fresh count from the cells.
    rng = random.Random(seed)
    pos = Playout(size)
    for _ in range(size * size * 2):
        moves = [p for p in pos.empties if pos.legal(p)]
        if not moves:
            break
        pos.place(rng.choice(moves))
    for p in pos.points:
        if pos.cells[p] in (BLACK, WHITE):
            stones, libs = pos.group_liberties(p)
            root = pos.gid[p]
            assert sorted(pos.stones[root] or []) == sorted(stones)
            assert pos.libs[root] == libs
        else:
            assert pos.gid[p] == 0
        assert pos.codes[p] == code_at(pos.cells, p, pos.stride)
    assert sorted(pos.empties) == [p for p in pos.points if pos.cells[p] == EMPTY]
    assert all(pos.empties[pos.where[p]] == p for p in pos.empties)


def test_patterns_match_in_all_symmetries_and_both_colours() -> None:
    # The "hane, enclosing" shape X O X / . * . around D4 on an empty 9x9
    # board, turned eight ways, with Black and White either way round.
    shape = {(1, -1): "X", (1, 0): "O", (1, 1): "X"}
    for swap in (False, True):
        for sym in range(8):
            pos = Playout(9)
            centre = pos.index(4, 4)
            for (dr, dc), ch in shape.items():
                r, c = [(dr, dc), (dr, -dc), (-dr, dc), (-dr, -dc), (dc, dr), (dc, -dr),
                        (-dc, dr), (-dc, -dr)][sym]
                colour = BLACK if (ch == "X") != swap else WHITE
                pos.cells[pos.index(4 + r, 4 + c)] = colour
            assert matches(pos.cells, centre, pos.stride), (swap, sym)
            # A stone of the wrong colour in the middle breaks the shape.
            pos.cells[pos.index(4 + r, 4 + c)] = 3 - pos.cells[pos.index(4 + r, 4 + c)]
            assert not matches(pos.cells, centre, pos.stride), (swap, sym)
    # Edge shapes need the edge: the "chase" matches at A-line only.
    edge = _diagram(". . . . .", ". . . . .", ". . . . .", "X . . . .", "O . . . .")
    assert matches(edge.cells, _at(edge, "B1"), edge.stride)
    assert not matches(edge.cells, _at(edge, "C3"), edge.stride)
    assert len(PATTERNS) == 13


def test_ladder_reading() -> None:
    # White D4 in atari (liberty E4) in a ladder towards the upper right.
    rows = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . X . . . . .",
            ". . X O . . . . .",
            ". . . X X . . . .",
            ". . . . . . . . .",
            ". . . . . . . . ."]
    pos = _diagram(*rows, to_move=WHITE)
    white = _at(pos, "D4")
    assert len(pos.libs[pos.gid[white]] or ()) == 1
    assert ladder_captures(pos, white)
    # A white stone on the ladder's path breaks it.
    rows[1] = ". . . . . . O . ."
    broken = _diagram(*rows, to_move=WHITE)
    assert not ladder_captures(broken, white)


def test_search_captures_a_group_in_atari() -> None:
    # Three white stones in atari (liberty F4) in Black's wall: Black takes them.
    pos = _diagram(". . . . . . .",
                   ". . . . . . .",
                   ". . X X X . .",
                   ". X O O O . .",
                   ". . X X X . .",
                   ". . . . . . .",
                   ". . . . . . .")
    assert len(pos.libs[pos.gid[_at(pos, "C4")]] or ()) == 1
    outcome = MctsSearcher(seed=2).search(pos, 0.5, max_playouts=300)
    assert outcome.move == _at(pos, "F4"), pos.point(outcome.move)
    # White to move saves them the same way.
    pos.to_move = WHITE
    outcome = MctsSearcher(seed=2).search(pos, 0.5, max_playouts=300)
    assert outcome.move == _at(pos, "F4"), pos.point(outcome.move)


def test_search_saves_its_group_in_atari() -> None:
    # Black's two stones are in atari at C5; extending there gives them
    # three liberties towards the open top.
    pos = _diagram(". . . . . . .",
                   ". . . . . . .",
                   ". . . . . . .",
                   ". O X O . . .",
                   ". O X O . . .",
                   ". . O . . . .",
                   ". . . . . . .")
    group = _at(pos, "C4")
    assert len(pos.libs[pos.gid[group]] or ()) == 1
    outcome = MctsSearcher(seed=3).search(pos, 0.5, max_playouts=300)
    assert outcome.move == _at(pos, "C5"), pos.point(outcome.move)


def test_playouts_and_search_never_fill_an_own_eye() -> None:
    # Black owns the board but for two one-point eyes: every playout move
    # passes rather than fill them, and the search has nothing to play.
    pos = _diagram("X X X X X",
                   "X . X X X",
                   "X X X X X",
                   "X X X . X",
                   "X X X X X")
    rng = random.Random(1)
    assert all(_playout_move(pos, rng) == PASS for _ in range(50))
    assert MctsSearcher(seed=1).search(pos, 0.5, max_playouts=20).move == PASS
    # An eye among other empty points is never chosen either.
    pos = _diagram(". . . . .",
                   ". . . . .",
                   "X X X . .",
                   ". X X . .",
                   "X X X . .")
    eye = _at(pos, "A2")
    assert all(_playout_move(pos, rng) != eye for _ in range(300))


def test_passes_only_when_the_count_wins() -> None:
    # Black column B, White column D, column C neutral (dame): with komi
    # 0.5 Black is 0.5 behind if it passes now, so after White's pass it
    # fills a dame point instead.
    server = GoServer(io.StringIO(), io.StringIO(), playouts=200, seed=1)
    moves = []
    for row in range(5):
        moves += [f"play b B{row + 1}", f"play w D{row + 1}"]
    replies = _gtp(server, "boardsize 5", "komi 0.5", *moves, "play b pass", "play w pass",
                   "genmove b")
    assert replies[-1][2] == "C", replies[-1]
    # One dame later Black is ahead: it passes back.
    replies = _gtp(server, "play w pass", "genmove b")
    assert replies[-1] == "= pass"
    # When counting would take most of the time for the move, it plays on.
    _gtp(server, "undo", "qisai-seconds 0.2")
    server.playouts = None
    server.count_seconds = 5.0
    replies = _gtp(server, "genmove b")
    assert replies[-1] != "= pass" and server.count_seconds == 5.0


def test_time_allocation_on_9x9() -> None:
    server = GoServer(io.StringIO(), io.StringIO())
    _gtp(server, "boardsize 9", "kgs-time_settings absolute 300", "time_left b 300 0")
    # 81 empty points: about 27 more moves for us.
    assert 300 / 30 < server._budget(Color.BLACK) < 300 / 24
    _gtp(server, "time_left b 20 0")
    assert 0.5 < server._budget(Color.BLACK) < 1.0
    _gtp(server, "kgs-time_settings byoyomi 0 10 3", "time_left b 10 1")
    assert 7 < server._budget(Color.BLACK) < 10
    # The end of the main time with byo-yomi to follow: most of a period.
    _gtp(server, "kgs-time_settings byoyomi 60 10 3", "time_left b 1 0")
    assert 7 < server._budget(Color.BLACK) < 10


def test_search_keeps_the_subtree_of_the_reply_it_expected() -> None:
    searcher = MctsSearcher(seed=4)
    pos = Playout(7)
    first = searcher.search(pos, 7.5, max_playouts=300)
    assert first.reused == 0
    pos.play(first.move)
    # The reply the search explored most: its subtree is kept.
    root = searcher._tree[1]  # type: ignore[index]
    ours = next(c for c in root.children or [] if c.move == first.move)
    reply = max(ours.children or [], key=lambda c: c.n)
    kept = reply.n
    pos.play(reply.move)
    second = searcher.search(pos, 7.5, max_playouts=100)
    assert second.reused == kept > 0
    # Every playout but those that ended at the node before it grew children.
    assert sum(second.visits.values()) == kept + 100 - searcher.expand_after
    # A position that does not follow from the last search starts afresh.
    other = Playout(7)
    other.play(other.index(0, 0))
    other.play(other.index(6, 6))
    assert searcher.search(other, 7.5, max_playouts=50).reused == 0


def test_kgs_rules_set_the_board_rules() -> None:
    # The arena's pooled engine serves games under every profile: it is told
    # the rules (kgs-rules), so it never refuses a move the referee allows.
    from qisai.engines.builtin.go_server import GoServer, GtpFailure
    from qisai.go.rules import CHINESE, JAPANESE

    server = GoServer(io.StringIO(), io.StringIO())
    assert "kgs-rules" in server.handle("list_commands", []).split()
    assert server.rules is CHINESE
    server.handle("kgs-rules", ["japanese"])
    server.handle("komi", ["6.5"])
    server.handle("boardsize", ["9"])
    assert server.rules is JAPANESE and server.board.rules.ko is JAPANESE.ko
    with pytest.raises(GtpFailure):
        server.handle("kgs-rules", ["martian"])
