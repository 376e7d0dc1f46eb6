"""Browser test of the analysis board (issue 17 item 4, Playwright in
Debian's chromium): a finished game loads as the main line, a variation is
played on the board and shown in the tree, an illegal move is explained,
the FEN follows the position, and Fairy-Stockfish's evaluation and best
line are shown and added to the tree.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright, chromium or Fairy-Stockfish is missing.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qisai.xiangqi import Board, Move
from tests.web.conftest import LAUNCH, free_port
from tests.web.test_web_play_browser import act, api, new_game, signed_up

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fsf_server(tmp_path_factory: pytest.TempPathFactory, fairy: str) -> Iterator[str]:
    """``qisai serve --engine fsf=Fairy-Stockfish`` on a free port."""
    import httpx

    data = tmp_path_factory.mktemp("analysis") / "server-data"
    port = free_port()
    env = dict(os.environ, QISAI_DATA_DIR=str(data))
    env.pop("QISAI_DATABASE_URL", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "serve", "--port", str(port),
                             "--log-level", "warning", "--engine", f"fsf={fairy}"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{base}/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise AssertionError("the server did not start")
            time.sleep(0.1)
        yield base
    finally:
        proc.kill()
        proc.wait(timeout=10)


def fen_after(*moves: str) -> str:
    b = Board()
    for m in moves:
        b.push(Move.from_iccs(m))
    return str(b.fen())


def test_analysis_board_plays_a_variation_and_shows_the_engine_line(
        fsf_server: str, browser: Any, shots: Path) -> None:
    base = fsf_server
    red = signed_up(browser, base, "anred", "zh-CN")
    black = signed_up(browser, base, "anblack")
    gid = new_game(red, kind="xiangqi", ruleset="casual")
    api(black, "POST", f"/api/games/{gid}/join")
    act(red, gid, type="move", ply=1, move="h2e2")
    act(black, gid, type="move", ply=2, move="h9g7")
    act(black, gid, type="resign")
    # The finished game's page links to the analysis board.
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector("#analyse-link:not([hidden])")
    red.click("#analyse-link")
    red.wait_for_url(f"{base}/analysis?game={gid}")
    red.wait_for_selector('#board[data-ply="0"]')
    assert red.locator("#tree button.mv").count() == 2
    red.keyboard.press("End")
    red.wait_for_selector('#board[data-ply="2"]')
    assert red.input_value("#record") == fen_after("h2e2", "h9g7")
    red.keyboard.press("ArrowLeft")
    red.wait_for_selector('#board[data-ply="1"]')
    # A variation: Black's other horse (马2进3) instead of 马8进7.
    red.click('#board g[data-square="b9"]')
    red.click('#board g[data-square="c7"]')
    red.wait_for_selector('#board[data-ply="2"]')
    assert red.input_value("#record") == fen_after("h2e2", "b9c7")
    variation = red.locator("#tree .var")
    assert variation.count() == 1 and "马2进3" in variation.inner_text()
    assert red.locator("#tree button.mv.current").inner_text().endswith("马2进3")
    # An illegal move is refused by the server with its rule (蹩马腿, 2.2).
    red.click('#board g[data-square="b0"]')
    red.click('#board g[data-square="d1"]')
    red.wait_for_selector('#notice[data-code="horse_leg"]')
    assert "2.2" in red.inner_text("#notice")
    assert red.locator("#tree button.mv").count() == 3
    # The engine's evaluation and best line (Fairy-Stockfish, the default).
    assert red.input_value("#engine") == "fsf"
    red.click("#analyse")
    red.wait_for_selector('#eval[data-state="done"]', timeout=30000)
    # named as the engine named itself at start-up (issue 32.8), not by its --engine key
    assert "Fairy-Stockfish" in red.inner_text("#eval").split(":")[0]
    assert "红方视角" in red.inner_text("#eval")
    pv = red.inner_text("#pv").split()
    assert pv and all(any(d in m for d in "一二三四五六七八九") for m in pv[:1])
    red.screenshot(path=str(shots / "analysis-engine-line.png"))
    # The line goes into the tree as a variation from that position.
    red.click("#pv-add")
    red.wait_for_function("() => document.querySelectorAll('#tree button.mv').length > 3")
    assert int(red.get_attribute("#board", "data-ply") or 0) >= 3
    # The main line is still there: a click on it goes back to it.
    red.click('#tree > button.mv[data-node="2"]')
    red.wait_for_selector('#board[data-node="2"]')
    assert red.input_value("#record") == fen_after("h2e2", "h9g7")


def test_go_analysis_board_at_390_px(live_server: tuple[str, Path], browser: Any,
                                     shots: Path) -> None:
    base, _ = live_server
    from tests.web.test_web_security_browser import WATCH_CSP, violations

    ctx = browser.new_context(locale="en-US", viewport={"width": 390, "height": 844})
    ctx.add_init_script(WATCH_CSP)
    page = ctx.new_page()
    page.set_default_timeout(20000)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    page.goto(f"{base}/analysis?kind=go&size=9")
    page.wait_for_selector('#board[data-ply="0"]')
    for n, point in enumerate(["E5", "A2", "E6", "B1"], 1):
        page.click(f'#board g[data-point="{point}"]')
        page.wait_for_selector(f'#board[data-ply="{n}"]')
    # Black at A1 would have no liberty: refused with the rule (Go 10).
    page.click('#board g[data-point="A1"]')
    page.wait_for_selector('#notice[data-code="go_suicide"]')
    assert page.locator("#board[data-ply='4']").count() == 1
    assert page.locator('#board g[data-point="E6"] circle.black').count() == 1
    sgf = page.input_value("#record")
    assert "SZ[9]" in sgf and ";B[ee]" in sgf and ";W[ai]" not in sgf and ";W[ah]" in sgf
    # Back two moves and branch: the tree shows the variation.
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board[data-ply="2"]')
    page.click('#board g[data-point="C3"]')
    page.wait_for_selector('#board[data-ply="3"]')
    assert "C3" in page.inner_text("#tree .var")
    # The page runs under the site's CSP (no inline script or style).
    assert violations(page, messages) == []
    # Nothing is cut off at 390 px: the page does not scroll sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "analysis-go-390px.png"), full_page=True)
