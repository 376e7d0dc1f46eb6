"""Finding the installed engines (issue 17.5): Fairy-Stockfish and GNU Go as
Debian installs them, named as the programs name themselves (read here
straight from the programs, not through qisai's clients), at the levels
their own options allow; missing or broken programs are left out with a
reason, never an exception."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from qisai.engines.discovery import discover, fairy_levels, find_program
from qisai.engines.uci import parse_option


def uci_handshake(path: str) -> list[str]:
    """The program's own answer to ``uci`` (independent of qisai's client)."""
    out = subprocess.run([path], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=30, check=True).stdout
    return out.splitlines()


@pytest.mark.engine
def test_fairy_stockfish_is_found_named_and_levelled_by_its_own_options(fairy: str) -> None:
    lines = uci_handshake(fairy)
    id_name = next(line[len("id name "):] for line in lines if line.startswith("id name "))
    options = {o.name: o for o in map(parse_option, lines) if o is not None}
    found = asyncio.run(discover(only=["fairy-stockfish"]))
    assert [f.program for f in found.found] == ["fairy-stockfish"], found.skipped
    f = found.found[0]
    assert f.kind == "xiangqi" and f.protocol == "uci" and f.engine == id_name
    assert Path(f.argv[0]).resolve() == Path(fairy).resolve()
    skill = options["Skill Level"]
    levels = {lv.key: dict(lv.options) for lv in f.levels}
    skills = [o["Skill Level"] for o in levels.values() if "Skill Level" in o]
    assert skills and all(skill.min <= v <= skill.max for v in skills)  # type: ignore[operator]
    assert max(skills) == skill.max and levels["skill-5"] == {"Skill Level": 5}
    elos = [o["UCI_Elo"] for o in levels.values() if "UCI_Elo" in o]
    if "UCI_LimitStrength" in options and "UCI_Elo" in options:
        elo = options["UCI_Elo"]
        assert min(elos) == elo.min and max(elos) == elo.max
        assert all(o["UCI_LimitStrength"] is True for o in levels.values() if "UCI_Elo" in o)
    else:
        assert not elos
    assert [lv.en for lv in f.levels][:2] == ["Skill Level 0", "Skill Level 5"]


@pytest.mark.engine
def test_gnu_go_is_found_with_its_name_version_and_levels(gnugo: str) -> None:
    first = subprocess.run([gnugo, "--version"], capture_output=True, text=True, timeout=30,
                           check=True).stdout.splitlines()[0]  # "GNU Go 3.8"
    found = asyncio.run(discover(only=["gnugo"]))
    assert [f.program for f in found.found] == ["gnugo"], found.skipped
    f = found.found[0]
    assert f.kind == "go" and f.protocol == "gtp" and f.engine == first.strip()
    assert [lv.args for lv in f.levels] == [("--level", "1"), ("--level", "5"),
                                            ("--level", "10")]
    assert f.levels[0].en == "level 1" and f.levels[0].zh == "等级 1"


def test_nothing_installed_is_nothing_offered(tmp_path: Path) -> None:
    found = asyncio.run(discover(path=str(tmp_path), dirs=()))
    assert found.found == []
    assert set(found.skipped) == {"fairy-stockfish", "gnugo", "pachi", "katago"}
    assert all("not installed" in reason for reason in found.skipped.values())


def test_a_program_that_is_no_engine_is_left_out_with_its_reason(tmp_path: Path) -> None:
    # A "gnugo" that exits at once and a "fairy-stockfish" that talks nonsense.
    for name, body in (("gnugo", "exit 3"), ("fairy-stockfish", "echo hello; sleep 30")):
        script = tmp_path / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(0o755)
    assert find_program(["gnugo"], str(tmp_path), ()) == str(tmp_path / "gnugo")
    found = asyncio.run(discover(path=str(tmp_path), dirs=(), timeout=1.0,
                                 only=["gnugo", "fairy-stockfish"]))
    assert found.found == []
    assert "EngineStartError" in found.skipped["gnugo"]
    assert "EngineStartError" in found.skipped["fairy-stockfish"]


def test_levels_follow_the_options_an_engine_offers() -> None:
    lines = ["option name Skill Level type spin default 20 min 0 max 8"]
    options = {o.name: o for o in map(parse_option, lines) if o is not None}
    assert [lv.key for lv in fairy_levels(options)] == ["skill-0", "skill-5", "skill-8"]
    assert [lv.key for lv in fairy_levels({})] == ["full"]
