"""Two sites on one machine and one Redis (issue #17): each with a database
of its own and no REDIS_PREFIX, so each derives its prefix from its
database. Each site's worker plays only its own site's bot moves.

Before, both took the default prefix and shared one Celery queue: a worker
took the other site's move, found no such game in its database, and the
game froze until beat's sweep. No beat runs here, so a move taken by the
wrong worker would stop its game for good, and shows in that worker's log
as a task that returned False (the games' ids of the two sites differ)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from django.conf import settings

from common.env import parse_database_url, redis_prefix_for
from tests.conftest import BASE_DIR, timer_test_env
from tests.timers.conftest import start_celery, stop, wait_for

pytestmark = [pytest.mark.worker]
SERVER = "postgres://postgres@127.0.0.1:5432"
SITES = ("a", "b")
WORKER = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle", "--without-gossip"]
# Each site's games get ids of their own: a task run against the other
# site's database finds no game there.
FIRST_GAME_ID = {"a": 1000, "b": 2000}
CREATE_GAMES = """
from games import services
games = [
    services.create_seated_game(humans=[], bots=["heuristic"] * 2, start=True, bot_delay_ms=100)
    for _ in range(2)
]
print(" ".join(str(g.pk) for g in games))
"""


class Site:
    def __init__(self, name: str) -> None:
        self.db = f"monopoly_twosites_{os.getpid()}_{name}"
        self.url = f"{SERVER}/{self.db}"
        self.name = name
        env = {k: v for k, v in os.environ.items() if k not in {"REDIS_PREFIX", "SITE_URL"}}
        self.env = {
            **env,
            **timer_test_env(),
            "DATABASE_URL": self.url,
            "REDIS_URL": settings.REDIS_URL,
        }
        self.prefix = redis_prefix_for(parse_database_url(self.url, BASE_DIR))

    def manage(self, *args: str) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR, env=self.env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        return result.stdout

    def sql(self, query: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url, autocommit=True) as conn:
            return conn.execute(query).fetchall()  # type: ignore[arg-type]

    def versions(self, ids: list[int]) -> dict[int, int]:
        rows = self.sql(
            f"SELECT id, version FROM games_game WHERE id IN ({','.join(map(str, ids))})"
        )
        return dict(rows)


def drop(sites: list[Site]) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        for site in sites:
            conn.execute(f'DROP DATABASE IF EXISTS "{site.db}" WITH (FORCE)')  # type: ignore[arg-type]
    client = redis.Redis.from_url(settings.REDIS_URL)
    for site in sites:
        keys = list(client.scan_iter(f"{site.prefix}*", count=500))
        if keys:
            client.delete(*keys)
    client.close()


@pytest.fixture
def sites() -> Iterator[list[Site]]:
    made = [Site(name) for name in SITES]
    drop(made)
    try:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
            for site in made:
                conn.execute(f'CREATE DATABASE "{site.db}"')  # type: ignore[arg-type]
        for site in made:
            site.manage("migrate", "--noinput", "-v", "0")
            site.sql(
                "SELECT setval(pg_get_serial_sequence('games_game', 'id'), "
                f"{FIRST_GAME_ID[site.name]})"
            )
        yield made
    finally:
        drop(made)


def ran_bot_moves(log: Path) -> list[str]:
    """What each play_bot_move the worker ran returned."""
    text = log.read_text(errors="replace")
    return re.findall(r"games\.tasks\.play_bot_move\[[^\]]+\] succeeded in \S+: (\w+)", text)


@pytest.mark.slow  # minutes of real processes: in `make test-long`, which CI runs too
def test_two_sites_on_one_redis_each_play_only_their_own_bot_games(sites: list[Site]) -> None:
    a, b = sites
    # Derived, not set: apart from each other and from this test run's.
    assert a.prefix != b.prefix
    assert settings.REDIS_PREFIX not in {a.prefix, b.prefix}
    workers = {}
    try:
        for site in sites:
            workers[site.name] = start_celery(
                site.env, f"site-{site.name}", *WORKER,
                f"--hostname=site-{site.name}-{os.getpid()}@%h",
            )  # fmt: skip
        # Each site's games queue their first moves on that site's queue.
        games = {site.name: [int(pk) for pk in site.manage("shell", "--no-imports", "-c", CREATE_GAMES).split()]
                 for site in sites}  # fmt: skip
        assert all(pk > FIRST_GAME_ID["a"] for pk in games["a"])
        assert all(pk > FIRST_GAME_ID["b"] for pk in games["b"])
        marks = {site.name: site.versions(games[site.name]) for site in sites}

        def all_moved(site: Site, by: int = 5) -> bool:
            now = site.versions(games[site.name])
            return all(now[pk] >= marks[site.name][pk] + by for pk in now)

        wait_for(lambda: all(all_moved(site) for site in sites), timeout=45)
    finally:
        for process in workers.values():
            stop(process)
    for site in sites:
        log = Path(workers[site.name].log_path)  # type: ignore[attr-defined]
        text = log.read_text(errors="replace")
        # Its worker listened on its own derived queue only.
        assert f".> {site.prefix}-default " in text, text[:3000]
        other = b if site is a else a
        assert other.prefix not in text
        results = ran_bot_moves(log)
        assert len(results) >= 10, text[-3000:]
        # Every move it took was one of its own games' (the other site's
        # game ids do not exist in its database: those would return False).
        assert set(results) == {"True"}, text[-3000:]
