"""The pairing explanations (``qisai tournament pair --explain``) in Chinese
beside the English the pairers write (issue 32.8).

The competition layer explains each round in English sentences of a few
fixed forms (:mod:`qisai.competition.pairing.swiss`, the Berger table of
Appendix 1, McMahon, the arbiter's own pairings).  :func:`chinese` turns a
sentence of a known form into Chinese with the same numbers and clauses;
a sentence of another form is returned as ``None`` (then only the English
is printed).
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["bilingual", "chinese"]

_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _colour(word: str) -> str:
    return {"red": "红", "black": "黑"}.get(word.lower(), word)


_WHY: list[tuple[str, str]] = [
    (r"colour forced by the colour limits", "先后手由先后手限制决定"),
    (r"(\d+) has had fewer Red games", r"\1 执红次数较少，执红"),
    (r"(\d+) had Black last round", r"\1 上一轮执黑，本轮执红"),
    (r"equal histories: higher-placed (\d+) alternates to Red", r"先后手记录相同：名次较高的 \1 交替执红"),
    (r"equal histories: higher-placed (\d+) alternates to Black", r"先后手记录相同：名次较高的 \1 交替执黑"),
    (r"colours drawn by lot", "先后手抽签决定"),
    (r"round 1 fold: colours alternate by board", "第 1 轮按序对阵：各台先后手交替"),
]


def _why(text: str) -> str | None:
    for pattern, out in _WHY:
        if re.fullmatch(pattern, text):
            return re.sub(pattern, out, text)
    return None


def _board(m: re.Match[str]) -> str:
    why = _why(m[4])
    return f"第 {m[1]} 台：{m[2]}（红）对 {m[3]}（黑）" + (f"：{why}" if why else f"：{m[4]}")


def _relaxed(m: re.Match[str]) -> str:
    inner = chinese(m[1]) or m[1]
    return f"放宽：{inner}（先服从同分组原则，附录 2）"


_RULES: list[_Rule] = [
    (re.compile(r"round 1: upper half (\d+)\.\.(\d+) meets lower half (\d+)\.\.(\d+)"),
     lambda m: f"第 1 轮：上半区 {m[1]}..{m[2]} 对下半区 {m[3]}..{m[4]}"),
    (re.compile(r"opponents by order \(1 meets n/2\+1\)"),
     lambda m: "按序对阵（1 号对 n/2+1 号）"),
    (re.compile(r"lower-half opponents drawn by lot"), lambda m: "下半区的对手抽签决定"),
    (re.compile(r"draw repaired to keep same-group entries apart"),
     lambda m: "抽签结果已调整，使同单位的选手不相遇"),
    (re.compile(r"board (\d+): (\d+) \(Red\) - (\d+) \(Black\): (.*)"), _board),
    (re.compile(r"(\d+) has the bye \(lowest placed without a bye, fewest rounds missed; 轮空\)"),
     lambda m: f"{m[1]} 轮空（未轮空过的选手中名次最低、缺轮最少）"),
    (re.compile(r"the bye could not go to (\d+): the rest would not pair"),
     lambda m: f"{m[1]} 不能轮空：其余选手无法编对"),
    (re.compile(r"segment (\S+): (.+) floats? down to the nearest score"),
     lambda m: f"{m[1]} 分组：{m[2]} 降到最近的分组"),
    (re.compile(r"segment (\S+) could not take the floaters: re-paired with segment (\S+) "
                r"\(拆开重排\)"),
     lambda m: f"{m[1]} 分组无法接纳降组的选手：与 {m[2]} 分组拆开重排"),
    (re.compile(r"stuck at the bottom: segment (\S+) and below re-paired together "
                r"\(受卡, 拆开重排\)"),
     lambda m: f"受卡：{m[1]} 分组及以下拆开重排"),
    (re.compile(r"Berger table round (\d+) \(Appendix 1; first-listed plays Red, 13\.1\)"),
     lambda m: f"贝格尔表第 {m[1]} 轮（附录 1；先列者执红，13.1）"),
    (re.compile(r"McMahon \(bar (\S+), floor (\S+)\): paired on start \+ points"),
     lambda m: f"麦克马洪制（上限 {m[1]}，下限 {m[2]}）：按起始分加积分编排"),
    (re.compile(r"relaxed: (.*) \(score groups first, Appendix 2\)"), _relaxed),
    (re.compile(r"colour limits: board (\d+): (\d+) takes (\w+), (.*)"),
     lambda m: f"先后手限制：第 {m[1]} 台 {m[2]} 执{_colour(m[3])}，{m[4]}"),
    (re.compile(r"arbiter: (.*); reason: \(none given\)"), lambda m: f"裁判：{m[1]}；未说明理由"),
    (re.compile(r"arbiter: (.*); reason: (.*)"), lambda m: f"裁判：{m[1]}；理由：{m[2]}"),
    (re.compile(r"look-ahead: could not confirm that the (\d+) later round\(s\) stay pairable "
                r"without rematches"),
     lambda m: f"预判：无法确认后面 {m[1]} 轮都能编对而不重复相遇"),
    (re.compile(r"look-ahead: the first choice would leave the (\d+) later round\(s\) without "
                r"a rematch-free pairing \(相遇过的对手不再编对\); this is the best pairing "
                r"that keeps them pairable"),
     lambda m: f"预判：首选编排会使后面 {m[1]} 轮无法避免重复相遇（相遇过的对手不再编对）；"
               "此为保证后续可编的最佳编排"),
    (re.compile(r"look-ahead: no pairing of this round keeps the (\d+) later round\(s\) "
                r"pairable without rematches"),
     lambda m: f"预判：本轮任何编排都不能使后面 {m[1]} 轮避免重复相遇"),
    (re.compile(r"look-ahead: the first choice would leave the (\d+) later round\(s\) without "
                r"a rematch-free pairing \(相遇过的对手不再编对\); re-paired without (.*)"),
     lambda m: f"预判：首选编排会使后面 {m[1]} 轮无法避免重复相遇（相遇过的对手不再编对）；"
               f"已排除 {m[2]} 重新编排"),
    (re.compile(r"look-ahead: no re-pairing found that keeps the (\d+) later round\(s\) "
                r"pairable without rematches"),
     lambda m: f"预判：找不到使后面 {m[1]} 轮避免重复相遇的重新编排"),
]


def chinese(line: str) -> str | None:
    """Return the Chinese of one explanation ``line`` of a known form, or
    ``None``."""
    for pattern, make in _RULES:
        m = pattern.fullmatch(line)
        if m is not None:
            return make(m)
    return None


def bilingual(line: str) -> list[str]:
    """Return ``line`` as printed: its Chinese first when known, then the
    English."""
    zh = chinese(line)
    return [line] if zh is None else [zh, line]
