"""Exceptions of the referee.

Every error the referee raises on a bad event or setting is a
:class:`RefereeError`, which is a :class:`ValueError`; the message says what
was wrong and where (the event number, the time, the side, the field).
"""

from __future__ import annotations


class RefereeError(ValueError):
    """Base class of every error raised by :mod:`qisai.referee`."""


class RulesetError(RefereeError):
    """An unknown rule profile, or a field override that does not fit."""


class TimeControlError(RefereeError):
    """A time control that cannot be played (no stages, negative times ...)."""


class ClockError(RefereeError):
    """A clock operation that does not fit the clock's state (pressing a
    stopped clock, going back in time ...)."""


class EventError(RefereeError):
    """An event that cannot be applied to the game in its current state.

    The game is left unchanged (except that time-based endings that happened
    before the event, such as a flag fall, are still recorded).
    """


class GameOverError(EventError):
    """An event arrived after the game had ended; the message gives the result."""


class NotYourTurnError(EventError):
    """An action only the side to move may take was taken by the other side."""


class RecordError(RefereeError):
    """A game record (PGN, SGF) cannot be read back into a game; the message
    says where."""
