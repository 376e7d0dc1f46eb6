"""Pairings by hand (swap, re-pair, fixed boards): checked against the rules,
each finding citing its clause; a rematch is refused unless forced
(Appendix 2 "相遇过的对手不再编对"), colour limits (13.3, Appendix 2) and score
groups (Appendix 2 "同分者编对") are warned about; the reason is logged."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli.tournament import app
from qisai.competition.errors import EventStateError
from qisai.competition.hand_pairings import (
    ManualPairingError,
    check_round,
    pair_with_fixed,
    parse_boards,
    set_round,
    swap,
)
from qisai.competition.model import Pairing
from qisai.competition.tournament import Tournament

from ._sim import make_event, play_round

runner = CliRunner()


def _event(rounds_played: int = 2, n: int = 8, seed: int = 3) -> Tournament:
    t = make_event(n, "swiss", 5, seed)
    rng = random.Random(seed)
    for _ in range(rounds_played):
        play_round(t, rng)
    t.pair_next_round()
    return t


def _met(t: Tournament) -> set[frozenset[int]]:
    return {frozenset((g.red, g.black)) for r in t.rounds[:-1] for g in r.results.values()
            if g.black is not None}


def _rematch_swap(t: Tournament) -> tuple[int, int]:
    """Two entries whose swap makes a rematch in the last round."""
    rec = t.rounds[-1]
    met = _met(t)
    for p in rec.pairings:
        for q in rec.pairings:
            if p.board != q.board and p.black is not None and q.black is not None \
                    and frozenset((p.red, q.red)) in met:
                return p.black, q.red  # p.red then meets q.red
    raise AssertionError("no swap makes a rematch")


def test_swap_into_a_rematch_is_refused_unless_forced() -> None:
    t = _event()
    a, b = _rematch_swap(t)
    before = list(t.rounds[-1].pairings)
    with pytest.raises(ManualPairingError) as err:
        swap(t, 3, a, b, "player asked")
    assert err.value.findings[0].severity == "rematch"
    assert "相遇过的对手不再编对" in err.value.findings[0].clause
    assert t.rounds[-1].pairings == before  # nothing changed
    found = swap(t, 3, a, b, "arbiter's decision", force=True)
    assert any(f.severity == "rematch" for f in found)
    log = "\n".join(t.rounds[-1].explanation)
    assert f"swapped {a} and {b}; reason: arbiter's decision" in log
    assert "相遇过的对手不再编对" in log


def test_swap_on_one_board_swaps_colours_and_warns_about_colour_limits() -> None:
    t = _event(rounds_played=2)
    rec = t.rounds[-1]
    states = {s.id: s for s in t.swiss_states(3)}
    # a board where swapping colours gives someone a third Red or Black in a row
    for p in rec.pairings:
        if p.black is None:
            continue
        last_b, run_b = states[p.black].streak()
        last_r, run_r = states[p.red].streak()
        if (run_b == 2 and last_b is not None and last_b.value == "red") or \
                (run_r == 2 and last_r is not None and last_r.value == "black"):
            found = swap(t, 3, p.red, p.black, "colours exchanged")
            assert t.rounds[-1].board(p.board) == Pairing(p.black, p.red, p.board)
            assert any(f.clause.startswith("13.3") for f in found), found
            return
    pytest.skip("no board with a two-long run in this history")


def test_manual_pairing_out_of_score_groups_is_warned() -> None:
    t = _event(rounds_played=2)
    t.rounds.pop()  # pair round 3 by hand
    states = sorted(t.swiss_states(3), key=lambda s: (-s.score, s.id))
    met = _met_all(t)
    # top against bottom, avoiding rematches: crosses every score group
    ids = [s.id for s in states]
    boards = []
    while ids:
        a = ids.pop(0)
        b = next(x for x in reversed(ids) if frozenset((a, x)) not in met)
        ids.remove(b)
        boards.append(Pairing(a, b))
    found = set_round(t, boards, "test")
    assert any("同分者编对" in f.clause for f in found), found
    assert t.rounds[-1].explanation[0] == "arbiter: paired by hand; reason: test"


def _met_all(t: Tournament) -> set[frozenset[int]]:
    return {frozenset((g.red, g.black)) for r in t.rounds for g in r.results.values()
            if g.black is not None}


def test_structural_errors_are_refused_even_when_forced() -> None:
    t = _event()
    rec = t.rounds[-1]
    p1, p2 = rec.pairings[0], rec.pairings[1]
    assert p1.black is not None
    bad = [Pairing(p1.red, p1.black), Pairing(p1.red, p2.red)]
    with pytest.raises(ManualPairingError) as err:
        set_round(t, bad, "oops", round_no=3, force=True)
    text = " ".join(str(f) for f in err.value.findings)
    assert "also on board" in text and "not paired" in text


def test_repair_only_before_results_and_only_the_last_round() -> None:
    t = _event()
    rec = t.rounds[-1]
    same = [Pairing(p.red, p.black) for p in rec.pairings]
    set_round(t, same, "board order", round_no=3)
    assert "re-paired by hand" in t.rounds[-1].explanation[-1] or any(
        "re-paired by hand" in line for line in t.rounds[-1].explanation)
    t.record_result(3, 1, "1-0")
    with pytest.raises(EventStateError):
        set_round(t, same, "late", round_no=3)
    with pytest.raises(EventStateError):
        swap(t, 2, same[0].red, same[1].red, "old round")


def test_fixed_board_then_the_pairer_pairs_the_rest() -> None:
    t = _event()
    t.rounds.pop()
    states = sorted(t.swiss_states(3), key=lambda s: (-s.score, s.id))
    met = _met_all(t)
    a = states[0].id
    b = next(s.id for s in reversed(states) if frozenset((a, s.id)) not in met)
    rec, found = pair_with_fixed(t, [Pairing(a, b)], "sponsor's board")
    assert any({p.red, p.black} == {a, b} for p in rec.pairings)
    assert sorted(x for p in rec.pairings for x in p.players()) == sorted(s.id for s in states)
    assert not any(f.severity == "rematch" for f in check_round(t, 3, rec.pairings))
    assert any("boards fixed by hand" in line for line in rec.explanation)


def test_parse_boards() -> None:
    assert parse_boards("1-5, 2:6; 7") == [Pairing(1, 5, 1), Pairing(2, 6, 2),
                                           Pairing(7, None, 3)]
    with pytest.raises(Exception, match="item 2"):
        parse_boards("1-5, x")


def test_cli_swap_and_manual(tmp_path: Path) -> None:
    t = _event()
    ev = tmp_path / "ev.json"
    t.save(ev)
    a, b = _rematch_swap(t)
    res = runner.invoke(app, ["swap", str(ev), str(a), str(b), "--reason", "asked"])
    assert res.exit_code == 2 and "相遇过的对手不再编对" in res.output
    assert "--force" in res.output
    res = runner.invoke(app, ["swap", str(ev), str(a), str(b), "--reason", "asked",
                              "--force"])
    assert res.exit_code == 0, res.output
    back = Tournament.load(ev)
    assert any("reason: asked" in line for line in back.rounds[-1].explanation)
    boards = ", ".join(f"{p.red}-{p.black}" if p.black else str(p.red)
                       for p in back.rounds[-1].pairings)
    res = runner.invoke(app, ["pair", str(ev), "--manual", boards, "--round", "3",
                              "--reason", "undo", "--force"])
    assert res.exit_code == 0, res.output
