"""Exceptions of the competition layer.

Every error is a :class:`ValueError` subclass and its message says what was
wrong and where (which player, round, board, file line).
"""

from __future__ import annotations


class CompetitionError(ValueError):
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
