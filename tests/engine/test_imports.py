"""The engine imports nothing but the Python standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent


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
