"""bench/alternate.py runs a benchmark on two checkouts in swapped order,
reads each run's JSON, and sets the figures side by side."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from tests.conftest import BASE_DIR

_spec = importlib.util.spec_from_file_location("alternate", BASE_DIR / "bench" / "alternate.py")
assert _spec is not None and _spec.loader is not None
alternate: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(alternate)


def test_each_pair_swaps_the_order_of_the_last() -> None:
    assert alternate.schedule(["new", "old"], 3) == ["new", "old", "old", "new", "new", "old"]


def test_the_last_json_object_is_read_however_it_is_indented() -> None:
    printed = (
        'progress {"not": "this"}\n{"phase": 1}\n'
        + json.dumps({"many_games": {"cpu_ms_per_move": 9.5}}, indent=2)
        + "\nruns: somewhere\n"
    )
    assert alternate.last_json(printed) == {"many_games": {"cpu_ms_per_move": 9.5}}
    assert alternate.last_json("no json at all\n") is None


def test_a_figure_is_found_by_its_dotted_path() -> None:
    result = {"many_games": {"push_ms": {"p50": 12}, "failed": True}}
    assert alternate.dig(result, "many_games.push_ms.p50") == 12.0
    assert alternate.dig(result, "many_games.push_ms.p99") is None
    assert alternate.dig(result, "many_games.failed") is None


def test_the_table_gives_each_trees_median_and_their_ratio() -> None:
    runs = [
        {"tree": "/a", "started": "17:00:00", "result": {"x": 30.0}},
        {"tree": "/b", "started": "17:01:00", "result": {"x": 10.0}},
        {"tree": "/b", "started": "17:02:00", "result": {"x": 12.0}},
        {"tree": "/a", "started": "17:03:00", "result": {"x": 36.0}},
    ]
    row = alternate.table(runs, ["/a", "/b"], ["x"]).splitlines()[-1].split()
    assert row == ["x", "30.00", "10.00", "12.00", "36.00", "33.00", "11.00", "3.00"]


def test_a_run_uses_these_scripts_against_the_other_trees_site(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    argv, cwd = alternate.command(site, "bench/load.py", ["--skip-crowd"], "this")
    assert argv[1:] == [str(BASE_DIR / "bench" / "load.py"), "--skip-crowd"]
    argv, cwd = alternate.command(site, "bench/load.py", [], "own")
    assert argv[1:] == [str(site / "bench" / "load.py")] and cwd == site
