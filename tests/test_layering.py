"""The three layers of design.md import one way, checked on the source of every module.

rules: standard library only (no flask, cv2, numpy, sqlite_utils, nor any other companion
layer); vision: may import rules, never web, storage or commands; storage: may import rules,
never web, vision or commands; web may import them all; nothing imports commands but the CLI.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "companion"

FORBIDDEN = {
    "rules": ("companion.vision", "companion.web", "companion.storage", "companion.commands",
              "companion.cli"),
    "vision": ("companion.web", "companion.storage", "companion.commands", "companion.cli"),
    "storage": ("companion.web", "companion.vision", "companion.commands", "companion.cli"),
    "web": ("companion.commands", "companion.cli"),
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every absolute module a file imports (at any depth: lazy imports count too)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def _files(layer: str) -> list[Path]:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_one_way(layer: str) -> None:
    bad = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}"
           for path in _files(layer) for line, module in imported_modules(path)
           if module.startswith(FORBIDDEN[layer])]
    assert not bad, "\n".join(bad)


def test_rules_use_the_standard_library_only() -> None:
    stdlib = sys.stdlib_module_names
    bad = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}"
           for path in _files("rules") for line, module in imported_modules(path)
           if not module.startswith("companion.rules")
           and module.split(".")[0] not in stdlib and module != "__future__"]
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    import numpy\n    from companion.web import create_app\n")
    assert imported_modules(sample) == [(2, "numpy"), (3, "companion.web")]


def test_callers_use_the_rules_public_api() -> None:
    """Outside companion/rules, the engine is imported as ``companion.rules`` only."""
    bad = [f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}"
           for path in sorted(PACKAGE.rglob("*.py"))
           if path.relative_to(PACKAGE).parts[0] != "rules"
           for line, module in imported_modules(path) if module.startswith("companion.rules.")]
    assert not bad, "\n".join(bad)
