"""The repo stands on its own: nothing the package, tests, benchmarks or
scripts run may reach for a folder beside the checkout (issue 12)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("qisai", "tests", "bench", "scripts", ".ci")
SUFFIXES = {".py", ".sh", ".toml", ".cfg", ".ini", ""}


def _files() -> list[Path]:
    out = [ROOT / "pyproject.toml"]
    for folder in FOLDERS:
        base = ROOT / folder
        if base.is_dir():
            out += [p for p in base.rglob("*") if p.is_file() and p.suffix in SUFFIXES
                    and "__pycache__" not in p.parts and "data" not in p.relative_to(ROOT).parts[:2]]
    return out


def test_nothing_reads_the_folder_beside_the_repo() -> None:
    files = _files()
    assert len(files) > 50  # the scan saw the code, not an empty tree
    needle = "../" + "shared"
    offenders = [str(p.relative_to(ROOT)) for p in files
                 if needle in p.read_text(encoding="utf-8", errors="replace")]
    assert offenders == [], f"these files mention {needle}: {offenders}"


def test_rule_texts_and_test_data_are_in_the_repo() -> None:
    rules = sorted(p.name for p in (ROOT / "docs" / "rules").glob("*.txt"))
    assert len(rules) == 3
    data = ROOT / "tests" / "data"
    assert (data / "xiangqi" / "perft.tsv").is_file()
    assert (data / "tournament" / "berger" / "berger_tables_3_to_16.json").is_file()
    total = sum(p.stat().st_size for p in data.rglob("*") if p.is_file())
    assert total < 5_000_000, f"tests/data is {total} bytes: keep the repo lean"
