"""The product's modules import in one direction: no circles, and no layer imports upwards.

Every ``import`` counts, also one inside a function (a lazy import hides a circle, it
does not remove it), but not one only the type checker sees (``if TYPE_CHECKING:``). A
package's ``__init__`` importing its own submodules is not a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGES = ("rules", "vision", "pi", "web")
ALLOWED = {  # who may import whom (the layers of ARCHITECTURE.md)
    "rules": {"rules"},
    "vision": {"vision", "rules"},
    "web": {"web", "rules"},
    "pi": {"pi", "rules", "vision", "web"},
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST) -> list[ast.AST]:
    """Every node under ``tree``, less what an ``if TYPE_CHECKING:`` block holds (names
    for the type checker only, never imported when the program runs)."""
    found: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    modules = {_module(p): p for p in files}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            else:
                continue
            for target in found:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if not target or target == name:
                    continue
                if is_package and target.startswith(name + "."):
                    continue  # a package's own submodules
                targets.add(target)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def test_no_import_circles() -> None:
    assert _cycles(_graph()) == []


def test_layers_import_downwards_only() -> None:
    wrong = [f"{a} imports {b}" for a, targets in _graph().items() for b in targets
             if b.split(".")[0] not in ALLOWED[a.split(".")[0]]]
    assert wrong == []


def test_the_checker_sees_a_lazy_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]
