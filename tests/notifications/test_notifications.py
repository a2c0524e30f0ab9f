"""Notices, their email and the daily digest (run in-process here; the
worker runs the same functions in tests/timers)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.core import mail
from django.core.cache import cache
from django.utils import timezone

from games import engine
from games.models import Game
from games.services import submit_action
from live import presence
from notifications import decisions, services
from notifications.models import Notification
from tests.conftest import setup_writes

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def mover(game: Game) -> Any:
    return game.seats.get(number=engine.from_dict(game.state).turn).user


def test_the_turn_notice_is_raised_once_and_emailed_only_after_the_player_stays_away(
    duel: Game, no_bot_tasks: Any
) -> None:
    assert decisions.your_turn(duel.pk) == 1
    assert decisions.your_turn(duel.pk) == 0
    (note,) = Notification.objects.filter(kind="your_turn")
    assert note.user == mover(duel) and not note.emailed and not mail.outbox
    assert note.due_at == duel.deadlines.get().due_at
    assert services.turn_emails_due() == []  # not away long enough yet
    later = note.email_due_at
    assert later is not None
    assert services.turn_emails_due(later) == [note.pk]
    with time_machine.travel(later, tick=False):
        assert decisions.turn_email(note.pk)
        assert not decisions.turn_email(note.pk)  # once per away spell
    (message,) = mail.outbox
    assert duel.public_id in message.subject and "Decide by" in message.body


def test_a_decision_made_before_its_notice_went_out_sends_nothing(
    duel: Game, no_bot_tasks: Any
) -> None:
    submit_action(
        public_id=duel.public_id,
        user=mover(duel),
        action={"kind": "roll"},
        expected_version=duel.version,
    )
    duel.refresh_from_db()
    # The roll's own decision (buy, or end the turn) is the mover's: looked
    # at a little later (by presence), not now.
    assert not duel.deadlines.filter(notice_at__lte=timezone.now()).exists()
    assert decisions.your_turn(duel.pk) == 0
    assert not mail.outbox


def test_a_lost_notice_task_is_made_up_by_the_sweep(
    duel: Game, no_bot_tasks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write marks the decision; the task queued after the commit is
    lost (a worker killed, Redis emptied); beat's sweep finds the mark."""
    from games.services import timers
    from notifications.tasks import sweep_notices

    assert timers.turn_notices_due() == [duel.pk]
    queued: list[int] = []
    monkeypatch.setattr("notifications.tasks.notify_your_turn.delay", queued.append)
    cache.delete(f"timers:notice:{duel.pk}")
    assert sweep_notices() == 1
    assert queued == [duel.pk]
    assert decisions.your_turn(duel.pk) == 1  # what the queued task runs
    assert timers.turn_notices_due() == []


def test_a_player_back_at_the_game_when_the_email_is_due_is_emailed_only_once_away_again(
    duel: Game, no_bot_tasks: Any
) -> None:
    decisions.your_turn(duel.pk)
    (note,) = Notification.objects.filter(kind="your_turn")
    seat = duel.seats.get(user=note.user).number
    page = presence.member(f"u{note.user_id}", seat, "channel-back")
    async_to_sync(presence.touch)(duel.pk, page)
    assert note.email_due_at is not None
    with time_machine.travel(note.email_due_at, tick=False):
        assert services.turn_emails_due() == [note.pk]
        async_to_sync(presence.touch)(duel.pk, page)  # still there, on the clock of then
        assert not decisions.turn_email(note.pk)
    note.refresh_from_db()
    assert not mail.outbox and not note.emailed and note.email_due_at is not None
    async_to_sync(presence.leave)(duel.pk, page)
    with time_machine.travel(note.email_due_at, tick=False):
        assert decisions.turn_email(note.pk)
    assert len(mail.outbox) == 1


def test_no_email_for_players_who_switched_it_off(duel: Game, no_bot_tasks: Any) -> None:
    user = mover(duel)
    user.email_notifications = False
    user.save()
    decisions.your_turn(duel.pk)
    note = Notification.objects.get(user=user, kind="your_turn")
    assert note.email_due_at is None and services.turn_emails_due(timezone.now() + DAY) == []


def test_the_reminder_respects_its_switch(duel: Game, no_bot_tasks: Any) -> None:
    user = mover(duel)
    user.notify_reminders = False
    user.save()
    deadline = duel.deadlines.get()
    assert not decisions.reminder(deadline.pk)
    assert not Notification.objects.filter(kind="reminder").exists()
    assert not decisions.reminder(deadline.pk)  # claimed once, never again


def test_the_digest_lists_games_awaiting_the_player_once_a_day(
    duel: Game, no_bot_tasks: Any
) -> None:
    assert decisions.digest(mover(duel))
    assert not decisions.digest(mover(duel))
    (message,) = mail.outbox
    assert duel.public_id in message.body and "left" in message.body


def test_a_player_with_nothing_pending_gets_no_digest(alice: Any) -> None:
    assert not decisions.digest(alice)


def test_hidden_in_site_notices_do_not_count(alice: Any) -> None:
    services.notify(alice.pk, None, "reminder", "x")
    assert services.unread_count(alice) == 1
    alice.notify_in_site = False
    assert services.unread_count(alice) == 0
    assert services.mark_all_read(alice) == 1


def test_the_digest_goes_out_at_the_digest_hour_of_each_players_zone(
    duel: Game, no_bot_tasks: Any, settings: Any
) -> None:
    import datetime as dt

    from notifications import tasks

    settings.DIGEST_HOUR = 8
    player = mover(duel)
    player.notify_digest = True
    player.time_zone = "Asia/Tokyo"  # UTC+9, no daylight saving
    player.save()
    utc = dt.UTC
    with time_machine.travel(dt.datetime(2026, 6, 1, 12, 0, tzinfo=utc), tick=False):
        assert tasks.send_digests() == 0  # 21:00 in Tokyo
    with time_machine.travel(dt.datetime(2026, 6, 1, 23, 10, tzinfo=utc), tick=False):
        assert tasks.send_digests() == 1  # 08:10 on 2 June in Tokyo
    with time_machine.travel(dt.datetime(2026, 6, 1, 23, 40, tzinfo=utc), tick=False):
        assert tasks.send_digests() == 0  # same local day: not again
    assert len(mail.outbox) == 1


def test_the_digest_day_is_the_players_own_calendar_day(duel: Game, no_bot_tasks: Any) -> None:
    import datetime as dt

    player = mover(duel)
    player.time_zone = "America/New_York"
    utc = dt.UTC
    # 03:00 UTC on 2 June is still 1 June in New York: one digest for 1 June.
    assert decisions.digest(player, dt.datetime(2026, 6, 1, 14, 0, tzinfo=utc))
    assert not decisions.digest(player, dt.datetime(2026, 6, 2, 3, 0, tzinfo=utc))
    assert decisions.digest(player, dt.datetime(2026, 6, 2, 14, 0, tzinfo=utc))


def test_digest_zones_are_those_at_the_digest_hour_or_catching_up_on_it() -> None:
    import datetime as dt

    now = dt.datetime(2026, 1, 15, 7, 30, tzinfo=dt.UTC)
    zones = decisions.digest_due_zones(now, 8)
    assert "Europe/Paris" in zones and "UTC" not in zones and "Asia/Tokyo" not in zones
    # 10:30 in Moscow: a digest missed at 08:00 (beat down) still goes out.
    assert "Europe/Moscow" in zones and "Asia/Dubai" not in zones  # 11:30 there


def test_a_digest_missed_in_its_hour_goes_out_later_that_morning_once(
    duel: Game, no_bot_tasks: Any, settings: Any
) -> None:
    import datetime as dt

    from notifications import tasks

    settings.DIGEST_HOUR = 8
    player = mover(duel)
    player.notify_digest = True
    player.time_zone = "UTC"
    player.save()
    with time_machine.travel(dt.datetime(2026, 6, 1, 10, 20, tzinfo=dt.UTC), tick=False):
        assert tasks.send_digests() == 1
    with time_machine.travel(dt.datetime(2026, 6, 1, 10, 35, tzinfo=dt.UTC), tick=False):
        assert tasks.send_digests() == 0
    assert len(mail.outbox) == 1


def test_a_new_notice_pushes_the_unread_count_to_open_pages_only(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from unittest import mock

    from live import groups, presence

    with mock.patch("live.groups.send") as send:
        with django_capture_on_commit_callbacks(execute=True):
            services.notify(alice.pk, None, "reminder", "no page open")
        send.assert_not_called()  # nobody to tell: no query, no render, no send
        presence.person_connected(alice.pk)
        presence.person_connected(alice.pk)  # two tabs
        presence.person_disconnected(alice.pk)
        with django_capture_on_commit_callbacks(execute=True):
            services.notify(alice.pk, None, "reminder", "one tab open")
        ((messages,),) = [c.args for c in send.call_args_list]
        ((group, message),) = messages
        assert group == groups.person_group(alice.pk)
        assert 'id="nav-notifications" hx-swap-oob="true"' in message["html"]
        assert 'aria-label="2 unread"' in message["html"]
        send.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            services.mark_all_read(alice)
        ((messages,),) = [c.args for c in send.call_args_list]
        assert "unread-count" not in messages[0][1]["html"]
        presence.person_disconnected(alice.pk)
        send.reset_mock()
        with django_capture_on_commit_callbacks(execute=True):
            services.notify(alice.pk, None, "reminder", "closed again")
        send.assert_not_called()


def test_the_nav_link_pushed_is_the_one_the_page_shows(alice: Any, client: Any) -> None:
    from notifications import live

    services.notify(alice.pk, None, "reminder", "x")
    client.force_login(alice)
    page = client.get("/lobby/").content.decode()
    assert live.nav_link_html(1, oob=False).strip() in page


def test_a_notice_of_a_game_that_ended_is_dropped_not_queued_again(
    duel: Game, no_bot_tasks: Any
) -> None:
    from games.services import timers

    with setup_writes("a game that ended"):
        Game.objects.filter(pk=duel.pk).update(status=Game.Status.ABANDONED)
    assert decisions.your_turn(duel.pk) == 0
    assert timers.turn_notices_due() == []
