"""The packages import one way: scorer <- scanner <- calibration <- webui.

The scorer is the rules engine: standard library only.  These tests parse every
module's imports (without importing it) so a wrong-way import fails the build.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("scorer", "scanner", "calibration", "webui")
"""Lowest first: a package may import only the packages before it (and itself)."""


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module that ``path`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def package_files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", LAYERS)
def test_packages_import_only_lower_layers(package: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(package) + 1])
    forbidden = set(LAYERS) - allowed
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) & forbidden)
        for path in package_files(package)
        if imported_modules(path) & forbidden
    }
    assert offenders == {}, f"{package} may import only {sorted(allowed)}"


def test_scorer_uses_the_standard_library_only() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__", "scorer"}
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_modules(path) - stdlib)
        for path in package_files("scorer")
        if imported_modules(path) - stdlib
    }
    assert offenders == {}


def test_import_checker_sees_a_wrong_way_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from webui.cli import main\nimport scanner.types as t\nfrom . import x\n")
    assert imported_modules(module) == {"webui", "scanner"}
