"""Layering of the rules engine (design.md layer 1): standard library only, no cycles.

Every file of ``companion/rules`` is read as an AST (nothing is imported, so a bad import
cannot hide behind a lazy one): each ``import`` anywhere in a file, function bodies
included (``if TYPE_CHECKING:`` blocks excepted: they never run), must name a standard
library module or a module of ``companion.rules``; and the graph of imports between
``companion.rules`` modules must have no cycle. Importing ``a.b.c`` also runs the package
``a.b``'s ``__init__``, so a subpackage counts as imported by every importer of one of
its modules (outside the subpackage: inside it, the package is already being run).
Modules inside the engine never import the ``companion.rules`` façade.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import companion.rules

RULES_DIR = Path(companion.rules.__file__).parent
ROOT = "companion.rules"


def module_name(path: Path) -> str:
    parts = path.relative_to(RULES_DIR).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((ROOT, *parts))


def rules_files() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(RULES_DIR.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(tree: ast.AST, here: str, is_package: bool) -> Iterator[str]:
    """Every module name an import statement of ``tree`` names (relative ones resolved)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".") if is_package else here.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            yield module
            for alias in node.names:  # ``from package import submodule``
                yield f"{module}.{alias.name}"
        stack.extend(ast.iter_child_nodes(node))


def import_graph(files: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the ``companion.rules`` modules it runs when imported (façade excluded)."""
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for target in imported_names(tree, name, path.name == "__init__.py"):
            parts = target.split(".")
            for k in range(3, len(parts) + 1):  # parent packages run first
                candidate = ".".join(parts[:k])
                if candidate in files and candidate != name and (
                        k == len(parts) or not name.startswith(candidate + ".")):
                    edges.add(candidate)
        graph[name] = edges
    return graph


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_cycle_finder_finds_a_cycle_and_accepts_a_tree() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_graph_sees_function_level_and_parent_package_imports(tmp_path: Path) -> None:
    files = {f"{ROOT}.x": tmp_path / "x.py", f"{ROOT}.pkg": tmp_path / "__init__.py",
             f"{ROOT}.pkg.y": tmp_path / "y.py"}
    files[f"{ROOT}.x"].write_text("def f():\n    from companion.rules.pkg.y import g\n")
    files[f"{ROOT}.pkg"].write_text("from companion.rules import x\n")
    files[f"{ROOT}.pkg.y"].write_text("")
    graph = import_graph(files)
    assert graph[f"{ROOT}.x"] == {f"{ROOT}.pkg", f"{ROOT}.pkg.y"}
    assert find_cycle(graph) == [f"{ROOT}.pkg", f"{ROOT}.x", f"{ROOT}.pkg"]


def test_no_import_cycle_among_rules_modules() -> None:
    graph = import_graph(rules_files())
    assert len(graph) > 30
    assert find_cycle(graph) is None


def test_rules_modules_never_import_the_facade() -> None:
    for name, path in rules_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in imported_names(tree, name, path.name == "__init__.py"):
            if name != ROOT:
                assert target != ROOT, f"{name} imports the companion.rules façade"


def test_rules_import_only_the_standard_library() -> None:
    stdlib = sys.stdlib_module_names
    for name, path in rules_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in imported_names(tree, name, path.name == "__init__.py"):
            top = target.split(".")[0]
            if top == "companion":
                assert target == ROOT or target.startswith(ROOT + "."), (
                    f"{name} imports {target}: the engine imports no other layer")
            else:
                assert top in stdlib or top == "__future__", (
                    f"{name} imports {target}, which is not in the standard library")


def test_the_layering_check_would_see_a_third_party_import() -> None:
    tree = ast.parse("def f():\n    import numpy\n    from flask import Flask\n")
    tops = {t.split(".")[0] for t in imported_names(tree, f"{ROOT}.x", False)}
    assert {"numpy", "flask"} <= tops and not tops & sys.stdlib_module_names
