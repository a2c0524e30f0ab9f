"""The win estimates' queue, apart from the timers' (monopoly_site/settings.py)."""

from __future__ import annotations

import shlex
import uuid

import redis
from django.conf import settings

from monopoly_site.celery import app
from monopoly_site.settings import BASE_DIR


def queue_of(task_name: str) -> str:
    return str(app.amqp.router.route({}, task_name)["queue"].name)


def procfile() -> dict[str, list[str]]:
    lines = (BASE_DIR / "Procfile").read_text().splitlines()
    return {name: shlex.split(command) for name, _, command in (ln.partition(": ") for ln in lines)}


def test_estimates_and_analyses_go_to_the_analysis_queue() -> None:
    assert queue_of("live.tasks.estimate_position") == settings.ANALYSIS_QUEUE
    assert queue_of("games.tasks.analyse_game") == settings.ANALYSIS_QUEUE


def test_timers_and_bot_moves_stay_on_the_default_queue() -> None:
    for task in (
        "games.tasks.expire_due",
        "games.tasks.sweep_deadlines",
        "games.tasks.play_bot_move",
        "games.tasks.sweep_analyses",
        "notifications.tasks.notify_your_turn",
        "tournaments.tasks.sweep_tournaments",
        "tournaments.tasks.run_due",
    ):
        assert queue_of(task) == settings.CELERY_TASK_DEFAULT_QUEUE, task


def test_the_procfile_runs_a_niced_worker_on_the_analysis_queue_only() -> None:
    processes = procfile()
    analysis = processes["analysis"]
    assert analysis[:3] == ["nice", "-n", "10"]
    assert f"--queues={settings.ANALYSIS_QUEUE}" in analysis
    # The timers' worker takes the default queue, and only it.
    assert not any(arg.startswith(("--queues", "-Q")) for arg in processes["worker"])


def test_the_analysis_queue_is_kept_under_the_sites_prefix() -> None:
    # Its name has no prefix of its own: the broker's global key prefix must
    # keep two sites on one Redis apart.
    queue = f"probe-{uuid.uuid4().hex}"
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        app.send_task("monopoly_site.tasks.heartbeat", queue=queue)
        assert client.llen(f"{settings.REDIS_PREFIX}:{queue}") == 1
        assert client.llen(queue) == 0
    finally:
        client.delete(f"{settings.REDIS_PREFIX}:{queue}", queue)
