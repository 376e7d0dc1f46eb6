"""Names that look alike: the confusable skeleton of Unicode Technical
Standard #39 (Unicode Security Mechanisms, section 4), computed by ICU's
spoof checker (PyICU), whose confusables data follows the Unicode
release of the ICU it is built with.

Two strings are confusable when their skeletons are equal: ``aIice``
(capital I), ``аlice`` (Cyrillic а) and ``alice`` all have the skeleton
``alice``.  User names are the same name whatever their case, so a name is
compared in the case it was written, in lower case and in upper case: the
upper-case skeletons of ``al1ce`` and ``alice`` are both ``ALlCE`` (digit
one and capital I look like a small L).  A skeleton is not folded to one
case after it is made: ``BILL`` and ``BILI`` (``BlLL`` and ``BlLl``) would
become one name.
"""

from __future__ import annotations

import threading
import unicodedata

import icu

__all__ = ["name_keys", "skeleton"]

_local = threading.local()


def _checker() -> icu.SpoofChecker:
    # one per thread: ICU does not promise that one checker may be shared
    checker = getattr(_local, "checker", None)
    if checker is None:
        checker = _local.checker = icu.SpoofChecker()
    return checker


def skeleton(text: str) -> str:
    """Return the UTS #39 skeleton of ``text`` (NFD, each character mapped
    to its prototype by the confusables data, NFD again).

    >>> skeleton("\u0430lice") == skeleton("aIice") == "alice"
    True
    """
    return str(_checker().getSkeleton(0, text))


def name_keys(name: str) -> frozenset[str]:
    """Return the skeletons of ``name`` (NFKC first) as written, in lower
    case and in upper case: two names look alike when their keys meet.

    >>> bool(name_keys("al1ce8589") & name_keys("alice8589"))
    True
    >>> bool(name_keys("bili") & name_keys("bill"))
    False
    """
    text = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(text), skeleton(text.lower()), skeleton(text.upper())})
