"""Celery tasks: they take primary keys and the version they expect."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from games import analysis, services
from games.services import subscribers, timers


@shared_task(ignore_result=True)
def play_bot_move(game_id: int, expected_version: int) -> bool:
    """The shortcut for a bot's move at its due time; the sweep plays it from
    ``Game.auto_move_at`` if this task is lost. A stale task (the game moved
    on) does nothing, so redelivery and the sweep's copy are harmless."""
    return services.play_bot_move(game_id, expected_version)


def queued_key(game_id: int, version: int) -> str:
    return f"timers:queued:{game_id}:{version}"


# A queued (or ETA-held) expiry is not queued again by the sweep for this
# long; once a batch starts it clears the marks of the whole batch, so a
# worker killed mid-run is replaced at the next sweep, and a task lost before
# it started (held by a killed worker, or in a Redis that restarted empty)
# after this. Short, because that is how late such a decision can be; a copy
# queued while the first is merely slow finds the version moved and does
# nothing (a backlog of timeouts clears in well under a second:
# docs/benchmarks.md, "Timers").
REQUEUE_SECONDS = 5
# Overdue games are handed to the worker processes in batches of about this
# many, one task per batch (each game still its own transaction, lock and
# version check), so that a backlog is not one task per decision.
BATCH_SIZE = 20
# ETA tasks of the deadlines due within one slot are one task: it runs when
# the slot ends and hands out every overdue decision like the sweep does.
ETA_SLOT_SECONDS = 0.25


def slot_key(slot: float) -> str:
    return f"timers:slot:{slot:.2f}"


def eta_slot(due_timestamp: float) -> float:
    """The end of the slot ``due_timestamp`` falls in."""
    return math.ceil(due_timestamp / ETA_SLOT_SECONDS) * ETA_SLOT_SECONDS


def batches(
    pairs: Sequence[tuple[int, int]], size: int = BATCH_SIZE
) -> list[list[tuple[int, int]]]:
    """``pairs`` cut into even batches of at most ``size``."""
    if not pairs:
        return []
    count = math.ceil(len(pairs) / size)
    return [list(pairs[i::count]) for i in range(count)]


@shared_task(ignore_result=True)
def expire_decision(game_id: int, expected_version: int) -> bool:
    # Fired by an ETA and by the sweep, perhaps both, perhaps twice: the
    # version check inside makes every firing after the first a no-op.
    cache.delete(queued_key(game_id, expected_version))
    return timers.expire_decision(game_id, expected_version)


@shared_task(ignore_result=True)
def expire_decisions(pairs: Iterable[Sequence[int]]) -> int:
    """A batch of (game, expected version): each resolved in its own
    transaction, with its own lock and version check. Returns how many
    changed something."""
    return expire_batch([(int(game_id), int(version)) for game_id, version in pairs])


def expire_batch(pairs: list[tuple[int, int]]) -> int:
    # The marks of the whole batch go at once, in one round trip: a worker
    # killed anywhere in the batch leaves all of it to the next sweep (which
    # may also queue a game still ahead in this batch: that copy finds the
    # version moved and does nothing).
    cache.delete_many([queued_key(g, v) for g, v in pairs])
    done = 0
    with subscribers.batched():
        for game_id, version in pairs:
            done += timers.expire_one(game_id, version)
    return done


def dispatch_overdue(*, take_eta: bool, run_one: bool = False) -> int:
    """Queue the overdue decisions in batches and mark them queued.

    A mark per (game, version) holds when its expiry task will run: 0 for
    queued now, or an ETA. The sweep (``take_eta=False``) leaves a decision
    alone while a task for it is queued or its ETA has come, so a backlog is
    not queued again on every sweep; a deadline moved earlier than its ETA
    (a vacation ended early) is queued at once. The ETA slot task
    (``take_eta=True``) takes those whose ETA has come, and leaves only the
    queued ones. With ``run_one`` the caller's own process resolves one
    batch after queueing the others, which spares a task per call."""
    now = time.time()
    overdue = timers.overdue_games()
    marks = cache.get_many([queued_key(g, v) for g, v in overdue])
    todo = []
    for game_id, version in overdue:
        mark = marks.get(queued_key(game_id, version))
        if mark is not None and (mark == 0 if take_eta else mark <= now + 1):
            continue
        todo.append((game_id, version))
    queued = batches(todo, BATCH_SIZE)  # read now: a test may make it small
    own = queued.pop() if run_one and queued else None
    if queued:
        marks = {queued_key(g, v): 0 for batch in queued for g, v in batch}
        cache.set_many(marks, timeout=REQUEUE_SECONDS)
    for batch in queued:
        expire_decisions.delay(batch)
    if own is not None:
        expire_batch(own)
    return len(todo)


@shared_task(ignore_result=True)
def expire_due() -> int:
    """The ETA task of one slot: hand out what has fallen due, and resolve a
    batch of it here."""
    return dispatch_overdue(take_eta=True, run_one=True)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Beat's sweep: enqueue the overdue decisions (``dispatch_overdue``).
    (The due reminders and turn notices: ``notifications.tasks.sweep_notices``.)"""
    return dispatch_overdue(take_eta=False)


# A finished game's analysis (games.analysis). Each running one holds a slot
# in the cache, so that at most POSTGAME_CONCURRENCY worker processes analyse
# at once and the others stay free for the bots and the timers. A slot left
# by a killed worker frees itself after this long (an analysis takes about a
# minute: docs/analysis.md).
POSTGAME_SLOT_SECONDS = 600
# A game handed to the worker is not handed out again for this long.
POSTGAME_QUEUED_SECONDS = 900


def analysis_queued_key(game_id: int) -> str:
    return f"analysis:queued:{game_id}"


def _slot_keys() -> list[str]:
    return [f"analysis:slot:{i}" for i in range(settings.POSTGAME_CONCURRENCY)]


def free_analysis_slots() -> int:
    keys = _slot_keys()
    return len(keys) - len(cache.get_many(keys))


def queue_analysis(game_id: int) -> bool:
    """Hand ``game_id``'s analysis to a worker unless it was handed out lately."""
    if not cache.add(analysis_queued_key(game_id), 1, timeout=POSTGAME_QUEUED_SECONDS):
        return False
    analyse_game.delay(game_id)
    return True


@shared_task(ignore_result=True)
def analyse_game(game_id: int) -> bool:
    """Analyse a finished game and store it, once (a second run, or one at
    the same time, stores nothing). Without a free slot it leaves the game
    to a later sweep."""
    slot = next((k for k in _slot_keys() if cache.add(k, game_id, POSTGAME_SLOT_SECONDS)), None)
    if slot is None:
        cache.delete(analysis_queued_key(game_id))
        return False
    try:
        return analysis.analyse_game(game_id)
    finally:
        cache.delete(slot)


@shared_task(ignore_result=True)
def sweep_analyses() -> int:
    """Beat's sweep: hand out the most recently finished games that have no
    analysis yet, a few at a time and only while a slot is free."""
    room = min(settings.POSTGAME_PER_SWEEP, free_analysis_slots())
    if room <= 0:
        return 0
    queued = 0
    for game_id in analysis.unanalysed_games(room + 10):
        if queued >= room:
            break
        queued += queue_analysis(game_id)
    return queued
