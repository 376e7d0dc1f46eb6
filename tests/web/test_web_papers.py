"""An event's papers in the arena (qisai.web.events.papers): each paper of
each family as a PDF download and an inline print view, with the players'
names and the board numbers in it; result slips and line-up forms for the
event's organiser and arbiters only; rounds bounded, unpublished rounds
hidden from the public; the links on the event page."""

from __future__ import annotations

import io
from typing import Any

import pytest
from fastapi.testclient import TestClient

from qisai.papers.pdf import PapersError, find_font
from qisai.store import repo
from qisai.store.models import Role

try:
    find_font()
    NO_FONT = ""
except PapersError as exc:  # pragma: no cover - the machine has fonts-noto-cjk
    NO_FONT = str(exc)

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the papers' text")
pytestmark = pytest.mark.skipif(bool(NO_FONT), reason="no Chinese font (fonts-noto-cjk)")

NAMES = ("王天一", "郑惟桐", "许银川", "赵鑫鑫")


def make_role(client: TestClient, user_id: int, role: Role) -> None:
    with client.app.state.qisai.db.session() as s:  # type: ignore[attr-defined]
        repo.set_role(s, user_id, role)


def organiser(client: TestClient, register: Any, name: str = "org") -> dict[str, Any]:
    org = register(client, name)
    make_role(client, org["user"]["id"], Role.ORGANISER)
    return org


def pdf_text(r: Any) -> str:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")
    reader = pypdf.PdfReader(io.BytesIO(r.content))
    # fpdf2 writes two-byte glyph codes: pypdf reads a NUL before each character
    return "\n".join(p.extract_text() or "" for p in reader.pages).replace("\x00", "")


def individual(client: TestClient, h: dict[str, str], **extra: Any) -> tuple[int, str]:
    ev = client.post("/api/tournaments", json={"name": "Club RR", "system": "round_robin",
                                               **extra}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in NAMES:
        assert client.post(f"{base}/entries", json={"name": name},
                           headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    assert client.post(f"{base}/rounds", headers=h).status_code == 200
    return ev["id"], base


def test_individual_papers_download_print_view_and_roles(register: Any,
                                                         client: TestClient) -> None:
    org, player = organiser(client, register), register(client, "pl")
    guest = register(client, "gst")
    make_role(client, guest["user"]["id"], Role.GUEST)
    arb = register(client, "arb")
    make_role(client, arb["user"]["id"], Role.ARBITER)
    h = org["headers"]
    eid, base = individual(client, h)
    # an arbiter acts on an event once its organiser appoints him (event staff)
    assert client.post(f"{base}/staff", json={"username": "arb", "role": "arbiter"},
                       headers=h).status_code in (200, 201)
    client.put(f"{base}/rounds/1/boards/1", json={"result": "1-0"}, headers=h)
    papers = f"/tournaments/{eid}/papers"

    r = client.get(f"{papers}/pairings.pdf?round=1")
    text = pdf_text(r)
    assert r.headers["content-disposition"] == \
        f'attachment; filename="Club-RR-{eid}-pairings-r1.pdf"; ' \
        f"filename*=UTF-8''Club%20RR-{eid}-%E5%AF%B9%E9%98%B5%E8%A1%A8-%E7%AC%AC1%E8%BD%AE.pdf"
    assert all(n in text for n in NAMES) and "台次" in text and "第1轮" in text
    lines = text.splitlines()
    for b in client.get(base).json()["rounds"][0]["boards"]:  # board number, both names
        assert any(line.startswith(f"{b['board']} ") and b["red_name"] in line
                   and b["black_name"] in line for line in lines), (b, text)
    assert "1-0" in text
    view = client.get(f"{papers}/pairings")  # the print view: the same PDF, inline
    assert view.headers["content-disposition"].startswith("inline;")
    assert all(n in pdf_text(view) for n in NAMES)
    for kind in ("standings", "crosstable"):
        assert all(n in pdf_text(client.get(f"{papers}/{kind}.pdf")) for n in NAMES)
    # result slips: the event's organiser and arbiters only
    assert client.get(f"{papers}/slips.pdf").status_code == 401
    for who in (player, guest):
        r = client.get(f"{papers}/slips.pdf", headers=who["headers"])
        assert r.status_code == 403 and "organiser" in r.json()["detail"]
    for who in (org, arb):
        text = pdf_text(client.get(f"{papers}/slips.pdf?round=1", headers=who["headers"]))
        assert all(n in text for n in NAMES) and "第 1 台" in text and "裁判签字" in text
    # a kind the family has not, a bad round
    assert client.get(f"{papers}/bracket.pdf").status_code == 404
    assert client.get(f"{papers}/lineups.pdf", headers=h).status_code == 404
    assert client.get(f"{papers}/nonsense").status_code == 404
    assert client.get(f"{papers}/pairings.pdf?round=2").status_code == 404
    assert client.get(f"{papers}/pairings.pdf?round=0").status_code == 422
    assert client.get(f"{papers}/pairings.pdf?round=x").status_code == 422
    assert client.get("/tournaments/9999/papers/pairings.pdf").status_code == 404
    # the links on the event page
    page = client.get(f"/tournaments/{eid}").text
    assert "打印 / Print" in page
    assert f'href="{papers}/pairings.pdf"' in page and f'href="{papers}/standings"' in page
    assert f'href="{papers}/slips.pdf"' not in page  # not for the public
    assert f'href="{papers}/slips.pdf"' in client.get(f"/tournaments/{eid}", headers=h).text


def test_unpublished_round_is_not_printed_for_the_public(register: Any,
                                                         client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    eid, base = individual(client, h, publish="manual")
    papers = f"/tournaments/{eid}/papers"
    assert client.get(f"{papers}/pairings.pdf").status_code == 404
    assert client.get(f"{papers}/pairings.pdf?round=1").status_code == 404
    assert "第1轮" not in pdf_text(client.get(f"{papers}/crosstable.pdf"))
    assert all(n in pdf_text(client.get(f"{papers}/pairings.pdf", headers=h)) for n in NAMES)
    client.post(f"{base}/rounds/1/publish", headers=h)
    assert all(n in pdf_text(client.get(f"{papers}/pairings.pdf")) for n in NAMES)


def test_knockout_bracket_and_team_lineups(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Cup", "system": "knockout",
                                               "series": "single", "publish": "manual"},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in NAMES:
        client.post(f"{base}/entries", json={"name": name}, headers=h)
    client.post(f"{base}/start", headers=h)
    client.post(f"{base}/rounds", headers=h)
    papers = f"/tournaments/{ev['id']}/papers"
    # round 1 not published: the public's bracket has no pairings yet
    assert not any(n in pdf_text(client.get(f"{papers}/bracket.pdf")) for n in NAMES)
    assert all(n in pdf_text(client.get(f"{papers}/bracket.pdf", headers=h)) for n in NAMES)
    client.post(f"{base}/rounds/1/publish", headers=h)
    text = pdf_text(client.get(f"{papers}/bracket.pdf"))
    assert all(n in text for n in NAMES) and "决赛" in text
    assert all(n in pdf_text(client.get(f"{papers}/pairings.pdf")) for n in NAMES)
    assert client.get(f"{papers}/crosstable.pdf").status_code == 404
    assert 'data-paper="bracket"' in client.get(f"/tournaments/{ev['id']}").text

    ev = client.post("/api/tournaments", json={"name": "Clubs", "system": "team_round_robin",
                                               "boards": 2}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for team in ("红星", "蓝天", "青山", "金沙"):
        members = [{"name": f"{team}{k}号"} for k in (1, 2, 3)]
        assert client.post(f"{base}/teams", json={"name": team, "members": members},
                           headers=h).status_code == 201
    client.post(f"{base}/start", headers=h)
    client.post(f"{base}/rounds", headers=h)
    papers = f"/tournaments/{ev['id']}/papers"
    text = pdf_text(client.get(f"{papers}/lineups.pdf?round=1", headers=h))
    assert "出场名单" in text and "红星1号" in text and "第1台" in text
    assert client.get(f"{papers}/lineups.pdf").status_code == 401
    text = pdf_text(client.get(f"{papers}/pairings.pdf"))
    assert "红星" in text and "蓝天" in text
    for kind in ("standings", "crosstable"):
        assert "金沙" in pdf_text(client.get(f"{papers}/{kind}.pdf"))


def test_no_font_is_503_naming_the_package(register: Any, client: TestClient,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    org = organiser(client, register)
    eid, _ = individual(client, org["headers"])
    monkeypatch.setattr("qisai.papers.pdf.FONT_CANDIDATES", ())
    monkeypatch.delenv("QISAI_CJK_FONT", raising=False)
    r = client.get(f"/tournaments/{eid}/papers/pairings.pdf")
    assert r.status_code == 503 and "fonts-noto-cjk" in r.json()["detail"]


def test_group_event_papers(register: Any, client: TestClient) -> None:
    org = organiser(client, register)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={
        "name": "Groups", "system": "group_round_robin", "groups": 2, "advance": 1,
        "grouping": "snake"}, headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    names = NAMES + ("蒋川", "洪智")
    for k, name in enumerate(names):
        assert client.post(f"{base}/entries", json={"name": name, "rating": 2700 - 10 * k},
                           headers=h).status_code == 201
    client.post(f"{base}/start", headers=h)
    assert client.post(f"{base}/rounds", headers=h).status_code == 200
    papers = f"/tournaments/{ev['id']}/papers"
    text = pdf_text(client.get(f"{papers}/pairings.pdf?round=1"))
    assert sum(n in text for n in names) >= 4 and "G1-1" in text
    # placements (qisai.papers): filled in as the groups and the final are decided
    standings = pdf_text(client.get(f"{papers}/standings.pdf"))
    assert "成绩册" in standings and "第1组" in standings  # issue 33.2: every group's table
    slips = pdf_text(client.get(f"{papers}/slips.pdf", headers=h))
    assert "第 G1-" in slips and "第 G2-" in slips  # a slip a game (byes have none)
    cross = pdf_text(client.get(f"{papers}/crosstable.pdf"))  # a crosstable a group (33.2)
    assert "第1组" in cross and "第2组" in cross
    page = client.get(f"/tournaments/{ev['id']}").text
    assert 'data-paper="pairings"' in page and 'data-paper="crosstable"' in page
