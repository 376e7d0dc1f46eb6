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


def test_nothing_installed_is_nothing_offered(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QISAI_PIKAFISH", raising=False)
    found = asyncio.run(discover(path=str(tmp_path), dirs=()))
    assert found.found == []
    assert set(found.skipped) == {"fairy-stockfish", "pikafish", "gnugo", "pachi", "katago"}
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


# -- Pikafish (issue 32.5) -----------------------------------------------------
# CI has no Pikafish: these tests skip there.  To run them, build Pikafish (or
# Pikafish-HCE, which needs no network file) and put it on PATH as
# ``pikafish`` or name it in QISAI_PIKAFISH.


@pytest.fixture
def pikafish() -> str:
    """Path of a Pikafish program; skips the test when there is none."""
    import os
    import shutil

    named = os.environ.get("QISAI_PIKAFISH", "")
    found = shutil.which(named) if named else shutil.which("pikafish")
    if not found:
        pytest.skip("Pikafish is not installed (put pikafish on PATH or set QISAI_PIKAFISH)")
    return found


@pytest.mark.engine
def test_pikafish_is_found_named_and_levelled_by_its_own_options(pikafish: str) -> None:
    lines = uci_handshake(pikafish)
    id_name = next(line[len("id name "):] for line in lines if line.startswith("id name "))
    options = {o.name: o for o in map(parse_option, lines) if o is not None}
    assert "UCI_Variant" not in options  # a Xiangqi engine of its own, no variant to choose
    found = asyncio.run(discover(only=["pikafish"], path=str(Path(pikafish).parent)))
    assert [f.program for f in found.found] == ["pikafish"], found.skipped
    f = found.found[0]
    assert (f.kind, f.protocol, f.engine) == ("xiangqi", "uci", id_name)
    assert Path(f.argv[0]).resolve() == Path(pikafish).resolve()
    expected = [lv.key for lv in fairy_levels(options)]  # levels from its own options
    assert [lv.key for lv in f.levels] == expected
    if "EvalFile" in options:  # an NNUE build: its network is set at every level
        assert all(dict(lv.options).get("EvalFile") for lv in f.levels)


@pytest.mark.engine
def test_pikafish_plays_a_refereed_match_against_fairy_stockfish(pikafish: str, fairy: str,
                                                                tmp_path: Path) -> None:
    """Pikafish speaks UCI with ICCS squares (ranks 0-9) and no UCI_Variant:
    two games against Fairy-Stockfish under qisai's referee end without an
    illegal move, and every move of the PGN replays in the rules core."""
    from typer.testing import CliRunner

    from qisai.cli import app
    from qisai.referee.records import xiangqi_from_pgn

    found = asyncio.run(discover(only=["pikafish"], path=str(Path(pikafish).parent)))
    assert found.found, found.skipped
    evalfile = dict(found.found[0].levels[-1].options).get("EvalFile")
    spec = f'name=pf cmd="{pikafish}"' + (f" option.EvalFile={evalfile}" if evalfile else "")
    pgn = tmp_path / "pf.pgn"
    result = CliRunner().invoke(app, [
        "match", "--engine", spec, "--engine", f'name=fsf cmd="{fairy}"', "--tc",
        "movetime=0.05", "--games", "2", "--rules", "cxa", "--pgnout", str(pgn),
        "--draw", "movenumber=40 movecount=4 score=20"])
    assert result.exit_code == 0, result.output
    assert "illegal_move" not in result.output
    games = pgn.read_text().split("\n\n[")
    assert len(games) == 2
    for k, text in enumerate(games):
        game = xiangqi_from_pgn(text if k == 0 else "[" + text)
        assert game.result is not None and game.result.reason.value != "illegal_move"
        assert len(game.moves) >= 2


def test_pikafish_network_is_the_named_file_else_the_one_beside_the_program(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from qisai.engines.discovery import PIKAFISH_NETWORK, pikafish_network

    program = tmp_path / "bin" / "pikafish"
    program.parent.mkdir()
    program.write_text("")
    monkeypatch.delenv("QISAI_PIKAFISH_NNUE", raising=False)
    assert pikafish_network(str(program)) is None
    beside = program.parent / PIKAFISH_NETWORK
    beside.write_bytes(b"net")
    assert pikafish_network(str(program)) == str(beside)
    link = tmp_path / "pikafish"  # a link on PATH: the network is beside the real program
    link.symlink_to(program)
    assert pikafish_network(str(link)) == str(beside)
    other = tmp_path / "other.nnue"
    monkeypatch.setenv("QISAI_PIKAFISH_NNUE", str(other))
    assert pikafish_network(str(program)) is None  # named but missing: not silently another
    other.write_bytes(b"net")
    assert pikafish_network(str(program)) == str(other)


@pytest.mark.engine
def test_a_program_that_is_not_pikafish_is_not_offered_as_pikafish(
        fairy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """QISAI_PIKAFISH naming another UCI engine (Fairy-Stockfish, whose own
    handshake names it) is left out with the name it gave."""
    monkeypatch.setenv("QISAI_PIKAFISH", fairy)
    found = asyncio.run(discover(only=["pikafish"], path=""))
    assert found.found == []
    assert "not Pikafish" in found.skipped["pikafish"] and "Fairy-Stockfish" in \
        found.skipped["pikafish"]
