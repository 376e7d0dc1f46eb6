"""Texts and errors in two languages, Chinese and English (issue 32.8).

The bottom of qisai, below the rules cores: every layer that refuses
something says it in both languages with :class:`BilingualError` (the
rules cores' :class:`~qisai.xiangqi.errors.XiangqiError` and
:class:`~qisai.go.errors.GoError`, the competition layer's
:class:`~qisai.competition.errors.CompetitionError`); :func:`zh_of` and
:func:`en_of` read the one text a page or a command line shows.

Example::

    >>> e = BilingualError("第 3 轮尚未编排", "round 3 is not paired")
    >>> str(e)
    '第 3 轮尚未编排 / round 3 is not paired'
    >>> e.text("en")
    'round 3 is not paired'
"""

from __future__ import annotations

__all__ = ["BilingualError", "BilingualText", "both", "en_of", "zh_of"]


def both(zh: str, en: str) -> str:
    """Return the two texts in the project's bilingual form: one line
    ``"中文 / English"``; the Chinese lines then the English ones when a text
    has several (a list of problems); one of them alone when the other is
    empty or the same."""
    if not zh or zh == en:
        return en
    if not en:
        return zh
    if "\n" in zh or "\n" in en:
        return f"{zh}\n{en}"
    return f"{zh} / {en}"


class BilingualText(str):
    """A line in English (the string itself, as such lines were before
    issue 32.8: compared, sorted and joined as before) that also carries
    its Chinese, :attr:`zh`: a bad item of a bulk entry, an event's
    warning."""

    zh: str

    def __new__(cls, en: str, zh: str) -> BilingualText:
        line = super().__new__(cls, en)
        line.zh = zh
        return line


def zh_of(exc: BaseException) -> str:
    """Return the Chinese text of ``exc``: a :class:`BilingualError`'s
    ``zh``, else its one text (an error from outside qisai)."""
    return exc.zh if isinstance(exc, BilingualError) else str(exc)


def en_of(exc: BaseException) -> str:
    """Return the English text of ``exc``: a :class:`BilingualError`'s
    ``en``, else its one text."""
    return exc.en if isinstance(exc, BilingualError) else str(exc)


class BilingualError(ValueError):
    """A refusal written in two languages: ``zh`` is the Chinese text and
    ``en`` the English one.  Given one text only, it is both texts.
    """

    zh: str
    """The message in Chinese (the rule book's terms)."""
    en: str
    """The message in English."""

    def __init__(self, zh: str, en: str | None = None) -> None:
        self.zh = zh
        self.en = zh if en is None else en
        super().__init__(both(self.zh, self.en))

    def text(self, lang: str) -> str:
        """Return the message in ``lang``: ``en`` gives the English, any
        Chinese (``zh``, ``zh-Hant``) the Chinese."""
        return self.en if lang == "en" else self.zh
