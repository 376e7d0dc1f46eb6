"""Build the user manual (手册) with MkDocs: the sources in ``docs/manual/``
of the source tree, the rule book's pages from ``docs/rules/``.

This module needs no part of the arena (no FastAPI, no other qisai module):
the package's build backend (``buildsys/qisai_backend.py``) loads it by its
file path to build the manual into the package (:data:`PACKAGED`) when a wheel
or an editable install is made, before qisai's own dependencies exist.

:func:`build` makes the site:

1. copies each language tree into a staging folder and adds the rule book's
   pages, generated from ``docs/rules/*.txt`` with an HTML id for every
   numbered clause (``23.3`` -> ``#c-23-3``, the heading of 第23条 ->
   ``#c-23``, 棋例细则 item 3 -> ``#xz-3``);
2. makes the 繁體中文 tree from the simplified one with OpenCC (``s2tw``),
   leaving fenced code blocks (real program output) as they are;
3. writes the search's word list: jieba's dictionary and ours
   (``jieba_user.txt``) in simplified and traditional characters, so that
   both Chinese manuals (and the Go rules, written in traditional
   characters) are cut into the same words;
4. runs ``mkdocs build`` (``--strict``: a broken link or a missing page fails)
   once per language into ``SITE/zh``, ``SITE/zh-Hant`` and ``SITE/en``, and
   writes ``SITE/index.html`` to choose a language.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["LANGUAGES", "PACKAGED", "PAGES", "RULE_PAGES", "SEARCH_SEPARATOR", "SOURCE",
           "build", "build_packaged", "rules_markdown", "search_dictionary", "to_traditional"]

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "docs" / "manual"
"""The manual's sources (present in a source checkout and an sdist)."""
RULES = ROOT / "docs" / "rules"
"""The rule book's texts, from which the rules pages are made."""

LANGUAGES: dict[str, dict[str, str]] = {
    "zh": {"name": "简体中文", "theme": "zh", "search": "en", "rules": "规则原文",
           "title": "棋赛 qisai 使用手册"},
    "zh-Hant": {"name": "繁體中文", "theme": "zh-Hant", "search": "en", "rules": "規則原文",
                "title": "棋賽 qisai 使用手冊"},
    "en": {"name": "English", "theme": "en", "search": "en", "rules": "The rule book",
           "title": "qisai manual"},
}
"""The manual's languages: folder name -> names and settings.  Search is
``en`` for all three: the Chinese text is cut into words by jieba when the
index is built (the words joined by U+200B, a separator of the index), and
lunr's own ``zh`` needs a Node.js jieba that a browser does not have."""

SEARCH_SEPARATOR = r"[\s\u200b\u3000\-、。，．？！；：（）()“”「」《》]+"
"""Where the search index splits words (Material's Chinese default, and brackets)."""

PAGES = ["index.md", "players.md", "notation.md", "exhibitions.md", "arbiters.md",
         "organisers.md", "engines.md", "operators.md"]
"""The written pages, in reading order (each language has every one)."""

RULE_PAGES = {
    # page: (source text, title in zh, title in en)
    "rules/xiangqi.md": ("001-xiangqi-rules-2007.txt", "中国象棋竞赛规则（全文，含棋例细则）",
                         "Xiangqi competition rules (complete, with the 棋例 details)"),
    "rules/xiangqi-local.md": ("000-xiangqi-local-and-national-rules.txt",
                               "象棋比赛规则（地方赛事规程与全国规则）",
                               "Xiangqi rules (a local event's rules and the national rules)"),
    "rules/go.md": ("003-go-rules.txt", "围棋规则（繁体原文）与象棋规则摘要",
                    "Go rules (the Traditional-character text) and a Xiangqi summary"),
}
"""The rule-book pages generated at build time."""

PACKAGED = Path(__file__).resolve().parent / "site"
"""The manual built into the package (by the build backend, or by
``python -m qisai.web.manual build`` in a source checkout); a wheel carries it."""
STAMP = ".sources.sha256"
"""The file in a built manual naming the digest of the sources it was built from."""

GO_SECTIONS = {"基本下法": "go-basic", "競賽規定": "go", "竞赛规定": "go"}
"""Numbered sections of the Go text (seed 003) and their anchor prefixes:
竞赛规定 11(1) -> ``rules/go.html#go-11``, 基本下法 2 -> ``#go-basic-2``."""


# ------------------------------------------------------------------ rule pages

_CN_NUMBERS = {c: i for i, c in enumerate("零一二三四五六七八九十")}


def _chinese_int(text: str) -> int:
    """二十一 -> 21 (up to 99)."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_CN_NUMBERS[tens] if tens else 1) * 10 + (_CN_NUMBERS[ones] if ones else 0)
    return _CN_NUMBERS[text]


_ARTICLE = re.compile(r"^第\s*([0-9]{1,2}|[一二三四五六七八九十]{1,3})\s*条\s*(.*)$")
_CHAPTER = re.compile(r"^第[一二三四五六七八九十]+章")
# "24,3" / "24，3": the source texts have a comma for the dot once (clause 24.3).
_NUMBERED = re.compile(r"^(\d{1,2}(?:[.,，]\d{1,2}){1,2})\s*(.*)$")
_DETAIL_ITEM = re.compile(r"^(\d{1,2})\.(?!\d)(.*)$")
_PINYIN = re.compile(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+\)")
_GO_ITEM = re.compile(r"^(\d{1,2})、(.*)$")
_INLINE = re.compile(r"(?<!\d)(?<!\d[.．])(\d{1,2}(?:\.|(?<=24)[,，](?=3))\d{1,2}(?:\.\d{1,2})?)"
                     r"(?=\s?[^\d.．%％])")


def _anchor(number: str) -> str:
    return "c-" + re.sub(r"[.,，]", "-", number)


def _clause_p(ident: str, label: str, text: str) -> str:
    return (f'<p id="{ident}" class="clause"><a class="clause-no" href="#{ident}">'
            f'{html.escape(label)}</a> {html.escape(text)}</p>')


def rules_markdown(text: str, title: str, intro: str) -> str:
    """One rule-book text as a Markdown page with an id for every clause.

    Lines are kept as the text has them.  A chapter (第一章) becomes a heading,
    an article (第23条, 第二十一条) a heading with id ``c-23``; a numbered
    clause line (``23.3 ...``) a paragraph with id ``c-23-3``; in 第七章
    棋例细则 the items ``1.`` .. ``13.`` get ``xz-1`` ..; clause numbers inside
    run-together lines get an empty anchor at their first occurrence.
    """
    out = [f"# {title}", "", intro, ""]
    seen: set[str] = set()
    in_details = False
    go_prefix: str | None = None  # inside a numbered section of the Go text
    go_last = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        plain = _PINYIN.sub("", line)  # the Go text carries pinyin: 規(guī)定
        if plain in GO_SECTIONS:
            go_prefix, go_last = GO_SECTIONS[plain], 0
            ident = go_prefix + "-section"
            out += [f"## {html.escape(line)} {{ #{ident} }}" if ident not in seen
                    else f"## {html.escape(line)}", ""]
            seen.add(ident)
            continue
        if go_prefix is not None and (m := _GO_ITEM.match(line)):
            n = int(m[1])
            ident = f"{go_prefix}-{n}"
            if n == go_last + 1 and ident not in seen:
                go_last = n
                seen.add(ident)
                if len(_PINYIN.sub("", m[2])) <= 20:  # a title: 1、先后手的確定
                    out += [f"### {html.escape(line)} {{ #{ident} }}", ""]
                else:  # a rule: 1、對局雙方各執一色棋子，黑先白后……
                    out += [_clause_p(ident, f"{n}、", m[2]), ""]
                continue
            go_prefix = None  # the numbering starts again: the section is over
        if _CHAPTER.match(line):
            in_details = "棋例细则" in line
            out += [f"## {html.escape(line)}", ""]
            continue
        if m := _ARTICLE.match(line):
            n = _chinese_int(m[1])
            ident = f"c-{n}"
            if ident not in seen and 1 <= n <= 29:
                seen.add(ident)
                out += [f"### {html.escape(line)} {{ #{ident} }}", ""]
                continue
        if m := _NUMBERED.match(line):
            ident = _anchor(m[1])
            if ident not in seen and 1 <= int(re.split(r"[.,，]", m[1])[0]) <= 29:
                seen.add(ident)
                out += [_clause_p(ident, m[1], m[2]), ""]
                continue
        if in_details and (m := _DETAIL_ITEM.match(line)):
            ident = f"xz-{int(m[1])}"
            if ident not in seen:
                seen.add(ident)
                out += [_clause_p(ident, f"{int(m[1])}.", m[2]), ""]
                continue
        if in_details and len(line) < 40 and not line[0].isdigit():
            in_details = False  # the text after the rules (biographies) starts here
            out += [f"## {html.escape(line)}", ""]
            continue
        out += [_inline_anchors(line, seen), ""]
    return "\n".join(out) + "\n"


def _inline_anchors(line: str, seen: set[str]) -> str:
    """A run-together line, with an anchor before each clause number's first
    occurrence (clauses 1 to 29 only)."""
    pieces: list[str] = []
    last = 0
    for m in _INLINE.finditer(line):
        ident = _anchor(m[1])
        if ident in seen or not 1 <= int(re.split(r"[.,，]", m[1])[0]) <= 29:
            continue
        seen.add(ident)
        pieces.append(html.escape(line[last:m.start()]))
        pieces.append(f'<span id="{ident}" class="clause-no">{m[1]}</span>')
        last = m.end()
    pieces.append(html.escape(line[last:]))
    return '<p class="rule-text">' + "".join(pieces) + "</p>"


_RULES_INTRO = {
    "zh": ("本页是规则书原文（`docs/rules/{name}`）的副本，构建手册时自动生成，文字未作改动。"
           "每个编号条款都有锚点，例如 `#c-23-3` 指向 23.3 款，裁判结论可以直接链接到条款。"),
    "en": ("This page is the rule book's text (`docs/rules/{name}`), in Chinese as written, "
           "made when the manual is built. Every numbered clause has an anchor, e.g. "
           "`#c-23-3` for clause 23.3, so that a verdict can link to its clause."),
}


def _write_rule_pages(docs: Path, lang: str) -> None:
    intro = _RULES_INTRO["en" if lang == "en" else "zh"]
    for page, (name, zh_title, en_title) in RULE_PAGES.items():
        text = (RULES / name).read_text(encoding="utf-8")
        title = en_title if lang == "en" else zh_title
        target = docs / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(rules_markdown(text, title, intro.format(name=name)), encoding="utf-8")


# ------------------------------------------------------------------ 繁體中文

_FENCE = re.compile(r"^(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def to_traditional(markdown: str) -> str:
    """Convert a simplified-Chinese Markdown page to traditional characters
    with OpenCC (``s2tw``: standard characters as in Taiwan, 著 for 着 as the
    Go seed writes 一著; no vocabulary changes).  Code stays as it is: fenced
    blocks (real program output) and inline code spans (what to type, e.g.
    ``--tiebreaks 小分,胜局``)."""
    import opencc  # the docs extra

    converter = opencc.OpenCC("s2tw")
    out: list[str] = []
    fence: str | None = None
    prose: list[str] = []

    def convert(text: str) -> str:
        pieces, last = [], 0
        for m in _CODE_SPAN.finditer(text):
            pieces += [converter.convert(text[last:m.start()]), m[0]]
            last = m.end()
        pieces.append(converter.convert(text[last:]))
        return "".join(pieces)

    def flush() -> None:
        if prose:
            out.append(convert("".join(prose)))
            prose.clear()

    for line in markdown.splitlines(keepends=True):
        m = _FENCE.match(line.lstrip())
        if fence is None and m:
            flush()
            fence = m[1]
            out.append(line)
        elif fence is not None:
            out.append(line)
            if line.strip() == fence:
                fence = None
        else:
            prose.append(line)
    flush()
    return "".join(out)


def _convert_tree(src: Path, dst: Path) -> None:
    for path in src.rglob("*"):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.suffix == ".md":
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(to_traditional(path.read_text(encoding="utf-8")), encoding="utf-8")
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


# ------------------------------------------------------------------ search words

def search_dictionary(out: Path) -> tuple[Path, Path]:
    """Write the search's word lists into the folder ``out``: jieba's own
    dictionary and our ``jieba_user.txt``, each with every word also in
    traditional characters (OpenCC ``s2tw``); return their paths
    ``(dictionary, user words)``.

    Why: jieba's dictionary is simplified Chinese, so it cut the 繁體中文
    pages into other words than the simplified ones (為長將, 將判, 當主將 as
    words), and the search, which matches whole words of the index, missed
    them.  With both forms the two Chinese manuals, and the Go rules written
    in traditional characters, are cut alike.  A word whose traditional form
    is also a simplified word keeps the higher count."""
    import jieba  # the docs extra
    import opencc

    converter = opencc.OpenCC("s2tw")
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for source, name in ((Path(jieba.__file__).with_name("dict.txt"), "dict.txt"),
                         (SOURCE / "jieba_user.txt", "user.txt")):
        rows = [line.split(" ") for line in source.read_text(encoding="utf-8").splitlines()
                if line.strip()]
        words = [row[0] for row in rows]
        # One call for all the words (one a line: OpenCC keeps the lines).
        traditional = converter.convert("\n".join(words)).split("\n")
        entries: dict[str, list[str]] = {}
        for row, hant in zip(rows, traditional, strict=True):
            for word in (row[0], hant):
                seen = entries.get(word)
                if seen is None or (len(row) > 1 and len(seen) > 1
                                    and int(row[1]) > int(seen[1])):
                    entries[word] = [word, *row[1:]]
        target = out / name
        target.write_text("".join(" ".join(e) + "\n" for e in entries.values()), encoding="utf-8")
        paths.append(target)
    return paths[0], paths[1]


# ------------------------------------------------------------------ build

def _config(lang: str, docs: Path, site: Path, words: tuple[Path, Path]) -> dict[str, Any]:
    import yaml  # comes with MkDocs

    base: dict[str, Any] = yaml.safe_load((SOURCE / "mkdocs.yml").read_text(encoding="utf-8"))
    info = LANGUAGES[lang]
    base["site_name"] = info["title"]
    base["docs_dir"] = str(docs)
    base["site_dir"] = str(site)
    base["theme"]["language"] = info["theme"]
    for plugin in base["plugins"]:
        if isinstance(plugin, dict) and "search" in plugin:
            plugin["search"]["lang"] = info["search"]
            # Words are split at U+200B (jieba's cuts) and Chinese punctuation
            # too, in every language (the English pages quote Chinese terms).
            plugin["search"]["separator"] = SEARCH_SEPARATOR
            plugin["search"]["jieba_dict"] = str(words[0])
            plugin["search"]["jieba_dict_user"] = str(words[1])
    # The offline plugin adds the iframe-worker shim from a CDN unless one is
    # listed: ours is a local copy, so nothing is fetched from outside.
    base.setdefault("extra", {})["polyfills"] = ["assets/qisai/iframe-worker-shim.js"]
    base.setdefault("extra", {})["alternate"] = [
        {"name": v["name"], "link": f"../{k}/index.html", "lang": v["theme"]}
        for k, v in LANGUAGES.items()]
    base["nav"] = PAGES + [{info["rules"]: ["rules/index.md", *RULE_PAGES]}]
    return base


def _warnings(log: str) -> str:
    return "\n".join(line for line in log.splitlines() if line.startswith("WARNING"))


def _landing() -> str:
    links = "".join(f'<li><a href="{k}/index.html" hreflang="{v["theme"]}">{v["name"]}</a></li>'
                    for k, v in LANGUAGES.items())
    return ("<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"refresh\" content=\"0; url=zh/index.html\">"
            "<title>qisai 手册 / Manual</title></head><body><h1>qisai 手册 / Manual</h1>"
            f"<ul>{links}</ul></body></html>\n")


def sources_digest() -> str:
    """The SHA-256 over the manual's sources (pages, settings, rule texts and
    this builder): a built manual with the same digest needs no new build."""
    digest = hashlib.sha256()
    files = [p for folder in (SOURCE, RULES) for p in folder.rglob("*") if p.is_file()]
    for path in sorted([*files, Path(__file__).resolve()]):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def build(out: Path | None = None, *, strict: bool = True, quiet: bool = True) -> Path:
    """Build the manual into ``out`` (default :data:`PACKAGED`, the copy the
    package carries and ``qisai serve`` shows) and return it.

    Raises :class:`FileNotFoundError` without the sources (an installed
    wheel has none: build from a source checkout), :class:`ImportError`
    without the docs extra (MkDocs, Material, jieba, OpenCC) and
    :class:`RuntimeError` when MkDocs fails (with its messages).
    """
    if not (SOURCE / "mkdocs.yml").is_file():
        raise FileNotFoundError(f"the manual's sources are not here ({SOURCE}); "
                                "build it from a source checkout of qisai")
    import yaml

    out = Path(out) if out is not None else PACKAGED
    digest = sources_digest()
    with tempfile.TemporaryDirectory(prefix="qisai-manual-") as tmp:
        stage = Path(tmp)
        for lang in ("zh", "en"):
            shutil.copytree(SOURCE / lang, stage / lang)
            shutil.copytree(SOURCE / "assets", stage / lang / "assets" / "qisai")
            _write_rule_pages(stage / lang, lang)
        _convert_tree(stage / "zh", stage / "zh-Hant")
        words = search_dictionary(stage / "words")
        built = stage / "site"
        for lang in LANGUAGES:
            cfg = stage / f"mkdocs-{lang}.yml"
            cfg.write_text(yaml.safe_dump(_config(lang, stage / lang, built / lang, words),
                                          allow_unicode=True, sort_keys=False), encoding="utf-8")
            cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(cfg)]
            if strict:
                cmd.append("--strict")  # (not with --quiet: that hides the warnings it counts)
            # jieba keeps its cache of the word list in the temporary folder.
            env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(stage)}
            proc = subprocess.run(cmd, capture_output=True, text=True, cwd=stage, env=env)
            if proc.returncode != 0:
                raise RuntimeError(f"mkdocs build ({lang}) failed:\n{proc.stdout}{proc.stderr}")
            if not quiet:
                print(f"{lang}: {_warnings(proc.stderr) or 'built'}", file=sys.stderr)
        (built / "index.html").write_text(_landing(), encoding="utf-8")
        (built / STAMP).write_text(digest + "\n", encoding="ascii")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(built, out)
    return out


def build_packaged(*, quiet: bool = True) -> Path:
    """Build the manual into the package (:data:`PACKAGED`) unless the copy
    there was built from the same sources; return the folder.  The build
    backend calls it for every wheel and editable install; a wheel's copy
    (no sources beside it) is kept as it is.  Raises as :func:`build`."""
    stamp = PACKAGED / STAMP
    if not (SOURCE / "mkdocs.yml").is_file() and (PACKAGED / "index.html").is_file():
        return PACKAGED
    if stamp.is_file() and stamp.read_text(encoding="ascii").strip() == sources_digest():
        return PACKAGED
    return build(PACKAGED, strict=True, quiet=quiet)
