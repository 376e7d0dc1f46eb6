"""Xiangqi commands: ``qisai perft``, ``qisai notation``, ``qisai show``."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the Xiangqi commands to the top-level ``app``."""
