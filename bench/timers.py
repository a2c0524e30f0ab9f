"""How late timeouts are resolved under load (`make bench-timers`).

Starts a real Celery worker (prefork, concurrency 2, as in the Procfile) and
a real beat (sweep every TIMER_SWEEP_SECONDS, default 1 here), then creates
10,000 started games whose first decision falls due at a time spread evenly
over the next minute, and enqueues the ETA task each deadline would get on
commit. It waits until every deadline is resolved and reports, from the
"timeout" notes the worker wrote, how late each resolution was (the note's
insert time minus the deadline) and whether any decision was resolved twice.

    python bench/timers.py [--deadlines 10000] [--spread 60] [--lead 10] [--no-eta]

DATABASE_URL (default postgres://postgres@127.0.0.1:5432/monopoly_bench_timers,
created and migrated if missing) and REDIS_URL (default
redis://127.0.0.1:6379/0) choose the services; keys use their own prefix.
Prints JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchlib import ensure_database, percentile

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/monopoly_bench_timers"


def start(args: list[str], log: Path, ready: str) -> subprocess.Popen[bytes]:
    out = open(log, "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "monopoly_site", *args],
        cwd=BASE_DIR, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    end = time.monotonic() + 60
    while ready not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > end:
            raise SystemExit(f"celery {args[0]} did not start; see {log}")
        time.sleep(0.2)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of one process so far (Linux), 0 if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_pids(root: int) -> list[int]:
    """The worker's main process and its pool processes."""
    pids = [root]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == root:
                pids.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return pids


def database_backends() -> list[int]:
    """PostgreSQL server processes serving this database, other than ours."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return [pid for (pid,) in cursor.fetchall()]


def create_games(n: int, first_due: datetime, spread: float) -> list[int]:
    """``n`` started two-player games, each with its first decision due at a
    point spread evenly over ``spread`` seconds from ``first_due``."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.db import transaction

    from games import services
    from games.models import Deadline, Game, GameEvent, Seat
    from games.writeguard import writes_allowed
    from live import missed_pushes

    tag = secrets.token_hex(3)
    users = [
        get_user_model().objects.create_user(f"bt-{tag}-{i}", f"bt-{tag}-{i}@example.com", "x")
        for i in range(2)
    ]
    # One real game gives the state every copy starts from.
    model = services.create_seated_game(
        humans=users, bots=[], start=True, turn_seconds=3 * 24 * 3600
    )
    model.refresh_from_db()
    deadline = model.deadlines.get()
    turn = deadline.player
    ids: list[int] = []
    # Copies of one real game, made in bulk: no service makes 10,000 games at once.
    with transaction.atomic(), writes_allowed("bench-timers copies one game in bulk"):
        for chunk in range(0, n, 1000):
            size = min(1000, n - chunk)
            games = Game.objects.bulk_create(
                Game(
                    host=users[0],
                    preset=model.preset,
                    status=Game.Status.ACTIVE,
                    state=model.state,
                    version=model.version,
                    turn_seconds=model.turn_seconds,
                    started_at=model.started_at,
                    max_seats=2,
                    bot_delay_ms=0,
                )
                for _ in range(size)
            )
            Seat.objects.bulk_create(
                Seat(game=g, number=i, user=users[i], status=Seat.Status.PLAYING)
                for g in games
                for i in range(2)
            )
            GameEvent.objects.bulk_create(
                GameEvent(game=g, seq=model.version, index=0, kind="start", payload={})
                for g in games
            )
            rows = []
            for j, g in enumerate(games):
                due = first_due + timedelta(seconds=spread * (chunk + j) / n)
                rows.append(
                    Deadline(
                        game=g,
                        player=turn,
                        kind="roll",
                        ref="-1",
                        version=model.version,
                        started_at=due - timedelta(seconds=model.turn_seconds),
                        due_at=due,
                        remind_at=None,
                        reminded=True,
                    )
                )
                ids.append(g.pk)
            Deadline.objects.bulk_create(rows)
    # Made behind the write path's back, the copies were never pushed: say
    # they need none (nobody watches them), or beat's missed-push sweep
    # (live.missed_pushes) re-pushes all 10,000 while the timeouts are due.
    cache.set_many(
        {missed_pushes.key(pk): model.version for pk in ids},
        timeout=2 * missed_pushes.RECENT_SECONDS,
    )
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deadlines", type=int, default=10_000)
    parser.add_argument("--spread", type=float, default=60.0, help="seconds")
    parser.add_argument(
        "--lead", type=float, default=60.0, help="seconds from the start to the first deadline"
    )
    parser.add_argument(
        "--drain", type=float, default=300.0, help="seconds allowed after the last deadline"
    )
    parser.add_argument("--no-eta", action="store_true", help="rely on the sweep alone")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes")
    opts = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", DEFAULT_DB)
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
    os.environ["REDIS_PREFIX"] = f"monopoly-bench-timers-{os.getpid()}"
    os.environ.setdefault("TIMER_SWEEP_SECONDS", "1")
    os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.dummy.EmailBackend"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "monopoly_site.settings")
    # Production settings (DEBUG off, so no query log), as a deployed worker runs.
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    if os.environ["DATABASE_URL"].startswith("postgres"):
        ensure_database(os.environ["DATABASE_URL"])

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db.models import Count
    from django.utils import timezone

    from games.models import Deadline, Game, GameEvent
    from games.scheduling import schedule_timers
    from games.writeguard import writes_allowed

    call_command("migrate", verbosity=0)
    # Leftovers of an earlier run would be swept too: start clean.
    with writes_allowed("bench-timers starts from an empty deadline table"):
        Deadline.objects.all().delete()
    run = BASE_DIR / ".run"
    run.mkdir(exist_ok=True)
    worker = start(
        ["worker", "--loglevel=INFO", f"--concurrency={opts.concurrency}",
         "--without-mingle", "--without-gossip", f"--hostname=bench-{os.getpid()}@%h"],
        run / "bench-timers-worker.log", "ready.",
    )  # fmt: skip
    beat = start(
        ["beat", "--loglevel=INFO", f"--schedule={run / f'bench-timers-beat-{os.getpid()}'}"],
        run / "bench-timers-beat.log", "beat: Starting...",
    )  # fmt: skip
    try:
        t_create = time.monotonic()
        first_due = timezone.now() + timedelta(seconds=opts.lead)
        ids = create_games(opts.deadlines, first_due, opts.spread)
        created_in = time.monotonic() - t_create
        if not opts.no_eta:
            # What each move's on-commit hook does: an ETA task for a near
            # deadline, and a mark telling the sweep to leave it to the ETA.
            # A move passes the due times it has just written; so does this.
            for game_id, version, due in Deadline.objects.filter(game_id__in=ids).values_list(
                "game_id", "version", "due_at"
            ):
                schedule_timers(game_id, version, [due])
        enqueued_in = time.monotonic() - t_create
        # The games were created with consecutive ids: poll a cheap range count.
        ours = Game.objects.filter(pk__gte=min(ids), pk__lte=max(ids))
        end = time.monotonic() + opts.lead + opts.spread + opts.drain
        # CPU time of the worker's processes and of their database server
        # processes, from just before the first deadline to the end.
        time.sleep(max(0.0, (first_due - timezone.now()).total_seconds() - 0.5))
        # Server processes come and go (a connection lives CONN_MAX_AGE), so
        # each is sampled every second: one that appears counts from zero,
        # and one that ends counts up to its last sample.
        processes = worker_pids(worker.pid)
        worker_before = sum(cpu_seconds(p) for p in processes)
        backends_before = {p: cpu_seconds(p) for p in database_backends()}
        backends_seen = dict(backends_before)

        def sample_backends() -> None:
            for pid in database_backends():
                backends_seen[pid] = max(backends_seen.get(pid, 0.0), cpu_seconds(pid))

        while ours.filter(version__gt=1).count() < len(ids) and time.monotonic() < end:
            sample_backends()
            time.sleep(1)
        time.sleep(3)  # duplicates, if any, would land now
        sample_backends()
        worker_cpu = sum(cpu_seconds(p) for p in processes) - worker_before
        database_cpu = sum(backends_seen.values()) - sum(backends_before.values())
        notes = GameEvent.objects.filter(
            game_id__gte=min(ids), game_id__lte=max(ids), kind="note", payload__source="timeout"
        )
        rows = list(notes.values_list("game_id", "created_at", "payload"))
    finally:
        stop(beat)
        stop(worker)
        for path in run.glob(f"bench-timers-beat-{os.getpid()}*"):
            path.unlink(missing_ok=True)
    late = [
        (created - datetime.fromisoformat(payload["due_at"])).total_seconds()
        for _, created, payload in rows
    ]
    per_game = Counter(game_id for game_id, _, _ in rows)
    per_deadline = Counter(payload["deadline"] for _, _, payload in rows)
    versions = Counter(
        Game.objects.filter(pk__in=ids).values_list("version", flat=True)
    )  # every game should have moved exactly once
    moved_twice = (
        GameEvent.objects.filter(game_id__in=ids, kind="action")
        .values("game_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .count()
    )
    result: dict[str, Any] = {
        "deadlines": len(ids),
        "spread_seconds": opts.spread,
        "eta_tasks": not opts.no_eta,
        "sweep_seconds": settings.TIMER_SWEEP_SECONDS,
        "worker_concurrency": opts.concurrency,
        "create_seconds": round(created_in, 1),
        "create_and_enqueue_seconds": round(enqueued_in, 1),
        "resolved": len(rows),
        "unresolved": len(ids) - len(per_game),
        "resolved_twice": sum(1 for c in per_deadline.values() if c > 1)
        + sum(1 for c in per_game.values() if c > 1),
        "games_with_more_than_one_action": moved_twice,
        "final_versions": {str(k): v for k, v in sorted(versions.items())},
        # Every task of the worker counts (sweeps, ETA slots, batches), over
        # the decisions resolved; the database's is its server processes'.
        "cpu_ms_per_expiry": {
            "worker": round(1000 * worker_cpu / max(1, len(rows)), 2),
            "database": round(1000 * database_cpu / max(1, len(rows)), 2),
            "worker_processes": len(processes),
        },
        "lateness_seconds": {
            "p50": round(percentile(late, 50), 3),
            "p95": round(percentile(late, 95), 3),
            "p99": round(percentile(late, 99), 3),
            "max": round(max(late), 3),
            "min": round(min(late), 3),
        }
        if late
        else None,
        "machine": {
            "cpus": os.cpu_count(),
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        },
    }
    # Remove this run's rows so the bench database stays small.
    with writes_allowed("bench-timers removes its own games"):
        Game.objects.filter(pk__in=ids).delete()
    print(json.dumps(result, indent=2))
    ok = result["unresolved"] == 0 and result["resolved_twice"] == 0 and moved_twice == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
