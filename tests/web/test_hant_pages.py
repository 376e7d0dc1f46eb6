"""繁體中文 pages (issue 32 item 2): ``Accept-Language`` zh-TW, zh-HK,
zh-MO or zh-Hant, or the switch, gives the Chinese page in traditional
characters; what a page's scripts read and what a form sends back is left
as it is.

Independent truth: the traditional forms of the words (比賽 for 比赛, 車輪戰
for 车轮战, 手冊 for 手册, 新對局 for 新对局: the standard characters of
Taiwan's 國字標準字體), and the language tags of BCP 47 / RFC 4647.
"""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from qisai.web.pages.hant import to_traditional_html
from qisai.web.pages.i18n import choose_language, choose_page_language

pytest.importorskip("opencc", reason="opencc is not installed (pip install -e .)")


@pytest.mark.parametrize(("header", "page"), [
    ("zh-TW", "zh-Hant"), ("zh-HK", "zh-Hant"), ("zh-MO", "zh-Hant"),
    ("zh-Hant", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"), ("zh-hant-hk", "zh-Hant"),
    ("zh-CN", "zh"), ("zh-SG", "zh"), ("zh-Hans", "zh"), ("zh", "zh"),
    ("en-US,zh-TW;q=0.8", "en"), ("fr, zh-tw;q=0.5, zh-cn;q=0.4", "zh-Hant"),
    ("zh-CN;q=0.9, zh-HK", "zh-Hant"), (None, "en"),
])
def test_the_page_language_from_accept_language(header: str | None, page: str) -> None:
    assert choose_page_language(None, header) == page
    # the texts' language: a 繁體中文 page has the Chinese texts
    assert choose_language(None, header) == ("zh" if page == "zh-Hant" else page)


def test_the_switch_cookie_wins() -> None:
    assert choose_page_language("zh-Hant", "en-US") == "zh-Hant"
    assert choose_page_language("zh", "zh-TW") == "zh"
    assert choose_page_language("xx", "zh-TW") == "zh-Hant"


def test_conversion_leaves_data_and_form_values() -> None:
    page = ('<html lang="zh-Hant"><title>棋赛 · 象棋与围棋</title>'
            '<a href="/simuls" title="车轮战">车轮战</a>'
            '<input value="张三的号" placeholder="显示名">'
            '<textarea>我写的简体字</textarea>'
            '<script id="d" type="application/json">{"name": "张三", "t": "比赛"}</script>'
            '<script>const s = "开始";</script><style>/* 样式 */</style>'
            '<!-- 注释 --><a lang="zh-CN" href="/lang/zh">简体中文</a> <b>个人资料</b></html>')
    out = to_traditional_html(page)
    assert "<title>棋賽 · 象棋與圍棋</title>" in out
    assert '<a href="/simuls" title="車輪戰">車輪戰</a>' in out
    assert 'value="张三的号"' in out and 'placeholder="顯示名"' in out
    assert "<textarea>我写的简体字</textarea>" in out
    assert '{"name": "张三", "t": "比赛"}' in out and 'const s = "开始";' in out
    assert "/* 样式 */" in out and "<!-- 注释 -->" in out
    assert ">简体中文</a>" in out and "<b>個人資料</b>" in out
    assert to_traditional_html("no Chinese <b>here</b>") == "no Chinese <b>here</b>"


def test_pages_in_traditional_characters_and_the_switch(client: TestClient) -> None:
    hant = client.get("/", headers={"Accept-Language": "zh-TW"})
    assert hant.status_code == 200
    assert hant.headers["content-language"] == "zh-Hant"
    assert 'lang="zh-Hant"' in hant.text and "Accept-Language" in hant.headers["vary"]
    nav = re.search(r"<nav>(.*?)</nav>", hant.text, re.S)
    assert nav is not None
    for word in ("比賽", "車輪戰", "手冊"):
        assert word in nav[1], word
    assert "新對局" in hant.text and "新对局" not in hant.text
    assert 'href="/manual/zh-Hant/index.html"' in hant.text
    # the switch offers the other two, each in its own language
    assert ">简体中文</a>" in hant.text and ">English</a>" in hant.text
    assert 'href="/lang/zh-Hant' not in hant.text
    # the embedded data the page's scripts read is not converted
    zh = client.get("/", headers={"Accept-Language": "zh-CN"})
    assert zh.headers["content-language"] == "zh" and "新对局" in zh.text
    assert ">繁體中文</a>" in zh.text
    blocks = re.findall(r'<script id="[^"]+" type="application/json">(.*?)</script>', hant.text,
                        re.S)
    assert blocks == re.findall(r'<script id="[^"]+" type="application/json">(.*?)</script>',
                                zh.text, re.S)
    for block in blocks:
        json.loads(block)
    # The switch: a cookie for a year, back to the page; then every page is 繁體.
    r = client.get("/lang/zh-Hant?next=/tournaments", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/tournaments"
    assert "lang=zh-Hant" in r.headers["set-cookie"]
    client.cookies.set("lang", "zh-Hant")
    page = client.get("/tournaments", headers={"Accept-Language": "en-US"})
    assert 'lang="zh-Hant"' in page.text and "比賽" in page.text
    assert client.get("/lang/zh-TW").status_code == 404  # a page language, not a region
