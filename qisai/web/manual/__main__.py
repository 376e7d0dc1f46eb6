"""``python -m qisai.web.manual build [--out DIR]``: build the user manual
from a source checkout (``scripts/build-manual`` does the same).

A module of its own, which the package never imports, so that ``-m`` runs
it without runpy's warning about a module imported before it is run.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from qisai.web.manual import manual_dir
from qisai.web.manual.builder import build


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 1 with the
    reason on stderr)."""
    parser = argparse.ArgumentParser(prog="python -m qisai.web.manual",
                                     description="Build the qisai manual (MkDocs, offline).")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the manual (zh, zh-Hant, en) with mkdocs --strict")
    b.add_argument("--out", type=Path, default=None,
                   help="output folder (default $QISAI_MANUAL_DIR, else the package's "
                        "copy qisai/web/manual/site that qisai serve shows)")
    b.add_argument("--no-strict", action="store_true", help="let warnings pass")
    sub.add_parser("where", help="print the folder /manual serves")
    args = parser.parse_args(argv)
    if args.command == "where":
        print(manual_dir())
        return 0
    try:
        env = os.environ.get("QISAI_MANUAL_DIR")
        out = args.out or (Path(env).expanduser() if env else None)
        folder = build(out, strict=not args.no_strict, quiet=False)
    except (FileNotFoundError, RuntimeError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"manual built: {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
