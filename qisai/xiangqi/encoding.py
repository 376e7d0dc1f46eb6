"""The text encoding of a whole record file: UTF-8, GB18030 (GBK) or Big5.

Chinese record files come in three encodings: UTF-8 (new programs), GBK /
GB18030 (mainland programs: 象棋巫师, XQStudio exports, ElephantEye) and
Big5 (Taiwanese and Hong Kong collections).  A file is decided *once*, over
all of its bytes, never line by line: a GBK line can happen to be valid
UTF-8 (谢小然 in GBK is the UTF-8 of "лСȻ"), so deciding per line turns
some names into nonsense.

The decision, in order:

1. a byte-order mark (UTF-8, UTF-16 LE/BE) decides;
2. bytes that are valid UTF-8 throughout are UTF-8;
3. bytes valid as both GB18030 and Big5 (most Chinese text is both) go to
   the one whose reading holds more *common* characters: GB2312 level 1 (the
   3,755 most used simplified characters) for GB18030, Big5's frequent
   area A440-C67E (5,401 characters) for Big5.  Text read in the wrong one
   of the two lands mostly outside that set (Big5 read as GB18030 gives GBK
   extension characters, kana and Cyrillic);
4. bytes valid in only one of them are that one;
5. otherwise the one with fewer undecodable bytes, read with replacement.

Pure: bytes in, a codec name out.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from typing import Final

__all__ = ["BIG5", "BIG5_HKSCS", "GB18030", "decode", "detect_encoding"]

GB18030: Final = "gb18030"
#: Microsoft's Big5 (code page 950): Big5 plus the ETEN extensions that
#: Taiwanese files use.
BIG5: Final = "cp950"
#: Big5 with the Hong Kong supplement (HKSCS), where 俥 (92AC) lives.
BIG5_HKSCS: Final = "big5hkscs"
_BOMS: Final = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                (codecs.BOM_UTF16_BE, "utf-16"))


def _valid(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _common_gb(ch: str) -> bool:
    try:
        b = ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return len(b) == 2 and 0xB0 <= b[0] <= 0xD7


def _common_big5(ch: str) -> bool:
    try:
        b = ch.encode(BIG5)
    except UnicodeEncodeError:
        return False
    return len(b) == 2 and 0xA440 <= (b[0] << 8 | b[1]) <= 0xC67E


def _share_common(text: str, common: Callable[[str], bool]) -> float:
    """Fraction of the non-ASCII characters of ``text`` that ``common`` accepts."""
    wide = [ch for ch in text if ord(ch) > 0x7F]
    if not wide:
        return 1.0
    return sum(1 for ch in wide if common(ch)) / len(wide)


def detect_encoding(data: bytes) -> str:
    """The codec name for the whole of ``data`` (see the module text).

    Returns ``"utf-8-sig"``, ``"utf-16"``, ``"utf-8"``, ``"gb18030"``,
    ``"cp950"`` (Big5) or ``"big5hkscs"`` (Big5 with 俥 and the other Hong
    Kong characters).  Never raises.

    >>> detect_encoding('[Red "谢小然"] 炮二平五'.encode("gbk"))
    'gb18030'
    >>> detect_encoding("車九平八".encode("big5"))
    'cp950'
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    if _valid(data, "utf-8"):
        return "utf-8"
    gb_ok = _valid(data, GB18030)
    big5 = next((name for name in (BIG5, BIG5_HKSCS) if _valid(data, name)), None)
    if gb_ok and big5 is not None:
        gb_share = _share_common(data.decode(GB18030), _common_gb)
        big5_share = _share_common(data.decode(big5), _common_big5)
        return big5 if big5_share > gb_share else GB18030
    if gb_ok:
        return GB18030
    if big5 is not None:
        return big5
    bad_gb = data.decode(GB18030, "replace").count("\ufffd")
    bad_big5 = data.decode(BIG5, "replace").count("\ufffd")
    return BIG5 if bad_big5 < bad_gb else GB18030


def decode(data: bytes, encoding: str | None = None) -> str:
    """``data`` as text, in ``encoding`` or the detected one; a leading BOM
    is dropped and undecodable bytes become U+FFFD.

    Raises :class:`LookupError` for an encoding Python does not know."""
    name = encoding or detect_encoding(data)
    return data.decode(name, "replace").lstrip("\ufeff")
