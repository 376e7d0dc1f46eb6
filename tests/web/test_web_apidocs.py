"""The API documentation pages (/docs: Swagger UI, /redoc: ReDoc) work with
no internet: every file they load comes from the arena itself.

The HTTP tests read the pages' asset URLs and fetch them; the browser tests
(Playwright, Debian's chromium, ``qisai serve``) load the pages with every
request to another host blocked and recorded, and count the operations
drawn against the operations in ``/openapi.json``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

ASSET = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def asset_urls(html: str) -> list[str]:
    """The ``src`` and ``href`` URLs of a page."""
    return ASSET.findall(html)


def operation_count(spec: dict[str, Any]) -> int:
    """The number of operations (path and method) in an OpenAPI document."""
    return sum(1 for item in spec["paths"].values() for method in item if method in METHODS)


def test_asset_urls_are_read_from_a_page() -> None:
    html = ('<link href="/a.css"><script src=\'/b.js\'></script>'
            '<link rel="icon" href="https://cdn.example/x.png">')
    assert asset_urls(html) == ["/a.css", "/b.js", "https://cdn.example/x.png"]
    assert operation_count({"paths": {"/x": {"get": {}, "post": {}, "parameters": []},
                                      "/y": {"delete": {}}}}) == 3


@pytest.mark.parametrize("page,scripts", [
    ("/docs", {"swagger-ui-bundle.js": "SwaggerUIBundle"}),
    ("/redoc", {"redoc.standalone.js": "Redoc"}),
])
def test_docs_pages_load_only_local_files(client: TestClient, page: str,
                                          scripts: dict[str, str]) -> None:
    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = asset_urls(r.text)
    assert urls, r.text
    # Local paths only: no scheme, no host (a CDN would be "https://..." or "//...").
    assert all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert "http://" not in r.text and "https://" not in r.text
    names = {u.rsplit("/", 1)[-1] for u in urls}
    assert set(scripts) <= names
    for url in urls:
        got = client.get(url)
        assert got.status_code == 200, url
        name = url.rsplit("/", 1)[-1]
        if name.endswith(".js"):
            assert "javascript" in got.headers["content-type"], url
            assert len(got.content) > 100_000 and scripts[name] in got.text, url
            # No address of another host for the page to fetch (ReDoc's logo, issue 32.9).
            assert "cdn.redoc.ly" not in got.text, url
        elif name.endswith(".css"):
            assert got.headers["content-type"].startswith("text/css")
            assert ".swagger-ui" in got.text
    # The browser is told to fetch nothing from another host.
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "img-src 'self' data:" in csp
    assert "http" not in csp and "*" not in csp
    # The schema the page points at is there too.
    assert client.get("/openapi.json").json()["info"]["title"] == "qisai arena"


def test_swagger_oauth2_redirect_page_is_local(client: TestClient) -> None:
    r = client.get("/docs/oauth2-redirect")
    assert r.status_code == 200 and "oauth2" in r.text.lower()
    assert "https://" not in r.text and "http://" not in r.text


# ------------------------------------------------------------------ browser
def offline_page(browser: Any, outside: list[str]) -> Any:
    """A page on which every request to a host other than this machine is
    aborted and its URL appended to ``outside``."""
    ctx = browser.new_context()

    def route(r: Any) -> None:
        parts = urlsplit(r.request.url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in (
                "127.0.0.1", "localhost", "::1"):
            outside.append(r.request.url)
            r.abort()
        else:
            r.continue_()

    ctx.route("**/*", route)
    return ctx.new_page()


def test_swagger_ui_lists_every_operation_offline(live_server: tuple[str, Path],
                                                  browser: Any) -> None:
    base, _ = live_server
    operations = operation_count(httpx.get(f"{base}/openapi.json", timeout=10).json())
    assert operations > 10
    outside: list[str] = []
    errors: list[str] = []
    page = offline_page(browser, outside)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/docs")
    page.wait_for_selector(".opblock", timeout=30_000)
    page.wait_for_function(f"document.querySelectorAll('.opblock').length >= {operations}",
                           timeout=30_000)
    assert page.locator(".opblock").count() == operations
    assert page.locator(".opblock-summary-path", has_text="/api/rules").count() >= 1
    # An operation opens and shows its responses, from the local bundle's code.
    page.locator(".opblock-summary", has_text="/api/rules").first.click()
    page.wait_for_selector(".opblock.is-open .responses-wrapper", timeout=10_000)
    page.wait_for_load_state("networkidle")
    assert outside == [] and errors == []


def test_redoc_lists_every_operation_offline(live_server: tuple[str, Path],
                                             browser: Any) -> None:
    base, _ = live_server
    operations = operation_count(httpx.get(f"{base}/openapi.json", timeout=10).json())
    outside: list[str] = []
    errors: list[str] = []
    page = offline_page(browser, outside)
    page.on("pageerror", lambda e: errors.append(str(e)))
    # The console too: a blocked logo was "Refused to load the image" (issue 32.9).
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{base}/redoc")
    selector = "li[data-item-id*='operation/']"  # one side-menu entry per operation
    page.wait_for_function(
        f"document.querySelectorAll(\"{selector}\").length >= {operations}", timeout=60_000)
    assert page.locator(selector).count() == operations
    assert page.get_by_text("/api/rules").count() >= 1
    page.wait_for_load_state("networkidle")  # late requests (images) too
    assert outside == [] and errors == []
