"""The rule book's texts in ``docs/rules/`` are named by what they hold
(issue 34.9): each name is checked against the text itself, each file is
mapped to its source document (seed) in ``docs/rules/README.md`` and is the
source of one page of the manual."""

from __future__ import annotations

import re
from pathlib import Path

from qisai.web.manual import builder

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"

# name -> words the text must hold for the name to be true (seed, subject)
CONTENT = {
    "000-xiangqi-local-and-national-rules.txt": [
        "中国象棋比赛规则",       # the local event's own rules open the text
        "三局两胜",               # its best-of-three matches
        "棋例总纲第 25 条",       # then the national rules, up to the 棋例
    ],
    "001-xiangqi-rules-2007.txt": [
        "07年试行新规则",         # the question the text answers
        "2007年",                 # the trial additions of 2007
        "第七章 棋例细则",        # complete through chapter 7
        "7.5 记录方式",           # with the notation table
    ],
    "003-go-rules.txt": [
        "圍棋盤橫線19條",          # the Go board, in traditional characters
        "貼",                     # komi
    ],
}


def test_every_rule_text_is_named_by_its_content() -> None:
    texts = sorted(p.name for p in RULES.glob("*.txt"))
    assert texts == sorted(CONTENT)
    for name, words in CONTENT.items():
        text = (RULES / name).read_text(encoding="utf-8")
        missing = [w for w in words if w not in text]
        assert not missing, (name, missing)
        assert not re.search(r"_[0-9a-f]{16}\.txt$", name)


def test_the_readme_maps_each_text_to_its_seed_and_the_manual_builds_each() -> None:
    readme = (RULES / "README.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+\.txt)` \| (\d{3}) \(", readme, re.M))
    assert rows == {name: name[:3] for name in CONTENT}
    assert sorted(source for source, _zh, _en in builder.RULE_PAGES.values()) == sorted(CONTENT)
    for source, _zh, _en in builder.RULE_PAGES.values():
        assert (builder.RULES / source).is_file(), source
