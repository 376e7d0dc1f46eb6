"""Standings are ranked once per state (issue 29): the kept ranking equals
one computed afresh after every kind of change (a result, a correction, a
withdrawal, a penalty, a round paired, a result written straight into a
round as the bulk path does, another criterion), and nothing is ranked
again while nothing changed."""

from __future__ import annotations

import random

import pytest

import qisai.competition.ranking as ranking_module
from qisai.competition.model import Game, Result
from qisai.competition.tiebreaks import Criterion, rank
from qisai.competition.tournament import Tournament

from ._sim import make_event, play_round


def fresh(t: Tournament) -> list[object]:
    return list(rank(t.records(), t.tiebreaks, t.policy))


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the field was placed (ranked, afresh or updated)."""
    calls = [0]
    real = ranking_module.place

    def counting(*args: object, **kw: object) -> object:
        calls[0] += 1
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(ranking_module, "place", counting)
    return calls


def same(t: Tournament, counted: list[int]) -> None:
    """The kept standings are the fresh ones; asked again, nothing is ranked."""
    assert t.standings() == fresh(t)
    before = counted[0]
    first = t.standings()
    first[0].values.clear()  # a caller's copy: the kept one is not touched
    first[0].points = -1.0
    assert t.standings() == fresh(t) and counted[0] == before


def test_kept_standings_follow_every_change(counted: list[int]) -> None:
    rng = random.Random(29)
    t = make_event(30, "swiss", 7, 4)
    for _ in range(3):
        play_round(t, rng)
        same(t, counted)
    rec = t.pair_next_round()  # a round paired (a bye scored at once)
    same(t, counted)
    board = next(p.board for p in rec.pairings if not p.is_bye)
    t.record_result(rec.number, board, Result.RED_WIN)  # a result
    same(t, counted)
    red = rec.board(board).red
    old = next(s.points for s in t.standings() if s.entry == red)
    t.record_result(rec.number, board, Result.BLACK_WIN, overwrite=True)  # a correction
    same(t, counted)
    assert next(s.points for s in t.standings() if s.entry == red) == old - 1
    t.record_result(rec.number, board, Result.BLACK_WIN, red_fouls=2, overwrite=True)  # fouls
    same(t, counted)
    other = next(p for p in rec.pairings if not p.is_bye and p.board not in rec.results)
    t.withdraw(other.red, t.settled_round(other.red))  # his open game a forfeit (20.4)
    assert rec.results[other.board].result is Result.BLACK_FORFEIT_WIN
    same(t, counted)
    t.player(3).penalty = 2  # 18.4
    same(t, counted)
    p = next(p for p in rec.pairings if not p.is_bye and p.board not in rec.results)
    rec.results[p.board] = Game(rec.number, p.red, p.black, Result.DRAW)  # straight in
    same(t, counted)
    t.tiebreaks = (Criterion.SONNEBORN_BERGER, Criterion.WINS)  # another criterion
    same(t, counted)


def test_a_change_ranks_again(counted: list[int]) -> None:
    t = make_event(12, "swiss", 5, 1)
    play_round(t, random.Random(1))
    t.standings()
    n = counted[0]
    t.standings()
    assert counted[0] == n
    rec = t.rounds[0]
    board = min(b for b, g in rec.results.items() if g.black is not None)
    g = rec.results[board]
    flipped = Result.DRAW if g.result is not Result.DRAW else Result.RED_WIN
    t.record_result(1, board, flipped, overwrite=True)
    t.standings()
    assert counted[0] == n + 1
