"""docs/DESIGN.md names every module of qisai in its folder (issue 34.9):
the map a newcomer reads is the package as it is.

The map is the tree at the top of DESIGN.md: a line whose first word ends
in ``/`` opens a folder, which holds the lines indented deeper than it; a
module is named where ``name.py`` appears among its own folder's lines
(``bench/x.py``, a path, names nothing)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = re.compile(r"^( *)([A-Za-z_][\w]*)/(?:\s|$)")
MODULE = re.compile(r"(?<![\w/.])([A-Za-z_]\w*)\.py\b")  # not bench/x.py: a path elsewhere


def named_modules(text: str) -> set[str]:
    """The modules the tree of ``text`` names, as paths under ``qisai/``
    (``web/play/hub.py``).  Raises :class:`AssertionError` without a tree."""
    start = text.index("```\nqisai/\n") + len("```\nqisai/\n")
    tree = text[start:text.index("\n```", start)]
    stack: list[tuple[int, str]] = []  # (indent, folder)
    named: set[str] = set()
    for line in tree.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= indent:  # a line as shallow as a folder ends it
            stack.pop()
        m = FOLDER.match(line)
        rest = line
        if m:
            stack.append((indent, m.group(2)))
            rest = line[m.end():]
        base = "/".join(f for _, f in stack)
        for name in MODULE.findall(rest):
            named.add(f"{base}/{name}.py" if base else f"{name}.py")
    return named


def package_modules() -> set[str]:
    """Every module of qisai (``__init__`` and ``__main__`` aside, and the
    database migrations, one per schema version, which the map names as a
    folder), as a path under ``qisai/``."""
    pkg = ROOT / "qisai"
    return {p.relative_to(pkg).as_posix() for p in pkg.rglob("*.py")
            if p.name not in ("__init__.py", "__main__.py")
            and "migrations/versions" not in p.as_posix()}


def test_design_names_every_module_in_its_folder() -> None:
    named = named_modules((ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8"))
    missing = sorted(package_modules() - named)
    assert missing == [], f"DESIGN.md does not name {len(missing)} modules: {missing}"
    gone = sorted(named - package_modules())
    assert gone == [], f"DESIGN.md names modules that are not there: {gone}"


def test_the_tree_reader_reads_folders_by_indentation() -> None:
    text = ("```\nqisai/\n  go/        rules\n    board.py  a board, see sgf.py\n"
            "  web/       arena\n    app.py\n    play/     games: hub.py,\n"
            "                  live.py (bench/load.py)\n    ops.py    health\n"
            "    pages/\n      render.py\n  cli.py\n```\n")
    assert named_modules(text) == {"go/board.py", "go/sgf.py", "web/app.py",
                                   "web/play/hub.py", "web/play/live.py", "web/ops.py",
                                   "web/pages/render.py", "cli.py"}
