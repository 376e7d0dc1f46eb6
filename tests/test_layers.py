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
    "bilingual": -1,                # texts and errors in Chinese and English (issue 32.8)
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


# ------------------------------------------------- private names, re-exports
def _domain(module: str) -> str:
    """The domain a module belongs to: an arena sub-package (``qisai.web.play``)
    or module directly in qisai.web, else its layer's folder (``qisai.referee``)."""
    parts = module.split(".")
    return ".".join(parts[:3] if parts[:2] == ["qisai", "web"] and len(parts) > 2 else parts[:2])


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _imported_modules(tree: ast.AST, name: str, is_package: bool, modules: set[str]
                      ) -> dict[str, str]:
    """The names bound in ``tree`` to modules of qisai, and the module each is."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, name, is_package)
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    bound[alias.asname or alias.name] = alias.name
    return bound


def private_imports(name: str, source: str, is_package: bool, modules: set[str]
                    ) -> list[tuple[str, str]]:
    """Return (module, private name) for every private name of another domain
    that the module ``name`` imports (``from m import _x``) or reads off an
    imported module (``m._x``)."""
    tree = ast.parse(source)
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, name, is_package)
            if not base.startswith("qisai"):
                continue
            for alias in node.names:
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                if _private(alias.name) and _domain(target) != _domain(name):
                    out.append((target, alias.name))
    bound = _imported_modules(tree, name, is_package, modules)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in bound
                and _domain(bound[node.value.id]) != _domain(name)):
            out.append((bound[node.value.id], node.attr))
    return out


def _private_owners(trees: dict[str, ast.AST]) -> dict[str, set[str]]:
    """Every private name qisai defines (functions, classes, methods,
    attributes set, module globals), and the domains that define it."""
    owners: dict[str, set[str]] = defaultdict(set)
    for name, tree in trees.items():
        for node in ast.walk(tree):
            found: list[str] = []
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found = [node.name]
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                found = [node.attr]
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                found = [t.id for t in targets if isinstance(t, ast.Name)]
            owners.update({n: owners[n] | {_domain(name)} for n in found if _private(n)})
    return owners


def private_uses(trees: dict[str, ast.AST]) -> list[tuple[str, int, str]]:
    """Return (module, line, name) for every private attribute a module reads
    off anything but ``self``, ``cls`` or ``super()`` (another object, say a
    hub or a seat) when only other domains define that name: the owner's
    insides used from outside its folder."""
    owners = _private_owners(trees)
    out = []
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                continue
            v = node.value
            if isinstance(v, ast.Name) and v.id in ("self", "cls"):
                continue
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
                continue
            where = owners.get(node.attr, set())
            if where and _domain(name) not in where:
                out.append((name, node.lineno, node.attr))
    return out


KNOWN_PRIVATE_USES: frozenset[tuple[str, str]] = frozenset()
"""Private names another domain may read (none)."""


def test_no_module_imports_a_private_name_of_another_domain() -> None:
    modules = _modules()
    found = [(name, *hit) for name, path in modules.items()
             for hit in private_imports(name, path.read_text(encoding="utf-8"),
                                        path.name == "__init__.py", set(modules))]
    assert found == [], f"private names imported from another domain: {found}"


def test_no_module_uses_a_private_name_only_another_domain_defines() -> None:
    trees = {name: ast.parse(path.read_text(encoding="utf-8"))
             for name, path in _modules().items()}
    found = [u for u in private_uses(trees) if (u[0], u[2]) not in KNOWN_PRIVATE_USES]
    assert found == [], f"private names of another domain used: {found}"


def test_the_private_name_checks_find_them() -> None:
    modules = {"qisai.web.play.hub", "qisai.web.lobby.pools", "qisai.web.play.live",
               "qisai.referee.game"}
    source = ("from qisai.web.play.hub import _reload, Hub\n"
              "from qisai.web.play import hub\nimport qisai.referee.game as g\n"
              "hub._broadcast(); g._HANDLERS; hub.Hub\n")
    assert sorted(private_imports("qisai.web.lobby.pools", source, False, modules)) == [
        ("qisai.referee.game", "_HANDLERS"), ("qisai.web.play.hub", "_broadcast"),
        ("qisai.web.play.hub", "_reload")]
    # within its own domain a private name is the domain's business
    assert private_imports("qisai.web.play.live", source, False, modules) == [
        ("qisai.referee.game", "_HANDLERS")]
    trees = {"qisai.web.play.hub": ast.parse("class Hub:\n    def _reload(self): self._n = 1\n"),
             "qisai.web.lobby.pools": ast.parse("def f(hub): hub._reload(); hub._n; x._replace()\n")}
    assert sorted(private_uses(trees)) == [("qisai.web.lobby.pools", 1, "_n"),
                                           ("qisai.web.lobby.pools", 1, "_reload")]


def reexports(name: str, source: str, is_package: bool, modules: set[str]) -> list[str]:
    """Return the names a module that is no package's face hands on from
    another module of qisai: listed in its ``__all__`` though imported, or,
    for a module that only imports (a shim), everything it imports."""
    if is_package:
        return []  # a package's face names its package's public API
    tree = ast.parse(source)
    imported: set[str] = set()
    own_code = False
    listed: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, name, is_package)
            if base.startswith("qisai"):
                imported |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.asname or a.name for a in node.names if a.name.startswith("qisai")}
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__all__"):
            listed = [e.value for e in getattr(node.value, "elts", [])
                      if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            own_code = True  # a definition, an assignment, a statement of its own
    if not own_code and imported:
        return sorted(imported)
    return [n for n in listed if n in imported]


KNOWN_REEXPORTS: frozenset[str] = frozenset()
"""Modules allowed to hand on names (none: the old paths went with 34.5)."""


def test_no_re_export_shims() -> None:
    modules = _modules()
    found = {name: names for name, path in modules.items() if name not in KNOWN_REEXPORTS
             and (names := reexports(name, path.read_text(encoding="utf-8"),
                                     path.name == "__init__.py", set(modules)))}
    assert found == {}, f"names handed on from another module (one import path per name): {found}"


def test_the_re_export_check_finds_them() -> None:
    shim = '"""Old path."""\nfrom qisai.go.board import Board, Move\n__all__ = ["Board", "Move"]\n'
    assert reexports("qisai.go.move", shim, False, set()) == ["Board", "Move"]
    mixed = ('from qisai.store.models import Simul as SimulRow\n'
             '__all__ = ["SimulRow", "load"]\ndef load(): return SimulRow\n')
    assert reexports("qisai.web.exhibitions.store", mixed, False, set()) == ["SimulRow"]
    own = 'from qisai.store.models import Simul\n__all__ = ["load"]\ndef load(): return Simul\n'
    assert reexports("qisai.web.exhibitions.store", own, False, set()) == []
    assert reexports("qisai.go", shim, True, set()) == []
