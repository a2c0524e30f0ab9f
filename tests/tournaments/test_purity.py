"""The seating and the standings are pure: the standard library and each
other only, so that they run (and are reasoned about) with no site at all."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import tournaments

PURE = ("pairing", "seating", "golfer", "standing")
HERE = Path(tournaments.__file__).parent


def imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.append(node.module or "")
    return names


def test_the_seating_and_standings_import_only_the_standard_library_and_each_other() -> None:
    pure = {f"tournaments.{name}" for name in PURE}
    bad = [
        f"{name}.py: {module}"
        for name in PURE
        for module in imported(HERE / f"{name}.py")
        if module not in pure
        and module.split(".")[0] not in sys.stdlib_module_names
        and module != "__future__"
    ]
    assert not bad, bad


def test_the_check_sees_an_import_of_the_site(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import json\nfrom django.db import models\nfrom tournaments.models import Entry\n"
    )
    assert imported(sample) == ["json", "django.db", "tournaments.models"]
