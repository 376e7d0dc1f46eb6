"""scipy's linear-sum assignment without importing ``scipy.optimize``.

The Swiss pairer (:mod:`.swiss`) needs one C function of scipy,
``linear_sum_assignment``.  Importing it the public way runs
``scipy.optimize``'s ``__init__``, which imports scipy.linalg, every
optimiser and the array API layer: 0.4-1.2 s of each ``qisai tournament
pair`` on this machine, most of the command (issue 29).  The function
lives in the extension module ``scipy/optimize/_lsap``, which
``scipy.optimize`` re-exports unchanged; :func:`linear_sum_assignment`
loads that module alone, and falls back to the public import when scipy
keeps it elsewhere.  The assignments are the same either way (the same
compiled code; ``tests/competition/test_pairing_lsap.py`` compares them).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["linear_sum_assignment", "load_extension"]

_NAME = "scipy.optimize._lsap"


def load_extension() -> Any | None:
    """scipy's ``linear_sum_assignment`` loaded from its extension module
    file, without the package's ``__init__``; None when scipy is not laid
    out as expected (or the module does not load)."""
    try:
        spec = importlib.util.find_spec("scipy")
        if spec is None or spec.origin is None:
            return None
        folder = Path(spec.origin).parent / "optimize"
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = folder / f"_lsap{suffix}"
            if not path.is_file():
                continue
            loader = importlib.machinery.ExtensionFileLoader(_NAME, str(path))
            mod_spec = importlib.util.spec_from_file_location(_NAME, path, loader=loader)
            if mod_spec is None:
                return None
            module = importlib.util.module_from_spec(mod_spec)
            loader.exec_module(module)
            return getattr(module, "linear_sum_assignment", None)
    except (ImportError, OSError):
        return None
    return None


@cache
def linear_sum_assignment() -> Any:
    """scipy's ``linear_sum_assignment(cost, maximize=False)`` -> (rows,
    columns): from its extension module if it loads alone, else from
    ``scipy.optimize``."""
    fn = load_extension()
    if fn is None:
        from scipy.optimize import linear_sum_assignment as public

        fn = public
    return fn
