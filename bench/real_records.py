"""Read a folder of real game records and report what qisai makes of them.

Usage::

    python3 bench/real_records.py FOLDER [FOLDER ...] [--input-encoding NAME] [--show N]

Every file under the folders (recursively) with a record suffix is read:
Xiangqi ``.pgn .xqf .cbl .cbr .cbf`` and Go ``.sgf``.  Printed:

* **read**: files and games read, by format;
* **refused**: games (or whole files) refused, counted by reason (the error
  text with numbers and quoted text blanked, so that one reason is one line);
* **warnings**: what was read leniently (tags with unescaped quotes, a
  malformed ``HA``, a record starting with White), by kind;
* **round trip**: each Xiangqi game is written as PGN (UTF-8, and GBK when
  it can be written in GBK) and read back; each Go game is written as SGF and
  read back.  A difference is a game whose tree of moves, headers (the
  ``Format`` tag aside) or final position (Go) differs after the trip;
  games GBK cannot write are counted apart.

``--show N`` prints up to N examples of each refusal and difference.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from qisai.xiangqi.pgn import Game, GameNode

XIANGQI = {".pgn", ".xqf", ".cbl", ".cbr", ".cbf"}
GO = {".sgf"}


def reason(exc: BaseException) -> str:
    """A refusal's kind: its class and English message, places and values
    blanked."""
    text = getattr(exc, "en", str(exc))
    text = re.sub(r"^(game \d+, )?(line \d+, )?(ply \d+: )?", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "…", text)
    text = re.sub(r"\S*/\S*( [wrb] - - \d+ \d+)?", "…", text)  # positions (FEN)
    text = re.sub(r"\b[a-i]\d[a-i]\d\b", "…", text)  # moves
    text = re.sub(r"\d+", "N", text)
    return f"{type(exc).__name__}: {text[:90]}"


def _tree(game: GameNode) -> list[tuple[str, ...]]:
    """Every line of a Xiangqi game tree as ICCS moves (root to each leaf)."""
    lines: list[tuple[str, ...]] = []
    stack: list[tuple[GameNode, tuple[str, ...]]] = [(game, ())]
    while stack:
        node, path = stack.pop()
        if not node.variations:
            lines.append(path)
        for child in node.variations:
            assert child.move is not None
            stack.append((child, (*path, child.move.iccs())))
    return sorted(lines)


class Report:
    """Counts of one run."""

    def __init__(self, show: int) -> None:
        self.show = show
        self.files: Counter[str] = Counter()
        self.games: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self.warnings: Counter[str] = Counter()
        self.trips: Counter[str] = Counter()
        self.diffs: Counter[str] = Counter()
        self.examples: defaultdict[str, list[str]] = defaultdict(list)

    def example(self, key: str, text: str) -> None:
        if len(self.examples[key]) < self.show:
            self.examples[key].append(text)

    def refuse(self, path: Path, exc: BaseException, game: int | None = None) -> None:
        key = reason(exc)
        self.refused[key] += 1
        where = f"{path}" + (f" game {game}" if game is not None else "")
        self.example(key, f"{where}: {exc}")

    def warn(self, path: Path, text: str) -> None:
        key = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]", "…", re.sub(r"\d+", "N", text))
        self.warnings[key[:90]] += 1
        self.example("warning: " + key[:90], f"{path}: {text}")

    def differ(self, path: Path, kind: str, game: int, what: str) -> None:
        self.diffs[kind] += 1
        self.example("diff: " + kind, f"{path} game {game}: {what}")


def xiangqi_file(path: Path, report: Report, encoding: str | None) -> None:
    from qisai.cli.records import read_records
    from qisai.xiangqi.errors import XiangqiError
    from qisai.xiangqi.pgn import PgnError

    fmt = path.suffix.lower()
    report.files[fmt] += 1
    errors: list[PgnError] = []
    number = 0
    try:
        for number, game in enumerate(read_records(path, strict=True, encoding=encoding,
                                                   on_error=errors.append), 1):
            report.games[fmt] += 1
            for note in game.warnings:
                report.warn(path, note)
            trip(path, number, game, report)
    except (XiangqiError, OSError, LookupError, ValueError) as exc:
        report.refuse(path, exc, number + 1 if fmt in (".pgn", ".cbl") else None)
    for error in errors:
        report.refuse(path, error)


def trip(path: Path, number: int, game: Game, report: Report) -> None:
    """Write a Xiangqi game as PGN (UTF-8, then GBK) and read it back."""
    from qisai.xiangqi.errors import XiangqiError
    from qisai.xiangqi.pgn import dumps, parse_pgn

    before_tree = _tree(game)
    before_headers = {k: v for k, v in game.headers.items() if k != "Format"}
    for encoding, fullwidth in (("utf-8", False), ("gbk", True)):
        key = f"xiangqi PGN {encoding}"
        try:
            text = dumps(game, "chinese", fullwidth=fullwidth)
        except XiangqiError as exc:
            report.trips[key + ": cannot write"] += 1
            report.example("diff: cannot write", f"{path} game {number}: {exc}")
            return
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError:
            report.trips[key + ": characters the encoding lacks"] += 1
            continue
        report.trips[key] += 1
        try:
            again = parse_pgn(data)
        except XiangqiError as exc:
            report.differ(path, key + ": cannot read back", number, str(exc))
            continue
        if len(again) != 1:
            report.differ(path, key + ": game count", number, f"{len(again)} games")
            continue
        after = again[0]
        if _tree(after) != before_tree:
            report.differ(path, key + ": moves", number, "tree of moves differs")
        headers = {k: v for k, v in after.headers.items() if k != "Format"}
        if headers != before_headers:
            changed = sorted(k for k in set(headers) | set(before_headers)
                             if headers.get(k) != before_headers.get(k))
            report.differ(path, key + ": headers", number,
                          ", ".join(f"{k}: {before_headers.get(k)!r} -> {headers.get(k)!r}"
                                    for k in changed))


def go_file(path: Path, report: Report) -> None:
    from qisai.go.errors import GoError
    from qisai.go.sgf import read_sgf, replay

    report.files[".sgf"] += 1
    try:
        game = read_sgf(path.read_bytes())
        notes: list[str] = []
        board = replay(game, notes=notes)
    except (GoError, OSError, ValueError) as exc:
        report.refuse(path, exc)
        return
    report.games[".sgf"] += 1
    for note in notes:
        report.warn(path, note)
    report.trips["go SGF"] += 1
    try:
        again = read_sgf(game.to_sgf())
        board2 = replay(again)
    except (GoError, ValueError) as exc:
        report.differ(path, "go SGF: cannot read back", 1, str(exc))
        return
    if again.moves() != game.moves():
        report.differ(path, "go SGF: moves", 1, "moves differ")
    if board2.zobrist != board.zobrist or board2.to_move != board.to_move:
        report.differ(path, "go SGF: final position", 1, "final position differs")


def run(folders: list[Path], encoding: str | None, show: int, out: io.TextIOBase | None = None) -> Report:
    """Read every record under ``folders`` and print the report."""
    stream = out if out is not None else sys.stdout
    report = Report(show)
    for folder in folders:
        paths = [folder] if folder.is_file() else sorted(p for p in folder.rglob("*") if p.is_file())
        for path in paths:
            suffix = path.suffix.lower()
            if suffix in XIANGQI:
                xiangqi_file(path, report, encoding)
            elif suffix in GO:
                go_file(path, report)
    w = stream.write
    w(f"folders: {' '.join(str(f) for f in folders)}\n")
    w("read:\n")
    for fmt in sorted(report.files):
        w(f"  {fmt:5} {report.files[fmt]:6} file(s) {report.games[fmt]:7} game(s)\n")
    total_refused = sum(report.refused.values())
    w(f"refused: {total_refused}\n")
    for key, count in report.refused.most_common():
        w(f"  {count:6}  {key}\n")
    w(f"warnings: {sum(report.warnings.values())}\n")
    for key, count in report.warnings.most_common():
        w(f"  {count:6}  {key}\n")
    w("round trip (games written and read back):\n")
    for key in sorted(report.trips):
        w(f"  {report.trips[key]:6}  {key}\n")
    w(f"round-trip differences: {sum(report.diffs.values())}\n")
    for key, count in report.diffs.most_common():
        w(f"  {count:6}  {key}\n")
    if show:
        for key, texts in sorted(report.examples.items()):
            w(f"examples of {key}:\n")
            for text in texts:
                w(f"    {text[:300]}\n")
    stream.flush()
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--input-encoding", default=None,
                        help="encoding of PGN files (default: detected per file)")
    parser.add_argument("--show", type=int, default=0, help="examples of each refusal/difference")
    args = parser.parse_args(argv)
    for folder in args.folders:
        if not folder.exists():
            parser.error(f"{folder}: no such file or folder")
    run(args.folders, args.input_encoding, args.show)


if __name__ == "__main__":
    main()
