"""Outputs: text, CSV, JSON, HTML, TRF (round trip through the TRF reader)."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from qisai.competition import output
from qisai.competition.scoring import TRIAL_2007
from qisai.competition.tiebreaks import Criterion
from qisai.competition.trf import TrfError, parse_trf

from ._sim import make_event, play_round


def _event():  # type: ignore[no-untyped-def]
    t = make_event(7, "swiss", 3, 2)
    rng = random.Random(2)
    for _ in range(3):
        play_round(t, rng, 0.1)
    return t


def test_text_csv_json_html_agree() -> None:
    t = _event()
    st = t.standings()
    text = output.standings_text(t)
    assert text.splitlines()[0].split()[:4] == ["名次", "编号", "姓名", "积分"]
    assert len(text.splitlines()) == 1 + len(st)
    rows = list(csv.DictReader(io.StringIO(output.standings_csv(t))))
    assert [int(r["number"]) for r in rows] == [s.entry for s in st]
    assert [float(r["points"]) for r in rows] == [s.points for s in st]
    data = json.loads(json.dumps(output.standings_json(t)))
    assert [r["buchholz"] for r in data["standings"]] == [s.values[Criterion.BUCHHOLZ]
                                                         for s in st]
    html = output.standings_html(t)
    assert html.count("<tr>") == len(st) + 1 and "对手分" in html
    cross = output.crosstable_grid(t)
    assert len(cross) == 8 and cross[1][2] == "x"
    assert output.crosstable_csv(t).count("\n") == 8
    assert "<table" in output.crosstable_html(t)
    assert "round 1" in output.pairings_text(t, 1)


def test_html_is_escaped() -> None:
    t = make_event(2, "round_robin")
    t.players[0].name = "<script>"
    html = output.standings_html(t)
    assert "<script>" not in html
    assert "<td>&lt;script&gt;</td>" in html  # the name is shown, escaped


def test_trf_round_trip() -> None:
    t = _event()
    text = output.tournament_trf(t)
    back = parse_trf(text)
    assert set(back.players) == {p.id for p in t.players}
    def key(gs):  # type: ignore[no-untyped-def]
        # TRF carries no fouls (犯规): compare everything else
        return sorted((g.round, g.red, g.black, g.result.value) for g in gs)

    assert key(back.games()) == key(t.games(annul=False))
    pts = {s.entry: s.points for s in t.standings()}
    assert {n: p.points for n, p in back.players.items()} == pts


def test_trf_refuses_colour_dependent_draws() -> None:
    t = make_event(4, "round_robin", None, 0, scoring=TRIAL_2007)
    with pytest.raises(TrfError, match="TRF cannot express"):
        output.tournament_trf(t)


def test_trf_reader_errors() -> None:
    with pytest.raises(TrfError, match="no 001"):
        parse_trf("012 nothing\n")
    with pytest.raises(TrfError, match="line 2"):
        parse_trf("012 x\n001 abcd      broken\n")


def test_pairings_formats() -> None:
    t = _event()
    rows = output.pairings_rows(t, 2)
    assert [r["board"] for r in rows] == [p.board for p in t.rounds[1].pairings]
    assert sum(r["black"] is None for r in rows) == 1  # 7 players: one bye
    assert output.pairings_csv(t, 2).count("\n") == len(rows) + 1
    assert output.pairings_html(t, 2).count("<tr>") == len(rows) + 1
    with pytest.raises(Exception, match="not been paired"):
        output.pairings_rows(t, 9)
