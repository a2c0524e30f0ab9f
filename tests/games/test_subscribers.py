"""How the write path tells its subscribers (``games.services.subscribers``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from games.models import Game
from games.services import subscribers
from games.services.subscribers import Subscriber, announce, batched
from games.services.write import Committed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard() -> Iterator[list[tuple[str, Any]]]:
    """Only this test's subscribers, each noting what it hears."""
    saved = dict(subscribers._subscribers)
    subscribers._subscribers.clear()
    log: list[tuple[str, Any]] = []
    try:
        yield log
    finally:
        subscribers._subscribers.clear()
        subscribers._subscribers.update(saved)


def noting(log: list[tuple[str, Any]], name: str, **kwargs: Any) -> Subscriber:
    def on_commit(record: Committed) -> None:
        log.append((name, record.version))

    def before_commit(record: Committed) -> None:
        log.append((f"{name} before", record.version))

    return Subscriber(name, on_commit=on_commit, before_commit=before_commit, **kwargs)


def write(version: int) -> None:
    with transaction.atomic():
        announce(Committed(game=Game(pk=1, version=version), version=version, last_write=True))


def test_urgent_subscribers_hear_first_whatever_the_registration_order(
    heard: list[tuple[str, Any]],
) -> None:
    subscribers.subscribe(noting(heard, "scheduling"))
    subscribers.subscribe(noting(heard, "pushes", urgent=True))
    write(3)
    assert heard == [
        ("pushes before", 3),
        ("scheduling before", 3),
        ("pushes", 3),
        ("scheduling", 3),
    ]


def test_a_batch_holds_the_commits_for_batch_subscribers_until_it_ends(
    heard: list[tuple[str, Any]],
) -> None:
    def on_batch(records: list[Committed]) -> None:
        heard.append(("pushes batch", [r.version for r in records]))

    subscribers.subscribe(noting(heard, "pushes", on_commit_batch=on_batch, urgent=True))
    subscribers.subscribe(noting(heard, "scheduling"))
    with batched():
        write(1)
        write(2)
        # The others hear each commit as it happens; the batch subscriber
        # neither heard them nor prepared anything ahead of the commits.
        assert heard == [
            ("scheduling before", 1),
            ("scheduling", 1),
            ("scheduling before", 2),
            ("scheduling", 2),
        ]
    assert heard[-1] == ("pushes batch", [1, 2])
    heard.clear()
    write(3)  # after the block: one at a time again
    assert heard == [
        ("pushes before", 3),
        ("scheduling before", 3),
        ("pushes", 3),
        ("scheduling", 3),
    ]


def test_a_batch_hears_nothing_of_a_write_that_rolled_back(
    heard: list[tuple[str, Any]],
) -> None:
    batches: list[list[int]] = []
    subscribers.subscribe(
        Subscriber("pushes", on_commit_batch=lambda rs: batches.append([r.version for r in rs]))
    )
    with batched():
        write(1)
        with pytest.raises(RuntimeError), transaction.atomic():
            announce(Committed(game=Game(pk=1, version=2), version=2))
            raise RuntimeError("the move failed")
    assert batches == [[1]]


def test_the_site_pushes_before_it_schedules_or_notifies() -> None:
    names = [s.name for s in subscribers.subscribers()]
    assert names[0] == "live pushes"
    assert len(names) == len(set(names)) >= 4  # pushes, scheduling, notices, ratings
