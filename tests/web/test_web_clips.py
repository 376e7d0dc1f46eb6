"""The clips of the clock's calls (issue 33 item 8): only the calls the
clock makes (Go §3 读秒: 30秒 ... 9, "10，超时判负") are made into clips,
made once with espeak-ng and kept in the data folder; anyone may fetch one
(the calls are public), nobody can make the server say anything else."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from qisai.referee.clock import Byoyomi, ByoyomiKind, Clock, SideTimeControl, Stage, TimeControl
from qisai.referee.verdict import Side
from qisai.web.exhibitions import clips


def every_call(kind: ByoyomiKind, periods: int) -> list[tuple[str, str]]:
    """The texts (zh, en) a real clock calls over a whole overtime."""
    b = Byoyomi(kind, periods=periods, period_seconds=60 if kind is not ByoyomiKind.CANADIAN
                else 300, moves=25)
    clock = Clock(TimeControl.both(SideTimeControl((Stage(None, 60),), byoyomi=b)))
    clock.start(Side.FIRST, at=0.0)
    return [(c.text_zh, c.text_en) for c in clock.calls(-1.0, 10_000.0)]


@pytest.mark.parametrize(("kind", "periods"), [(ByoyomiKind.CHINESE, 5), (ByoyomiKind.CHINESE, 1),
                                               (ByoyomiKind.JAPANESE, 3),
                                               (ByoyomiKind.CANADIAN, 1)])
def test_every_call_the_clock_makes_may_be_a_clip(kind: ByoyomiKind, periods: int) -> None:
    calls = every_call(kind, periods)
    assert calls, "the clock called nothing"
    for zh, en in calls:
        assert clips.is_call("zh", zh), zh
        assert clips.is_call("en", en), en
    if kind is ByoyomiKind.CHINESE:
        assert calls[-1][0] == "10，超时判负"  # seed 003, Go §3: 最后的报法


def test_anything_else_is_refused() -> None:
    for lang, text in [("zh", "你好"), ("zh", "100秒"), ("zh", "10"), ("en", "hello"),
                       ("fr", "1"), ("zh", "1" * 41), ("zh", "还剩5分钟; rm -rf /")]:
        assert not clips.is_call(lang, text), text
        with pytest.raises(clips.ClipError):
            clips.clip_file(Path("/tmp"), lang, text)


def test_without_espeak_ng_there_is_no_clip(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(clips.shutil, "which", lambda name: None)
    assert asyncio.run(clips.make_clip(tmp_path, "zh", "9")) is None
    assert not any(tmp_path.rglob("*.wav"))


def test_a_clip_is_made_once_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (scripts/install-tools)")
    made: list[str] = []
    real = clips._run

    def counting(program: str, voice: str, text: str, out: Path) -> None:
        made.append(text)
        real(program, voice, text, out)
    monkeypatch.setattr(clips, "_run", counting)
    path = asyncio.run(clips.make_clip(tmp_path, "zh", "10，超时判负"))
    assert path is not None and path.read_bytes()[:4] == b"RIFF"
    assert path.is_relative_to(tmp_path / "clips" / "zh")
    again = asyncio.run(clips.make_clip(tmp_path, "zh", "10，超时判负"))
    assert again == path and made == ["10，超时判负"]


def test_the_route_serves_calls_to_anyone_and_nothing_else(client: TestClient) -> None:
    # No session at all: the calls are public.
    r = client.get("/api/calls/clip", params={"lang": "zh", "text": "你好"})
    assert r.status_code == 404 and "not a clock call" in r.json()["detail"]
    assert client.get("/api/calls/clip", params={"lang": "xx", "text": "1"}).status_code == 422
    assert client.get("/api/calls/clip",
                      params={"lang": "zh", "text": "1" * 41}).status_code == 422
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (scripts/install-tools)")
    r = client.get("/api/calls/clip", params={"lang": "zh", "text": "10，超时判负"})
    assert r.status_code == 200 and r.headers["content-type"] == "audio/wav"
    assert r.content[:4] == b"RIFF"
