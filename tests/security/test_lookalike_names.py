"""Issue 31 item 6: look-alike names.  A user name whose confusable skeleton
(UTS #39, in the case written, lower and upper) meets another account's is
refused (409), and so is a display name that looks like another account's
user name (422); the pages and the group talk therefore never show one."""

from __future__ import annotations

from fastapi.testclient import TestClient

PW = "a long and private pass"


def reg(client: TestClient, username: str, display: str | None = None) -> tuple[int, str]:
    body = {"username": username, "password": PW}
    if display is not None:
        body["display_name"] = display
    r = client.post("/api/auth/register", json=body)
    client.cookies.clear()
    return r.status_code, r.json().get("detail", "") if r.status_code != 201 else ""


def test_look_alike_user_and_display_names_are_refused(client: TestClient) -> None:
    assert reg(client, "alice8589") == (201, "")
    for twin in ("aIice8589", "al1ce8589", "ALlCE8589"):  # capital I, digit 1, small l
        code, detail = reg(client, twin)
        assert code == 409 and "形似" in detail and "looks like" in detail, (twin, detail)
    code, detail = reg(client, "mallory", display="\u0430lice8589")
    assert code == 422 and "looks like" in detail, detail
    code, detail = reg(client, "mallory", display="al1ce8589")
    assert code == 422 and "looks like" in detail, detail
    # The other way round: a name registered first keeps its look-alikes out.
    assert reg(client, "BiII") == (201, "")  # capital I twice
    assert reg(client, "Bill")[0] == 409
    # Names that only share letters are not look-alikes; one's own display name is fine.
    assert reg(client, "alice8588") == (201, "")
    assert reg(client, "bili") == (201, "")
    assert reg(client, "wang", display="Wang") == (201, "")
    accounts = client.get("/api/players", params={"q": "lice"}).json()
    names = sorted(p["name"] if "name" in p else p["username"] for p in
                   (accounts if isinstance(accounts, list) else accounts.get("players", [])))
    assert names == ["alice8588", "alice8589"]
