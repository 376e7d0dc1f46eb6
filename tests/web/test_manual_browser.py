"""The manual in a browser: from the arena's header link to a search in
Chinese and a clause anchor, with no request leaving the machine; and the
same search from the built files (file://).  Playwright driving Debian's
chromium against ``qisai serve``; skipped when either is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from qisai.web import user_manual

pytestmark = pytest.mark.slow
pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e '.[docs]')")
pytest.importorskip("opencc", reason="opencc is not installed (pip install -e '.[docs]')")


def _search(page: Any, query: str) -> list[str]:
    """Type ``query`` into the manual's search, key by key as a person does
    (the search answers keyboard events); the titles of the results."""
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query)
    for _ in range(6):  # the index may still be loading in its worker
        try:
            page.wait_for_selector(".md-search-result__item", timeout=5000)
            break
        except Exception:  # playwright's TimeoutError: type again
            box.press("End")
            box.press("Backspace")
            box.press_sequentially(query[-1])
    titles = page.locator(".md-search-result__item h1, .md-search-result__item h2").all_inner_texts()
    return [t.replace("\u200b", "") for t in titles]


def test_manual_from_the_arena_search_and_clause(live_server: tuple[str, Path], browser: Any,
                                                 shots: Path) -> None:
    base, data = live_server
    user_manual.build(data / "manual")  # /manual looks for it on each request
    ctx = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if urlparse(r.url).hostname not in ("127.0.0.1", None) else None)
    page.goto(f"{base}/")
    page.click("#manual-link")
    page.wait_for_url(f"{base}/manual/zh/index.html")
    assert "使用手册" in page.title()
    titles = _search(page, "积分编排制")
    assert any("裁判长手册" in t for t in titles), titles
    page.screenshot(path=str(shots / "manual-search.png"))
    # A verdict's clause link lands on the clause.
    page.goto(base + user_manual.clause_url("23.3"))
    clause = page.locator("#c-23-3")
    assert clause.is_visible() and "自然限着" in clause.inner_text()
    page.goto(f"{base}/manual/zh-Hant/arbiters.html")
    assert "裁判長手冊" in page.locator("h1").first.inner_text()
    assert outside == [], outside


def test_manual_search_from_files(tmp_path: Path, browser: Any) -> None:
    site = user_manual.build(tmp_path / "site")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(20000)
    page.goto((site / "en" / "index.html").as_uri())
    titles = _search(page, "SPRT")
    assert any("Engines" in t for t in titles), titles
    page.goto((site / "zh" / "index.html").as_uri())
    titles = _search(page, "长捉")
    assert any("裁判长手册" in t for t in titles), titles
