"""A result corrected after the next round is paired (issue 33 item 3).

积分编排制 pairs inside score groups (Appendix 2), so a correction of round 2
after round 3 is paired can leave round 3 crossing score groups.  The
command must ask for a reason, log it in round 2's record, warn which
round-3 boards the correction moves (worked out here by hand from the
results the test entered), and re-pair round 3's unplayed boards on the
new scores when asked, keeping the boards already played."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from qisai.cli import app

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()

ROUND1 = "1 1-0, 2 1-0, 3 1-0, 4 1-0"
ROUND2 = "1 1-0, 2 =, 3 1-0, 4 0-1"


def t(*args: object, code: int = 0) -> str:
    res = runner.invoke(app, ["tournament", *[str(a) for a in args]])
    assert res.exit_code == code, res.output
    return res.output


def scores(rounds: list[dict], upto: int) -> dict[int, float]:
    """Scores from the file's pairings and results, by hand (win 1, draw ½)."""
    out: dict[int, float] = {}
    for rnd in rounds[:upto]:
        res = {r["board"]: r["result"] for r in rnd["results"]}
        for board, red, black in rnd["pairings"]:
            out.setdefault(red, 0.0)
            if black is None:
                continue
            out.setdefault(black, 0.0)
            r = res.get(board)
            out[red] += {"1-0": 1, "=-=": 0.5}.get(r, 0)
            out[black] += {"0-1": 1, "=-=": 0.5}.get(r, 0)
    return out


def test_correction_after_the_next_round_is_paired(tmp_path: Path) -> None:
    ev = tmp_path / "swiss.json"
    t("create", ev, "--entries", DATA / "players_zh.csv", "--rounds", "5")
    t("pair", ev)
    t("result", ev, "--round", 1, ROUND1)
    t("pair", ev)
    t("result", ev, "--round", 2, ROUND2)
    t("pair", ev)
    data = json.loads(ev.read_text(encoding="utf-8"))
    r2, r3 = data["rounds"][1], data["rounds"][2]
    # the board of round 2 to correct: one whose loser sits level with his round-3
    # opponent, so that the correction splits a round-3 board's score group
    before = scores(data["rounds"], 2)
    res2 = {r["board"]: r["result"] for r in r2["results"]}
    target = None
    for board, red, black in r2["pairings"]:
        if res2.get(board) in ("1-0", "0-1"):
            winner = red if res2[board] == "1-0" else black
            opp = next(b if a == winner else a for _, a, b in r3["pairings"]
                       if winner in (a, b))
            if before[opp] == before[winner]:
                target = (board, "0-1" if res2[board] == "1-0" else "1-0")
                break
    assert target is not None
    board, new = target
    # a played board of round 3 stays as it is when the rest is re-paired
    played = next(p for p in r3["pairings"]
                  if p[1] not in (red_black := next(pp[1:] for pp in r2["pairings"]
                                                    if pp[0] == board))
                  and p[2] not in red_black)
    t("result", ev, 3, played[0], "=")
    # no reason: refused, nothing changed
    out = t("result", ev, 2, board, new, "--overwrite", code=2)
    assert "needs a reason" in out
    assert json.loads(ev.read_text(encoding="utf-8"))["rounds"][1] == r2
    out = t("result", ev, 2, board, new, "--overwrite", "--reason", "记录纸填错")
    assert "corrected" in out and "记录纸填错" in out
    data = json.loads(ev.read_text(encoding="utf-8"))
    after = scores(data["rounds"], 2)
    # the warnings name exactly the round-3 boards whose players' scores moved
    expect = []
    for b, red, black in data["rounds"][2]["pairings"]:
        if before[red] != after[red] or (black is not None and before[black] != after[black]):
            crosses = before[red] == before[black] and after[red] != after[black]
            expect.append((b, crosses))
    warned = [line for line in out.splitlines() if line.startswith("warning: round 3")]
    assert len(warned) == len(expect) and expect
    for (b, crosses), line in zip(expect, warned, strict=True):
        assert line.startswith(f"warning: round 3 board {b}:")
        assert ("now crosses score groups" in line) == crosses
    assert any(c for _, c in expect)
    assert "re-pair them with --repair" in out
    log = data["rounds"][1]["explanation"][-1]
    assert log.startswith(f"correction of board {board}:") and "记录纸填错" in log
    # asked to: round 3's unplayed boards are re-paired on the new scores
    out = t("result", ev, 2, board, "=", "--overwrite", "--reason", "双方确认和棋", "--repair")
    assert "unplayed boards re-paired" in out
    data = json.loads(ev.read_text(encoding="utf-8"))
    now = scores(data["rounds"], 2)
    r3 = data["rounds"][2]
    seen = [x for _, a, b in r3["pairings"] for x in (a, b) if x is not None]
    assert sorted(seen) == sorted(now)  # everyone paired once
    met = {frozenset((a, b)) for rnd in data["rounds"][:2] for _, a, b in rnd["pairings"]}
    assert not any(frozenset((a, b)) in met for _, a, b in r3["pairings"])  # no rematch
    kept = next(p for p in r3["pairings"] if {p[1], p[2]} == {played[1], played[2]})
    assert (kept[1], kept[2]) == (played[1], played[2])  # same colours
    assert {"board": kept[0], "result": "=-=", "red_fouls": 0, "black_fouls": 0} \
        in r3["results"]
    assert "re-paired after a correction" in r3["explanation"][0]
    # before round 3 was paired a correction needs no reason
    t("result", ev, 3, kept[0], "1-0", "--overwrite")
    # many results at once cannot correct a round before the last
    assert "one board at a time" in t("result", ev, "--round", 2, "1 =", "--overwrite",
                                      code=2)


def test_event_result_correction_asks_for_the_reason_too(tmp_path: Path) -> None:
    ev = tmp_path / "ev.json"
    runner.invoke(app, ["event", "create", str(ev), "--entries", str(DATA / "players_zh.csv"),
                        "--format", "swiss", "--rounds", "3"])
    for r, items in ((1, ROUND1), (2, None)):
        assert runner.invoke(app, ["event", "pair", str(ev)]).exit_code == 0
        if items:
            for item in items.split(", "):
                b, res = item.split()
                assert runner.invoke(app, ["event", "result", str(ev), str(r), b, res]
                                     ).exit_code == 0
    res = runner.invoke(app, ["event", "result", str(ev), "1", "1", "0-1", "--overwrite"])
    assert res.exit_code == 2 and "needs a reason" in res.output
    res = runner.invoke(app, ["event", "result", str(ev), "1", "1", "0-1", "--overwrite",
                              "--reason", "签字有误"])
    assert res.exit_code == 0, res.output
    assert "签字有误" in json.loads(ev.read_text(encoding="utf-8"))["event"]["rounds"][0][
        "explanation"][-1]
