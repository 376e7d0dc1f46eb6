"""The data folder and database URL when nothing is configured (store/config.py):
``$XDG_DATA_HOME/qisai``, else ``~/.local/share/qisai`` on Linux; macOS and
Windows have their own places.  HOME and XDG are redirected to a temporary
folder, so the user's real data is never touched."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest

from qisai.store import config


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("QISAI_DATA_DIR", raising=False)
    monkeypatch.delenv("QISAI_DATABASE_URL", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path / "home"))
    monkeypatch.setattr(sys, "platform", "linux")
    return tmp_path / "home"


def test_default_is_local_share_under_home(home: Path) -> None:
    folder = config.data_dir()
    assert folder == home / ".local" / "share" / "qisai"
    assert folder.is_dir()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # private to the user
    assert config.database_url() == f"sqlite:///{folder / 'qisai.sqlite3'}"


def test_xdg_data_home_wins_over_home(home: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert config.data_dir() == tmp_path / "xdg" / "qisai"
    assert not (home / ".local").exists()


def test_empty_settings_count_as_unset(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QISAI_DATA_DIR", "")
    monkeypatch.setenv("XDG_DATA_HOME", "")
    assert config.data_dir(create=False) == home / ".local" / "share" / "qisai"


def test_create_false_does_not_make_the_folder(home: Path) -> None:
    folder = config.data_dir(create=False)
    assert folder == home / ".local" / "share" / "qisai"
    assert not folder.exists()


def test_qisai_data_dir_wins_and_expands_the_home(home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QISAI_DATA_DIR", "~/games")
    monkeypatch.setenv("XDG_DATA_HOME", "/nowhere")
    assert config.data_dir() == home / "games"
    monkeypatch.setenv("QISAI_DATABASE_URL", "postgresql+psycopg://db/qisai")
    assert config.database_url() == "postgresql+psycopg://db/qisai"


@pytest.mark.parametrize(("platform", "expected"), [
    ("darwin", ("Library", "Application Support", "qisai")),
    ("win32", ("AppData", "Roaming", "qisai")),
])
def test_other_platforms(home: Path, monkeypatch: pytest.MonkeyPatch, platform: str,
                         expected: tuple[str, ...]) -> None:
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.delenv("APPDATA", raising=False)
    assert config.data_dir(create=False) == home.joinpath(*expected)

