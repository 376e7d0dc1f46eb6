"""The API documentation pages, working with no internet: Swagger UI at
``/docs`` and ReDoc at ``/redoc``.

FastAPI's own pages load Swagger UI and ReDoc from a CDN.  These load them
from the files the ``fastapi-offline`` package ships (Swagger UI 5 and ReDoc 2
bundles), served by the arena itself under ``/docs/assets``, with no fonts,
validator badge or favicon from elsewhere; and a Content-Security-Policy
keeps the pages to this host.  ReDoc's bundle shows a logo from its maker's
CDN, which that policy blocks with an error in the console: the arena serves
the bundle with that address replaced by an empty image of its own
(:func:`redoc_bundle`, issue 32 item 9).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

__all__ = ["ASSETS_URL", "REDOC_URL", "add_api_docs", "assets_dir", "redoc_bundle"]

ASSETS_URL = "/docs/assets"
"""Where the Swagger UI and ReDoc files are served."""

REDOC_URL = "/docs/redoc.standalone.js"
"""Where the arena's copy of ReDoc's bundle is served (:func:`redoc_bundle`)."""
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one outside address in ReDoc's bundle: the logo of its footer."""
EMPTY_IMAGE = ("data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27 "
               "width=%271%27 height=%271%27/%3E")
"""A 1x1 empty SVG (no quote marks: it replaces a string in the bundle)."""

SWAGGER_PARAMETERS = {"validatorUrl": None}
"""Added to FastAPI's defaults: no badge from validator.swagger.io."""


DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval'; "
            "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; "
            "worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'self'")
"""Only this host: Swagger UI's page starts it in an inline script, both
bundles style inline, ReDoc compiles schema checks at run time."""


def _same_host_only(page: HTMLResponse) -> HTMLResponse:
    page.headers["Content-Security-Policy"] = DOCS_CSP
    return page


def assets_dir() -> Path:
    """Return the folder of the Swagger UI and ReDoc files (``swagger-ui-bundle.js``,
    ``swagger-ui.css``, ``redoc.standalone.js``, ``favicon.png``).

    Raises:
        FileNotFoundError: the installed ``fastapi-offline`` has no such folder.
    """
    folder = Path(fastapi_offline.__file__).resolve().parent / "static"
    if not (folder / "swagger-ui-bundle.js").is_file():
        raise FileNotFoundError(f"no Swagger UI files in {folder} (reinstall fastapi-offline)")
    return folder


@cache
def redoc_bundle() -> bytes:
    """ReDoc's bundle with its footer's logo address replaced by
    :data:`EMPTY_IMAGE`, so the page fetches nothing from elsewhere.
    Raises :class:`FileNotFoundError` as :func:`assets_dir`."""
    text = (assets_dir() / "redoc.standalone.js").read_text(encoding="utf-8")
    return text.replace(REDOC_LOGO, EMPTY_IMAGE).encode("utf-8")


def add_api_docs(app: FastAPI, *, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Add the offline ``docs_url`` (Swagger UI), its OAuth2 redirect page and
    ``redoc_url`` (ReDoc) to ``app``, which must be made with
    ``docs_url=None, redoc_url=None``.  Returns nothing.

    Raises:
        FileNotFoundError: see :func:`assets_dir`.
        ValueError: ``app`` has no OpenAPI schema URL.
    """
    if app.openapi_url is None:
        raise ValueError("the app has no OpenAPI schema (openapi_url is None)")
    openapi_url = app.openapi_url
    redirect_url = f"{docs_url}/oauth2-redirect"
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="apidocs-assets")

    @app.get(docs_url, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return _same_host_only(get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=f"{root}{redirect_url}",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters=SWAGGER_PARAMETERS))

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return _same_host_only(get_swagger_ui_oauth2_redirect_html())

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc_js() -> Response:
        return Response(redoc_bundle(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get(redoc_url, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return _same_host_only(get_redoc_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{REDOC_URL}",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png", with_google_fonts=False))
