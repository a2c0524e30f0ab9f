"""The layers of docs/architecture.md, as tests: the import contracts
(``.importlinter``) hold, no import cycle runs through the write path or
the engine, none runs between the top-level packages, and no module of
``games`` escapes the contracts."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "api",
    "games",
    "live",
    "notifications",
    "ratings",
    "accounts",
    "monopoly_site",
    "common",
)
# Wiring and build tooling, outside the layers.
UNLAYERED = {"games.apps", "games.native", "games.build_engine", "games.templatetags"}


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    sys.path.insert(0, str(ROOT))
    try:
        return grimp.build_graph(*PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))


def cycles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The import graph's strongly connected components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm without recursion: (module, its imports left).
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, imports = work[-1]
            for imported in imports:
                if imported not in index:
                    index[imported] = low[imported] = len(index)
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append(
                        (imported, iter(sorted(graph.find_modules_directly_imported_by(imported))))
                    )
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(component)

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for module in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(module)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert cycles(graph) == [{"a.b", "a.c"}]


def test_no_import_cycle_runs_through_the_services_or_the_engine(
    graph: grimp.ImportGraph,
) -> None:
    through = [
        sorted(c)
        for c in cycles(graph)
        if any(m.startswith(("games.services", "games.engine")) for m in c)
    ]
    assert through == []


def package_graph(graph: grimp.ImportGraph) -> grimp.ImportGraph:
    """The imports between the top-level packages, one node per package."""
    packages = grimp.ImportGraph()
    for package in PACKAGES:
        packages.add_module(package)
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = module.split(".")[0], imported.split(".")[0]
            if a != b:
                packages.add_import(importer=a, imported=b)
    return packages


def test_no_import_cycle_runs_between_the_top_level_packages(
    graph: grimp.ImportGraph,
) -> None:
    assert [sorted(c) for c in cycles(package_graph(graph))] == []


def test_a_cycle_between_packages_is_found() -> None:
    graph = grimp.ImportGraph()
    for module in ("games", "games.web", "live", "live.chat"):
        graph.add_module(module)
    graph.add_import(importer="games.web", imported="live.chat")
    graph.add_import(importer="live.chat", imported="games")
    assert [sorted(c) for c in cycles(package_graph(graph))] == [["games", "live"]]


def test_the_import_contracts_hold() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_every_module_of_games_is_in_a_contract(graph: grimp.ImportGraph) -> None:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    named: set[str] = set()
    for section in config.sections():
        for key in ("layers", "source_modules"):
            for line in config[section].get(key, "").split():
                named |= {part for part in line.split(":") if part and part != "|"}
    children = {".".join(m.split(".")[:2]) for m in graph.modules if m.startswith("games.")} - {
        "games.migrations"
    }
    assert sorted(children - named - UNLAYERED) == []
