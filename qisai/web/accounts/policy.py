"""What a user name, a display name and a password may be.

* **User names** are the unique, shown identity: NFKC-normalised (so a
  full-width ``ａｌｉｃｅ`` is ``alice``), then 2-40 of ASCII letters,
  digits, ``_ . -`` or CJK ideographs, matched against the *whole* string
  (``fullmatch``: a final newline is not let through as ``$`` would), and
  unique without regard to case.
* **Display names** are secondary and free-form but safe: NFKC, no control,
  format (bidi overrides, zero-width), surrogate, private-use or
  unassigned characters, no invisible "letters", no line or paragraph
  separators, at most two combining marks on a letter, spaces collapsed,
  1-40 characters.
* **Passwords**: at least 8 characters (NIST SP 800-63B), at most 256, and
  not easy to guess: zxcvbn (its own frequency lists of common passwords,
  names, words and keyboard patterns) must score them 2 or more of 4
  ("safe from throttled online guessing"), with the user's names, the
  site's words and common pinyin password parts counted as known.

Each check returns ``None`` or the reason, in Chinese and English.
"""

from __future__ import annotations

import re
import unicodedata

from zxcvbn import zxcvbn

__all__ = ["DISPLAY_MAX", "PASSWORD_MAX", "PASSWORD_MIN", "PASSWORD_MIN_SCORE", "USERNAME",
           "clean_display_name", "normalise_username", "password_problem", "username_problem"]

USERNAME = re.compile(r"[A-Za-z0-9_.\-\u4e00-\u9fff]{2,40}")
"""A whole user name (use ``fullmatch``)."""
DISPLAY_MAX = 40
PASSWORD_MIN = 8
PASSWORD_MAX = 256
PASSWORD_MIN_SCORE = 2
"""zxcvbn's score (0-4) a new password needs: 2 is "somewhat guessable",
about 10^6-10^8 guesses, which the per-account log-in limit makes out of
reach online; 0 and 1 are the common passwords and their simple variants."""
_ZXCVBN_MAX = 72
"""zxcvbn refuses longer input; the first 72 characters decide (a password
that long and weak in its first 72 is weak)."""
_SITE_WORDS = ("qisai", "xiangqi", "weiqi", "go", "chess", "棋赛", "象棋", "围棋")
_PINYIN_WORDS = ("woaini", "aini", "5201314", "1314520", "520", "1314", "mima", "wodemima",
                 "baobao", "laopo", "laogong", "zhongguo", "beijing", "shanghai", "qwe123")
"""Common parts of Chinese users' passwords that zxcvbn's English lists
miss ("I love you" in pinyin and digits, "my password", ...)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (bidi overrides, zero-width joiners and spaces, ...),
surrogates, private use, unassigned; line and paragraph separators."""
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
"""Letters and marks that draw nothing (Hangul fillers, the braille blank,
the combining grapheme joiner, Khmer inherent vowels)."""
_MAX_MARKS = 2


def normalise_username(name: str) -> str:
    """Return ``name`` in NFKC (what is stored and compared)."""
    return unicodedata.normalize("NFKC", name)


def username_problem(name: str) -> str | None:
    """Return why the (normalised) user ``name`` cannot be registered, or ``None``."""
    if not USERNAME.fullmatch(name):
        return ("用户名：2-40 个字母、数字、'_'、'.'、'-' 或汉字 / "
                "username: 2-40 letters, digits, '_', '.', '-' or Chinese characters")
    if name.lower().startswith("guest-"):
        return ("用户名：以 'guest-' 开头的名字留给游客 / "
                "username: names starting with 'guest-' are for guests")
    return None


def clean_display_name(raw: str) -> tuple[str | None, str | None]:
    """Return ``(display name, None)`` for a safe display name (NFKC, spaces
    collapsed, trimmed), or ``(None, reason)``."""
    name = unicodedata.normalize("NFKC", raw)
    marks = 0
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _REFUSED_CATEGORIES or ch in _INVISIBLE or (cat == "Zs" and ch != " "):
            return None, ("显示名：不能含控制、格式（如双向覆盖、零宽）或不可见字符 "
                          f"(U+{ord(ch):04X}) / display_name: control, format (such as bidi "
                          f"overrides or zero-width) and invisible characters are not allowed "
                          f"(U+{ord(ch):04X})")
        marks = marks + 1 if cat in ("Mn", "Me") else 0
        if marks > _MAX_MARKS:
            return None, ("显示名：组合符号过多 / display_name: too many combining marks on "
                          "one character")
    name = " ".join(name.split())
    if not 1 <= len(name) <= DISPLAY_MAX:
        return None, (f"显示名：1-{DISPLAY_MAX} 个字符 / display_name: 1-{DISPLAY_MAX} "
                      "characters")
    return name, None


def password_problem(password: str, *known: str) -> str | None:
    """Return why ``password`` is not good enough, or ``None``.  ``known``:
    the user's names, which make a password that uses them weaker."""
    if len(password) < PASSWORD_MIN:
        return (f"密码：至少 {PASSWORD_MIN} 个字符 / password: at least {PASSWORD_MIN} "
                "characters")
    if len(password) > PASSWORD_MAX:
        return (f"密码：最多 {PASSWORD_MAX} 个字符 / password: at most {PASSWORD_MAX} "
                "characters")
    inputs = [k for k in known if k] + list(_SITE_WORDS) + list(_PINYIN_WORDS)
    result = zxcvbn(password[:_ZXCVBN_MAX], user_inputs=inputs)
    if result["score"] < PASSWORD_MIN_SCORE:
        hint = result["feedback"].get("warning") or ""
        return ("密码：太常见或太容易猜，请换一个更长、更少见的（例如几个不相关的词） / "
                "password: too common or too easy to guess; choose a longer, less common one "
                "(a few unrelated words, say)" + (f" ({hint})" if hint else ""))
    return None
