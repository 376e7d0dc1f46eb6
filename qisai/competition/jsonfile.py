"""Event files on disk: written atomically, read back as one JSON object,
with errors that name the file and the line; the checks of the stored
objects' fields (types, an entry's fields) with errors that name the key."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from qisai.competition.errors import EntryError, EventFileError

__all__ = ["check_fields", "entry_fields", "read_object", "write_atomic"]


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


def check_fields(where: str, data: Any, fields: Mapping[str, type]) -> None:
    """Raise :class:`EventFileError` unless ``data`` is an object whose
    ``fields`` have the given types."""
    if not isinstance(data, Mapping):
        raise EventFileError(f"{where}：应为对象，实为 {type(data).__name__}",
                             f"{where}: expected an object, got {type(data).__name__}")
    for key, kind in fields.items():
        if key not in data:
            raise EventFileError(f"{where}：缺少字段 {key!r}",
                                 f"{where}: missing field {key!r}")
        value = data[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise EventFileError(f"{where}：字段 {key!r} 须为 {kind.__name__}",
                                 f"{where}: field {key!r} must be {kind.__name__}")


def entry_fields(data: Any, known: set[str]) -> dict[str, Any]:
    """Return a stored entry's fields cleaned (text stripped, numbers made
    whole numbers), for a dataclass whose fields are ``known``.

    Raises :class:`EntryError` for a missing name, an unknown field, text
    that is not text, or a number that is not a whole number >= 0.
    """
    if not isinstance(data, Mapping) or not str(data.get("name", "")).strip():
        raise EntryError(f"参赛者须有名字：{data!r}",
                         f"an entry needs a non-empty name: {data!r}")
    unknown = set(data) - known
    if unknown:
        raise EntryError(f"参赛者 {data.get('name')!r}：未知字段 {sorted(unknown)}",
                         f"entry {data.get('name')!r}: unknown fields {sorted(unknown)}")
    clean: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("name", "title", "club", "team", "federation"):
            if not isinstance(value, str):
                raise EntryError(f"参赛者 {data.get('name')!r}：{key} 须为文字",
                                 f"entry {data.get('name')!r}: {key} must be text")
            clean[key] = value.strip()
        elif key == "withdrawn_after" and value is None:
            clean[key] = None
        else:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise EntryError(f"参赛者 {data.get('name')!r}：{key} 须为数字",
                                 f"entry {data.get('name')!r}: {key} must be a number")
            try:
                number = int(value) if value != "" else 0
            except ValueError:
                raise EntryError(
                    f"参赛者 {data.get('name')!r}：{key} 须为数字，不是 {value!r}",
                    f"entry {data.get('name')!r}: {key} must be a number, "
                    f"not {value!r}") from None
            if number < 0:
                raise EntryError(f"参赛者 {data.get('name')!r}：{key} 为负数 {number}",
                                 f"entry {data.get('name')!r}: negative {key} {number}")
            clean[key] = number
    return clean
