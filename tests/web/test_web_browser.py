"""Browser tests: Playwright driving Debian's chromium against ``qisai serve``.

Two browser contexts play Xiangqi to checkmate and Go through two passes,
dead-stone agreement and the count; an organiser runs a 4-player round
robin to its final standings through the pages.  Screenshots go to
``$QISAI_TEST_ARTIFACTS`` (else the test's temporary folder).

Skipped when playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow
MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"


def signed_up(browser: Any, base: str, name: str, lang: str = "en-US") -> Any:
    ctx = browser.new_context(locale=lang, viewport={"width": 412, "height": 915})  # a phone
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/login")
    page.fill("#username", name)
    page.fill("#password", "a board of my own")
    page.click("#register-button")
    page.wait_for_url(f"{base}/")
    return page


def click_square(page: Any, sq: str) -> None:
    page.click(f'#board g[data-square="{sq}"]')


def wait_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f'#board[data-ply="{ply}"]')


def test_xiangqi_two_browsers_play_to_checkmate(live_server: tuple[str, Path], browser: Any,
                                                shots: Path) -> None:
    base, _ = live_server
    red = signed_up(browser, base, "hong", "zh-CN")
    black = signed_up(browser, base, "hei")
    # A normal game from the home page: Red plays 炮二平五, Black answers.
    red.click("#custom-game > summary")  # the custom game is behind a button (issue 22)
    red.select_option("select[name=color]", "first")
    red.click("#create-game")
    red.wait_for_url(f"{base}/games/*")
    url = red.url
    black.goto(url)
    black.click("#join-button")
    red.wait_for_selector('#board[data-phase="playing"]')
    click_square(red, "h2")
    assert red.locator('#board g[data-square="e2"] circle.hint').count() == 1  # legal-move hint
    click_square(red, "e2")
    wait_ply(black, 1)
    click_square(black, "h9")
    click_square(black, "g7")
    wait_ply(red, 2)
    # The move list in pairs: 1. 炮二平五 马8进7.
    assert red.locator("#moves .mv").all_inner_texts() == ["炮二平五", "马8进7"]
    assert red.locator("#moves li").all_inner_texts()[0].split() == ["1.", "炮二平五", "马8进7"]
    # Replay: the first move shows the position before Black's reply.
    red.click('#moves .mv[data-ply="1"]')
    red.wait_for_selector('#board[data-view="1"]')
    assert red.get_attribute('#board g[data-square="h9"]', "data-piece") == "n"
    red.click("#back-live")
    red.wait_for_selector('#board[data-view="live"]')
    assert red.get_attribute('#board g[data-square="g7"]', "data-piece") == "n"
    red.screenshot(path=str(shots / "xiangqi-opening.png"))
    # A game from a set position (through the page's API helper), to mate.
    gid = red.evaluate("""async (fen) => (await qisai.api('POST', '/api/games',
        {kind: 'xiangqi', ruleset: 'cxa', color: 'first', fen: fen})).id""", MATE_IN_ONE)
    black.goto(f"{base}/games/{gid}")
    black.click("#join-button")
    red.goto(f"{base}/games/{gid}")
    red.wait_for_selector('#board[data-phase="playing"]')
    click_square(red, "b0")
    click_square(red, "b9")
    for page in (red, black):
        page.wait_for_selector("#result:not([hidden])")
    assert "将死" in red.inner_text("#result-text")
    assert "checkmated" in black.inner_text("#result-text")
    assert red.inner_text("#result-tag") == "1-0" and "4.1.1" in red.inner_text("#result-clause")
    red.screenshot(path=str(shots / "xiangqi-checkmate.png"))
    black.screenshot(path=str(shots / "xiangqi-checkmate-black.png"))


def test_go_two_passes_dead_stones_and_count(live_server: tuple[str, Path], browser: Any,
                                             shots: Path) -> None:
    base, _ = live_server
    b = signed_up(browser, base, "kuro")
    w = signed_up(browser, base, "shiro")
    b.click("#custom-game > summary")
    b.select_option("#kind", "go")
    b.select_option("select[name=size]", "9")
    b.select_option("select[name=color]", "first")
    b.click("#create-game")
    b.wait_for_url(f"{base}/games/*")
    w.goto(b.url)
    w.click("#join-button")
    b.wait_for_selector('#board[data-phase="playing"]')
    b.click('#board g[data-point="E5"]')
    wait_ply(w, 1)
    w.click('#board g[data-point="A1"]')
    wait_ply(b, 2)
    b.click("#pass")
    wait_ply(w, 3)
    w.click("#pass")
    for page in (b, w):
        page.wait_for_selector('#board[data-phase="scoring"]')
    w.click('#board g[data-point="A1"]')  # mark the white stone dead
    b.wait_for_selector('#board g[data-point="A1"] circle.dead')
    b.click("#confirm-dead")  # the side to move confirms first (4(4))
    w.wait_for_selector("#notice:has-text('confirms')")
    w.click("#confirm-dead")
    for page in (b, w):
        page.wait_for_selector("#result:not([hidden])")
    assert w.inner_text("#result-tag").startswith("B+")
    assert "Black" in w.inner_text("#result-text")
    b.screenshot(path=str(shots / "go-count.png"))


def test_organiser_runs_a_round_robin_through_the_pages(live_server: tuple[str, Path],
                                                        browser: Any, shots: Path) -> None:
    base, data = live_server
    page = signed_up(browser, base, "boss")
    from qisai.store import Database, repo
    from qisai.store.models import Role

    db = Database(f"sqlite:///{data / 'qisai.sqlite3'}")
    with db.session() as s:
        user = repo.find_user(s, "boss")
        assert user is not None
        repo.set_role(s, user.id, Role.ORGANISER)
    db.dispose()
    page.goto(f"{base}/tournaments")
    page.fill("#t-name", "Spring RR")
    page.click("#create-tournament")
    page.wait_for_url(f"{base}/tournaments/*")
    for name in ("Wang", "Li", "Zhao", "Sun"):
        page.fill("#player-name", name)
        page.click("#add-player-button")
        page.wait_for_selector(f"#players li:has-text('{name}')")
    page.click("#start-event")
    page.wait_for_selector("#pair-round")
    for rnd in (1, 2, 3):
        page.click("#pair-round")
        page.wait_for_selector(f'section.round[data-round="{rnd}"]')
        for board in (1, 2):
            sel = f'select.result-select[data-round="{rnd}"][data-board="{board}"]'
            page.select_option(sel, "1-0" if board == 1 else "=-=")
            page.wait_for_selector(f'{sel} option[value="{"1-0" if board == 1 else "=-="}"][selected]',
                                   state="attached")
    page.wait_for_selector("#standings")
    rows = page.locator("#standings tr").all_inner_texts()
    assert len(rows) == 5
    # columns: place, name, points, then the tie-breaks (15.x)
    points = sorted(float(r.split("\t")[2]) for r in rows[1:])
    assert sum(points) == 6.0
    assert page.inner_text("#t-status") == "finished"
    page.screenshot(path=str(shots / "round-robin-standings.png"), full_page=True)


def test_a_guest_creates_a_game_and_a_friend_joins_by_link(live_server: tuple[str, Path],
                                                           browser: Any, shots: Path) -> None:
    base, _ = live_server
    host = browser.new_context(locale="zh-CN").new_page()
    host.set_default_timeout(20000)
    host.goto(f"{base}/")
    host.click("#custom-game > summary")
    assert "游客试玩" in host.inner_text("#create-game")  # no account: a guest session
    host.select_option("select[name=color]", "first")
    host.click("#create-game")
    host.wait_for_url(f"{base}/games/*")
    link = host.input_value("#invite-link")
    friend = browser.new_context(locale="en-US").new_page()
    friend.set_default_timeout(20000)
    friend.goto(link)
    friend.click("#join-button")
    host.wait_for_selector('#board[data-phase="playing"]')
    click_square(host, "b2")
    click_square(host, "e2")
    friend.wait_for_selector('#board[data-ply="1"]')
    assert friend.locator("#moves .mv").all_inner_texts() == ["炮八平五"]
    host.screenshot(path=str(shots / "guest-game.png"))
