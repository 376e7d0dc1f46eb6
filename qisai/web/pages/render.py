"""Server-rendered pages (Jinja2) in Chinese and English: the templates
and the one way a page is rendered.

The templates are kept by domain: ``templates/accounts`` (log-in,
profile), ``templates/play`` (the game page), ``templates/events`` (the
event pages and their shared blocks); ``base.html`` and ``home.html`` are
the frame and the front page.

Pages carry the session's CSRF token in ``<meta name="csrf">``; their
scripts call the JSON API and the game socket with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from qisai.web.accounts.deps import Viewer
from qisai.web.pages.hant import to_traditional_html
from qisai.web.pages.i18n import LANGUAGE_NAMES, choose_page_language, translator

__all__ = ["embed_json", "local", "render", "templates"]

templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))


def render(request: Request, v: Viewer, name: str, **ctx: Any) -> HTMLResponse:
    """Return the page ``name`` in the viewer's language with ``ctx``: the
    templates see ``lang`` (``zh`` or ``en``, the texts' language) and
    ``page_lang`` (``zh``, ``zh-Hant`` or ``en``); a 繁體中文 page is the
    ``zh`` one converted (:func:`~qisai.web.pages.hant.to_traditional_html`)."""
    page_lang = choose_page_language(request.cookies.get("lang"),
                                     request.headers.get("accept-language"))
    lang = "zh" if page_lang == "zh-Hant" else page_lang
    switch = [(code, *LANGUAGE_NAMES[code]) for code in LANGUAGE_NAMES if code != page_lang]
    base = {"lang": lang, "page_lang": page_lang, "html_lang": LANGUAGE_NAMES[page_lang][1],
            "t": translator(lang), "user": v.user, "csrf": v.csrf or "",
            "switch": switch, "path": request.url.path}
    base.update(ctx)
    response: HTMLResponse = templates.TemplateResponse(request, name, base)
    if page_lang == "zh-Hant":
        body = bytes(response.body).decode("utf-8")
        response = HTMLResponse(to_traditional_html(body), status_code=response.status_code,
                                headers={k: v for k, v in response.headers.items()
                                         if k.lower() not in ("content-length", "content-type")})
    response.headers["Content-Language"] = page_lang
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


_JSON_SCRIPT_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026",
                        0x2028: "\\u2028", 0x2029: "\\u2029"}


def embed_json(value: Any) -> str:
    """Return ``value`` as JSON safe inside ``<script type="application/json">``
    (as Django's ``json_script``): ``<``, ``>``, ``&``, U+2028 and U+2029 are
    ``\\u`` escapes, so no text of a user (a display name ``<!--<script>``,
    ``</script>``) can end the block or start a comment in it, and
    ``JSON.parse`` of the block gives ``value`` back exactly."""
    return json.dumps(value, ensure_ascii=False).translate(_JSON_SCRIPT_ESCAPES)


def local(target: str) -> str:
    """Return ``target`` if it is a path on this site, else ``/`` (no open
    redirects)."""
    ok = target.startswith("/") and not target.startswith("//") and not urlparse(target).netloc
    return target if ok else "/"
