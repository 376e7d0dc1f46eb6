"""Links from a verdict's clauses to the manual's copy of the rule texts
(issue 22): ``"24.1, 26.1"`` -> the two clauses' addresses in the manual,
in Chinese and in English (:func:`qisai.web.manual.clause_url`).

A verdict names its clauses as the rule book numbers them, several joined
by commas (``4.1.2, 2.2``), a Go item by its section (``竞赛规定 11(1)``);
a part the manual has no anchor for is left as text (no link that lands
nowhere).
"""

from __future__ import annotations

import re

from qisai.web.manual import clause_url

__all__ = ["clause_links"]

_SPLIT = re.compile(r"\s*[,，、;；]\s*")


def clause_links(clause: str | None) -> list[dict[str, str]]:
    """Return ``[{"clause", "zh", "en"}]``: each clause of ``clause`` the
    manual has, with its address in the Chinese and the English manual, in
    the order given; ``[]`` for none."""
    if not clause or not isinstance(clause, str) or len(clause) > 200:
        return []
    out = []
    for part in _SPLIT.split(clause.strip()):
        try:
            out.append({"clause": part, "zh": clause_url(part, "zh"),
                        "en": clause_url(part, "en")})
        except ValueError:
            continue
    return out
