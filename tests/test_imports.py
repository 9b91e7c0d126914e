"""The product's modules import in one direction: no circles, and exactly the layers that
ARCHITECTURE.md states ("Dependencies point down only"):

- the core of ``rules`` (its modules outside a game pack) imports only the core, except
  ``rules.games``, the one list of packs;
- a game pack (a package under ``rules/``: ``rules.kotd``, ``rules.ukuk``, ...) imports the
  core and itself, never another pack;
- ``vision`` imports ``vision`` and, of ``rules``, only ``rules.dice``, ``rules.errors`` and
  ``rules.inputs`` (never a game pack: the dice's description is handed to it);
- ``web`` imports ``web`` and the core of ``rules``, never a pack, ``vision`` or ``pi``;
- ``pi`` (the composition root and the command line) may import all of them.

Every ``import`` counts, also one inside a function (a lazy import hides a circle, it
does not remove it), but not one only the type checker sees (``if TYPE_CHECKING:``). A
package's ``__init__`` importing its own submodules is not a circle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

PACKAGES = ("rules", "vision", "pi", "web")
PACKS = frozenset(p.name for p in (ROOT / "rules").iterdir() if (p / "__init__.py").is_file())
"""The game packs: every package under ``rules/``."""
VISION_USES = frozenset({"rules.dice", "rules.errors", "rules.inputs"})


def _layer(module: str) -> str:
    """``pi``, ``web``, ``vision``, ``rules`` (the core) or ``pack:<id>``."""
    parts = module.split(".")
    if parts[0] == "rules" and len(parts) > 1 and parts[1] in PACKS:
        return f"pack:{parts[1]}"
    return parts[0]


def allowed(importer: str, target: str) -> bool:
    """May ``importer`` import ``target`` (both product modules)?"""
    have, want = _layer(importer), _layer(target)
    if have == "pi" or have == want:
        return True
    if have == "rules":
        return importer == "rules.games" and want.startswith("pack:")
    if have.startswith("pack:"):
        return want == "rules"
    if have == "vision":
        return target in VISION_USES
    if have == "web":
        return want == "rules"
    return False


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
             if not allowed(a, b)]
    assert wrong == []


def test_the_layer_rules_refuse_what_the_document_forbids() -> None:
    assert {"kotd", "ukuk"} <= PACKS
    forbidden = [("vision.palette", "rules.kotd.cards"), ("vision.cli", "rules.games"),
                 ("vision.reader", "rules.table"), ("rules.table", "rules.kotd"),
                 ("rules.kotd.view", "rules.ukuk.court"), ("rules.dice", "vision.reading"),
                 ("web.api", "rules.kotd.view"), ("web.api", "pi.serve"),
                 ("web.pages", "vision.palette"), ("rules.store", "web.api")]
    for importer, target in forbidden:
        assert not allowed(importer, target), (importer, target)
    fine = [("vision.palette", "rules.dice"), ("vision.imagefile", "rules.inputs"),
            ("rules.games", "rules.ukuk"), ("rules.ukuk.game", "rules.record"),
            ("web.api", "rules.games"), ("pi.cli.cards", "rules.kotd.cards"),
            ("pi.serve", "vision.reader"), ("pi.serve", "web")]
    for importer, target in fine:
        assert allowed(importer, target), (importer, target)


def test_the_checker_sees_a_lazy_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c", "a"]]


def _test_modules_imported(source: str) -> set[str]:
    """The test modules (``test_*``) an ``import`` in ``source`` names, also inside a function."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.split(".")[0].startswith("test_")}


def test_no_test_module_imports_another() -> None:
    """Shared fixtures live in ``conftest.py``, shared helpers in the support modules beside
    it (``webkit``, ``browserkit``, ...): a test module is never imported by another."""
    found = {path.name: _test_modules_imported(path.read_text(encoding="utf-8"))
             for path in sorted((ROOT / "tests").glob("*.py"))}
    assert {name: sorted(imported) for name, imported in found.items() if imported} == {}
    assert _test_modules_imported("def f():\n    from test_serve import TOKEN\n") == \
        {"test_serve"}


def test_the_command_line_starts_without_numpy_opencv_or_flask() -> None:
    """``kotd`` with its every command registered, and King of the Dice's pack, import no
    NumPy, OpenCV or Flask: the commands that only check, play or list cards (``kotd check``,
    ``play``, ``cards``, about 70 starts in ``make test``) start in about half the CPU.
    NumPy comes where the advisor or the reader runs, OpenCV and Flask where ``serve``,
    ``read`` and ``calibrate`` run."""
    code = ("import sys, pi.cli; from rules.games import game_pack; game_pack('kotd'); "
            "print(sorted(m for m in ('numpy', 'cv2', 'flask') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
