"""The forms of a move text in Chinese and WXF notation (7.5), and where a
text stops fitting them, for error messages (:mod:`qisai.xiangqi.notation`
reads the moves; this module only says what is wrong with one that fails).

Each form of a notation is a sequence of token classes ``(name, characters,
optional)``; :func:`misfit` walks the text through every form at once and
names the first character that fits none of them, or what is missing.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CN_FORMS", "WXF_FORMS", "Form", "misfit"]

Form = tuple[tuple[str, str, bool], ...]

_PIECE = ("a piece (车马炮相仕帅兵)", "RHCEAKP", False)
_NUMBER = ("a file or distance number", "123456789", False)
_ACTION = ("an action (进, 退 or 平)", "+-.", False)
CN_FORMS: Final[tuple[Form, ...]] = (
    (_PIECE, _NUMBER, ("an action (进, 退 or 平)", "+-.", True), _NUMBER),
    (("前, 中, 后 or 一-五", "FMB12345", False), _PIECE, ("a file number", "123456789", True),
     _ACTION, _NUMBER),
    (_PIECE, ("前, 中 or 后", "FMB", False), _ACTION, _NUMBER),
)
"""The Chinese forms over the tokens of :mod:`qisai.xiangqi.notation` (``R`` for
车, ``F`` for 前, ``+`` for 进, digits for numbers)."""

_W_LETTER = ("a piece letter (K A E H R C P)", "KGAEBHNRCPSkgaebhnrcps", False)
_W_DIGIT = ("a number 1-9", "123456789", False)
_W_ACTION = ("an action (+ - . =)", "+-.=", False)
_W_SIGN = ("+ or -", "+-", False)
WXF_FORMS: Final[tuple[Form, ...]] = (
    (_W_LETTER, ("a file number or + - f a b", "123456789+-fabFAB", False), _W_ACTION, _W_DIGIT),
    (("+, -, f, a or b", "+-fabFAB", False), _W_LETTER, _W_ACTION, _W_DIGIT),
    (_W_SIGN, _W_SIGN, _W_ACTION, _W_DIGIT),
    (_W_DIGIT, _W_SIGN, _W_ACTION, _W_DIGIT),
    (_W_DIGIT, _W_DIGIT, _W_ACTION, _W_DIGIT),
    (_W_LETTER, _W_DIGIT, _W_DIGIT),
)
"""The WXF forms (``C2.5``, ``+R.3``, ``++.4``, ``3+.4``, ``C25``)."""


_ZH: Final = {
    "a piece (车马炮相仕帅兵)": "棋子（车马炮相仕帅兵）", "a file or distance number": "路数或步数",
    "an action (进, 退 or 平)": "动作（进、退或平）", "前, 中, 后 or 一-五": "前、中、后或一至五",
    "a file number": "路数", "前, 中 or 后": "前、中或后",
    "a piece letter (K A E H R C P)": "棋子字母（K A E H R C P）", "a number 1-9": "数字 1-9",
    "an action (+ - . =)": "动作（+ - . =）", "+ or -": "+ 或 -",
    "a file number or + - f a b": "路数或 + - f a b", "+, -, f, a or b": "+、-、f、a 或 b",
}
"""The Chinese names of the token classes, for the Chinese error text."""


def misfit(forms: tuple[Form, ...], tokens: str, shown: str, zh: bool = False) -> str:
    """Say where ``tokens`` (one per character of ``shown``) stops fitting
    every form: the first character that fits none, or what is missing.

    >>> misfit(WXF_FORMS, "C2x5", "C2x5")
    "character 3 ('x') is not one of: a number 1-9; an action (+ - . =)"

    With ``zh=True`` it says so in Chinese (the 着法 error's Chinese text).
    """
    def close(states: set[tuple[int, int]]) -> set[tuple[int, int]]:
        out = set(states)
        todo = list(states)
        while todo:
            f, i = todo.pop()
            if i < len(forms[f]) and forms[f][i][2] and (f, i + 1) not in out:
                out.add((f, i + 1))
                todo.append((f, i + 1))
        return out

    states = close({(f, 0) for f in range(len(forms))})
    for k, tok in enumerate(tokens):
        nxt = {(f, i + 1) for f, i in states if i < len(forms[f]) and tok in forms[f][i][1]}
        if not nxt:
            wanted = _wanted(forms, states, zh)
            if zh:
                return (f"第 {k + 1} 个字符（{shown[k]!r}）多余" if not wanted
                        else f"第 {k + 1} 个字符（{shown[k]!r}）不是{wanted}")
            if not wanted:
                return f"character {k + 1} ({shown[k]!r}) is one too many"
            return f"character {k + 1} ({shown[k]!r}) is not {wanted}"
        states = close(nxt)
    if zh:
        return f"第 {len(tokens)} 个字符之后缺少{_wanted(forms, states, zh)}"
    return f"{_wanted(forms, states)} is missing after character {len(tokens)}"


def _wanted(forms: tuple[Form, ...], states: set[tuple[int, int]], zh: bool = False) -> str:
    """Name what may come next, leaving out a class another one contains."""
    classes = {forms[f][i][:2] for f, i in states if i < len(forms[f])}
    kept = sorted(name for name, chars in classes
                  if not any(set(chars) < set(other) for _, other in classes))
    if zh:
        names = [_ZH[name] for name in kept]
        return "".join(names) if len(names) < 2 else "以下之一：" + "；".join(names)
    if len(kept) < 2:
        return "".join(kept)
    return "one of: " + "; ".join(kept)
