"""Exceptions of :mod:`qisai.store`."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by :mod:`qisai.store`."""


class NotFoundError(StoreError, LookupError):
    """A row that was asked for does not exist; the message names it."""


class ConflictError(StoreError):
    """A write lost a race or breaks a uniqueness rule (a user name taken, an
    event number already used by another process); the message says which."""
