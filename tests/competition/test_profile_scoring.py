"""An event scores by its rule profile's points unless the organiser names a
scoring table (issue 13.11).

Seed 001, the 2007 trial rules (贴分): "胜方3分，负方0分；红方和局1分，黑方和局2分"
— a win 3, a loss 0, a draw 1 to Red and 2 to Black.  14.1 (the usual
profile): win 1, draw ½, loss 0.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli.tournament import app
from qisai.competition.errors import CompetitionError
from qisai.competition.groups import GroupStage
from qisai.competition.model import Result
from qisai.competition.scoring import CLASSIC, TRIAL_2007, table_for_rules
from qisai.competition.tournament import Player, System, Tournament

WIN_2007, LOSS_2007, DRAW_RED_2007, DRAW_BLACK_2007 = 3.0, 0.0, 1.0, 2.0
DRAW_14_1 = 0.5

runner = CliRunner()


def two_player_event(**kw: object) -> Tournament:
    """A double round robin of two: each plays Red once and Black once."""
    t = Tournament("贴分赛", System.DOUBLE_ROUND_ROBIN, draw_numbers=False, **kw)  # type: ignore[arg-type]
    t.add_player(Player("甲"))
    t.add_player(Player("乙"))
    t.start()
    return t


def points(t: Tournament) -> dict[int, float]:
    return {s.entry: s.points for s in t.standings()}


def test_2007_profile_table_is_the_trial_points() -> None:
    table = table_for_rules("cxa-2007")
    assert (table.win, table.loss) == (WIN_2007, LOSS_2007)
    assert (table.draw_red, table.draw_black) == (DRAW_RED_2007, DRAW_BLACK_2007)
    assert table == TRIAL_2007
    assert table_for_rules("cxa") == CLASSIC
    with pytest.raises(CompetitionError, match="rule profile"):
        table_for_rules("no-such-rules")


def test_event_under_cxa_2007_scores_draws_1_to_red_and_2_to_black() -> None:
    t = two_player_event(rules="cxa-2007")
    assert t.scoring == TRIAL_2007 and t.rules == "cxa-2007"
    r1 = t.pair_next_round().pairings[0]
    t.record_result(1, r1.board, Result.DRAW)
    assert points(t) == {r1.red: DRAW_RED_2007, r1.black: DRAW_BLACK_2007}
    r2 = t.pair_next_round().pairings[0]
    assert (r2.red, r2.black) == (r1.black, r1.red)  # colours swapped
    t.record_result(2, r2.board, Result.DRAW)
    both = DRAW_RED_2007 + DRAW_BLACK_2007
    assert points(t) == {r1.red: both, r1.black: both}


def test_explicit_scoring_overrides_the_profile() -> None:
    t = two_player_event(rules="cxa-2007", scoring=CLASSIC)
    r1 = t.pair_next_round().pairings[0]
    t.record_result(1, r1.board, Result.DRAW)
    assert points(t) == {r1.red: DRAW_14_1, r1.black: DRAW_14_1}


def test_profile_and_scoring_survive_the_event_file() -> None:
    t = two_player_event(rules="cxa-2007")
    back = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    assert back.rules == "cxa-2007" and back.scoring == TRIAL_2007
    plain = Tournament.from_dict(json.loads(json.dumps(two_player_event().to_dict())))
    assert plain.rules is None and plain.scoring == CLASSIC


def test_group_stage_scores_by_the_profile() -> None:
    players = [Player(f"P{i}", 2000 - i) for i in range(4)]
    stage = GroupStage.create("组", players, 2, rules="cxa-2007")
    assert all(g.scoring == TRIAL_2007 and g.rules == "cxa-2007" for g in stage.groups)
    override = GroupStage.create("组", players, 2, rules="cxa-2007", scoring=CLASSIC)
    assert all(g.scoring == CLASSIC for g in override.groups)


def _cli_event(tmp_path: Path, *extra: str) -> tuple[Path, list[dict[str, object]]]:
    entries = tmp_path / "entries.csv"
    entries.write_text("name\n甲\n乙\n", encoding="utf-8")
    ev = tmp_path / "ev.json"
    res = runner.invoke(app, ["create", str(ev), "--entries", str(entries), "--system",
                              "double_round_robin", "--no-draw-numbers", *extra])
    assert res.exit_code == 0, res.output
    after: list[dict[str, object]] = []
    for rnd in (1, 2):
        assert runner.invoke(app, ["pair", str(ev)]).exit_code == 0
        res = runner.invoke(app, ["result", str(ev), str(rnd), "1", "="])
        assert res.exit_code == 0, res.output
        rows = json.loads(runner.invoke(app, ["pairings", str(ev), str(rnd), "--format",
                                              "json"]).output)
        table = json.loads(runner.invoke(app, ["standings", str(ev), "--format",
                                               "json"]).output)
        after.append({"pairing": rows[0], "standings": table["standings"]})
    return ev, after


def _by_name(standings: list[dict[str, object]]) -> dict[str, float]:
    return {str(r["name"]): float(r["points"]) for r in standings}  # type: ignore[arg-type]


def test_cli_rules_cxa_2007_scores_by_the_profile(tmp_path: Path) -> None:
    ev, after = _cli_event(tmp_path, "--rules", "cxa-2007")
    first = after[0]["pairing"]
    assert isinstance(first, dict)
    red, black = str(first["red_name"]), str(first["black_name"])
    assert _by_name(after[0]["standings"]) == {red: DRAW_RED_2007, black: DRAW_BLACK_2007}  # type: ignore[arg-type]
    both = DRAW_RED_2007 + DRAW_BLACK_2007
    assert _by_name(after[1]["standings"]) == {red: both, black: both}  # type: ignore[arg-type]
    assert json.loads(ev.read_text(encoding="utf-8"))["rules"] == "cxa-2007"


def test_cli_explicit_scoring_overrides_the_profile(tmp_path: Path) -> None:
    _, after = _cli_event(tmp_path, "--rules", "cxa-2007", "--scoring", "classic")
    assert set(_by_name(after[1]["standings"]).values()) == {2 * DRAW_14_1}  # type: ignore[arg-type]


def test_cli_unknown_rules_is_an_error(tmp_path: Path) -> None:
    entries = tmp_path / "entries.csv"
    entries.write_text("name\n甲\n乙\n", encoding="utf-8")
    res = runner.invoke(app, ["create", str(tmp_path / "ev.json"), "--entries", str(entries),
                              "--system", "round_robin", "--rules", "nope"])
    assert res.exit_code == 2 and "nope" in res.output
