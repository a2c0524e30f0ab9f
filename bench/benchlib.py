"""What the benchmark scripts share: their own database, and percentiles.
(Imported as a sibling module: ``python bench/<name>.py`` puts this folder
first on the path.)"""

from __future__ import annotations

import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
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
