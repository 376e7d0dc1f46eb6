"""A verdict's clauses link to the manual's copy of the rule texts (issue
22): a 棋例 verdict (perpetual check, 24.1) reached on the server carries
links to its clauses, and each link's anchor, in the rule page the manual is
built from, holds that clause of the rule book's own text."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from qisai.web.manual import builder
from qisai.web.play.clauses import clause_links

CASES = Path(__file__).resolve().parents[1] / "data" / "xiangqi" / "repetition_basic.json"
RULE_BOOK = builder.RULES / "001-xiangqi-rules-2007.txt"


def perpetual_check_game(client: TestClient, register: Any) -> tuple[str, dict[str, Any]]:
    """Play the test data's perpetual check (case 0: Red's chariot checks on,
    the king shuttles) on the server under the CXA rules; the game id and
    its state."""
    case = json.loads(CASES.read_text(encoding="utf-8"))[0]
    red, black = register(client, "red"), register(client, "black")
    r = client.post("/api/games", json={"kind": "xiangqi", "ruleset": "cxa", "color": "first",
                                        "fen": case["fen"]}, headers=red["headers"])
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    for ply, move in enumerate(case["moves"], start=1):
        state = client.get(f"/api/games/{gid}").json()
        if state["result"]:
            break
        who = red if ply % 2 else black
        a = client.post(f"/api/games/{gid}/actions", json={"type": "move", "ply": ply,
                                                           "move": move}, headers=who["headers"])
        assert a.status_code == 200, a.text
    state = client.get(f"/api/games/{gid}").json()
    return gid, state


def rule_text(clause: str) -> str:
    """The rule book's line of ``clause`` (``24.1``), from its source text."""
    for line in RULE_BOOK.read_text(encoding="utf-8").splitlines():
        if line.startswith(clause + " "):
            return line[len(clause):].strip()
    raise AssertionError(f"clause {clause} is not in the rule book's text")


def test_a_perpetual_check_verdict_links_to_its_clauses(client: TestClient,
                                                        register: Any) -> None:
    _, state = perpetual_check_game(client, register)
    result = state["result"]
    assert result["reason"] == "perpetual_check" and "24.1" in result["clause"]
    links = result["links"]
    assert [link["clause"] for link in links] == [c.strip() for c in result["clause"].split(",")]
    page = builder.rules_markdown(RULE_BOOK.read_text(encoding="utf-8"), "t", "i")
    for link in links:
        zh, anchor = link["zh"].split("#")
        assert zh == "/manual/zh/rules/xiangqi.html"
        assert link["en"] == f"/manual/en/rules/xiangqi.html#{anchor}"
        found = re.search(rf'<p id="{anchor}" class="clause">(.*?)</p>', page)
        assert found is not None, anchor
        assert rule_text(link["clause"]) in html.unescape(found.group(1))


def test_clause_links_read_what_the_manual_has() -> None:
    assert [x["zh"] for x in clause_links("4.1.2, 2.2")] == [
        "/manual/zh/rules/xiangqi.html#c-4-1-2", "/manual/zh/rules/xiangqi.html#c-2-2"]
    assert clause_links("竞赛规定 11(1)")[0]["en"] == "/manual/en/rules/go.html#go-11"
    # Parts with no anchor in the manual stay text: no link that lands nowhere.
    assert [x["clause"] for x in clause_links("23.1, local rules 9, 30.1")] == ["23.1"]
    assert clause_links("") == clause_links(None) == []
    assert clause_links("1" * 300) == []


def test_the_why_answer_links_its_clause(client: TestClient, register: Any) -> None:
    red, black = register(client, "red"), register(client, "black")
    gid = client.post("/api/games", json={"kind": "xiangqi", "color": "first"},
                      headers=red["headers"]).json()["id"]
    client.post(f"/api/games/{gid}/join", headers=black["headers"])
    why = client.get(f"/api/games/{gid}/why", params={"move": "b0d1"}).json()
    assert why["legal"] is False and why["code"] == "horse_leg"
    assert why["links"] == [{"clause": "2.2", "zh": "/manual/zh/rules/xiangqi.html#c-2-2",
                             "en": "/manual/en/rules/xiangqi.html#c-2-2"}]
