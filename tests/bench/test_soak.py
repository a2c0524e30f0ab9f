"""The minute-long soak (bench/soak.py --short): the whole stack started
apart from the test's own, every fault kind injected once while bots,
scripted players and spectators play, then the record checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.conftest import BASE_DIR, CI

pytestmark = pytest.mark.soak


@pytest.mark.slow  # minutes of real processes: in `make test-long`, which CI runs too
def test_short_soak_through_every_fault_loses_nothing() -> None:
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"] and not CI:
        pytest.skip("the soak starts its own site on PostgreSQL, which does not answer here")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    run = subprocess.run(
        [sys.executable, str(BASE_DIR / "bench" / "soak.py"), "--short"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert lines, f"the soak printed no result:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    result = json.loads(lines[-1])
    summary = json.dumps(result, indent=1)
    assert sorted(result["faults_injected"]) == sorted(
        ["worker", "daphne", "beat", "redis", "postgres"]
    ), summary
    assert result["actions_applied"] > 0, summary
    for target in (
        "lost_actions", "duplicate_actions", "deadlines_missed", "deadlines_doubled",
        "invariant_violations", "stalled_games", "unexpected_exits",
    ):  # fmt: skip
        assert result[target] == 0, f"{target}: {summary}"
    detail = result["detail"]
    assert detail["spectators_behind_at_end"] == 0, summary
    assert detail["spectator_catch_ups_never_reached"] == 0, summary
    # The target is 5 s, met in most runs but not all: a version whose
    # push died with the process that made it reaches its spectators with the
    # next move's gap, or with the page's quiet-spell check (docs/benchmarks.md,
    # "Soak"). Here: nobody waits past that check.
    assert result["max_resync_seconds"] <= settings.LIVE_HEARTBEAT_SECONDS + 5, summary
