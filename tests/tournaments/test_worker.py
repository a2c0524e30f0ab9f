"""Tournaments driven by a real beat and worker: a whole event with a
no-show, and a worker killed in the middle of a round's start."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
import redis
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import services as games
from games.models import Game
from games.services.errors import GameError
from tests.people.conftest import make_user
from tests.timers.conftest import due_soon, process_env, start_celery, stop, wait_for
from tests.timers.test_worker_killed import waiting_for_a_lock
from tournaments import services
from tournaments.models import Bar, Due, Entry, Result, Round, Table, Tournament
from tournaments.services.rounds import plan_round

pytestmark = [pytest.mark.worker, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
FAST = {"TOURNAMENT_SWEEP_SECONDS": "1", "TOURNAMENT_SITE_EVENTS": "0"}


@pytest.fixture
def beat(celery_worker_process: None, django_db_blocker: Any) -> Iterator[None]:
    """A real beat sweeping the tournaments every second, beside the
    session's worker."""
    env = process_env(django_db_blocker, **FAST)
    schedule = settings.BASE_DIR / ".run" / f"test-tbeat-{os.getpid()}"
    process = start_celery(env, "tbeat", "beat", "--loglevel=INFO", f"--schedule={schedule}")
    try:
        yield
    finally:
        stop(process)
        for path in settings.BASE_DIR.joinpath(".run").glob(f"test-tbeat-{os.getpid()}*"):
            path.unlink(missing_ok=True)


def staff_user() -> User:
    user = make_user("steward")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


def swiss(creator: User, seconds_to_start: float, **fields: Any) -> Tournament:
    """Five-minute moves: the absent player's first one is brought forward to
    time out at once; nobody else's falls due on a slow machine."""
    values: dict[str, Any] = {
        "name": "Worker cup", "rounds": 3, "table_size": 3, "table_min": 3, "table_max": 3,
        "turn_seconds": 300, "cap_turns": 200, "cap_days": 1, "round_gap_seconds": 0,
        "starts_at": timezone.now() + timedelta(seconds=seconds_to_start),
    }  # fmt: skip
    values.update(fields)
    return services.create_tournament(user=creator, **values)


def running(t: Tournament, number: int) -> Round | None:
    return Round.objects.filter(tournament=t, number=number, status=Round.Status.RUNNING).first()


def resign_all_but_last(game: Game, people: list[User]) -> None:
    """``people`` resign in this order but the last, who wins; a move made
    meanwhile (a bot's, the timer's) only means trying again."""
    for user in people[:-1]:
        for _attempt in range(50):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                return
            try:
                games.resign(public_id=game.public_id, user=user, expected_version=game.version)
                break
            except GameError:
                continue


def humans_of(game: Game) -> list[User]:
    return [s.user for s in game.seats.select_related("user").order_by("number") if s.user]


def test_a_nine_player_swiss_finishes_with_a_no_show_withdrawn_and_barred(beat: None) -> None:
    t = swiss(staff_user(), 4)
    people = [make_user(f"p{i}") for i in range(9)]
    for user in people:
        services.join_tournament(tournament_id=t.pk, user=user)
    first = wait_for(lambda: running(t, 1), timeout=60)
    tables = list(Table.objects.filter(round=first).select_related("game").order_by("number"))
    assert len(tables) == 3
    # The player whose decision comes first at table 1 never shows: the
    # timer (brought forward) lets it time out, and a bot takes the seat.
    absent_game = tables[0].game
    assert absent_game is not None
    deadline = absent_game.deadlines.order_by("due_at").first()
    assert deadline is not None
    absent = absent_game.seats.get(number=deadline.player).user
    assert absent is not None
    due_soon(absent_game, 0.5, pk=deadline.pk)
    wait_for(
        lambda: Entry.objects.filter(tournament=t, user=absent, status="no_show").exists(),
        timeout=60,
    )
    for table in tables:
        game = table.game
        assert game is not None
        resign_all_but_last(game, [u for u in humans_of(game) if u != absent] + [absent])
    for number in (2, 3):
        rnd = wait_for(lambda n=number: running(t, n), timeout=60)
        seated = set(Result.objects.filter(round=rnd).values_list("entry__user_id", flat=True))
        assert absent.pk not in seated and len(seated) == 8
        for table in Table.objects.filter(round=rnd).select_related("game"):
            assert table.game is not None
            resign_all_but_last(table.game, humans_of(table.game))
    wait_for(lambda: Tournament.objects.get(pk=t.pk).status == "finished", timeout=60)
    t.refresh_from_db()
    assert t.winner is not None and t.winner != absent
    assert Round.objects.filter(tournament=t).count() == 3
    entry = Entry.objects.get(tournament=t, user=absent)
    assert entry.status == Entry.Status.NO_SHOW and entry.no_shows == 1
    assert Result.objects.get(entry=entry).kind == Result.Kind.NO_SHOW
    assert Bar.objects.filter(user=absent, until__gt=timezone.now()).exists()
    assert sorted(Entry.objects.filter(tournament=t).values_list("final_rank", flat=True)) == list(
        range(1, 10)
    )


PREFIX = f"{settings.REDIS_PREFIX}-tkill"


@pytest.fixture
def kill_env(django_db_blocker: Any) -> Iterator[dict[str, str]]:
    """Workers and beat of their own on another Redis prefix, so the
    session's worker never takes the task meant for the one killed."""
    env = process_env(django_db_blocker, REDIS_PREFIX=PREFIX, **FAST)
    yield env
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = list(client.scan_iter(f"{PREFIX}*", count=500))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="reads pg_stat_activity to see the worker blocked mid-task",
)
def test_a_worker_killed_during_a_round_start_leaves_it_to_start_once(
    kill_env: dict[str, str],
) -> None:
    worker_args = ["worker", "--pool=solo", "--loglevel=INFO", "--without-mingle",
                   "--without-gossip"]  # fmt: skip
    with mock.patch("tournaments.scheduling.queue_due"):
        t = swiss(staff_user(), 60, rounds=1)
        for i in range(7):
            services.join_tournament(tournament_id=t.pk, user=make_user(f"k{i}"))
        services.close_registration(tournament_id=t.pk)
    Due.objects.filter(tournament=t, kind="close").update(done_at=timezone.now())
    Due.objects.filter(tournament=t).update(due_at=timezone.now())
    # Seven at tables of three: two tables and a bye. The round's start
    # writes the bye's entry last, after making both games: holding that
    # row stops the worker mid-start.
    bye = plan_round(t, 1).byes[0]
    beat = start_celery(kill_env, "tkill-beat", "beat", "--loglevel=INFO",
                        f"--schedule={settings.BASE_DIR / '.run' / f'tkill-beat-{os.getpid()}'}")  # fmt: skip
    first = second = None
    try:
        with transaction.atomic():
            # Held before the worker is up, so that its first sweep blocks.
            Entry.objects.select_for_update().get(pk=bye)
            first = start_celery(
                kill_env, "tkill-1", *worker_args, f"--hostname=t1-{os.getpid()}@%h"
            )
            wait_for(waiting_for_a_lock, timeout=30)
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
        assert not Round.objects.filter(tournament=t).exists()
        second = start_celery(kill_env, "tkill-2", *worker_args, f"--hostname=t2-{os.getpid()}@%h")
        wait_for(lambda: running(t, 1), timeout=60)
        # Later sweeps find the row done and start nothing more.
        done = Due.objects.get(tournament=t, kind="round")
        assert done.done_at is not None
        wait_for(lambda: Game.objects.filter(status="active").count() >= 2, timeout=30)
        assert Round.objects.filter(tournament=t).count() == 1
        assert Table.objects.filter(round__tournament=t).count() == 2
        assert Game.objects.count() == 2
        assert Result.objects.filter(round__tournament=t).count() == 7
    finally:
        for process in (first, second, beat):
            if process is not None:
                stop(process)
