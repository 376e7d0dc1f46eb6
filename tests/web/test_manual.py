"""The user manual: a strict MkDocs build of every language, clause anchors
from the rule book, the search index, the 繁體中文 tree, clause_url and /manual.

Independent truth: the rule book's own clause numbers (docs/rules/001-xiangqi-rules-2007.txt)
and its wording of 积分编排制 (11.4).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings, create_app, manual
from qisai.web.manual import builder, clause_url
from qisai.web.manual.__main__ import main as manual_main
from qisai.web.manual.builder import rules_markdown, to_traditional

pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
pytest.importorskip("material", reason="mkdocs-material is not installed (pip install -e '.[docs]')")
pytest.importorskip("opencc", reason="opencc is not installed (pip install -e '.[docs]')")

ALL_PAGES = [*builder.PAGES, "rules/index.md", *builder.RULE_PAGES]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The manual built once, strictly (a broken link or missing page fails)."""
    return builder.build(tmp_path_factory.mktemp("manual") / "site", strict=True)


def _ids(page: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))


def test_strict_build_has_every_page_in_every_language(site: Path) -> None:
    assert (site / "index.html").is_file()
    for lang in builder.LANGUAGES:
        for page in ALL_PAGES:
            assert (site / lang / page.replace(".md", ".html")).is_file(), (lang, page)
        # Offline: search works from files (the offline plugin's JS index) and
        # no page loads fonts or scripts from another host.
        assert (site / lang / "search" / "search_index.js").is_file()
        index = (site / lang / "index.html").read_text(encoding="utf-8")
        assert "fonts.googleapis" not in index and "https://cdn" not in index


@pytest.mark.parametrize("lang", list(builder.LANGUAGES))
def test_clause_anchors(site: Path, lang: str) -> None:
    ids = _ids(site / lang / "rules" / "xiangqi.html")
    for clause in ("c-4-1-2", "c-4-2-4", "c-11-4", "c-21-1", "c-23-3", "c-24-1", "c-24-3", "c-26-1",
                   "c-26-4", "c-28-16", "c-29-4", "c-21", "c-23", "xz-1", "xz-13"):
        assert clause in ids, (lang, clause)
    go = _ids(site / lang / "rules" / "go.html")
    assert {"go-section", "go-1", "go-10", "go-11", "go-12", "go-basic-2"} <= go
    # The run-together text 000 gets anchors at its clause numbers too.
    local = _ids(site / lang / "rules" / "xiangqi-local.html")
    assert {"c-4-1-2", "c-23-3", "c-26-1"} <= local


def test_clause_anchor_carries_the_clause_text(site: Path) -> None:
    page = (site / "zh" / "rules" / "xiangqi.html").read_text(encoding="utf-8")
    m = re.search(r'<p id="c-23-3"[^>]*>(.*?)</p>', page, re.S)
    assert m is not None and "自然限着" in m[1] and "5分钟" in m[1]


def test_search_index_has_chinese_terms_whole(site: Path) -> None:
    for lang, term in (("zh", "积分编排制"), ("zh-Hant", "積分編排制"), ("en", "积分编排制")):
        data = json.loads((site / lang / "search" / "search_index.json").read_text("utf-8"))
        text = "\n".join(d["title"] + " " + d["text"] for d in data["docs"])
        assert term in text, (lang, term)
        # jieba cut the text at build time (U+200B between words) and the
        # term is one word of the index, as the browser splits it.
        assert "\u200b" in text
        assert data["config"]["separator"] == builder.SEARCH_SEPARATOR
        words = set(re.split(builder.SEARCH_SEPARATOR, text))
        assert term in words, (lang, term)


def _index_words(site: Path, lang: str) -> Counter[str]:
    data = json.loads((site / lang / "search" / "search_index.json").read_text("utf-8"))
    words: Counter[str] = Counter()
    for d in data["docs"]:
        words.update(re.split(builder.SEARCH_SEPARATOR, d["title"] + " " + d["text"]))
    return words


def test_both_chinese_indexes_cut_the_same_words(site: Path) -> None:
    """Issue 32 item 2: the 繁體中文 pages are cut into the words of the
    simplified ones (the search matches whole words of the index), so every
    place the simplified index has a term as a word, the traditional one has
    it too.  Before, jieba's simplified dictionary cut the traditional text
    otherwise (一將一捉 never a word, 為長將 one).  The index of a build
    without the traditional word list fails this (一將一捉: 0 against 2)."""
    hans, hant = _index_words(site, "zh"), _index_words(site, "zh-Hant")
    for simplified, traditional in (("长将", "長將"), ("裁判", "裁判"), ("棋例", "棋例"),
                                    ("一将一捉", "一將一捉"), ("积分编排制", "積分編排制"),
                                    ("裁判长", "裁判長"), ("长捉", "長捉")):
        # (code, which is left as written, keeps the simplified form)
        kept = hant[simplified] if simplified != traditional else 0
        assert hans[simplified] > 0, simplified
        assert hant[traditional] + kept >= hans[simplified], (traditional, hant[traditional],
                                                              kept, hans[simplified])


def test_search_dictionary_has_both_scripts(tmp_path: Path) -> None:
    words, user = builder.search_dictionary(tmp_path)
    entries = {line.split(" ")[0] for line in words.read_text(encoding="utf-8").splitlines()}
    assert {"将军", "將軍", "裁判", "长期", "長期"} <= entries
    ours = {line.split(" ")[0] for line in user.read_text(encoding="utf-8").splitlines()}
    assert {"积分编排制", "積分編排制", "棋例"} <= ours


def test_traditional_tree_is_converted(site: Path) -> None:
    hant = (site / "zh-Hant" / "arbiters.html").read_text(encoding="utf-8")
    hans = (site / "zh" / "arbiters.html").read_text(encoding="utf-8")
    assert "裁判長" in hant and "裁判长" in hans
    assert 'lang="zh-Hant"' in hant
    # Every language links to the others.
    for lang in builder.LANGUAGES:
        assert f"../{lang}/index.html" in hans


def test_to_traditional_keeps_code_blocks() -> None:
    text = ("裁判长用 `qisai judge` 裁决长捉，`--tiebreaks 小分,胜局` 定顺序。\n\n"
            "```\n黑方长捉，判负\n```\n\n马8进7\n")
    out = to_traditional(text)
    assert out.startswith("裁判長用 `qisai judge` 裁決長捉，`--tiebreaks 小分,胜局` 定順序。")
    assert "```\n黑方长捉，判负\n```" in out
    assert out.endswith("馬8進7\n")


def test_rules_markdown_ids() -> None:
    text = "第五章 裁判细则\n第二十一条 迟到\n21.1 比赛开始，如有一方迟到\n一段 4.1.2 款的引用\n"
    md = rules_markdown(text, "T", "intro")
    assert "## 第五章 裁判细则" in md
    assert "{ #c-21 }" in md
    assert '<p id="c-21-1" class="clause">' in md
    assert '<span id="c-4-1-2" class="clause-no">4.1.2</span>' in md


def test_clause_url() -> None:
    assert clause_url("23.3") == "/manual/zh/rules/xiangqi.html#c-23-3"
    assert clause_url("4.1.2") == "/manual/zh/rules/xiangqi.html#c-4-1-2"
    assert clause_url("棋例 26.1") == "/manual/zh/rules/xiangqi.html#c-26-1"
    assert clause_url("第23条") == "/manual/zh/rules/xiangqi.html#c-23"
    assert clause_url("棋例细则 3", lang="en") == "/manual/en/rules/xiangqi.html#xz-3"
    assert clause_url("21.1", lang="zh-Hant", base="") == "/zh-Hant/rules/xiangqi.html#c-21-1"
    # Go (seed 003), as the Go referee cites it.
    assert clause_url("竞赛规定 11(1)") == "/manual/zh/rules/go.html#go-11"
    assert clause_url("竞赛规定 11（禁止全局同形再现）") == "/manual/zh/rules/go.html#go-11"
    assert clause_url("基本下法 2") == "/manual/zh/rules/go.html#go-basic-2"
    for bad in ("", "23.3.1.1", "30.1", "abc", "棋例细则 14", "竞赛规定 13"):
        with pytest.raises(ValueError):
            clause_url(bad)
    with pytest.raises(ValueError, match="language"):
        clause_url("23.3", lang="fr")


def test_clause_urls_point_at_built_anchors(site: Path) -> None:
    for clause in ("4.1.2", "23.3", "棋例 26.1", "21.3", "24.3", "第24条", "棋例细则 12",
                   "竞赛规定 3", "竞赛规定 12(2)", "基本下法 4"):
        url = clause_url(clause, lang="en")
        path, _, anchor = url.removeprefix("/manual/").partition("#")
        assert anchor in _ids(site / path), clause


def test_serve_manual(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QISAI_MANUAL_DIR", str(site))
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        r = client.get("/manual", follow_redirects=False)
        assert r.status_code == 307 and r.headers["location"] == "/manual/"
        assert "zh/index.html" in client.get("/manual/").text
        r = client.get(clause_url("23.3").split("#")[0])
        assert r.status_code == 200 and 'id="c-23-3"' in r.text
        assert client.get("/manual/zh/search/search_index.js").status_code == 200
        assert client.get("/manual/zh/nothing.html").status_code == 404
        assert client.get("/manual/..%2F..%2Fetc/passwd").status_code == 404
        # The header of every arena page links to the manual.
        assert 'href="/manual/' in client.get("/").text


def test_manual_not_built_says_how(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QISAI_MANUAL_DIR", raising=False)
    monkeypatch.setattr(manual, "PACKAGED", tmp_path / "no-package-copy")  # an install without it
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert manual.manual_dir(settings.data_dir) == tmp_path / "data" / "manual"
    with TestClient(create_app(settings)) as client:
        r = client.get("/manual/")
        assert r.status_code == 503
        assert "python -m qisai.web.manual build" in r.text
        assert str(tmp_path / "data" / "manual") in r.text


def test_where_prints_the_served_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("QISAI_MANUAL_DIR", str(tmp_path / "m"))
    assert manual_main(["where"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "m")


@pytest.mark.parametrize("lang", list(builder.LANGUAGES))
def test_exhibitions_page_and_typed_moves(site: Path, lang: str) -> None:
    """Issue 33 item 10: the manual describes simuls, blindfold seats, typed
    moves and the announcer, and the notation page no longer says that the
    arena has nothing to type."""
    page = site / lang / "exhibitions.html"
    assert {"simuls", "blindfold", "typing-moves", "announcer", "consultation"} <= _ids(page)
    text = page.read_text(encoding="utf-8")
    assert "10，超" in text and "espeak-ng" in text  # 10，超时判负 (超時判負 in zh-Hant)
    notation = (site / lang / "notation.html").read_text(encoding="utf-8")
    assert "nothing to type" not in notation and "不用打字" not in notation
    assert "exhibitions.html#typing-moves" in notation
