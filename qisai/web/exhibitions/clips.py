"""Recorded clips of the clock's calls (读秒), for browsers without a voice.

The announcer speaks with the browser's own speech synthesis, but Debian's
chromium has no voice at all (``speechSynthesis.getVoices()`` is empty), so
the calls of Go §3 读秒 ("30秒" ... "9", and the last, "10，超时判负") would
never be heard there.  The page then plays a short WAV clip of the call
instead (``GET /api/calls/clip?lang=zh&text=10，超时判负``).

Where the clips are made: on first use, by the server, with espeak-ng (the
speech synthesiser Debian ships; ``scripts/install-tools`` installs it), and
kept in the data folder (``<data>/clips/<lang>/<sha1>.wav``).  Not at build
time: qisai installs as a plain Python package with no build step that
could run a system program, and a prebuilt set would put about 3 MB of
binaries in git; the data folder is the one writable place every server
has, and later requests read the file.  Only the calls the clock makes are
made (:func:`is_call`: a fixed vocabulary of at most a few hundred short
texts), so the cache is bounded and nobody can make the server speak
anything else.  Without espeak-ng the route answers 404 and the page shows
the call as text only.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

__all__ = ["ClipError", "is_call", "clip_file", "make_clip", "VOICES"]

VOICES = {"zh": "cmn", "en": "en"}
"""espeak-ng's voice for each page language (Mandarin, English)."""

# The texts qisai.referee.clock's schedule produces (Chinese, Japanese and
# Canadian overtime), numbers of at most two digits.
_CALLS = {
    "zh": re.compile(r"(?:开始读秒，)?还剩\d{1,2}(?:分钟|次|着)|还剩\d{1,2}秒|\d{1,2}秒|[1-9]"
                     r"|(?:10，)?超时判负"),
    "en": re.compile(r"(?:byo-yomi begins: )?\d{1,2} (?:minutes|periods|moves) left"
                     r"|\d{1,2} seconds(?: left)?|[1-9]|time is up: lost on time"),
}

_LOCK = threading.Lock()  # one synthesiser at a time: the machine is shared


class ClipError(ValueError):
    """The text is not one of the clock's calls, or the language unknown."""


def is_call(lang: str, text: str) -> bool:
    """Return whether ``text`` is a clock call of language ``lang`` (``zh``
    or ``en``) that a clip may be made of."""
    pattern = _CALLS.get(lang)
    return pattern is not None and len(text) <= 40 and pattern.fullmatch(text) is not None


def clip_file(folder: Path, lang: str, text: str) -> Path:
    """Return where the clip of ``text`` is kept under the data ``folder``.
    Raises :class:`ClipError` for a text that is not a clock call."""
    if not is_call(lang, text):
        raise ClipError(f"text: {text!r} is not a clock call in {lang!r} "
                        "(30秒, 1 ... 9, 10，超时判负 ...)")
    digest = hashlib.sha1(f"{lang}\n{text}".encode()).hexdigest()[:20]
    return folder / "clips" / lang / f"{digest}.wav"


def _synthesise(program: str, voice: str, text: str, out: Path) -> None:
    with _LOCK:
        if not out.is_file():  # another request may have made it meanwhile
            _run(program, voice, text, out)


def _run(program: str, voice: str, text: str, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(f".{os.getpid()}.tmp")
    # -s 150: the arbiter's calls are read clearly, a little slower than
    # espeak-ng's default; -w writes a WAV file instead of playing it.
    subprocess.run([program, "-v", voice, "-s", "150", "-w", str(tmp), text],
                   check=True, timeout=20, capture_output=True)
    if tmp.stat().st_size < 100:
        tmp.unlink(missing_ok=True)
        raise ClipError(f"espeak-ng made no sound of {text!r}")
    tmp.replace(out)  # atomic: a reader never sees half a file


async def make_clip(folder: Path, lang: str, text: str) -> Path | None:
    """Return the clip (WAV) of the clock call ``text``, made now with
    espeak-ng if it is not kept yet; ``None`` if this server has no
    espeak-ng (or it failed: the page then shows the text only).

    Raises :class:`ClipError` for a text that is not a clock call."""
    path = clip_file(folder, lang, text)
    if path.is_file():
        return path
    program = shutil.which("espeak-ng")
    if program is None:
        return None
    try:
        await asyncio.to_thread(_synthesise, program, VOICES[lang], text, path)
    except (OSError, subprocess.SubprocessError, ClipError):
        return None
    return path
