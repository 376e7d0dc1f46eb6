"""Score adjudication in engine matches (cutechess-cli's ``-resign`` and
``-draw``), played out end to end: engines that report a fixed score
(fakes/xiangqi_scorer.py) are resigned or drawn by the arbiter once the
rule's run of moves is complete, and not before.  A draw by adjudication is
the arbiter's 4.2.1 (和棋: 双方均无取胜可能)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from qisai.competition.match import EngineSpec, MatchConfig, parse_time_control, run_match
from qisai.engines.play import Adjudication
from qisai.referee.verdict import Outcome, Reason, Side

SCORER = Path(__file__).resolve().parent.parent / "engines" / "fakes" / "xiangqi_scorer.py"


def scorer(cp: int) -> EngineSpec:
    return EngineSpec(f"cp{cp}", (sys.executable, str(SCORER), str(cp)), "uci")


def match(a: int, b: int, adjudication: Adjudication, games: int = 2) -> list:  # type: ignore[type-arg]
    config = MatchConfig("xiangqi", [scorer(a), scorer(b)], games=games,
                         time=parse_time_control("movetime=0.01"), adjudication=adjudication)
    return asyncio.run(run_match(config)).games


def test_losing_engine_resigns_after_the_run_of_moves() -> None:
    # cp-900 thinks it is lost on every move; cp900 thinks it is winning
    records = match(-900, 900, Adjudication(resign_moves=3, resign_score=500))
    assert len(records) == 2
    for record in records:
        report = record.report
        loser = Side.FIRST if record.first == 0 else Side.SECOND  # the cp-900 engine
        result = report.result
        assert result is not None and result.outcome is Outcome.WIN
        assert result.winner is loser.other and result.reason is Reason.RESIGNATION
        assert "cp-900 resigned by score adjudication" in report.notes
        # its third move completes the run: 3 of its moves were played
        own = [m for m in report.game.moves if m.side is loser]
        assert len(own) == 3


def test_no_resignation_when_the_score_is_above_the_threshold() -> None:
    records = match(-400, 400, Adjudication(resign_moves=3, resign_score=500, max_plies=12))
    assert len(records) == 2
    for record in records:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.DRAW
        assert not any("score adjudication" in n for n in record.report.notes)
        assert len(record.report.game.moves) == 12  # ended by max_plies only
        assert record.report.game.events[-1].note == "adjudicated after 12 plies"


def test_balanced_scores_are_drawn_by_the_arbiter() -> None:
    # from move 2, 2 moves each with |score| <= 10: drawn after ply 6
    records = match(5, -5, Adjudication(draw_from=2, draw_moves=2, draw_score=10))
    assert len(records) == 2
    for record in records:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.DRAW
        assert result.reason is Reason.NO_WIN_POSSIBLE and result.clause == "4.2.1"
        assert len(record.report.game.moves) == 6
        assert record.report.game.events[-1].note == "draw by score adjudication"
        assert "draw by score adjudication" in result.explanation_en


def test_unbalanced_scores_are_not_drawn() -> None:
    records = match(50, -50, Adjudication(draw_from=1, draw_moves=2, draw_score=10,
                                          max_plies=10), games=2)
    assert len(records) == 2
    for record in records:
        result = record.report.result
        assert result is not None and result.outcome is Outcome.DRAW
        assert len(record.report.game.moves) == 10  # max_plies, not the score
