"""Exactly one beat runs the schedule, however many are started.

Duplicate sweeps would be harmless (every firing is a compare-and-set on
the game's version), but a second beat doubles the sweep's queries and
queues every digest twice. So beat's scheduler (``CELERY_BEAT_SCHEDULER``)
ticks only while it holds a lock that dies with its process: a PostgreSQL
advisory lock on a connection of its own, or, on SQLite, an exclusive
``flock`` on a file beside the database. A second beat stands by and takes
over within ``RETRY_SECONDS`` of the first one's death; a beat whose lock
connection drops (PostgreSQL restarted, the connection terminated) stops
ticking until it holds the lock again, so two never tick together.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
from pathlib import Path
from typing import Any

from celery.beat import PersistentScheduler
from django.conf import settings

logger = logging.getLogger("celery.beat")

RETRY_SECONDS = 2.0
# Any fixed number: the lock is per database, so per deployment.
LOCK_KEY = 0x6D6F6E6F706F6C79 & 0x7FFFFFFFFFFFFFFF  # b"monopoly"


class PostgresLock:
    def __init__(self, database: dict[str, Any]) -> None:
        self.database = database
        self.connection: Any = None

    def _connect(self) -> Any:
        import psycopg

        d = self.database
        return psycopg.connect(
            dbname=d["NAME"],
            user=d.get("USER") or None,
            password=d.get("PASSWORD") or None,
            host=d.get("HOST") or None,
            port=d.get("PORT") or None,
            autocommit=True,
            connect_timeout=5,
            application_name="monopoly-beat",
        )

    def held(self) -> bool:
        """Whether this process holds the lock, taking it if it is free."""
        try:
            if self.connection is not None:
                # A round trip: a dropped connection has lost the lock.
                self.connection.execute("SELECT 1")
                return True
            connection = self._connect()
            (got,) = connection.execute("SELECT pg_try_advisory_lock(%s)", [LOCK_KEY]).fetchone()
            if got:
                self.connection = connection
                return True
            connection.close()
        except Exception as exc:
            logger.warning("beat: lost the database lock (%s)", exc)
            self.release()
        return False

    def release(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(Exception):  # already broken
                self.connection.close()
            self.connection = None


class FileLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: Any = None

    def held(self) -> bool:
        if self.file is not None:
            return True
        file = open(self.path, "a")  # noqa: SIM115
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            file.close()
            return False
        self.file = file
        return True

    def release(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def lock_for(database: dict[str, Any]) -> PostgresLock | FileLock:
    if "postgresql" in database["ENGINE"]:
        return PostgresLock(database)
    return FileLock(Path(f"{database['NAME']}.beat-lock"))


class SingleBeatScheduler(PersistentScheduler):
    """Celery's own persistent scheduler, ticking only while it leads."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.lock = lock_for(settings.DATABASES["default"])
        self.leading: bool | None = None
        super().__init__(*args, **kwargs)

    def tick(self, *args: Any, **kwargs: Any) -> float:
        held = self.lock.held()
        if held != self.leading:
            self.leading = held
            if held:
                logger.info("beat: this process now runs the schedule")
            else:
                logger.warning("beat: another beat runs the schedule; standing by")
        if not held:
            return RETRY_SECONDS
        return float(super().tick(*args, **kwargs))

    def close(self) -> None:
        super().close()
        self.lock.release()
