"""Due rows, beat's sweep, recurring and site events, round notices."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from notifications.models import Notification
from tests.tournaments.services_support import (  # noqa: F401
    entered,
    event,
    play_round,
    players,
    simple_pairing,
    staff,
)
from tournaments import notices, sweep, tasks
from tournaments.models import Due, Round, Series, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("simple_pairing")]


@pytest.fixture(autouse=True)
def no_site_events(settings: Any) -> None:
    settings.TOURNAMENT_SITE_EVENTS = False


def fall_due(t: Tournament) -> None:
    """The event's start has come (as if created a while ago)."""
    t.starts_at = timezone.now() - timedelta(seconds=1)
    Tournament.objects.filter(pk=t.pk).update(starts_at=t.starts_at)
    Due.objects.filter(tournament=t).update(due_at=t.starts_at)


def test_the_sweep_closes_registration_and_starts_round_one_once(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    assert sweep.due_ids() == []
    fall_due(t)
    assert tasks.sweep_tournaments() == 2
    assert tasks.sweep_tournaments() == 0
    for due in Due.objects.filter(tournament=t):
        assert not sweep.run_due(due.pk)
    assert Round.objects.filter(tournament=t).count() == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.current_round == 1
    assert not Due.objects.filter(done_at=None).exists()


def test_a_failed_round_start_rolls_back_and_is_retried(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=2, table_min=2, table_max=2)
    entered(t, players(4))
    fall_due(t)
    start = Due.objects.get(tournament=t, kind="round")
    real = sweep.start_round
    with mock.patch.object(sweep, "start_round", side_effect=RuntimeError("worker lost")):
        assert tasks.sweep_tournaments() == 1  # registration closed; the round failed
    start.refresh_from_db()
    assert start.done_at is None and start.attempts == 1
    assert not Round.objects.exists()
    with mock.patch.object(sweep, "start_round", real):
        assert sweep.run_due(start.pk)
    assert Round.objects.filter(tournament=t).count() == 1


def test_the_next_round_is_due_at_its_planned_time_once_the_last_is_over(
    staff: User,  # noqa: F811
) -> None:
    t = event(staff, rounds=2, table_size=2, table_min=2, table_max=2, round_gap_seconds=7200)
    entered(t, players(2))
    fall_due(t)
    tasks.sweep_tournaments()
    play_round(t, 1)
    due = Due.objects.get(tournament=t, round_number=2)
    assert due.due_at == t.starts_at + timedelta(seconds=7200)
    assert sweep.due_ids() == []


def test_a_late_round_is_due_at_once(staff: User) -> None:  # noqa: F811
    t = event(staff, rounds=2, table_size=2, table_min=2, table_max=2, round_gap_seconds=0)
    entered(t, players(2))
    fall_due(t)
    tasks.sweep_tournaments()
    play_round(t, 1)
    assert sweep.due_ids() == [Due.objects.get(tournament=t, round_number=2).pk]


def test_site_series_are_made_once_and_make_their_events_once(settings: Any) -> None:
    settings.TOURNAMENT_SITE_EVENTS = True
    assert sweep.ensure_site_series() == 2
    assert sweep.ensure_site_series() == 0
    daily = Series.objects.get(key="site-daily")
    weekly = Series.objects.get(key="site-weekly")
    assert daily.next_at > timezone.now() and weekly.next_at.weekday() == 0
    Series.objects.filter(pk=daily.pk).update(next_at=timezone.now() - timedelta(minutes=1))
    made = sweep.run_series(daily.pk)
    assert made is not None and made.series == daily and made.series_slot
    assert made.starts_at > timezone.now() and made.rounds == 3 and made.cap_days == 3
    assert sweep.run_series(daily.pk) is None
    assert Tournament.objects.filter(series=daily).count() == 1
    assert Due.objects.filter(tournament=made).count() == 2
    daily.refresh_from_db()
    assert daily.next_at > timezone.now()


def test_a_recurring_event_copies_its_settings_to_the_next(staff: User) -> None:  # noqa: F811
    first = event(staff, every="daily", rounds=4, table_size=5, table_max=5)
    series = first.series
    assert series is not None
    later = series.next_at + timedelta(seconds=1)
    made = sweep.run_series(series.pk, now=later)
    assert made is not None and made.pk != first.pk
    assert (made.rounds, made.table_size, made.created_by) == (4, 5, staff)
    assert sweep.run_series(series.pk, now=later) is None


def test_round_notices_go_once_to_each_seated_player_and_bye(staff: User) -> None:  # noqa: F811
    t = event(staff, table_size=2, table_min=2, table_max=2, name="Spring cup")
    people = players(3)
    entered(t, people)
    fall_due(t)
    tasks.sweep_tournaments()
    assert notices.round_started(t.pk, 1) == 3
    assert notices.round_started(t.pk, 1) == 0
    rows = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT)
    texts = sorted(n.text for n in rows)
    assert texts == [
        "Round 1 of Spring cup starts: your table.",
        "Round 1 of Spring cup starts: your table.",
        "Round 1 of Spring cup: you have a bye.",
    ]
    bye = rows.get(text__endswith="bye.")
    assert bye.url == f"/tournaments/{t.pk}/"
    assert all(n.url.startswith("/games/") for n in rows.exclude(pk=bye.pk))
