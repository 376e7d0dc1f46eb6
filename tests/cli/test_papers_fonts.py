"""The papers' cut font faces (issue 29): a paper is drawn with the
Chinese font cut to the common characters (:mod:`qisai.papers.fonts`),
looks the same as with the whole font, and a paper with a character the
cut faces lack is drawn again with the whole font, so nothing prints as a
missing glyph."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import qisai.papers.sheets as sheets
from qisai.competition.entries import Entry
from qisai.competition.events.create import EventOptions, create_event
from qisai.competition.events.file import EventFile, Header
from qisai.papers import fonts, write_paper
from qisai.papers.pdf import FontSpec, PapersError, find_font

pytest.importorskip("fpdf", reason="fpdf2 writes the PDFs")
try:
    WHOLE = find_font()
except PapersError:
    pytest.skip("no Chinese font (Debian fonts-noto-cjk)", allow_module_level=True)


@pytest.fixture(scope="module")
def cut() -> FontSpec:
    """The cut faces, in the user's cache as a paper makes them (cut once)."""
    return fonts.prepare(WHOLE)


def event(names: tuple[str, ...]) -> EventFile:
    entries = [Entry(n, club="杭州", rating=2600 - 10 * k) for k, n in enumerate(names)]
    ef = create_event(entries, EventOptions("swiss", rounds=3, seed=1),
                      Header("全国象棋个人赛", venue="杭州棋院"))
    ef.individual.pair_next_round()
    return ef


def test_common_characters_cover_the_papers_own_text() -> None:
    source = "".join(Path(m.__file__ or "").read_text(encoding="utf-8")
                     for m in (sheets, __import__("qisai.papers.pdf").papers.pdf))
    own = {c for c in source if ord(c) > 0x7F}
    assert own and own <= fonts.COMMON, sorted(own - fonts.COMMON)
    assert "喆" not in fonts.COMMON and "王" in fonts.COMMON


def test_cut_faces_are_cached_and_found(cut: FontSpec) -> None:
    assert cut.path.is_file() and cut.bold is not None and cut.bold.is_file()
    assert cut.path.parent == fonts.cache_dir()
    assert fonts.cached(WHOLE) == cut
    small = frozenset("棋手")  # another character set is another face
    assert fonts.cached(WHOLE, small) is None


def test_a_rare_character_is_drawn_with_the_whole_font(cut: FontSpec,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    common = event(("王天一", "郑惟桐", "许银川", "蒋川"))
    rare = event(("王天一", "郑惟桐", "许银川", "李喆"))
    assert sheets.pairings(common, font=cut).missing() == set()
    assert sheets.pairings(rare, font=cut).missing() == {"喆"}
    assert sheets.pairings(rare, font=WHOLE).missing() == set()

    used: list[FontSpec | None] = []
    real = sheets.pairings

    def spy(ef: EventFile, round_no: int | None = None, font: FontSpec | None = None
            ) -> Any:
        used.append(font)
        return real(ef, round_no, font=font)

    monkeypatch.setattr(sheets, "pairings", spy)
    assert write_paper(common, "pairings", tmp_path / "a.pdf") == 1
    assert used == [cut]
    used.clear()
    assert write_paper(rare, "pairings", tmp_path / "b.pdf") == 1
    assert used == [cut, WHOLE]
    used.clear()
    write_paper(common, "pairings", tmp_path / "c.pdf", cut=False)
    assert used == [WHOLE]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm renders the pages")
def test_cut_faces_print_the_same_page(cut: FontSpec, tmp_path: Path) -> None:
    ef = event(("王天一", "郑惟桐", "许银川", "蒋川", "赵鑫鑫"))
    pages = []
    for name, font in (("cut", cut), ("whole", WHOLE)):
        pdf = tmp_path / f"{name}.pdf"
        sheets.pairings(ef, font=font).save(pdf)
        subprocess.run(["pdftoppm", "-r", "72", "-png", "-f", "1", "-l", "1", str(pdf),
                        str(tmp_path / name)], check=True)
        pages.append(next(tmp_path.glob(f"{name}-*.png")).read_bytes())
    assert pages[0] == pages[1]
