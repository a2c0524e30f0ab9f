"""Shared fixtures. PostgreSQL and Redis are real; nothing here skips when they are missing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connections
from django.test import override_settings

from games.writeguard import writes_allowed
from tests import flushing


@pytest.fixture(scope="session", autouse=True)
def flush_retries_a_deadlock() -> Iterator[None]:
    """A transactional test ends with ``flush`` (emptying every table),
    while the real worker and beat of the timer and socket tests may still be
    finishing a task on those rows: PostgreSQL then picks one side of the
    deadlock to fail, sometimes the flush. The worker retries its task; so
    does the flush here, instead of failing the next test's setup."""
    from django.core.management.base import CommandError
    from django.core.management.commands import flush

    original = flush.Command.handle

    def handle(self: Any, **options: Any) -> Any:
        for attempt in range(5):
            try:
                return original(self, **options)
            except CommandError as exc:
                if "deadlock detected" not in str(exc.__cause__) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))
        return None

    flush.Command.handle = handle  # type: ignore[method-assign]
    try:
        yield
    finally:
        flush.Command.handle = original  # type: ignore[method-assign]


@pytest.fixture(scope="session", autouse=True)
def flush_is_cheap(flush_retries_a_deadlock: None) -> Iterator[None]:
    """Deletes instead of TRUNCATE, and keeps the content types
    (``tests/flushing.py``): most of a transactional test's teardown."""
    with flushing.installed():
        yield


BASE_DIR = Path(__file__).resolve().parent.parent
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def pytest_configure(config: pytest.Config) -> None:
    # Only games.services writes the game tables: refused here, and in the
    # workers and Daphnes the tests start, which inherit the environment.
    # Test setup that writes them directly says so with setup_writes().
    settings.GAME_WRITE_GUARD = "raise"
    os.environ["GAME_WRITE_GUARD"] = "raise"
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise pytest.UsageError(
            f"Redis does not answer at REDIS_URL={settings.REDIS_URL} ({exc}). "
            "Run the tests with `make test`, which finds or starts one."
        ) from None
    finally:
        client.close()
    engine = settings.DATABASES["default"]["ENGINE"]
    if CI and not engine.endswith("postgresql"):
        raise pytest.UsageError(
            f"CI=true must test on PostgreSQL, but DATABASE_URL gives {engine}."
        )


@pytest.fixture(autouse=True, scope="session")
def _static_files_from_the_sources() -> Iterator[None]:
    # pytest-django's live server serves /static/ from the source folders
    # (Django's finders), which hold no hashed names; the production storage
    # would link to those. Daphne processes started by tests keep the
    # production storage and serve what collectstatic wrote.
    # WhiteNoise, unless it autorefreshes, lists every file of STATIC_ROOT when
    # its middleware is built, which the test client does for each Client:
    # about 0.2 s for each of the many tests that use one.
    plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    with override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": plain}, WHITENOISE_AUTOREFRESH=True
    ):
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # PBKDF2's deliberate slowness costs most of a second per test user.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@pytest.fixture(autouse=True)
def _clear_site_cache() -> Iterator[None]:
    # Rate limits and cached values live in Redis; each test starts without
    # them. Only this run's prefix is deleted, never the whole database.
    client = _redis()
    keys = list(client.scan_iter(f"{settings.REDIS_PREFIX}:*", count=500))
    keys = [k for k in keys if b":asgi" not in k and b"celery" not in k and b"_kombu" not in k]
    if keys:
        client.delete(*keys)
    client.close()
    yield


def setup_writes(what: str) -> AbstractContextManager[None]:
    """Test setup writing game rows directly (a position edited, a deadline
    brought forward): the named way past games.writeguard."""
    return writes_allowed(f"test setup: {what}")


def database_url_for_tests() -> str:
    """The URL of the test database, for processes started outside pytest."""
    db: dict[str, Any] = connections["default"].settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def mail_dir_for_tests() -> Path:
    """Where worker processes write email (the file backend), per test run."""
    return BASE_DIR / ".run" / f"test-mail-{os.getpid()}"


def timer_test_env() -> dict[str, str]:
    """Environment for worker and beat processes: a fast sweep, mail to files."""
    return {
        "TIMER_SWEEP_SECONDS": "1",
        # "Your move" emails go at the first sweep after the decision arose.
        "TURN_EMAIL_AWAY_MINUTES": "0",
        # A player at the game when their decision arose is looked at again
        # this soon (the site: 20 s), so that a test of leaving is quick.
        "TURN_NOTICE_RECHECK_SECONDS": "2",
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(mail_dir_for_tests()),
        # Each game the tests finish is analysed by the worker: cheaply.
        "POSTGAME_PLAYOUTS": "16",
        "POSTGAME_MAX_POSITIONS": "12",
        "POSTGAME_REFINE_POSITIONS": "4",
        "POSTGAME_TARGET_STDERR": "0.05",
        # The spectators' win estimates: a tenth of the site's playouts, so
        # that a test with a spectator and a worker is not held up by them.
        "ANALYSIS_PLAYOUTS": "100",
    }


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """A real `celery worker` on the real broker, sharing the test database."""
    env = dict(os.environ)
    with django_db_blocker.unblock():
        env["DATABASE_URL"] = database_url_for_tests()
    env["REDIS_URL"] = settings.REDIS_URL
    env["REDIS_PREFIX"] = settings.REDIS_PREFIX
    env["CELERY_WORKER_TEST"] = "1"
    env.update(timer_test_env())
    log = open(BASE_DIR / ".run" / f"test-worker-{os.getpid()}.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "monopoly_site", "worker",
            "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip",
            # Both queues (the site runs a worker for each; see the Procfile).
            f"--queues={settings.CELERY_TASK_DEFAULT_QUEUE},{settings.ANALYSIS_QUEUE}",
            f"--hostname=test-{os.getpid()}@%h",
        ],
        cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    from monopoly_site.celery import app

    deadline = time.monotonic() + 60
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"celery worker exited early; see {log.name}")
            replies = app.control.ping(
                destination=[f"test-{os.getpid()}@{os.uname().nodename}"], timeout=0.5
            )
            if replies:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"celery worker did not answer within 60 s; see {log.name}")
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
