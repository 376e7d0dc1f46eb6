"""The papers' common-character font, cut once from the Chinese font.

A paper embeds the Chinese font as a subset, but fpdf2 first reads the
whole face (Noto Sans CJK SC: 65,535 glyphs; its widths, character map and
glyph order) and at the end cuts the subset from it, for the regular and
the bold face: about a second of every paper, whatever its size (issue
29).  Nearly every character a paper prints is in GB 2312 (6,763 hanzi
and its symbols) or the punctuation and symbol blocks around it, so the
faces are cut once to those characters (:data:`COMMON`, about 9,000) and
kept in a cache folder; a paper is drawn with the cut faces (a tenth of
the glyphs: read and subset in a fraction of the time, the same outlines
and widths).  A paper with a character outside them (a rare name, 喆 or
堃) is drawn again with the whole font (:func:`qisai.papers.write_paper`
does it), so nothing prints as a missing glyph.

The cache folder is ``QISAI_FONT_CACHE``, else ``$XDG_CACHE_HOME/qisai/fonts``
(``~/.cache/qisai/fonts``); a cut face is named by a digest of the source
file (path, size, time), the face, the character set and fontTools'
version, so a new font or a new fontTools cuts anew.  Cutting takes a few
seconds once (:func:`prepare`; ``qisai event fonts`` does it ahead).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from qisai.papers.pdf import FontSpec, PapersError

__all__ = ["COMMON", "cache_dir", "cached", "prepare"]


def _common() -> frozenset[str]:
    chars: set[str] = set()
    for hi in range(0xA1, 0xF8):  # GB 2312, every two-byte code
        for lo in range(0xA1, 0xFF):
            try:
                chars.add(bytes((hi, lo)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    for lo, hi in ((0x20, 0x7E), (0xA0, 0x17F), (0x2000, 0x206F), (0x2100, 0x22FF),
                   (0x2460, 0x27BF), (0x3000, 0x303F), (0xFF00, 0xFFEF)):
        chars.update(chr(c) for c in range(lo, hi + 1))
    return frozenset(chars)


COMMON = _common()
"""The characters of the cut faces: GB 2312, ASCII and Latin-1 with Latin
Extended-A, general punctuation, letter-like symbols, number forms, arrows
and mathematical operators, enclosed numbers, box drawing, geometric
shapes and dingbats (□, ✓), CJK punctuation and the full-width forms."""


def cache_dir() -> Path:
    """The folder of the cut faces (see the module)."""
    named = os.environ.get("QISAI_FONT_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "qisai" / "fonts"


def _key(path: Path, index: int, chars: frozenset[str]) -> str:
    import fontTools

    st = path.stat()
    h = hashlib.blake2b(digest_size=12)
    for part in (str(path.resolve()), str(st.st_size), str(st.st_mtime_ns), str(index),
                 fontTools.version, "".join(sorted(chars))):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _files(spec: FontSpec, chars: frozenset[str]) -> tuple[Path, Path]:
    folder = cache_dir()
    bold = spec.bold or spec.path
    return (folder / f"{_key(spec.path, spec.index, chars)}.otf",
            folder / f"{_key(bold, spec.index, chars)}.otf")


def cached(spec: FontSpec, chars: frozenset[str] = COMMON) -> FontSpec | None:
    """The cut faces of ``spec`` (regular, bold) if they are in the cache,
    else None."""
    try:
        regular, bold = _files(spec, chars)
    except OSError:  # the source font went away: find_font says so
        return None
    if regular.is_file() and bold.is_file():
        return FontSpec(regular, 0, bold)
    return None


def _cut(source: Path, index: int, chars: Iterable[str], target: Path) -> None:
    from fontTools import subset, ttLib

    font = ttLib.TTFont(str(source), fontNumber=index, lazy=True, recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = []  # fpdf2 does no shaping: GSUB/GPOS are never read
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "VORG", "vhea", "vmtx"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.recalc_timestamp = False
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=sorted(ord(c) for c in chars))
    cutter.subset(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cut-", suffix=".otf", dir=target.parent)
    os.close(fd)
    try:
        font.save(tmp)
        os.replace(tmp, target)  # atomic: a reader sees the whole face or none
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def prepare(spec: FontSpec, chars: frozenset[str] = COMMON) -> FontSpec:
    """Cut ``spec``'s regular and bold faces to ``chars`` into the cache
    (unless there already) and return the cut faces.  Raises
    :class:`PapersError` if they cannot be cut or written."""
    regular, bold = _files(spec, chars)
    try:
        if not regular.is_file():
            _cut(spec.path, spec.index, chars, regular)
        if not bold.is_file():
            _cut(spec.bold or spec.path, spec.index, chars, bold)
    except Exception as exc:  # fontTools raises several kinds for a font it cannot cut
        raise PapersError(f"the papers' font cache ({regular.parent}): cannot cut "
                          f"{spec.path} ({exc})") from None
    return FontSpec(regular, 0, bold)
