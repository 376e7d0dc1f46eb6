"""``qisai serve`` and ``qisai play`` (through a Typer app they register on)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from qisai.cli.arena import register


def make_app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


def test_help_lists_both_commands() -> None:
    r = CliRunner().invoke(make_app(), ["--help"])
    assert r.exit_code == 0 and "serve" in r.output and "play" in r.output
    r = CliRunner().invoke(make_app(), ["serve", "--help"])
    assert r.exit_code == 0 and "--port" in r.output and "--host" in r.output


def test_serve_rejects_a_bad_engine_spec_and_port() -> None:
    r = CliRunner().invoke(make_app(), ["serve", "--engine", "nocommand"])
    assert r.exit_code == 2 and "NAME=COMMAND" in r.output
    r = CliRunner().invoke(make_app(), ["serve", "--port", "70000"])
    assert r.exit_code == 2


def test_play_with_a_friend_to_mate_in_chinese_notation() -> None:
    fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"
    r = CliRunner().invoke(make_app(), ["play", "--opponent", "friend", "--fen", fen],
                           input="车八进九\n")
    assert r.exit_code == 0, r.output
    assert "红方 Red: 车八进九" in r.output and "1-0" in r.output and "将死" in r.output


def test_play_rejects_illegal_input_and_engine_answers() -> None:
    r = CliRunner().invoke(make_app(), ["play", "--think", "0.05"], input="h2h8\nh2e2\nquit\n")
    assert r.exit_code == 0, r.output
    assert "cannot move" in r.output and "红方 Red: 炮二平五" in r.output
    assert "黑方 Black:" in r.output  # the built-in engine replied
    r = CliRunner().invoke(make_app(), ["play", "--color", "green"])
    assert r.exit_code == 2 and "red or black" in r.output

def test_engine_think_comes_from_the_environment(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from qisai.web import Settings, create_app

    monkeypatch.setenv("QISAI_ENGINE_THINK", "0.25")
    s = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    assert s.engine_think == 0.25
    assert create_app(s).state.qisai.hub.engine_think == 0.25
    for bad in ("abc", "0", "-1", "601"):
        monkeypatch.setenv("QISAI_ENGINE_THINK", bad)
        try:
            Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
        except ValueError as exc:
            assert "QISAI_ENGINE_THINK" in str(exc)
        else:
            raise AssertionError(f"{bad!r} accepted")
    monkeypatch.setenv("QISAI_ENGINE_THINK", "abc")
    r = CliRunner().invoke(make_app(), ["serve", "--data-dir", str(tmp_path / "d2")])
    assert r.exit_code == 2 and "QISAI_ENGINE_THINK" in r.output


def test_role_makes_the_first_organiser(tmp_path: Path) -> None:
    from qisai.store import Database, repo

    data = tmp_path / "data"
    url = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    db = Database(url)
    db.upgrade()
    with db.session() as s:
        repo.create_user(s, "Boss", password_hash=None)
    db.dispose()
    run = CliRunner().invoke
    r = run(make_app(), ["role", "boss", "organiser", "--data-dir", str(data),
                         "--database-url", url])
    assert r.exit_code == 0, r.output
    assert "Boss: organiser" in r.output
    db = Database(url)
    with db.session() as s:
        user = repo.find_user(s, "Boss")
        assert user is not None and user.role == "organiser"
    db.dispose()
    r = run(make_app(), ["role", "boss", "king", "--data-dir", str(data), "--database-url", url])
    assert r.exit_code == 2 and "expected one of" in r.output
    r = run(make_app(), ["role", "nobody", "arbiter", "--data-dir", str(data),
                         "--database-url", url])
    assert r.exit_code == 2 and "no account named 'nobody'" in r.output


def test_role_on_a_fresh_set_up_makes_the_database_and_the_account(tmp_path: Path) -> None:
    """The README's example on a fresh set-up (issue 32 item 10): no database,
    no account; ``--create --password-file`` makes both, and the account logs
    in to the arena with that password and has the role."""
    from fastapi.testclient import TestClient

    from qisai.web import Settings, create_app

    data = tmp_path / "data"
    secret = tmp_path / "alice.pass"
    secret.write_text("walnut harbour trombone 1987\n", encoding="utf-8")
    run = CliRunner().invoke
    r = run(make_app(), ["role", "alice", "organiser", "--data-dir", str(data)])
    assert r.exit_code == 2 and "does not exist" in r.output  # not by accident
    r = run(make_app(), ["role", "alice", "organiser", "--data-dir", str(data), "--create"])
    assert r.exit_code == 2 and "--password-file" in r.output  # says how
    r = run(make_app(), ["role", "alice", "organiser", "--data-dir", str(data), "--create",
                         "--password-file", str(secret)])
    assert r.exit_code == 0, r.output
    assert "alice: organiser" in r.output
    # The sign-up's rules: a weak password, a look-alike name (I for l) are refused.
    weak = tmp_path / "weak.pass"
    weak.write_text("password1\n", encoding="utf-8")
    r = run(make_app(), ["role", "bob", "arbiter", "--data-dir", str(data),
                         "--password-file", str(weak)])
    assert r.exit_code == 2 and "password" in r.output
    r = run(make_app(), ["role", "aIice", "arbiter", "--data-dir", str(data),
                         "--password-file", str(secret)])
    assert r.exit_code == 2 and "looks like" in r.output
    # An existing account keeps its password.
    r = run(make_app(), ["role", "alice", "admin", "--data-dir", str(data),
                         "--password-file", str(weak)])
    assert r.exit_code == 0 and "left as it is" in r.output
    settings = Settings.from_env(data)
    with TestClient(create_app(settings)) as client:
        bad = client.post("/api/auth/login", json={"username": "alice", "password": "password1"})
        assert bad.status_code == 401
        ok = client.post("/api/auth/login",
                         json={"username": "alice", "password": "walnut harbour trombone 1987"})
        assert ok.status_code == 200, ok.text
        me = client.get("/api/me").json()
        assert me["username"] == "alice" and me["role"] == "admin"
