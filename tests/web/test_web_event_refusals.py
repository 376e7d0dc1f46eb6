"""An event's refusals in the page's language (issue 32.8): the competition
layer's error says what is wrong in Chinese and English; the arena's
answer gives the one the request's language asks for as ``detail`` (the
``lang`` cookie of the switch, else ``Accept-Language``, English when
neither says; a 繁體中文 page gets the Chinese in traditional characters)
and both as ``zh`` and ``en``."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.test_web_events import organiser


def _swiss_with_round_one_unplayed(client: TestClient, register: Any) -> tuple[str, dict[str, str]]:
    org = organiser(client, register)
    h = org["headers"]
    ev = client.post("/api/tournaments", json={"name": "Open", "system": "swiss", "rounds": 3},
                     headers=h).json()
    base = f"/api/tournaments/{ev['id']}"
    for name in "ABCD":
        assert client.post(f"{base}/entries", json={"name": name}, headers=h).status_code == 201
    assert client.post(f"{base}/start", headers=h).status_code == 200
    assert client.post(f"{base}/rounds", headers=h).status_code == 200
    return base, h


def test_pairing_refused_in_english_chinese_and_by_the_switch(register: Any,
                                                              client: TestClient) -> None:
    base, h = _swiss_with_round_one_unplayed(client, register)
    # Round 2 cannot be paired while round 1 lacks results (Appendix 2: a
    # Swiss round is paired on the scores of the rounds before it).
    r = client.post(f"{base}/rounds", headers=h)
    assert r.status_code == 409
    body = r.json()
    assert body["detail"] == body["en"]
    assert body["en"].startswith("pairing: Open: round 1 still lacks results on board(s) 1, 2")
    assert body["zh"] == "编排：Open：第 1 轮第 1, 2 台尚无成绩"
    for accept in ("zh-CN,zh;q=0.9,en;q=0.8", "zh", "en;q=0.5,zh;q=0.9"):
        r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": accept})
        assert r.status_code == 409 and r.json()["detail"] == body["zh"], accept
    r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": "en-GB,en"})
    assert r.json()["detail"] == body["en"]
    client.cookies.set("lang", "zh")  # the language switch outranks the browser's languages
    r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": "en"})
    assert r.json()["detail"] == body["zh"]
    client.cookies.set("lang", "en")
    r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": "zh-CN"})
    assert r.json()["detail"] == body["en"]


def test_a_traditional_page_is_refused_in_traditional_characters(register: Any,
                                                                 client: TestClient) -> None:
    # 繁體中文 (zh-TW, zh-HK, or the switch's zh-Hant) gets the refusal as
    # its pages are written: 編排, 輪, 臺 (Taiwan standard), 無, 成績
    base, h = _swiss_with_round_one_unplayed(client, register)
    hant = "編排：Open：第 1 輪第 1, 2 臺尚無成績"
    for accept in ("zh-TW", "zh-HK,zh;q=0.8", "zh-Hant-TW,en;q=0.5"):
        r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": accept})
        assert r.status_code == 409, accept
        body = r.json()
        assert body["detail"] == hant, (accept, body)
        assert body["zh"] == "编排：Open：第 1 轮第 1, 2 台尚无成绩"  # the text as written
    client.cookies.set("lang", "zh-Hant")
    r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": "zh-CN"})
    assert r.json()["detail"] == hant
    client.cookies.set("lang", "zh")  # 简体 on the switch: simplified though the browser asks zh-TW
    r = client.post(f"{base}/rounds", headers={**h, "Accept-Language": "zh-TW"})
    assert r.json()["detail"] == r.json()["zh"]


def test_a_result_refused_names_the_board_in_both_languages(register: Any,
                                                            client: TestClient) -> None:
    base, h = _swiss_with_round_one_unplayed(client, register)
    put = f"{base}/rounds/1/boards/1"
    assert client.put(put, json={"result": "1-0"}, headers=h).status_code == 200
    # a board the round does not have: refused, the place in both languages
    r = client.put(f"{base}/rounds/1/boards/9", json={"result": "1-0"},
                   headers={**h, "Accept-Language": "zh-CN"})
    assert r.status_code in (404, 422)
    body = r.json()
    assert "round 1 board 9" in body["en"] and "第 1 轮第 9 台" in body["zh"]
    assert body["detail"] == body["zh"]


def test_the_place_of_a_refusal_in_chinese() -> None:
    from qisai.web.refusals import where_zh

    assert where_zh("round 3 match 2 board 1") == "第 3 轮第 2 场第 1 台"
    assert where_zh("round 2 group 2 board 1") == "第 2 轮第 2 组第 1 台"
    assert where_zh("round 2 final board 1") == "第 2 轮决赛第 1 台"
    assert where_zh("round 1 match 1 game 3") == "第 1 轮第 1 场第 3 局"
    assert where_zh("pairing") == "编排" and where_zh("withdrawal") == "退赛"
    assert where_zh("an unknown step") == "an unknown step"  # left as it is, never garbled
