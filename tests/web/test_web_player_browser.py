"""Phones (issue 17.7), in Debian's chromium under Playwright: a player's
page, a live game (board, clocks, move list, buttons) and the front page at
360, 390 and 420 px wide, with nothing cut off (every element's box inside
the viewport, no horizontal scroll); the Rules select shows the profiles'
names; the page's download links give the player's games.

Screenshots go to ``$QISAI_TEST_ARTIFACTS`` (else the test's temporary
folder).  Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import io
import itertools
import zipfile
from pathlib import Path
from typing import Any

import pytest

from qisai.referee.rulesets import PRESETS

from .test_web_play_browser import act, api, new_game, signed_up

pytestmark = pytest.mark.slow

SEASONS = itertools.count(1)

CUT_OFF = """() => {
    const bad = [];
    for (const e of document.querySelectorAll('header *, main *')) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height || e.closest('[hidden]')) continue;
      if (e.closest('svg') && e.tagName.toLowerCase() !== 'svg') continue;
      if (r.left < -0.5 || r.right > window.innerWidth + 0.5)
        bad.push(`${e.tagName}#${e.id}.${e.getAttribute('class')} ${r.left}-${r.right}`);
    }
    return {bad, scroll: document.documentElement.scrollWidth, width: window.innerWidth};
}"""
"""Elements of the page whose box leaves the viewport sideways, and the
page's scroll width (shapes inside an SVG are judged by the SVG's box)."""


def fits(page: Any) -> None:
    out = page.evaluate(CUT_OFF)
    assert out["bad"] == [], out
    assert out["scroll"] <= out["width"], out


def inside(page: Any, selector: str, width: int) -> None:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (selector, box)


@pytest.fixture
def season(live_server: tuple[str, Path], browser: Any) -> dict[str, Any]:
    """A player with a finished rated Xiangqi game, a Go game in play and
    a Xiangqi game in play with clocks."""
    base, _ = live_server
    n = next(SEASONS)
    red = signed_up(browser, base, f"phonered{n}", width=390)
    black = signed_up(browser, base, f"phoneblack-long-name{n}", width=390)
    done = new_game(red, kind="xiangqi", ruleset="cxa", rated=True, time={"minutes": 5})
    api(black, "POST", f"/api/games/{done}/join")
    for ply, (page, mv) in enumerate([(red, "h2e2"), (black, "h9g7"), (red, "h0g2")], 1):
        act(page, done, type="move", ply=ply, move=mv)
    act(black, done, type="resign")
    go = new_game(red, kind="go", ruleset="chinese", size=19, time={"minutes": 10})
    api(black, "POST", f"/api/games/{go}/join")
    for ply, (page, mv) in enumerate([(red, "Q16"), (black, "D4"), (red, "Q4")], 1):
        act(page, go, type="move", ply=ply, move=mv)
    live = new_game(red, kind="xiangqi", ruleset="casual", time={"minutes": 10})
    api(black, "POST", f"/api/games/{live}/join")
    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5", "b0c2", "a9b9"]
    for ply, mv in enumerate(moves, 1):
        act(red if ply % 2 else black, live, type="move", ply=ply, move=mv)
    return {"red": red, "black": black, "done": done, "go": go, "live": live, "base": base}


@pytest.mark.parametrize("width", [360, 390, 420])
def test_the_player_page_fits_a_phone(season: dict[str, Any], browser: Any, shots: Path,
                                      width: int) -> None:
    base, red = season["base"], season["red"]
    red.goto(base + "/")
    profile = red.get_attribute("#me", "href")  # /users/ID
    # Seen by anyone (a fresh browser without a session), in Chinese.
    page = browser.new_context(locale="zh-CN",
                               viewport={"width": width, "height": 800}).new_page()
    page.goto(base + profile)
    page.wait_for_selector("#rating-plot")
    page.screenshot(path=str(shots / f"player-{width}px.png"), full_page=True)
    fits(page)
    for sel in ("#rating-plot", "#player-games", "#download-pgn", "#download-sgf"):
        inside(page, sel, width)
    assert page.locator("#rating-plot circle.dot").count() == 2  # start, one rated game
    assert page.locator("#player-games tbody tr").count() == 3
    assert PRESETS["cxa"].title_zh in page.inner_text("#player-games")
    # The page's own links give the player's games.
    pgn = page.request.get(base + page.get_attribute("#download-pgn", "href"))
    from qisai.xiangqi.pgn import parse_pgn

    assert pgn.ok and len(parse_pgn(pgn.text())) == 2
    archive = page.request.get(base + page.get_attribute("#download-sgf", "href"))
    with zipfile.ZipFile(io.BytesIO(archive.body())) as zf:
        assert zf.namelist() == [f"qisai-{season['go']}.sgf"]


@pytest.mark.parametrize("game", ["live", "go"])
def test_a_game_in_play_fits_390_px(season: dict[str, Any], shots: Path, game: str) -> None:
    base, red = season["base"], season["red"]
    red.set_viewport_size({"width": 390, "height": 844})
    red.goto(f"{base}/games/{season[game]}")
    red.wait_for_selector('#board[data-phase="playing"]')
    red.screenshot(path=str(shots / f"game-{game}-390px.png"), full_page=True)
    fits(red)
    for sel in ("#board svg", "#clock-top", "#clock-bottom", "#name-top", "#name-bottom",
                "#moves", "#resign", "#nav-first", "#nav-last", "#download"):
        inside(red, sel, 390)
    assert red.inner_text("#clock-top") and red.inner_text("#clock-bottom")
    board = red.locator("#board svg").bounding_box()
    assert board is not None and board["width"] >= 340  # the board uses the width
    if game == "live":
        for i in range(1, 11):
            inside(red, f'#moves .mv[data-ply="{i}"]', 390)


def test_the_front_page_fits_360_px_and_names_the_rules(season: dict[str, Any],
                                                        shots: Path) -> None:
    base, red = season["base"], season["red"]
    red.set_viewport_size({"width": 360, "height": 780})
    red.goto(base + "/")
    red.click("#custom-game summary")  # the new-game form is behind its button
    red.wait_for_selector("#ruleset option", state="attached")
    fits(red)
    red.screenshot(path=str(shots / "home-360px.png"), full_page=True)
    for kind in ("xiangqi", "go"):
        red.select_option("#kind", kind)
        red.wait_for_function(
            "k => [...document.querySelectorAll('#ruleset option')].some(o => o.value === k)",
            arg="casual" if kind == "xiangqi" else "go-casual")
        options = red.eval_on_selector_all(
            "#ruleset option", "os => os.map(o => [o.value, o.textContent])")
        assert options and all(text == PRESETS[value].title_en for value, text in options)


@pytest.mark.engine
def test_a_found_engine_is_offered_and_named_with_its_level(
        live_server: tuple[str, Path], browser: Any, fairy: str, shots: Path) -> None:
    """Issue 17.5 on the page: ``qisai serve`` found Fairy-Stockfish; the
    opponent list offers it by level, and the game page names it with its
    level in the page's language."""
    base, _ = live_server
    page = signed_up(browser, base, f"levels{next(SEASONS)}", "zh-CN", width=390)
    page.click("#custom-game summary")
    page.wait_for_function(
        "() => !!document.querySelector('#opponent option[value=\"engine:fairy-stockfish-skill-5\"]')")
    label = page.inner_text('#opponent option[value="engine:fairy-stockfish-skill-5"]')
    assert label.startswith("Fairy-Stockfish") and label.endswith("技能等级 5")
    gid = new_game(page, kind="xiangqi", opponent="engine", engine="fairy-stockfish-skill-0")
    page.goto(f"{base}/games/{gid}")
    page.wait_for_selector('#board[data-phase="playing"]')
    top = page.inner_text("#name-top")
    assert "Fairy-Stockfish" in top and "技能等级 0" in top, top
    page.screenshot(path=str(shots / "game-fairy-stockfish-390px.png"), full_page=True)
    fits(page)
    act(page, gid, type="resign")
