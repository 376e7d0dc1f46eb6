"""Refusals the arena says in the page's language (issue 32.8).

The competition layer's errors carry a Chinese and an English text
(:class:`~qisai.bilingual.BilingualError`).  A route that refuses
because of one raises :func:`refused`: a :class:`Refusal`, whose response
(:func:`qisai.web.bounds.add_bound_handlers`) has ``detail`` in the
request's language -- the ``lang`` cookie of the language switch, else
``Accept-Language``, English by default -- and both texts in ``zh`` and
``en``::

    {"detail": "编排：第 3 轮尚缺成绩", "zh": "编排：第 3 轮尚缺成绩",
     "en": "pairing: round 3 still lacks results"}
"""

from __future__ import annotations

import re

from starlette.exceptions import HTTPException

from qisai.bilingual import en_of, zh_of

__all__ = ["Refusal", "refused", "where_zh"]

_WORDS = {"tournament": "比赛", "rank": "段级位", "entries": "报名", "teams": "队",
          "start": "开始", "pairing": "编排", "withdrawal": "退赛", "import": "导入"}
"""The words a route names the step it refuses by, in Chinese."""

_PARTS = {"round": "轮", "group": "组", "match": "场", "board": "台", "game": "局"}
_PLACE = re.compile(r"(?:(?:round|group|match|board|game) \w+|final)(?: (?:(?:round|group|match|"
                    r"board|game) \w+|final))*")


class Refusal(HTTPException):
    """An HTTP refusal in two languages: ``zh`` and ``en`` (``detail`` is
    the English, for whatever reads it without a request)."""

    def __init__(self, status_code: int, zh: str, en: str) -> None:
        super().__init__(status_code, en)
        self.zh = zh
        self.en = en

    def text(self, lang: str) -> str:
        """Return the refusal in ``lang`` (``en``; any Chinese: ``zh``)."""
        return self.en if lang == "en" else self.zh


def where_zh(where: str) -> str:
    """Return a route's place words in Chinese, in their order: ``round 3
    match 2 board 1`` as ``第 3 轮第 2 场第 1 台``, ``final`` as ``决赛``,
    ``pairing`` as ``编排``; other words as they are."""
    if where in _WORDS:
        return _WORDS[where]
    if _PLACE.fullmatch(where):
        words, out = where.split(), []
        while words:
            word = words.pop(0)
            out.append("决赛" if word == "final" else f"第 {words.pop(0)} {_PARTS[word]}")
        return "".join(out)
    return where


def refused(status: int, exc: BaseException, where: str = "") -> Refusal:
    """Return the :class:`Refusal` with status ``status`` of the error
    ``exc`` (both texts of a bilingual error; a rules core's one text in
    both), after the place ``where`` (English words, see
    :func:`where_zh`)."""
    zh, en = zh_of(exc), en_of(exc)
    if where:
        zh, en = f"{where_zh(where)}：{zh}", f"{where}: {en}"
    return Refusal(status, zh, en)
