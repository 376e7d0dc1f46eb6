"""Issue 14 item 5: the game page embeds its state as JSON in a
``<script type="application/json">`` block with ``<``, ``>``, ``&``, U+2028
and U+2029 escaped (as Django's json_script), so a hostile display name
cannot end the block or open a comment in it, and the block parses back to
the exact name.  The browser side is tests/web/test_web_security_browser.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from qisai.store.models import User
from qisai.web import Settings, create_app
from qisai.web.pages.render import embed_json

HOSTILE = ["<!--<script>", "</script><script>alert(1)</script>", "a & b > c < d",
           "line\u2028break\u2029para", "<!--", "]]><![CDATA[", "</SCRIPT >"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings.from_env(tmp_path / "data", url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings)) as c:
        yield c


def register(client: TestClient, name: str) -> tuple[dict[str, str], int]:
    r = client.post("/api/auth/register", json={"username": name, "password": "correct horse"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}, r.json()["user"]["id"]


def rename(client: TestClient, user_id: int, display_name: str) -> None:
    """Set a display name straight in the database: whatever the account
    rules let through today, the page must survive what is stored."""
    db: Any = client.app.state.qisai.db  # type: ignore[attr-defined]
    with db.session() as s:
        s.execute(update(User).where(User.id == user_id).values(display_name=display_name))
        s.commit()


def game_data(page: str) -> tuple[str, Any]:
    blocks = re.findall(r'<script id="game-data" type="application/json">(.*?)</script>',
                        page, re.DOTALL)
    assert len(blocks) == 1, "the data block must end where it should, once"
    return blocks[0], json.loads(blocks[0])


@pytest.mark.parametrize("name", HOSTILE)
def test_embed_json_escapes_and_round_trips(name: str) -> None:
    text = embed_json({"name": name})
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == {"name": name}


def test_embed_json_escapes_like_json_script() -> None:
    assert embed_json("<!--<script>&") == '"\\u003C!--\\u003Cscript\\u003E\\u0026"'


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_display_name_round_trips_through_the_game_page(
        client: TestClient, name: str) -> None:
    red, red_id = register(client, "villain")
    rename(client, red_id, name)
    r = client.post("/api/games", json={"kind": "xiangqi", "color": "first"}, headers=red)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    page = client.get(f"/games/{gid}")
    assert page.status_code == 200
    raw, data = game_data(page.text)
    first = data["players"]["first"]
    assert name in (first.get("display_name"), first["name"])  # the exact name, unescaped
    if "<" in name:
        assert "\\u003C" in raw and "<" not in raw
    if "&" in name:
        assert "\\u0026" in raw
    # nothing of the name is loose in the page as markup
    assert "<!--<script>" not in page.text
    assert "<script>alert(1)" not in page.text
