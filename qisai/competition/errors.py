"""Exceptions of the competition layer.

Every error is a :class:`ValueError` subclass and its message says what was
wrong and where (which player, round, board, file line), in Chinese and in
English (issue 32.8): :attr:`CompetitionError.zh` and
:attr:`CompetitionError.en` hold the two texts, ``str()`` gives both as the
referee writes its bilingual refusals, ``"中文 / English"``, and
:meth:`CompetitionError.text` the one a page in a given language shows.

Example::

    >>> e = EventStateError("第 3 轮尚未编排", "round 3 is not paired")
    >>> str(e)
    '第 3 轮尚未编排 / round 3 is not paired'
    >>> e.text("en")
    'round 3 is not paired'
"""

from __future__ import annotations

__all__ = ["BilingualError", "BilingualText", "CompetitionError", "EntryError", "EventFileError", "EventStateError", "LineupError",
           "PairingError", "ResultError", "both", "en_of", "zh_of"]


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
    ``zh``, else its one text (a rules core's message)."""
    return exc.zh if isinstance(exc, BilingualError) else str(exc)


def en_of(exc: BaseException) -> str:
    """Return the English text of ``exc``: a :class:`BilingualError`'s
    ``en``, else its one text."""
    return exc.en if isinstance(exc, BilingualError) else str(exc)


class BilingualError(ValueError):
    """A refusal written in two languages: ``zh`` is the Chinese text and
    ``en`` the English one.  A layer that has one text only (a message from
    a rules core, which writes English) may give it alone: it is then both
    texts.
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


class CompetitionError(BilingualError):
    """Base class of all competition errors."""


class EntryError(CompetitionError):
    """An entry (player or team) is invalid, unknown or duplicated."""


class PairingError(CompetitionError):
    """A round cannot be paired under the event's constraints."""


class ResultError(CompetitionError):
    """A result is malformed, for an unknown game, or entered twice."""


class LineupError(CompetitionError):
    """A team line-up breaks the board-order rules of 12.1-12.5."""


class EventStateError(CompetitionError):
    """An operation does not fit the event's current state (e.g. pairing
    a round while the previous one still lacks results)."""


class EventFileError(CompetitionError):
    """An event, entries or TRF file cannot be read; the message names the
    file and the line or key."""
