"""Results in bulk (10.1 results as signed; 9.2 fouls recorded): a whole round
from one text, by board or by players, all-or-nothing with per-item errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli.tournament import app
from qisai.competition.bulk import BulkResultError, parse_items, record_results
from qisai.competition.model import Result

from ._sim import make_event

runner = CliRunner()


def _paired(n: int = 8):  # type: ignore[no-untyped-def]
    t = make_event(n, "swiss", 3, 4)
    t.pair_next_round()
    return t


def test_by_board_and_by_players() -> None:
    t = _paired()
    rec = t.rounds[0]
    b1, b2, b3, b4 = rec.pairings
    text = (f"1 1-0, 2 =; {b3.black}-{b3.red} 1-0 f=0/2\n"
            f"{b4.red}:{b4.black} 0-1  # comment")
    games = record_results(t, 1, parse_items(text))
    assert [g.result for g in games] == [Result.RED_WIN, Result.DRAW, Result.BLACK_WIN,
                                         Result.BLACK_WIN]
    # "b3.black-b3.red 1-0": the first-named (Black) won; fouls follow the naming order
    assert (rec.results[3].red_fouls, rec.results[3].black_fouls) == (2, 0)
    assert rec.complete


def test_by_single_player() -> None:
    t = _paired()
    p = t.rounds[0].pairings[0]
    record_results(t, 1, parse_items(f"{p.black} 1-0", by_player=True))
    assert t.rounds[0].results[1].result is Result.BLACK_WIN


def test_every_bad_item_is_named_with_its_board_and_nothing_is_recorded() -> None:
    t = _paired()
    rec = t.rounds[0]
    t.record_result(1, 2, "=")
    b3 = rec.pairings[2]
    other = rec.pairings[3].red
    with pytest.raises(BulkResultError) as err:
        record_results(t, 1, parse_items(f"1 1-0, 2 0-1, 9 1-0, 1 =, {b3.red}-{other} 1-0"))
    problems = err.value.problems
    assert len(problems) == 4
    assert "(board 2)" in problems[0] and "already entered" in problems[0]
    assert "no board 9" in problems[1]
    assert "(board 1)" in problems[2] and "also given by item 1" in problems[2]
    assert f"(board 3): {b3.red} plays {b3.black}, not {other}" in problems[3]
    assert set(rec.results) == {2}  # board 1 was fine but is not recorded either


def test_unreadable_items() -> None:
    with pytest.raises(BulkResultError) as err:
        parse_items("1 won, x 1-0, 3 1-0 fouls, 4")
    assert len(err.value.problems) == 4
    with pytest.raises(BulkResultError):
        parse_items("  # nothing\n")


def test_cli_round_from_one_line_and_from_a_file(tmp_path: Path) -> None:
    t = _paired()
    ev = tmp_path / "ev.json"
    t.save(ev)
    res = runner.invoke(app, ["result", str(ev), "--round", "1", "1 1-0, 2 =, 3 0-1"])
    assert res.exit_code == 0, res.output
    assert "still open: board(s) 4" in res.output
    bad = runner.invoke(app, ["result", str(ev), "--round", "1", "4 1-0, 3 =, 7 1-0"])
    assert bad.exit_code == 2
    assert "(board 3): result already entered" in bad.output and "no board 7" in bad.output
    items = tmp_path / "r1.txt"
    items.write_text("# round 1, last board\n4 +-\n", encoding="utf-8")
    res = runner.invoke(app, ["result", str(ev), "--round", "1", "--file", str(items)])
    assert res.exit_code == 0 and "complete" in res.output, res.output
    # the one-board form still works
    assert runner.invoke(app, ["pair", str(ev)]).exit_code == 0
    res = runner.invoke(app, ["result", str(ev), "2", "1", "=", "--red-fouls", "1"])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["result", str(ev), "2", "1"]).exit_code == 2


def test_bulk_keeps_the_event_consistent_over_a_whole_event(tmp_path: Path) -> None:
    t = make_event(9, "swiss", 4, 7)
    rng = random.Random(7)
    for r in range(1, 5):
        rec = t.pair_next_round()
        items = ", ".join(f"{p.red}-{p.black} {rng.choice(['1-0', '=', '0-1'])}"
                          for p in rec.pairings if not p.is_bye)
        record_results(t, r, parse_items(items))
        assert rec.complete
    assert t.finished
