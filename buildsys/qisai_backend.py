"""qisai's build backend: setuptools' own, with the user manual built into
the package first (issue 32 item 1), so that ``pip install -e .`` and a
wheel (``pip install qisai``) both serve ``/manual``.

Why at build time rather than at a server's first request: a server then
needs neither MkDocs, Material, jieba nor OpenCC (the build-system
requirements in ``pyproject.toml`` bring them to the build only), spends no
CPU on a public request building pages, and writes nothing into its own
package; a wheel is a fixed artefact, the manual in it matches its code.

The builder (``qisai/web/manual/builder.py``) is loaded by its file path:
importing ``qisai.web`` would import the arena, whose dependencies the build
environment does not have.  It builds only when the sources changed since the
copy in ``qisai/web/manual/site`` was made (a digest in that folder).
``QISAI_BUILD_MANUAL=0`` leaves the manual out (``/manual`` then says how to
build it).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the PEP 517/660 hooks we do not change)

ROOT = Path(__file__).resolve().parents[1]
BUILDER = ROOT / "qisai" / "web" / "manual" / "builder.py"


def _build_manual() -> None:
    if os.environ.get("QISAI_BUILD_MANUAL", "1").strip().lower() in ("0", "no", "false"):
        print("qisai: QISAI_BUILD_MANUAL=0, the manual is left out", file=sys.stderr)
        return
    spec = importlib.util.spec_from_file_location("_qisai_manual_builder", BUILDER)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load the manual's builder {BUILDER}")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    try:
        folder = builder.build_packaged()
    except ImportError as exc:
        raise RuntimeError(
            f"qisai: building the manual needs {exc.name} (MkDocs, mkdocs-material, jieba, "
            "opencc are build requirements; without build isolation install them with "
            "pip install -e '.[docs]' first, or set QISAI_BUILD_MANUAL=0 to leave the "
            "manual out)") from exc
    print(f"qisai: manual in {folder}", file=sys.stderr)


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    """Build the manual, then the wheel (setuptools); return its file name."""
    _build_manual()
    name: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    return name


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    """Build the manual into the source tree, then the editable wheel."""
    _build_manual()
    name: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    return name
