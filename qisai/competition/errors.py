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

from qisai.bilingual import BilingualError

__all__ = ["CompetitionError", "EntryError", "EventFileError", "EventStateError", "LineupError",
           "PairingError", "ResultError"]


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
