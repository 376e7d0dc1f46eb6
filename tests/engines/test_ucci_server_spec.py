"""Issue 36, item 8: the built-in Xiangqi engine speaks UCCI as the UCCI 3.0
specification has it.  One transcript per deviation, in tests/engines/data/
(``> `` lines sent, ``< `` lines regular expressions the output must match
in order); the mate score's position is checked by Fairy-Stockfish (its
``score mate 1``, noted in the transcript)."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from qisai.engines.builtin.xiangqi_server import XiangqiServer
from qisai.engines.uci import parse_info

DATA = Path(__file__).parent / "data"


def _transcript(name: str) -> tuple[list[str], list[str]]:
    sent, expected = [], []
    for line in (DATA / name).read_text("utf-8").splitlines():
        if line.startswith("> "):
            sent.append(line[2:])
        elif line.startswith("< "):
            expected.append(line[2:])
    return sent, expected


def _serve(commands: list[str]) -> list[str]:
    """Send the commands one by one, each 'go' waited for, as a GUI would."""
    out = io.StringIO()
    server = XiangqiServer(io.StringIO(), out)
    for command in commands:
        if not server.handle(command):
            break
        if command.startswith("go"):
            server._join()
    server._halt()
    return out.getvalue().splitlines()


@pytest.mark.parametrize("name", ["ucci_quit_bye.ucci", "ucci_info_score.ucci",
                                  "ucci_usemillisec.ucci", "ucci_rejected_position.ucci"])
def test_ucci_transcript(name: str) -> None:
    sent, expected = _transcript(name)
    lines = _serve(sent)
    at = 0
    for pattern in expected:
        while at < len(lines) and not re.search(pattern, lines[at]):
            at += 1
        assert at < len(lines), f"{name}: no line matches {pattern!r} in order:\n" + "\n".join(lines)
        at += 1
    if name != "ucci_info_score.ucci":
        return
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and not any(" cp " in line or " mate " in line or " nps " in line for line in infos)


def test_the_bye_comes_from_run_too() -> None:
    out = io.StringIO()
    XiangqiServer(io.StringIO("ucci\nquit\nisready\n"), out).run()
    lines = out.getvalue().splitlines()
    assert lines[-1] == "bye" and "readyok" not in lines
    out = io.StringIO()
    XiangqiServer(io.StringIO("uci\nquit\n"), out).run()
    assert "bye" not in out.getvalue().splitlines()  # UCI has no bye


@pytest.mark.parametrize(("millis", "low", "high"), [("false", 0.2, 3.0), ("true", 0.0, 0.05)])
def test_usemillisec_sets_the_unit_of_go_time(millis: str, low: float, high: float) -> None:
    # "go time 3": the whole game's time is 3 s (usemillisec false) or 3 ms
    # (true); the hard limit of the move is a share of that.
    server = XiangqiServer(io.StringIO(), io.StringIO())
    server.handle("ucci")
    server.handle(f"setoption usemillisec {millis}")
    server.handle("position startpos")
    started = time.monotonic()
    server.handle("go time 3")
    deadline = server._limits.hard_deadline
    server._join()
    assert deadline is not None and low <= deadline - started <= high


def test_the_client_reads_a_ucci_score() -> None:
    from qisai.engines.results import Coordinates

    info = parse_info("info depth 3 score -34 time 5 nodes 70 pv h2e2",
                      Coordinates.ICCS)
    assert info.depth == 3 and info.score is not None and info.score.cp == -34
