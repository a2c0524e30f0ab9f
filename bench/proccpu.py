"""CPU time of a bench stack's processes, read from /proc, grouped by kind.

Wall-clock rates on a shared machine say little; the CPU each kind of
process spent over a counted window, divided by the moves in it, survives
other load. A stack's processes each lead a session of their own
(bench/stack.py), so a kind's CPU is that of every process in those
sessions (a Celery pool, nginx's worker); the database's share is that of
the PostgreSQL backends connected to the bench's database.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """(session id, utime+stime in seconds) of a live process."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: split after its end.
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[3]), (int(fields[11]) + int(fields[12])) / TICK


def _all() -> dict[int, tuple[int, float]]:
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found is not None:
                out[int(entry)] = found
    return out


def kind_of(name: str) -> str:
    """daphne0 -> daphne, worker1 -> worker, http0 -> http, ..."""
    return name.rstrip("0123456789")


def database_pids(db_name: str) -> list[int]:
    from stack import POSTGRES_SERVER

    from monopoly_site.localservices import server_connection

    with server_connection(POSTGRES_SERVER + "/postgres") as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [db_name],
        ).fetchall()
    return [int(row[0]) for row in rows]


def sample(stack: Any) -> dict[str, dict[int, float]]:
    """Per kind, each process's CPU seconds so far (pid -> seconds)."""
    table = _all()
    sessions: dict[int, str] = {
        proc.pid: kind_of(name) for name, proc in stack.procs.items() if proc.pid
    }
    out: dict[str, dict[int, float]] = {}
    for pid, (sid, cpu) in table.items():
        kind = sessions.get(sid)
        if kind is not None:
            out.setdefault(kind, {})[pid] = cpu
    for pid in database_pids(stack.db_name):
        if pid in table:
            out.setdefault("postgres", {})[pid] = table[pid][1]
    out.setdefault("harness", {})[os.getpid()] = table.get(os.getpid(), (0, 0.0))[1]
    return out


def delta_ms(
    before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
) -> dict[str, float]:
    """CPU ms per kind between two samples (a process that started in
    between counts from zero; one that ended counts up to the first sample)."""
    out = {}
    for kind in sorted(set(before) | set(after)):
        then, now = before.get(kind, {}), after.get(kind, {})
        out[kind] = round(sum(now[p] - then.get(p, 0.0) for p in now) * 1000, 1)
    return out


def per_move(spent_ms: dict[str, float], moves: int) -> dict[str, Any]:
    if not moves:
        return {}
    kinds = {k: round(v / moves, 2) for k, v in spent_ms.items()}
    site = sum(v for k, v in spent_ms.items() if k != "harness")
    return {"cpu_ms_per_move": round(site / moves, 2), "by_kind": kinds}
