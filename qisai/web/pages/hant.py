"""繁體中文 pages (issue 32 item 2): a page rendered in simplified Chinese,
its text converted to traditional characters with OpenCC (``s2tw``, Taiwan
standard characters, as the manual is converted).

What is converted: the text between tags and the attributes people read
(``title``, ``placeholder``, ``aria-label``, ``alt``).  What is left as it
is: scripts and styles (an embedded JSON block is data the page's scripts
read), ``<textarea>`` text and ``value`` attributes (what a form sends back
must be what the person wrote), and the text right inside an element that
names its own ``lang`` (the language switch's "简体中文").  Text the page's
scripts write later (from the API) stays simplified.
"""

from __future__ import annotations

import html
import re
import threading
from typing import Any

__all__ = ["to_traditional", "to_traditional_html"]

_TOKENS = re.compile(r"(<!--.*?-->|<[^>]*>)", re.S)
_RAW_START = re.compile(r"<(script|style|textarea)\b", re.I)
_LANG_ATTR = re.compile(r"""\slang\s*=\s*["'][^"']+["']""", re.I)
_READ_ATTRS = re.compile(r"""(\s(?:title|placeholder|aria-label|alt)\s*=\s*)(["'])(.*?)\2""",
                         re.I | re.S)
_HAN = re.compile(r"[\u3400-\u9fff]")
_SEP = "\ue000"  # a private-use character: OpenCC leaves it, no page has it
_lock = threading.Lock()
_converter: Any = None


def _convert_all(texts: list[str]) -> list[str]:
    """``texts`` converted, in one call of one shared converter (making one
    costs 18 ms; a call has its own overhead; pages render on several
    threads, hence the lock)."""
    global _converter
    if not texts:
        return []
    with _lock:
        if _converter is None:
            import opencc

            _converter = opencc.OpenCC("s2tw")
        if not any(_SEP in t for t in texts):
            out: list[str] = _converter.convert(_SEP.join(texts)).split(_SEP)
            if len(out) == len(texts):
                return out
        return [_converter.convert(t) for t in texts]


def _convert(text: str) -> str:
    return _convert_all([text])[0] if _HAN.search(text) else text


def _attrs(tag: str) -> str:
    def one(m: re.Match[str]) -> str:
        value = html.unescape(m[3])
        return m[1] + m[2] + html.escape(_convert(value), quote=True) + m[2]
    return _READ_ATTRS.sub(one, tag)


def to_traditional(text: str) -> str:
    """Return the plain ``text`` in traditional characters (a refusal said
    to a 繁體中文 page, issue 32.8)."""
    return _convert(text)


def to_traditional_html(page: str) -> str:
    """Return the HTML ``page`` with its readable text in traditional
    characters (see the module's notes on what is left as it is)."""
    out: list[str] = []
    todo: list[int] = []    # the places in ``out`` of text to convert
    raw: str | None = None  # inside <script>, <style> or <textarea>: its end tag
    keep_next = False       # the text right after a start tag with its own lang
    for piece in _TOKENS.split(page):
        if not piece:
            continue
        if piece[0] == "<":
            if raw is not None:
                if piece[:len(raw) + 2].lower() == f"</{raw}":
                    raw = None
                out.append(piece)
                continue
            if piece.startswith("<!--"):
                out.append(piece)
                continue
            m = _RAW_START.match(piece)
            if m and not piece.endswith("/>"):
                raw = m[1].lower()
            keep_next = piece[1] != "/" and _LANG_ATTR.search(piece) is not None
            out.append(_attrs(piece) if _HAN.search(piece) else piece)
            continue
        if raw is None and not keep_next and _HAN.search(piece):
            todo.append(len(out))
        out.append(piece)
        keep_next = False
    for place, text in zip(todo, _convert_all([out[i] for i in todo]), strict=True):
        out[place] = text
    return "".join(out)
