"""The benchmarks' CPU meter reads what processes spent from /proc, by kind,
children included, and keeps what a process spent before it ended."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BASE_DIR

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, BASE_DIR / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


cpu = _load("cpu")

BUSY = "import time\nend = time.process_time() + {seconds}\nwhile time.process_time() < end: pass\n"


def busy_child(seconds: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", BUSY.format(seconds=seconds)])


def wait_for(predicate: Any, timeout: float = 90.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_pid_cpu_ms_grows_with_the_work_a_process_does() -> None:
    before = cpu.pid_cpu_ms(os.getpid())
    end = time.process_time() + 0.2
    while time.process_time() < end:
        pass
    after = cpu.pid_cpu_ms(os.getpid())
    assert before is not None and after is not None
    assert after - before >= 150


def test_pid_cpu_ms_of_a_gone_process_is_none() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert cpu.pid_cpu_ms(child.pid) is None


def test_a_kind_counts_the_descendants_of_its_root() -> None:
    # A shell whose own child does the work: a Celery worker and its pool.
    code = BUSY.format(seconds=0.6) + "time.sleep(30)\n"
    shell = subprocess.Popen(
        ["sh", "-c", f'{sys.executable} -c "$0"; true', code], start_new_session=True
    )
    try:
        meter = cpu.CpuMeter(lambda: {"worker": ([shell.pid], [])}, interval=0.05).start()
        wait_for(lambda: meter.by_kind().get("worker", 0) >= 250)
        meter.stop()
    finally:
        os.killpg(shell.pid, signal.SIGKILL)
        shell.wait()


def test_a_process_that_ends_in_the_window_keeps_what_it_spent() -> None:
    pids: list[int] = []
    meter = cpu.CpuMeter(lambda: {"postgres": ([], list(pids))}, interval=0.05).start()
    child = busy_child(0.3)
    pids.append(child.pid)
    child.wait()
    spent = meter.stop()  # a last sample, the child gone
    # First seen after the start: its whole life counts, up to its last
    # sample (at most 50 ms before it ended).
    assert 250 <= spent["postgres"] <= 700


def test_per_unit_leaves_the_harness_out_of_the_stacks_total() -> None:
    report = cpu.per_unit({"daphne": 300.0, "postgres": 100.0, "harness": 1000.0}, 10)
    assert report["total"] == 40.0
    assert report["by_kind"] == {"daphne": 30.0, "postgres": 10.0, "harness": 100.0}
