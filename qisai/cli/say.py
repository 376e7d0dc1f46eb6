"""What the command line tells a person when it refuses or warns: in
Chinese, then in English (issue 32.8), as ``qisai tournament pair
--explain`` prints its explanations::

    错误：第 3 轮尚未编排
    error: round 3 is not paired

The competition layer's errors carry both texts
(:class:`~qisai.bilingual.BilingualError`); a rules core's error
has one (English) text, which then stands in both lines after the
command's own words in each language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["error", "fail", "lines", "note", "print_error", "refused", "warning"]

_HEADS = {"error": ("错误", "error"), "warning": ("警告", "warning"), "note": ("注意", "note")}


def lines(kind: str, zh: str, en: str) -> tuple[str, str]:
    """Return the two lines of a message of ``kind`` (``error``,
    ``warning``, ``note``): ``错误：中文`` and ``error: English``."""
    head_zh, head_en = _HEADS[kind]
    return f"{head_zh}：{zh}", f"{head_en}: {en}"


def _echo(kind: str, zh: str, en: str) -> None:
    for line in lines(kind, zh, en):
        typer.echo(line, err=True)


def error(zh: str, en: str) -> None:
    """Print an error in Chinese then English on standard error."""
    _echo("error", zh, en)


def warning(zh: str, en: str) -> None:
    """Print a warning in Chinese then English on standard error."""
    _echo("warning", zh, en)


def note(zh: str, en: str) -> None:
    """Print a note in Chinese then English on standard error."""
    _echo("note", zh, en)


def fail(zh: str, en: str, code: int = 2) -> typer.Exit:
    """Print an error (see :func:`error`) and return the exit with status
    ``code`` for the caller to raise."""
    error(zh, en)
    return typer.Exit(code)


def refused(exc: BaseException, code: int = 2, zh: str = "", en: str = "") -> typer.Exit:
    """Print ``exc`` as an error, after the words ``zh``/``en`` that say
    where (``"--dead D4："``, ``"--dead D4: "``), and return the exit with
    status ``code``.  A :class:`~qisai.bilingual.BilingualError`
    gives its two texts; any other exception its one.  (Read by attribute:
    the command line starts without importing the competition layer.)"""
    return fail(zh + getattr(exc, "zh", str(exc)), en + getattr(exc, "en", str(exc)), code)


def print_error(console: Console, zh: str, en: str) -> None:
    """Print an error in Chinese then English on a Rich ``console`` (the
    texts are plain: markup in them is shown as written)."""
    from rich.markup import escape

    for line, head in zip(lines("error", zh, en), ("错误：", "error:"), strict=True):
        console.print(f"[red]{head}[/red]{escape(line[len(head):])}")
