"""The user manual (手册) at ``/manual``, and the manual's address of a rule
clause (:func:`clause_url`, for verdicts).

The manual is built with the package: the build backend
(``buildsys/qisai_backend.py``) runs :func:`qisai.web.manual.builder.build`
when a wheel or an editable install is made, into ``qisai/web/manual/site``,
which the wheel carries; so ``pip install -e .`` and ``pip install qisai``
both serve it.  ``python -m qisai.web.manual build`` (``scripts/build-manual``)
builds it again from a source checkout.

``qisai serve`` shows, in order: ``$QISAI_MANUAL_DIR`` if set; the package's
copy; ``manual`` in the data folder (an install made with
``QISAI_BUILD_MANUAL=0``, built there by hand).  Without any, ``/manual``
says how to build it.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from qisai.web.manual.builder import GO_SECTIONS, LANGUAGES, PACKAGED

__all__ = ["clause_url", "make_router", "manual_dir", "router_for"]

CLAUSE_PAGE = "rules/xiangqi.html"
"""The page whose clause anchors :func:`clause_url` points at (the complete text)."""
GO_PAGE = "rules/go.html"
"""The Go rules page (竞赛规定 and 基本下法 items)."""

_CLAUSE = re.compile(r"^\s*(?:棋例|第)?\s*(\d{1,2}(?:\.\d{1,2}){0,2})\s*(?:条|款)?\s*$")
_DETAIL = re.compile(r"^\s*棋例细则\s*(\d{1,2})\s*$")
_GO_CLAUSE = re.compile(r"^\s*(竞赛规定|競賽規定|基本下法)\s*(\d{1,2})\s*(?:[(（].*)?$")


def clause_url(clause: str, lang: str = "zh", base: str = "/manual") -> str:
    """The manual's URL of a Xiangqi rule clause: ``"23.3"`` ->
    ``/manual/zh/rules/xiangqi.html#c-23-3``.

    Reads ``"4.1.2"``, ``"棋例 26.1"`` (the 棋例 chapters keep the rule book's
    numbers), ``"第23条"`` / ``"23"`` (the clause's heading) and ``"棋例细则 3"``
    (chapter 7's items, ``#xz-3``); Go: ``"竞赛规定 11(1)"`` ->
    ``/manual/zh/rules/go.html#go-11`` and ``"基本下法 2"`` -> ``#go-basic-2``
    (the Go text numbers items, not sub-items).  ``lang`` is ``zh``, ``zh-Hant`` or ``en``.
    Raises :class:`ValueError` for anything else.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown manual language {lang!r}; expected one of "
                         f"{', '.join(LANGUAGES)}")
    if not isinstance(clause, str):
        raise ValueError(f"a clause is a string like '23.3', not {clause!r}")
    page = f"{base.rstrip('/')}/{lang}/{CLAUSE_PAGE}"
    if m := _GO_CLAUSE.match(clause):
        n = int(m[2])
        if not 1 <= n <= 12:
            raise ValueError(f"the Go text's {m[1]} has items 1 to 12, not {n}")
        return f"{base.rstrip('/')}/{lang}/{GO_PAGE}#{GO_SECTIONS[m[1]]}-{n}"
    if m := _DETAIL.match(clause):
        n = int(m[1])
        if 1 <= n <= 13:
            return f"{page}#xz-{n}"
        raise ValueError(f"棋例细则 has items 1 to 13, not {n}")
    m = _CLAUSE.match(clause)
    if m is None:
        raise ValueError(f"not a clause number: {clause!r} (expected e.g. '23.3', "
                         f"'棋例 26.1', '第23条' or '棋例细则 3')")
    parts = m[1].split(".")
    if not 1 <= int(parts[0]) <= 29:
        raise ValueError(f"the rules have clauses 1 to 29, not {m[1]}")
    return f"{page}#c-{'-'.join(str(int(p)) for p in parts)}"


def manual_dir(data_dir: Path | None = None) -> Path:
    """Where the built manual is: ``$QISAI_MANUAL_DIR`` if set, else the
    package's copy (:data:`~qisai.web.manual.builder.PACKAGED`) when it is
    built, else ``manual`` in ``data_dir`` (default: the data folder,
    ``$QISAI_DATA_DIR``)."""
    env = os.environ.get("QISAI_MANUAL_DIR")
    if env:
        return Path(env).expanduser()
    if (PACKAGED / "index.html").is_file():
        return PACKAGED
    if data_dir is None:
        from qisai.store.config import data_dir as default_data_dir

        data_dir = default_data_dir(create=False)
    return Path(data_dir) / "manual"


_NOT_BUILT = """<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>手册未构建 / Manual not built</title>
<link rel="stylesheet" href="/static/style.css"></head><body><main>
<h1>手册尚未构建 / The manual is not built</h1>
<p>手册本应在安装 qisai 时构建（<code>pip install -e .</code> 或 wheel）；这次安装没有构建它
（<code>QISAI_BUILD_MANUAL=0</code>）。在 qisai 源代码目录中运行下面的命令，然后刷新本页（无需重启服务器）：</p>
<p>The manual is built when qisai is installed (<code>pip install -e .</code> or a wheel); this
install was made without it (<code>QISAI_BUILD_MANUAL=0</code>). Build it from a qisai source
checkout, then reload this page (no restart needed):</p>
<pre>pip install -e ".[docs]"
python -m qisai.web.manual build --out {folder}</pre>
</main></body></html>
"""


def router_for(settings: Any) -> APIRouter:
    """The ``/manual`` routes for an arena whose settings have ``data_dir``
    (the folder is chosen again on each request, see :func:`manual_dir`)."""
    data_dir = getattr(settings, "data_dir", None)
    return make_router(lambda: manual_dir(data_dir))


def make_router(folder: Path | Callable[[], Path]) -> APIRouter:
    """Serve the built manual in ``folder`` at ``/manual``; without one, a page
    that says how to build it (status 503).  The folder is looked at on each
    request, so a build shows without a restart."""
    router = APIRouter(include_in_schema=False)
    where = folder if callable(folder) else (lambda: Path(folder))

    @router.get("/manual")
    def manual_root() -> Response:
        return RedirectResponse("/manual/", status_code=307)

    @router.get("/manual/{path:path}")
    def manual_file(path: str) -> Response:
        root = where()
        if not (root / "index.html").is_file():
            return HTMLResponse(_NOT_BUILT.replace("{folder}", html.escape(str(root))),
                                status_code=503)
        base = root.resolve()
        try:
            target = (base / path).resolve()
            if target != base and base not in target.parents:
                return HTMLResponse("not found", status_code=404)
            if target.is_dir():
                target = target / "index.html"
            found = target.is_file()
        except (ValueError, OSError):  # a NUL byte, a name too long: no such file
            found = False
        if not found:
            return _missing(base)
        return FileResponse(target)

    return router


def _missing(base: Path) -> Response:
    """The manual's own 404 page, or a short one with a link home."""
    if (base / "404.html").is_file():
        return FileResponse(base / "404.html", status_code=404)
    return HTMLResponse("<h1>404</h1><p><a href=\"/manual/\">手册 / Manual</a></p>",
                        status_code=404)
