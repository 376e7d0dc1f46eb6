"""``qisai role``: names the database it uses and never creates one by
accident (``--create`` does it on purpose)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from qisai.cli import app
from qisai.store import Database, repo

runner = CliRunner()


def tables(path: Path) -> set[str]:
    """The tables of the SQLite file ``path`` (read with the standard library)."""
    with sqlite3.connect(path) as conn:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def make_account(url: str, name: str) -> None:
    db = Database(url)
    with db.session() as s:
        repo.create_user(s, name, password_hash=None)
    db.dispose()


def role_of(url: str, name: str) -> str:
    db = Database(url)
    try:
        with db.session() as s:
            user = repo.find_user(s, name)
            assert user is not None
            return str(user.role)
    finally:
        db.dispose()


def test_a_missing_data_folder_is_named_and_not_created(tmp_path: Path) -> None:
    folder = tmp_path / "nowhere"
    r = runner.invoke(app, ["role", "boss", "organiser", "--data-dir", str(folder)])
    assert r.exit_code == 2
    expected = folder / "qisai.sqlite3"
    assert f"database: {expected}" in r.output
    assert f"the database {expected} does not exist" in r.output and "--create" in r.output
    assert not folder.exists()
    assert list(tmp_path.iterdir()) == []


def test_the_environment_chooses_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "from-env"
    monkeypatch.setenv("QISAI_DATA_DIR", str(folder))
    monkeypatch.delenv("QISAI_DATABASE_URL", raising=False)
    r = runner.invoke(app, ["role", "boss", "organiser"])
    assert r.exit_code == 2 and f"database: {folder / 'qisai.sqlite3'}" in r.output
    assert not folder.exists()
    url = f"sqlite:///{tmp_path / 'other.sqlite3'}"
    monkeypatch.setenv("QISAI_DATABASE_URL", url)
    r = runner.invoke(app, ["role", "boss", "organiser"])
    assert r.exit_code == 2 and f"database: {tmp_path / 'other.sqlite3'}" in r.output
    assert list(tmp_path.iterdir()) == []


def test_create_makes_the_database_then_roles_are_granted(tmp_path: Path) -> None:
    path = tmp_path / "new" / "arena.sqlite3"
    url = f"sqlite:///{path}"
    r = runner.invoke(app, ["role", "boss", "organiser", "--database-url", url, "--create"])
    # made on purpose, with qisai's tables; the account is not there yet
    assert r.exit_code == 2 and "no account named 'boss'" in r.output
    assert path.is_file() and {"users", "alembic_version"} <= tables(path)
    make_account(url, "Boss")
    r = runner.invoke(app, ["role", "boss", "organiser", "--database-url", url])
    assert r.exit_code == 0, r.output
    assert f"database: {path}" in r.output
    assert r.output.strip().splitlines()[-1] == "Boss: organiser"
    assert role_of(url, "Boss") == "organiser"
    r = runner.invoke(app, ["role", "Boss", "arbiter", "--database-url", url, "--create"])
    assert r.exit_code == 0 and role_of(url, "Boss") == "arbiter"  # --create keeps the data


def test_a_file_without_qisai_tables_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    r = runner.invoke(app, ["role", "boss", "organiser", "--database-url", f"sqlite:///{path}"])
    assert r.exit_code == 2
    assert f"the database {path} has no qisai tables" in r.output
    assert tables(path) == {"notes"}


def test_unreachable_server_database_hides_the_password(tmp_path: Path) -> None:
    url = "postgresql+psycopg://player:hunter2@127.0.0.1:9/qisai"
    r = runner.invoke(app, ["role", "boss", "organiser", "--database-url", url])
    assert r.exit_code == 1
    assert "database: postgresql+psycopg://player:***@127.0.0.1:9/qisai" in r.output
    assert "hunter2" not in r.output
    r = runner.invoke(app, ["role", "boss", "organiser", "--database-url", "not a url"])
    assert r.exit_code == 2 and "not a database URL" in r.output
