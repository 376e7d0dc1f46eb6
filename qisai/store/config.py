"""Where qisai keeps its data: the data folder and the database URL.

* ``QISAI_DATA_DIR``: the data folder; default the user's data directory
  (``$XDG_DATA_HOME/qisai`` or ``~/.local/share/qisai`` on Linux,
  ``~/Library/Application Support/qisai`` on macOS, ``%APPDATA%\\qisai`` on
  Windows).
* ``QISAI_DATABASE_URL``: an SQLAlchemy URL (``postgresql+psycopg://...``);
  default an SQLite file ``qisai.sqlite3`` in the data folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["data_dir", "database_url"]


def data_dir(create: bool = True) -> Path:
    """Return the data folder, created (mode 0700) if ``create`` and missing.

    Raises :class:`OSError` if the folder cannot be created.
    """
    env = os.environ.get("QISAI_DATA_DIR")
    if env:
        path = Path(env).expanduser()
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Application Support" / "qisai"
    elif sys.platform.startswith("win"):
        path = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "qisai"
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "qisai"
    if create:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def database_url(folder: Path | None = None) -> str:
    """Return ``QISAI_DATABASE_URL`` if set, else the SQLite file in ``folder``
    (default :func:`data_dir`)."""
    env = os.environ.get("QISAI_DATABASE_URL")
    if env:
        return env
    folder = folder if folder is not None else data_dir()
    return f"sqlite:///{folder / 'qisai.sqlite3'}"
