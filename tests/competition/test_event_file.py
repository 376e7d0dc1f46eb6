"""The event file (qisai.competition.events.file): every kind round-trips
through JSON, bare files of the older formats load, bad files say where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qisai.competition.entries import read_entries
from qisai.competition.errors import CompetitionError, EventFileError
from qisai.competition.events.create import FORMATS, EventOptions, create_event
from qisai.competition.events.file import EventFile, Header
from qisai.competition.model import Colour
from qisai.competition.tournament import Player, Tournament

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"


def make(fmt: str) -> EventFile:
    sheet = {"team-round-robin": "teams.csv", "team-swiss": "teams.csv",
             "team-all-play-all": "two_teams.csv",
             "mcmahon": "go_players.csv"}.get(fmt, "players_zh.csv")
    opts = EventOptions(fmt, rounds=3, boards=2)
    return create_event(read_entries(DATA / sheet), opts, Header("赛", venue="杭州"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_round_trips_after_a_round(fmt: str, tmp_path: Path) -> None:
    ef = make(fmt)
    ef.event.pair_next_round()
    ef.add_penalty("1", "warning", 1, "手机响")
    path = tmp_path / "e.json"
    ef.save(path)
    again = EventFile.load(path)
    assert again.kind == ef.kind and again.header == ef.header
    assert again.to_dict() == ef.to_dict()
    assert again.penalty_weights() == {1: 1}


def test_header_colours_by_game() -> None:
    assert Header("x").colour_names == ("红", "黑")
    assert Header("x", game="go").colour_names == ("黑", "白")
    assert Header("x", game="go").colour(Colour.RED) == "黑"  # the first mover
    with pytest.raises(CompetitionError):
        Header("x", game="chess")


def test_penalty_weights_order_by_severity_then_number() -> None:
    """18.4: 按其轻重程度和次数 — one loss of a game (18.2) weighs more than
    any number of warnings (18.1)."""
    ef = make("swiss")
    for _ in range(3):
        ef.add_penalty("1", "warning", 1)
    ef.add_penalty("2", "forfeit", 1)
    w = ef.penalty_weights()
    assert w[2] > w[1] > 0
    with pytest.raises(CompetitionError, match="penalty kind"):
        ef.add_penalty("3", "scolding", 1)


def test_bare_tournament_file_loads_as_individual(tmp_path: Path) -> None:
    t = Tournament("俱乐部赛", "swiss", rounds=2)
    for name in ("甲", "乙", "丙"):
        t.add_player(Player(name))
    t.start()
    t.save(tmp_path / "t.json")
    ef = EventFile.load(tmp_path / "t.json")
    assert ef.kind == "individual" and ef.header.name == "俱乐部赛"


def test_bad_files_name_the_problem(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text("{", encoding="utf-8")
    with pytest.raises(EventFileError, match="line 1: not JSON"):
        EventFile.load(p)
    p.write_text(json.dumps({"format": "something"}), encoding="utf-8")
    with pytest.raises(EventFileError, match="not a qisai event file"):
        EventFile.load(p)
    data = make("swiss").to_dict()
    data["penalties"] = [{"entry": 1, "round": 1, "kind": "nap", "note": ""}]
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(EventFileError, match="unknown penalty kind"):
        EventFile.load(p)
    data["penalties"] = []
    data["kind"] = "chess"
    p.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(EventFileError, match="unknown kind"):
        EventFile.load(p)
    with pytest.raises(EventFileError, match="cannot read"):
        EventFile.load(tmp_path / "missing.json")


def test_play_off_needs_a_shared_place() -> None:
    ef = make("round-robin")
    t = ef.individual
    rec = t.pair_next_round()
    for p in rec.pairings:
        if not p.is_bye:
            t.record_result(1, p.board, "1-0")
    first = next(p for p in rec.pairings if not p.is_bye)
    assert first.black is not None
    with pytest.raises(CompetitionError, match="do not share"):
        ef.start_playoff([first.red, first.black])  # a winner and a loser
    with pytest.raises(CompetitionError, match="unknown play-off series"):
        ef.start_playoff([p.red for p in rec.pairings[:2]], "best_of_five")
    po = ef.start_playoff([p.red for p in rec.pairings[:2]], "single")
    assert po.decided_order() is None
