"""One paper model for the arena and the command line (issue 33 item 4):
an event file brought in by import prints in the arena with its header
(dates, venue, 裁判长, 主办) and its penalties: 18.4 places a warned
entry last among equal points on the arena's 成绩册 as on ``qisai event
standings`` and the event page."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from qisai.cli import app as cli_app
from qisai.papers.pdf import PapersError, find_font
from qisai.store import repo
from qisai.store.models import Role

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the papers' text")
try:
    find_font()
except PapersError:  # pragma: no cover - the machine has fonts-noto-cjk
    pytest.skip("no Chinese font (fonts-noto-cjk)", allow_module_level=True)

DATA = Path(__file__).resolve().parent.parent / "data" / "entries"
runner = CliRunner()


def cli(*args: object) -> str:
    res = runner.invoke(cli_app, ["event", *[str(a) for a in args]])
    assert res.exit_code == 0, res.output
    return res.output


def test_imported_header_and_18_4_penalty_on_the_arena_papers(client: TestClient,
                                                              register: Any,
                                                              tmp_path: Path) -> None:
    ev = tmp_path / "rr.json"
    cli("create", ev, "--entries", DATA / "players_zh.csv", "--format", "round-robin",
        "--name", "市象棋赛", "--date", "2026年12月5日", "--venue", "杭州棋院",
        "--arbiter", "张裁判", "--organiser", "杭州市棋类协会")
    for r in range(1, 8):  # 8 entries, 7 rounds, every game drawn: all level on points
        cli("pair", ev)
        for b in range(1, 5):
            cli("result", ev, r, b, "=")
    cli("penalty", ev, "3", "warning", "--round", "2", "--note", "手机响")
    rows = json.loads(cli("standings", ev, "--format", "json"))
    head = rows["header"]
    place_cli = {int(row[head.index("编号")]): row[head.index("名次")] for row in rows["rows"]}
    # 18.4: among equal points the penalised goes last; the other seven share 1st
    assert place_cli[3] == "8" and sorted(set(place_cli.values())) == ["1=", "8"]
    name3 = rows["rows"][-1][head.index("姓名")]

    org = register(client, "org")
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, org["user"]["id"], Role.ORGANISER)
    h = org["headers"]
    view = client.post("/api/tournaments/import", json=json.loads(ev.read_text("utf-8")),
                       headers=h)
    assert view.status_code == 201, view.text
    eid = view.json()["id"]
    page = {row["name"]: row["place"] for row in view.json()["standings"]}
    assert page[name3] == 8
    r = client.get(f"/tournaments/{eid}/papers/standings.pdf")
    assert r.status_code == 200
    text = "\n".join(p.extract_text() or "" for p in pypdf.PdfReader(
        io.BytesIO(r.content)).pages).replace("\x00", "")
    for s in ("市象棋赛", "2026年12月5日", "杭州棋院", "张裁判", "杭州市棋类协会", "警告"):
        assert s in text, s
    assert "org" not in text  # the organiser's account name is not the 主办
    line = next(x for x in text.splitlines() if name3 in x)
    assert line.split()[0] == "8", line
    for kind in ("pairings", "crosstable"):
        t = "\n".join(p.extract_text() or "" for p in pypdf.PdfReader(io.BytesIO(
            client.get(f"/tournaments/{eid}/papers/{kind}.pdf").content)).pages)
        assert "杭州棋院" in t.replace("\x00", ""), kind
