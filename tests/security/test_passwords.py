"""Issue 14 item 9: common and short passwords are refused (zxcvbn's
frequency lists, score 2 of 4 at least; 8 characters at least, NIST
SP 800-63B), with the reason in Chinese and English, in the API and on
the sign-up page."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from qisai.web.accounts.policy import PASSWORD_MIN_SCORE, password_problem


@pytest.mark.parametrize("weak", ["password", "12345678", "password1", "qwertyuiop", "iloveyou",
                                  "11111111", "abcdefgh", "Passw0rd!", "woaini520",
                                  "qisai123456", "xiangqi2024", "woaini1314", "wodemima1"])
def test_common_passwords_are_refused(client: TestClient, weak: str) -> None:
    r = client.post("/api/auth/register", json={"username": "newbie", "password": weak})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert "password" in detail and "密码" in detail and "too easy to guess" in detail


def test_a_password_made_of_the_user_name_is_refused(client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "zhangsan88",
                                                "password": "zhangsan88"})
    assert r.status_code == 422 and "password" in r.json()["detail"]


@pytest.mark.parametrize("short", ["", "Xk9#", "k7$Lm2q"])
def test_short_passwords_are_refused(client: TestClient, short: str) -> None:
    r = client.post("/api/auth/register", json={"username": "newbie", "password": short})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "password" in detail and ("8" in detail or "least" in detail)


def test_the_length_message_is_in_both_languages() -> None:
    problem = password_problem("Xk9#")
    assert problem is not None and "至少 8 个字符" in problem and "at least 8 characters" in problem


@pytest.mark.parametrize("good", ["correct horse battery", "a long and private pass",
                                  "Tr0ub4dor&3", "红马跳过楚河象棋盘", "zhangwei88 plays go"])
def test_strong_passwords_are_accepted(client: TestClient, good: str) -> None:
    r = client.post("/api/auth/register", json={"username": "newbie", "password": good})
    assert r.status_code == 201, r.text


def test_very_long_passwords_are_checked_without_error(client: TestClient) -> None:
    r = client.post("/api/auth/register", json={"username": "longone", "password": "k9!" * 85})
    assert r.status_code == 422  # 255 characters of a repeat: weak in its first 72
    r = client.post("/api/auth/register",
                    json={"username": "longone", "password": "river elephant cannon " * 10})
    assert r.status_code == 201
    r = client.post("/api/auth/register", json={"username": "toolong", "password": "x" * 257})
    assert r.status_code == 422


def test_the_threshold() -> None:
    assert PASSWORD_MIN_SCORE == 2
    assert password_problem("password") is not None
    assert password_problem("correct horse battery") is None


def test_the_sign_up_page_says_why(client: TestClient) -> None:
    page = client.get("/login")
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token is not None
    r = client.post("/register", data={"username": "newbie", "password": "12345678",
                                       "csrf": token.group(1)}, follow_redirects=False)
    assert r.status_code == 422
    assert "too easy to guess" in r.text and "太容易猜" in r.text
    assert client.get("/api/me").status_code == 401  # no account, no session
    r = client.post("/register", data={"username": "newbie", "password": "a board of my own",
                                       "csrf": token.group(1)}, follow_redirects=False)
    assert r.status_code == 303
    assert client.get("/api/me").json()["username"] == "newbie"
