"""The package's own imports, read statically (issue 18): qisai's layers
import only downwards, no module of qisai is in an import cycle, the
arena's domains (qisai.web's sub-packages) do not import each other in a
circle, and no module of the arena is over 800 lines (nor of qisai, but for
the known exceptions listed here).

Every ``import`` and ``from ... import`` of a module counts, wherever it
stands: at module level, inside a function, or under ``if TYPE_CHECKING``.
What does not count is the import Python makes implicitly of a package's
``__init__`` when one of its modules is imported (``qisai.web``'s
``__init__`` imports the app, which imports everything: it runs first, so
that is no cycle).  ``from pkg import name`` is an import of the module
``pkg.name`` when there is one, else of ``pkg``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "qisai"

LAYERS = {
    "xiangqi": 0, "go": 0,          # the rules cores
    "referee": 1,
    "engines": 2,
    "competition": 3,               # engine matches play through engines
    "store": 4,
    "papers": 4,                    # printed papers: read the competition model, print
    "cluster": 4,                   # Redis between server processes, metrics (issue 15)
    "web": 5,
    "cli": 6,
}
"""qisai's layers, lowest first: a layer imports only from lower ones (or
from its own)."""

MAX_LINES = 800
"""No module of qisai is longer (issue 18): the arena's none at all, the
rest of qisai none but the known exceptions below."""
KNOWN_LONG: frozenset[str] = frozenset()
"""Modules over :data:`MAX_LINES` outside the arena today, to be split (and
then struck from this list)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _resolve(module: str, level: int, current: str, is_package: bool) -> str:
    if level == 0:
        return module
    base = current.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def import_graph() -> dict[str, set[str]]:
    """Return, for every module of qisai, the modules of qisai it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = alias.name
                    while target and target not in modules:
                        target = target.rpartition(".")[0]
                    if target:
                        found.add(target)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(node.module or "", node.level, name, is_package)
                if not base.startswith("qisai"):
                    continue
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in modules:
                        found.add(sub)
                    elif base in modules:
                        found.add(base)
        found.discard(name)
        graph[name] = found
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """Return one cycle of ``graph`` (its nodes, the first repeated at the
    end), or ``None``."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                colour[node] = BLACK
                stack.pop()
                path.pop()
            elif colour.get(child, BLACK) == GREY:
                return path[path.index(child):] + [child]
            elif colour.get(child) == WHITE:
                colour[child] = GREY
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))
    return None


def collapse(graph: dict[str, set[str]], part: callable) -> dict[str, set[str]]:  # type: ignore[valid-type]
    """The graph between the parts ``part(module)`` names (``None``: left
    out), without a part's imports of itself."""
    out: dict[str, set[str]] = defaultdict(set)
    for a, targets in graph.items():
        pa = part(a)
        if pa is None:
            continue
        out[pa]
        for b in targets:
            pb = part(b)
            if pb is not None and pb != pa:
                out[pa].add(pb)
    return dict(out)


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def _web_domain(module: str) -> str | None:
    """The arena's part a module belongs to: its sub-package
    (``accounts``, ``play``, ``events``, ``pages``) or its own name for a
    module directly in qisai.web (``app``, ``state`` ...)."""
    parts = module.split(".")
    if parts[:2] != ["qisai", "web"] or len(parts) < 3:
        return None  # qisai.web's own __init__ re-exports the app; not a domain
    return parts[2]


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert "qisai.web.app" in graph and "qisai.web.events.results" in graph
    assert "qisai.web.cluster.cluster_hub" in graph["qisai.web.app"]
    assert "qisai.web.play.hub" in graph["qisai.web.cluster.cluster_hub"]
    # function-level imports count: the arena's CLI imports the app inside a function
    assert "qisai.web" in graph["qisai.cli.arena"]


def test_layers_import_only_downwards() -> None:
    layers = collapse(import_graph(), _layer)
    upward = sorted((a, b) for a, targets in layers.items() for b in targets
                    if LAYERS[b] >= LAYERS[a])
    assert upward == [], f"these layers import a layer not below them: {upward}"


def test_no_import_cycle_in_qisai() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_import_cycle_between_the_arenas_domains() -> None:
    domains = collapse(import_graph(), _web_domain)
    assert {"accounts", "play", "events", "pages", "app", "state"} <= set(domains)
    cycle = find_cycle(domains)
    assert cycle is None, "the arena's domains import in a circle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def _long_modules(folder: Path) -> dict[str, int]:
    return {p.relative_to(ROOT).as_posix(): n for p in sorted(folder.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}


def test_no_module_of_the_arena_over_800_lines() -> None:
    long = _long_modules(PACKAGE / "web")
    assert long == {}, f"modules over {MAX_LINES} lines: {long}"


def test_no_module_of_qisai_over_800_lines_but_the_known_ones() -> None:
    long = {p: n for p, n in _long_modules(PACKAGE).items() if p not in KNOWN_LONG}
    assert long == {}, f"modules over {MAX_LINES} lines: {long}"
