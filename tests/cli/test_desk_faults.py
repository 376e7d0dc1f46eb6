"""Small faults of the desk (issue 33 item 6), each as the director met it
on the command line."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app
from qisai.competition.events.file import EventFile

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()


def run(*args: object) -> tuple[int, str]:
    res = runner.invoke(app, [str(a) for a in args])
    return res.exit_code, res.output


def test_a_decided_knockout_match_is_named_by_its_own_number(tmp_path: Path) -> None:
    ev = tmp_path / "ko.json"
    assert run("event", "create", ev, "--entries", DATA / "players_zh.csv", "--format",
               "knockout")[0] == 0
    run("event", "pair", ev)
    assert run("event", "result", ev, 1, 3, "1-0")[0] == 0
    code, out = run("event", "result", ev, 1, 3, "0-1")
    assert code == 2 and "round 1 match 3 is decided" in out, out


def test_warnings_say_warning_once(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    run("tournament", "create", ev, "--entries", DATA / "players_zh.csv", "--rounds", 3)
    run("tournament", "pair", ev)
    run("tournament", "result", ev, "--round", 1, "1 1-0, 2 1-0, 3 1-0, 4 1-0")
    ef = EventFile.load(ev)
    rec = ef.individual.rounds[0]
    winners = [p.red for p in rec.pairings]
    losers = [p.black for p in rec.pairings]
    # winners against losers: every board crosses score groups (Appendix 2): warned
    manual = ", ".join(f"{w}-{x}" for w, x in zip(winners, reversed(losers), strict=True))
    code, out = run("tournament", "pair", ev, "--manual", manual, "--reason", "test")
    assert code == 0, out
    assert "warning: [" in out and "warning: warning:" not in out


def test_a_bulk_round_prints_a_rating_summary_details_on_request(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    run("tournament", "create", ev, "--entries", DATA / "players_zh.csv", "--rounds", 3)
    run("tournament", "pair", ev)
    code, out = run("tournament", "result", ev, "--round", 1, "1 1-0, 2 =, 3 0-1, 4 1-0")
    assert code == 0, out
    lines = [x for x in out.splitlines() if "->" in x]
    assert lines == []  # no line a player
    summary = next(x for x in out.splitlines() if x.startswith("rating changes after round 1"))
    assert "8 rated player(s)" in summary and "largest gain" in summary
    run("tournament", "pair", ev)
    code, out = run("tournament", "result", ev, "--round", 2, "1 1-0, 2 =, 3 0-1, 4 1-0",
                    "--rating-details")
    assert len([x for x in out.splitlines() if "->" in x]) == 8


def test_a_results_file_reports_syntax_and_board_errors_at_once(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    run("tournament", "create", ev, "--entries", DATA / "players_zh.csv", "--rounds", 3)
    run("tournament", "pair", ev)
    sheet = tmp_path / "r1.txt"
    sheet.write_text("1 1-0\n2 2-1\n9 =\n3 0-1 f=x\n4 1-0\n", encoding="utf-8")
    code, out = run("tournament", "result", ev, "--round", 1, "--file", sheet)
    assert code == 2
    bad = [x.strip() for x in out.splitlines() if x.strip().startswith("item ")]
    assert [b.split()[1] for b in bad] == ["2", "3", "4"]  # in file order, all at once
    assert "no board 9" in bad[1] and "f=RED/BLACK" in bad[2]
    assert not EventFile.load(ev).individual.rounds[0].results  # nothing recorded


def test_create_help_names_excel() -> None:
    code, out = run("tournament", "create", "--help")
    assert code == 0 and ".xlsx" in out
