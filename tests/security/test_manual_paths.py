"""Issue 31 item 8: a path under /manual that no file can have (a NUL byte,
a name longer than the system allows) is a missing page, 404, never a 500."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from qisai.web import Settings


@pytest.mark.parametrize("path", ["/manual/%00", "/manual/en/%00.html", "/manual/en/a%00b/",
                                  "/manual/" + "a" * 300 + ".html"])
def test_impossible_manual_paths_are_404(client: TestClient, settings: Settings,
                                         path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    site = settings.data_dir / "manual"  # a built manual: its index and its 404 page
    monkeypatch.setenv("QISAI_MANUAL_DIR", str(site))  # this one, not the package's copy
    (site / "en").mkdir(parents=True)
    (site / "index.html").write_text("<h1>手册</h1>", encoding="utf-8")
    (site / "en" / "index.html").write_text("<h1>Manual</h1>", encoding="utf-8")
    (site / "404.html").write_text("<h1>没有这一页 / no such page</h1>", encoding="utf-8")
    assert client.get("/manual/en/").status_code == 200
    r = client.get(path)
    assert r.status_code == 404, (path, r.status_code)
    assert "no such page" in r.text
