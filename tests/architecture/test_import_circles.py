"""No import circle: in the Python package ``service`` (imports at the top, in a function or for
type checking alike) nor among the service's ES modules (``service/static/**/*.js``, static and
dynamic imports alike). Read from the source; nothing is run.

A circle makes its modules one module in several files: none can be understood, tested or
loaded without the others, and in Python the order of their first import decides which names
exist yet (the reason a circle gets dodged with an import inside a function, which hides it
without undoing it; so those count here).

A Python module's import edges go to the modules it names (``from a import b``: ``a.b`` when
that is a module, else ``a``), not to the packages above them, whose ``__init__`` Python runs
first: ``service/__init__.py`` is the app factory and wires every layer, so counting the way up
would make everything one circle and tell nothing."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .js_imports import STATIC, imports, targets
from .python_imports import ROOT, SOURCES, module_name
from .python_imports import imports as python_imports


def circles(graph: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One circle of each strongly connected part of ``graph`` (a node → {node it imports: where
    it says so}), worded ``a (where) → b (where) → a``; [] when there is none."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    parts: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1 or node in graph.get(node, {}):
                parts.append(part)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_one_circle(graph, set(part)) for part in parts]


def _one_circle(graph: Mapping[str, Mapping[str, str]], part: set[str]) -> str:
    """A shortest way from the part's first node back to itself, inside the part."""
    start = min(part)
    ways: dict[str, list[str]] = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node]):
            if target == start:
                way = [*ways[node], start]
                return (
                    " → ".join(f"{a} ({graph[a][b]})" for a, b in zip(way, way[1:], strict=False))
                    + f" → {start}"
                )
            if target in part and target not in ways:
                ways[target] = [*ways[node], target]
                queue.append(target)
    raise AssertionError(f"no circle in {part}")


def python_graph() -> dict[str, dict[str, str]]:
    modules = {module_name(path): path for path in SOURCES}
    graph: dict[str, dict[str, str]] = {}
    for module, path in modules.items():
        edges = graph.setdefault(module, {})
        for line, name in python_imports(path):
            while name and name not in modules:  # ``a.b`` is a name of module ``a``
                name = name.rpartition(".")[0]
            if name and name != module:
                edges.setdefault(name, f"{path.relative_to(ROOT)}:{line}")
    return graph


def js_graph() -> dict[str, dict[str, str]]:
    graph: dict[str, dict[str, str]] = {}
    for path in sorted(STATIC.rglob("*.js")):
        name = str(path.relative_to(STATIC))
        edges = graph.setdefault(name, {})
        for imported in imports(path):
            for target in targets(path, imported):
                edges.setdefault(str(target.relative_to(STATIC)), f"line {imported.line}")
    return graph


def test_no_import_circle_in_the_python_package() -> None:
    assert circles(python_graph()) == []


def test_no_import_circle_among_the_es_modules() -> None:
    assert circles(js_graph()) == []


def test_the_graphs_hold_the_imports_known_to_exist() -> None:
    """The readers find a function's import, a relative one, a dynamic one, a template's and a
    multi-line one (so the checks above bite)."""
    python = python_graph()
    assert "service.services.tables" in python["service.services.hands.recording"]
    assert "service.rules" in python["service.services.tables"]  # ``from .. import rules``
    assert "service.cli" in python["service"]  # inside a function (create_app)
    js = js_graph()
    assert "pad/league.js" in js["pad/app.js"]  # dynamic
    assert {"pad/lang-de.js", "pad/lang-es.js"} <= set(js["pad/i18n.js"])  # a template
    assert "pad/hand-fields.js" in js["pad/hand.js"]  # multi-line
    assert "nights/money.js" in js["nights/admin.js"]


def test_a_circle_is_found_and_named() -> None:
    graph = {"a": {"b": "a.py:3"}, "b": {"c": "b.py:9"}, "c": {"a": "c.py:1"}, "d": {"a": "d:1"}}
    assert circles(graph) == ["a (a.py:3) → b (b.py:9) → c (c.py:1) → a"]
    assert circles({"a": {"a": "a.py:1"}}) == ["a (a.py:1) → a"]
    assert circles({"a": {"b": "a.py:1"}, "b": {}}) == []


def test_the_es_module_reader_ignores_comments_and_strings(tmp_path: Path) -> None:
    module = tmp_path / "m.js"
    module.write_text(
        "// import { x } from './commented.js';\n"
        "const words = { 'Export and import': 'x', a: \"import('./quoted.js')\" };\n"
        "import {\n  y,\n} from './real.js';\n"
        "export { z } from '../up.js';\n"
        "const catalog = await import(`./lang-${lang}.js`);\n"
    )
    assert [(i.line, i.specifier, i.dynamic) for i in imports(module)] == [
        (3, "./real.js", False),
        (6, "../up.js", False),
        (7, "./lang-*.js", True),
    ]
