"""Event files on disk: written atomically, read back as one JSON object,
with errors that name the file and the line."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from qisai.competition.errors import EventFileError

__all__ = ["read_object", "write_atomic"]


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder
    and a rename, so a crash leaves the old file whole."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".qisai-", dir=str(target.parent or Path(".")))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_object(path: str | Path) -> dict[str, Any]:
    """Return the JSON object in ``path``.  Raises :class:`EventFileError`
    naming the file (and the line) if it cannot be read, is not JSON or is
    not an object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EventFileError(f"{path}：无法读取（{exc.strerror}）",
                             f"{path}: cannot read ({exc.strerror})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventFileError(f"{path}，第 {exc.lineno} 行：不是 JSON（{exc.msg}）",
                             f"{path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    if not isinstance(data, dict):
        raise EventFileError(f"{path}：顶层须为对象",
                             f"{path}: top level must be an object")
    return data
