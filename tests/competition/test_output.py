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


# -- issue 16.4: TRF rank column and multi-byte names ------------------------------

# TRF-16/TRF-2026 player section (FIDE handbook C.04 Annex 2), 1-based positions
_TRF_FIELDS = {"number": (5, 8), "name": (15, 47), "rating": (49, 52), "points": (81, 84),
               "rank": (86, 89), "r1_opponent": (92, 95), "r1_colour": (97, 97),
               "r1_result": (99, 99)}


def _field(line: bytes | str, name: str) -> bytes | str:
    lo, hi = _TRF_FIELDS[name]
    return line[lo - 1:hi]


def _tied_event():  # type: ignore[no-untyped-def]
    """An event whose standings order differs from (points, number) order."""
    for seed in range(50):
        t = make_event(8, "swiss", 3, seed)
        rng = random.Random(seed)
        for _ in range(3):
            play_round(t, rng)
        st = t.standings()
        by_points = sorted(st, key=lambda s: (-s.points, s.entry))
        if [s.entry for s in st] != [s.entry for s in by_points]:
            return t
    raise AssertionError("no event with a tie-break decided order")


def test_trf_rank_is_the_standings_place() -> None:
    """TRF 001 positions 86-89: "Rank -- exact definition, ties allowed": the
    place in the standings after the tie-breaks (15.2), shared places shared."""
    t = _tied_event()
    back = parse_trf(output.tournament_trf(t))
    assert {n: p.rank for n, p in back.players.items()} == {s.entry: s.rank
                                                             for s in t.standings()}


def _chinese_event():  # type: ignore[no-untyped-def]
    t = _event()
    names = ["张三", "李四", "王小明", "欧阳娜娜", "Lü Qin", "胡荣华", "A"]
    for p, name in zip(t.players, names, strict=True):
        p.name = name
    return t


def test_trf_chinese_names_keep_the_code_point_columns() -> None:
    """Default (``columns="chars"``): fields at the spec's positions counted in
    characters (Unicode code points), as bbpPairings reads a TRF (it decodes
    UTF-8 to char32_t and indexes code points); the file parses back."""
    t = _chinese_event()
    text = output.tournament_trf(t)
    st = {s.entry: s for s in t.standings()}
    for line in text.splitlines():
        if not line.startswith("001"):
            continue
        number = int(_field(line, "number"))
        assert str(_field(line, "name")).strip() == t.player(number).name
        assert float(_field(line, "points")) == st[number].points
        assert int(_field(line, "rank")) == st[number].rank
    back = parse_trf(text)
    assert {n: p.name for n, p in back.players.items()} == {p.id: p.name for p in t.players}
    assert {n: p.points for n, p in back.players.items()} == {n: s.points
                                                             for n, s in st.items()}


def test_trf_chinese_names_at_byte_columns() -> None:
    """``columns="bytes"``: names padded so that every later field stands at
    the spec's position counted in UTF-8 bytes (for readers that index bytes);
    the own reader finds the layout and parses it back."""
    from qisai.competition.trf import export_trf

    t = _chinese_event()
    text = export_trf(t.name, [(p.id, p.name, p.rating) for p in t.players],
                      t.games(annul=False), t.scoring, 3,
                      ranks={s.entry: s.rank for s in t.standings()}, columns="bytes")
    st = {s.entry: s for s in t.standings()}
    for line in text.encode("utf-8").splitlines():
        if not line.startswith(b"001"):
            continue
        number = int(_field(line, "number"))
        assert bytes(_field(line, "name")).decode("utf-8").strip() == t.player(number).name
        assert float(_field(line, "points")) == st[number].points
        assert int(_field(line, "rank")) == st[number].rank
        assert _field(line, "r1_colour") in (b"w", b"b", b"-")
    back = parse_trf(text)
    assert {n: p.name for n, p in back.players.items()} == {p.id: p.name for p in t.players}
    assert {n: p.points for n, p in back.players.items()} == {n: s.points
                                                             for n, s in st.items()}

    def key(gs):  # type: ignore[no-untyped-def]
        return sorted((g.round, g.red, g.black, g.result.value) for g in gs)

    assert key(back.games()) == key(t.games(annul=False))


def test_trf_long_name_is_cut_on_a_character() -> None:
    from qisai.competition.trf import export_trf

    name = "象" * 20  # 60 bytes: more than the 33 positions of the name field
    for columns in ("chars", "bytes"):
        text = export_trf("x", [(1, name, 0), (2, "B", 0)], [], output_scoring(), 1,
                          columns=columns)
        back = parse_trf(text)
        assert name.startswith(back.players[1].name) and back.players[1].name


def output_scoring():  # type: ignore[no-untyped-def]
    from qisai.competition.scoring import CLASSIC

    return CLASSIC
