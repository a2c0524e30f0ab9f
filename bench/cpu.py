"""CPU time of the stack's processes, read from /proc, by kind of process.

Wall-clock throughput on a shared machine says as much about the neighbours
as about the site; the CPU each process spent on a counted window does not.
``CpuMeter`` samples utime+stime of every process of each kind (a process
and all its descendants: a Celery worker's pool, nginx's workers) now and
then, so that a process which ends inside the window (a PostgreSQL backend
whose connection closed) still counts what it spent up to its last sample.

Linux only (/proc); elsewhere every figure is 0.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

try:
    CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
except (ValueError, OSError, AttributeError):  # not a POSIX system
    CLOCK_TICKS = 100

PROC = Path("/proc")

# The kinds every stack has, in the order reports list them.
KINDS = (
    "daphne",
    "http",
    "worker",
    "analysis",
    "beat",
    "postgres",
    "redis",
    "nginx",
    "harness",
    "postgres_harness",
    "postgres_shared",
)
# Not the stack's own cost: the benchmark's clients, their connections, and
# the PostgreSQL server's shared processes (busy with every database on it).
NOT_THE_STACK = ("harness", "postgres_harness", "postgres_shared")


def pid_cpu_ms(pid: int) -> float | None:
    """utime+stime of ``pid`` (all its threads) in milliseconds; None once it is gone."""
    try:
        raw = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: fields after it.
    rest = raw[raw.rindex(")") + 2 :].split()
    utime, stime = int(rest[11]), int(rest[12])
    return (utime + stime) * 1000 / CLOCK_TICKS


def children_map() -> dict[int, list[int]]:
    """Every process's children, from one pass over /proc."""
    children: dict[int, list[int]] = {}
    try:
        entries = list(PROC.iterdir())
    except OSError:
        return children
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(raw[raw.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def with_descendants(roots: Iterable[int], children: dict[int, list[int]]) -> set[int]:
    found: set[int] = set()
    todo = [pid for pid in roots if pid > 0]
    while todo:
        pid = todo.pop()
        if pid in found:
            continue
        found.add(pid)
        todo.extend(children.get(pid, ()))
    return found


# What the meter asks, at every sample, for the processes of each kind:
# {kind: (pids whose descendants count too, pids that count alone)}.
Resolver = Callable[[], dict[str, tuple[list[int], list[int]]]]


class CpuMeter:
    """The CPU (ms) each kind of process spent between ``start()`` and ``stop()``.

    A process first seen after ``start()`` counts from 0 (it was born in
    the window, or, rarely, was missed at the start); one gone before
    ``stop()`` counts up to its last sample (at most ``interval`` missed).
    """

    def __init__(
        self, resolve: Resolver, interval: float = 0.5, close: Callable[[], None] | None = None
    ) -> None:
        self.resolve = resolve
        self.close = close
        self.interval = interval
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.started = 0.0
        self.seconds = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def sample(self, initial: bool = False) -> None:
        groups = self.resolve()
        children = children_map() if any(roots for roots, _ in groups.values()) else {}
        seen: dict[tuple[str, int], float] = {}
        for kind, (roots, alone) in groups.items():
            for pid in with_descendants(roots, children) | {p for p in alone if p > 0}:
                ms = pid_cpu_ms(pid)
                if ms is not None:
                    seen[(kind, pid)] = ms
        with self._lock:
            for key, ms in seen.items():
                if initial:
                    self.first[key] = ms
                else:
                    self.first.setdefault(key, 0.0)
                self.last[key] = ms

    def start(self) -> CpuMeter:
        self.started = time.perf_counter()
        self.sample(initial=True)
        self._thread = threading.Thread(target=self._run, name="cpu-meter", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            # A sample is best effort; the next one will do.
            with contextlib.suppress(Exception):
                self.sample()

    def stop(self) -> dict[str, float]:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.sample()
        self.seconds = time.perf_counter() - self.started
        if self.close is not None:
            self.close()
        return self.by_kind()

    def by_kind(self) -> dict[str, float]:
        totals: dict[str, float] = {}
        with self._lock:
            for (kind, pid), ms in self.last.items():
                totals[kind] = totals.get(kind, 0.0) + max(0.0, ms - self.first.get((kind, pid), 0))
        return totals


def per_unit(
    by_kind: dict[str, float], units: int, exclude: Iterable[str] = NOT_THE_STACK
) -> dict[str, Any]:
    """The report: total CPU ms per unit (a move, an action) over the kinds
    not excluded (the stack's), and each kind's ms per unit."""
    left_out = set(exclude)
    units = max(units, 1)
    ordered = sorted(by_kind, key=lambda k: (KINDS.index(k) if k in KINDS else len(KINDS), k))
    total = sum(ms for kind, ms in by_kind.items() if kind not in left_out)
    return {
        "total": round(total / units, 2),
        "by_kind": {kind: round(by_kind[kind] / units, 2) for kind in ordered},
    }


class PostgresBackends:
    """The pids of the PostgreSQL processes, by kind: the site's backends
    on ``database`` (autovacuum's included), the harness's own there (by
    application name), and the server's shared ones (WAL writer,
    checkpointer...: they work for every database of the server, so a
    report leaves them out of its total). Keeps one connection of its own
    (a backend of another database: not counted)."""

    def __init__(self, server_url: str, database: str, harness_app: str) -> None:
        self.server_url = server_url
        self.database = database
        self.harness_app = harness_app
        self.conn: Any = None

    def __call__(self) -> dict[str, list[int]]:
        from monopoly_site.localservices import server_connection

        if self.conn is None:
            self.conn = server_connection(self.server_url + "/postgres")
        rows = self.conn.execute(
            "SELECT pid, datname, coalesce(application_name, '') = %s FROM pg_stat_activity"
            " WHERE (datname = %s OR datname IS NULL) AND pid <> pg_backend_pid()",
            [self.harness_app, self.database],
        ).fetchall()
        return {
            "postgres": [pid for pid, db, harness in rows if db and not harness],
            "postgres_harness": [pid for pid, db, harness in rows if db and harness],
            "postgres_shared": [pid for pid, db, _ in rows if db is None],
        }

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
