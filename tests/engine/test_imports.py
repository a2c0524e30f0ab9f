"""The engine imports nothing but the Python standard library, and the rest
of the code imports nothing of the engine but the package."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent
ROOT = ENGINE.parent.parent
OUTSIDE = (
    "games",
    "accounts",
    "live",
    "monopoly_site",
    "notifications",
    "ratings",
    "bench",
    "tests",
)


def test_engine_imports_only_the_standard_library() -> None:
    bad = []
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 10
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: inside the engine package
                    continue
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "__future__":
                    bad.append(f"{path.name}: {name}")
    assert not bad, bad


def test_code_outside_the_engine_imports_only_the_package() -> None:
    public = set(games.engine.__all__)
    bad = []
    for top in OUTSIDE:
        for path in sorted((ROOT / top).rglob("*.py")):
            # Tests of the engine's own modules may import them.
            if ENGINE in path.parents or ROOT / "tests" / "engine" in path.parents:
                continue
            tree = ast.parse(path.read_text(), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    module = node.module or ""
                    names = [module]
                    if module == "games.engine":  # from games.engine import board
                        names += [f"{module}.{a.name}" for a in node.names if a.name not in public]
                else:
                    continue
                bad += [
                    f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith("games.engine.")
                ]
    assert not bad, bad


def test_the_package_exports_a_sorted_all_of_names_it_has() -> None:
    names = list(games.engine.__all__)
    assert [n for n in names if not hasattr(games.engine, n)] == []
    # Constants, then classes, then functions (ruff's isort-style order).
    assert names == sorted(
        names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n)
    )
