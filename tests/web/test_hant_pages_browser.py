"""繁體中文 pages in a browser (issue 32 item 2): Chromium set to zh-TW gets
the arena in traditional characters, the switch goes to 简体中文 and back,
and the manual link leads to the 繁體中文 manual.  Playwright driving
Debian's chromium against ``qisai serve``; skipped when either is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def test_a_zh_tw_browser_gets_traditional_pages_and_switches(live_server: tuple[str, Path],
                                                             browser: Any, shots: Path) -> None:
    base, _ = live_server
    ctx = browser.new_context(locale="zh-TW", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/")
    assert page.evaluate("navigator.language") == "zh-TW"
    assert page.get_attribute("html", "lang") == "zh-Hant"
    nav = page.locator("header nav").inner_text()
    assert "比賽" in nav and "車輪戰" in nav and "比赛" not in nav
    assert page.get_attribute("#manual-link", "href") == "/manual/zh-Hant/index.html"
    page.screenshot(path=str(shots / "home-zh-Hant.png"))
    # The switch: 简体中文, then back to 繁體中文 (kept in a cookie).
    page.click("#lang-switch a[data-lang='zh']")
    page.wait_for_function("document.documentElement.lang === 'zh-CN'")
    assert "比赛" in page.locator("header nav").inner_text()
    page.goto(f"{base}/tournaments")
    assert page.get_attribute("html", "lang") == "zh-CN"  # the choice stays
    page.click("#lang-switch a[data-lang='zh-Hant']")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'")
    assert page.url == f"{base}/tournaments"
    assert "比賽" in page.locator("header nav").inner_text()
    page.wait_for_load_state("networkidle")
    assert errors == [], errors
