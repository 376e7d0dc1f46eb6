"""The event loop that carries every game's moves keeps its turn at the
interpreter lock while HTTP requests run (issue 29.4: the move tail on an
event day).

The routes' blocking work runs in worker threads, which share the
interpreter lock with the loop: with anyio's default of 40, a burst of
requests (twenty clients sending thirty at once) had up to 40 threads
taking turns with the loop, which then ran a move's few milliseconds of
work a forty-first at a time.  The app runs the routes' blocking work on
``Settings.http_threads`` threads; requests beyond them wait, holding no
thread.  And every page template is compiled at start-up, not on the loop
at its first view (the event page's first view compiled a dozen templates
there).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qisai.store import Database, repo
from qisai.store.models import GameStatus
from qisai.web import Settings, create_app
from qisai.web.app import warm_templates
from qisai.web.pages.render import templates
from qisai.web.play.live import game_summary
from qisai.web.play.storage import game_listing


def test_route_threads_are_bounded_by_the_setting(tmp_path: Path) -> None:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    settings.http_threads = 3
    settings.inflight_per_address = 40  # the in-flight limit is not what is tested here
    app = create_app(settings)
    lock = threading.Lock()
    running = [0, 0]  # now, most at once

    def slow() -> dict[str, int]:  # a plain route: FastAPI runs it in a worker thread
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return {"ok": 1}

    app.add_api_route("/test-only/slow", slow)
    with TestClient(app) as client, ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(lambda _: client.get("/test-only/slow").status_code, range(24)))
    assert codes == [200] * 24
    assert running[1] == 3, f"{running[1]} route threads ran at once, the setting says 3"


def test_default_route_threads_are_few() -> None:
    # Far below anyio's 40: the loop shares the lock with at most these.
    assert 1 <= Settings.http_threads <= 8


def test_http_threads_from_the_environment(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QISAI_HTTP_THREADS", "5")
    assert Settings.from_env(tmp_path / "d").http_threads == 5
    monkeypatch.setenv("QISAI_HTTP_THREADS", "0")
    with pytest.raises(ValueError, match="QISAI_HTTP_THREADS"):
        Settings.from_env(tmp_path / "d")


def test_every_page_template_is_compiled_at_start_up(tmp_path: Path) -> None:
    templates.env.cache.clear()  # type: ignore[union-attr]
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings)):
        cached = {t.name for t in templates.env.cache.values()}  # type: ignore[union-attr]
    pages = {n for n in templates.env.list_templates() if n.endswith(".html")}
    assert pages and pages <= cached, f"not compiled at start-up: {sorted(pages - cached)}"
    assert warm_templates() == len(pages)


def test_the_game_list_reads_plain_columns_and_shows_what_it_showed(tmp_path: Path) -> None:
    """``GET /api/games`` (a bursty client's favourite) reads columns, not
    ORM objects; each game is shown as from its stored row (both players'
    names, an engine's seat, an open seat, the result's reason) and the
    filters and order hold."""
    db = Database(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    db.upgrade()
    with db.session() as s:
        red = repo.create_user(s, "red", password_hash=None)
        black = repo.create_user(s, "black", password_hash=None)
        black.display_name = "黑方棋手"
        open_seek = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                                     first_user_id=red.id, second_user_id=None,
                                     created_by_id=red.id)
        engine_game = repo.create_game(s, kind="go", ruleset="go-casual", settings={"size": 9},
                                       first_user_id=None, second_user_id=black.id,
                                       created_by_id=black.id, engine="builtin")
        played = repo.create_game(s, kind="xiangqi", ruleset="casual", settings={},
                                  first_user_id=red.id, second_user_id=black.id,
                                  created_by_id=red.id)
        row = repo.get_game(s, played.id)
        row.status = GameStatus.FINISHED.value
        row.result = {"pgn": "1-0", "reason": "checkmate", "tag": "1-0"}
        row.result_code = "1-0"
        row.move_count = 31
        s.commit()
        ids = [open_seek.id, engine_game.id, played.id]
    with db.session() as s:
        listing = game_listing(s)
        by_orm = [game_summary(g) for g in repo.list_games(s)]
        assert listing == by_orm  # the same lines as from the ORM's objects
        assert [g["id"] for g in listing] == ids[::-1]  # newest first
        seen = {g["id"]: g for g in listing}
        assert seen[open_seek.id]["first"]["name"] == "red" and seen[open_seek.id]["second"] is None
        assert seen[engine_game.id]["first"]["engine"] is True
        assert seen[engine_game.id]["second"]["id"] == black.id
        assert (seen[played.id]["result"], seen[played.id]["reason"], seen[played.id]["moves"]
                ) == ("1-0", "checkmate", 31)
        assert [g["id"] for g in game_listing(s, status=GameStatus.FINISHED)] == [played.id]
        assert [g["id"] for g in game_listing(s, kind="go")] == [engine_game.id]
        assert [g["id"] for g in game_listing(s, user_id=red.id)] == [played.id, open_seek.id]
        assert [g["id"] for g in game_listing(s, limit=1)] == [played.id]
    db.dispose()
