"""Timer fixtures: a real beat, workers that can be SIGKILLed, games with a
deadline that falls in a second or two, and the mail the workers sent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from games import services
from games.models import Deadline, Game, GameEvent
from tests.conftest import (
    BASE_DIR,
    database_url_for_tests,
    mail_dir_for_tests,
    setup_writes,
    timer_test_env,
)
from tests.games.conftest import alice, bob, charlie, duel, edit_state, no_bot_tasks  # noqa: F401


def process_env(django_db_blocker: Any, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    with django_db_blocker.unblock():
        env["DATABASE_URL"] = database_url_for_tests()
    env["REDIS_URL"] = settings.REDIS_URL
    env["REDIS_PREFIX"] = settings.REDIS_PREFIX
    env.update(timer_test_env())
    env.update(extra)
    return env


def start_celery(env: dict[str, str], name: str, *args: str) -> subprocess.Popen[bytes]:
    """Start ``celery worker`` or ``celery beat``; wait until it says it is up."""
    log_path = BASE_DIR / ".run" / f"test-{name}-{os.getpid()}.log"
    log = open(log_path, "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "monopoly_site", *args],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    process.log_path = log_path  # type: ignore[attr-defined]
    ready = "ready." if args[0] == "worker" else "beat: Starting..."
    deadline = time.monotonic() + 60
    while ready not in log_path.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"celery {args[0]} did not start; see {log_path}")
        time.sleep(0.1)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def beat_process(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """A real `celery beat` sweeping every second, beside the session worker.
    Module-scoped, so the SIGKILL test (its own module) runs without it."""
    env = process_env(django_db_blocker)
    schedule = BASE_DIR / ".run" / f"test-beat-schedule-{os.getpid()}"
    process = start_celery(env, "beat", "beat", "--loglevel=INFO", f"--schedule={schedule}")
    try:
        yield
    finally:
        stop(process)
        for path in BASE_DIR.joinpath(".run").glob(f"test-beat-schedule-{os.getpid()}*"):
            path.unlink(missing_ok=True)


@pytest.fixture
def timers(celery_worker_process: None, beat_process: None) -> None:
    """A worker and beat, both real, on the real broker."""


@pytest.fixture
def mail_dir() -> Path:
    path = mail_dir_for_tests()
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*"):
        old.unlink()
    return path


def sent_mail(path: Path) -> list[str]:
    """Each message the workers wrote with the file backend, as text."""
    messages: list[str] = []
    for file in sorted(path.glob("*.log")):
        chunks = file.read_text().split("-" * 79)
        messages += [c for c in chunks if "Subject:" in c]
    return messages


def due_soon(game: Game, seconds: float = 1.0, **match: Any) -> Deadline:
    """Test setup: bring one of the game's deadlines to ``seconds`` from now."""
    d = game.deadlines.filter(**match).order_by("due_at").first()
    assert d is not None, f"no deadline matching {match}"
    now = timezone.now()
    d.started_at = now - timedelta(seconds=60)
    d.due_at = now + timedelta(seconds=seconds)
    with setup_writes("a deadline brought forward"):
        d.save(update_fields=["started_at", "due_at"])
    return d


def wait_for(check: Callable[[], Any], timeout: float = 30.0, every: float = 0.2) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {check}")
        time.sleep(every)


def run_task(task: Any, *args: Any, timeout: float = 30.0) -> Any:
    """Send ``task`` to the real worker and wait for what it returned: the
    positive signal that it has run (the site's tasks keep no results, so
    this one asks for its own)."""
    return task.apply_async(args, ignore_result=False).get(timeout=timeout)


def past(moment: Any) -> None:
    """Wait until ``moment`` (a datetime) has gone by."""
    wait_for(lambda: timezone.now() > moment, every=0.05)


def timeout_notes(game: Game) -> list[GameEvent]:
    return list(GameEvent.objects.filter(game=game, kind="note", payload__source="timeout"))


def version(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


@pytest.fixture
def timed_duel(alice: Any, bob: Any) -> Game:  # noqa: F811
    """Alice against Bob, one-minute moves, a take-over after two timeouts."""
    game = services.create_game(host=alice, max_seats=2, turn_seconds=60, bot_delay_ms=0)
    with setup_writes("a take-over after two timeouts"):
        Game.objects.filter(pk=game.pk).update(takeover_after=2)
    services.join_game(public_id=game.public_id, user=bob)
    services.start_game(public_id=game.public_id, user=alice)
    game.refresh_from_db()
    return game
