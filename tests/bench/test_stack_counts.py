"""The benchmark stack counts the Celery tasks its workers took in a window,
by name, from their logs (a count a busy machine does not change)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from tests.conftest import BASE_DIR


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, BASE_DIR / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # stack.py imports its siblings by name
    spec.loader.exec_module(module)
    return module


for _sibling in ("benchlib", "cpu"):
    if _sibling not in sys.modules:
        _load(_sibling)
stack = _load("stack")

LINE = "[2026-11-29 17:14:52,792: INFO/MainProcess] Task {}[4a5c3b05-4157] received\n"


def test_tasks_received_after_the_mark_are_counted_by_name_per_move(tmp_path: Path) -> None:
    log = tmp_path / "worker0.log"
    log.write_text(LINE.format("games.tasks.sweep_deadlines"))
    site = stack.Stack(name="t")
    site.procs["worker0"] = stack.Proc("worker0", [], log, ready=None)
    site.redis_port = 1  # nothing answers there: no Redis figures
    before = {"redis": {}, "postgres": {}, "logs": {"worker0": log.stat().st_size}}
    with open(log, "a") as f:
        f.write(LINE.format("notifications.tasks.notify_your_turn") * 3)
        f.write("[2026-11-29 17:14:53] Task notifications.tasks.notify_your_turn[x] succeeded\n")
        f.write(LINE.format("live.tasks.estimate_position"))
    counts = site.count_deltas(before, units=2)
    assert counts["celery_tasks"] == 2.0
    assert counts["celery_tasks_by_name"] == {
        "notifications.tasks.notify_your_turn": 1.5,
        "live.tasks.estimate_position": 0.5,
    }
