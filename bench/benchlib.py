"""What the benchmark scripts share: their own database, and percentiles.
(Imported as a sibling module: ``python bench/<name>.py`` puts this folder
first on the path.)"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

# The site a benchmark starts and imports: this tree's, or, with
# BENCH_SITE_DIR, another checkout's (bench/alternate.py measures an older
# commit with these same scripts).
BASE_DIR = Path(os.environ.get("BENCH_SITE_DIR") or Path(__file__).resolve().parent.parent)
if str(BASE_DIR) not in sys.path:
    sys.path.insert(0, str(BASE_DIR))

from monopoly_site.localservices import server_connection  # noqa: E402


def ensure_database(url: str) -> None:
    """Create the benchmark's PostgreSQL database at ``url`` if it is missing."""
    name = url.rsplit("/", 1)[1]
    with server_connection(url) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def machine() -> str:
    import os
    import platform

    return (
        f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f},"
        f" Python {platform.python_version()}"
    )


# --- the floor every latency is read against ------------------------------------
#
# A latency measured on a shared two-core machine says little alone: the
# same run also measures what the machine gives anything at that moment.

CALIBRATION_LOOPS = 2_000_000


def cpu_calibration_ms() -> float:
    """Milliseconds of a fixed pure-Python loop (best of three): how fast
    this machine runs Python right now."""
    import time

    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(CALIBRATION_LOOPS):
            total += i * i % 7
        best = min(best, time.perf_counter() - start)
    return round(best * 1000, 2)


async def page_floor_ms(request: Any, count: int = 50) -> float:
    """The p50 (ms) of an anonymous page request, ``request`` being an async
    callable that fetches one page (the benchmark's own client and stack)."""
    import statistics
    import time

    times = []
    for _ in range(count):
        start = time.perf_counter()
        await request()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def floor_report(page_p50_ms: float, calibration_ms: float) -> dict[str, float]:
    return {"page_p50_ms": page_p50_ms, "cpu_calibration_ms": calibration_ms}


def ratio(latency_ms: float, floor_ms: float) -> float:
    return round(latency_ms / floor_ms, 1) if floor_ms else 0.0
